"""Camera sources: a webcam's exposure is locked once it has settled, where the camera allows it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision import sources
from companion.vision.sources import SETTLE_FRAMES, OpenCVCamera, lock_exposure


class FakeWebcam:
    """A capture device as OpenCV shows it: frames, and properties it may or may not let be set."""

    def __init__(self, settable: set[int]) -> None:
        self.settable = settable
        self.props: dict[int, float] = {cv2.CAP_PROP_AUTO_EXPOSURE: 0.75, cv2.CAP_PROP_EXPOSURE: -6.0}
        self.sets: list[tuple[int, float]] = []

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return True

    def read(self) -> tuple[bool, np.ndarray]:
        return True, np.zeros((48, 64, 3), np.uint8)

    def get(self, prop: int) -> float:
        return self.props[prop]

    def set(self, prop: int, value: float) -> bool:
        self.sets.append((prop, value))
        if prop in self.settable:
            self.props[prop] = value
        return prop in self.settable

    def release(self) -> None:
        pass


def test_a_webcam_keeps_the_exposure_it_settled_on(monkeypatch: pytest.MonkeyPatch) -> None:
    device = FakeWebcam({cv2.CAP_PROP_AUTO_EXPOSURE, cv2.CAP_PROP_EXPOSURE})
    monkeypatch.setattr(sources.cv2, "VideoCapture", lambda spec: device)
    camera = OpenCVCamera("0")
    camera.open()
    for _ in range(SETTLE_FRAMES - 1):
        camera.read()
    assert camera.exposure_locked is None and device.sets == []  # automatic while it settles
    camera.read()
    assert camera.exposure_locked is True
    assert device.props == {cv2.CAP_PROP_AUTO_EXPOSURE: 0.25, cv2.CAP_PROP_EXPOSURE: -6.0}


def test_a_camera_that_keeps_its_own_exposure_is_left_alone() -> None:
    device = FakeWebcam(set())
    assert lock_exposure(device) is False  # type: ignore[arg-type]
    assert device.props[cv2.CAP_PROP_AUTO_EXPOSURE] == 0.75


def test_a_video_file_is_not_a_webcam(monkeypatch: pytest.MonkeyPatch) -> None:
    device = FakeWebcam({cv2.CAP_PROP_AUTO_EXPOSURE, cv2.CAP_PROP_EXPOSURE})
    monkeypatch.setattr(sources.cv2, "VideoCapture", lambda spec: device)
    video = OpenCVCamera("table.mp4")
    video.open()
    for _ in range(SETTLE_FRAMES + 1):
        video.read()
    assert video.exposure_locked is None and device.sets == []
