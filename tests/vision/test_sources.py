"""Camera sources: a webcam is asked for the frame size the referee is measured at, and its exposure, white balance and
focus are locked once they have settled, where the camera allows it; a wider picture is read at that width."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision import sources
from companion.vision.sources import FRAME_SIZE, SETTLE_FRAMES, OpenCVCamera, lock_settings, smaller_than_asked
from models.tabletop import wooden_table


class FakeWebcam:
    """A capture device as OpenCV shows it: frames, and properties it may or may not let be set."""

    def __init__(self, settable: set[int]) -> None:
        self.settable = settable
        self.props: dict[int, float] = {cv2.CAP_PROP_AUTO_EXPOSURE: 0.75, cv2.CAP_PROP_EXPOSURE: -6.0,
                                        cv2.CAP_PROP_AUTO_WB: 1.0, cv2.CAP_PROP_AUTOFOCUS: 1.0}
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


EVERYTHING = {cv2.CAP_PROP_AUTO_EXPOSURE, cv2.CAP_PROP_EXPOSURE, cv2.CAP_PROP_AUTO_WB, cv2.CAP_PROP_AUTOFOCUS}


def test_a_webcam_keeps_the_exposure_white_balance_and_focus_it_settled_on(monkeypatch: pytest.MonkeyPatch) -> None:
    device = FakeWebcam(EVERYTHING)
    monkeypatch.setattr(sources.cv2, "VideoCapture", lambda spec: device)
    camera = OpenCVCamera("0")
    camera.open()
    asked = list(device.sets)
    for _ in range(SETTLE_FRAMES - 1):
        camera.read()
    assert camera.locked is None and device.sets == asked  # automatic while it settles
    camera.read()
    assert camera.locked == ("exposure", "white balance", "focus")
    assert device.props == {cv2.CAP_PROP_AUTO_EXPOSURE: 0.25, cv2.CAP_PROP_EXPOSURE: -6.0, cv2.CAP_PROP_AUTO_WB: 0.0,
                            cv2.CAP_PROP_AUTOFOCUS: 0.0}
    assert not {prop for prop, _ in device.sets} & {cv2.CAP_PROP_WB_TEMPERATURE, cv2.CAP_PROP_FOCUS}  # kept, not set


def test_a_camera_is_locked_only_in_what_it_allows() -> None:
    device = FakeWebcam(set())
    assert lock_settings(device) == ()  # type: ignore[arg-type]
    assert device.props[cv2.CAP_PROP_AUTO_EXPOSURE] == 0.75
    fixed_focus = FakeWebcam(EVERYTHING - {cv2.CAP_PROP_AUTOFOCUS})
    assert lock_settings(fixed_focus) == ("exposure", "white balance")  # type: ignore[arg-type]


def test_a_video_file_is_not_a_webcam(monkeypatch: pytest.MonkeyPatch) -> None:
    device = FakeWebcam(EVERYTHING)
    monkeypatch.setattr(sources.cv2, "VideoCapture", lambda spec: device)
    video = OpenCVCamera("table.mp4")
    video.open()
    for _ in range(SETTLE_FRAMES + 1):
        video.read()
    assert video.locked is None and device.sets == []


def test_a_webcam_is_asked_for_the_size_the_referee_is_measured_at(monkeypatch: pytest.MonkeyPatch) -> None:
    device = FakeWebcam(set())
    monkeypatch.setattr(sources.cv2, "VideoCapture", lambda spec: device)
    OpenCVCamera("1").open()
    assert device.sets == [(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG")),  # compressed: 30 a second on USB 2
                           (cv2.CAP_PROP_FRAME_WIDTH, 1280), (cv2.CAP_PROP_FRAME_HEIGHT, 720)]


def video(path: Path, size: tuple[int, int]) -> Path:
    """A real video file (MJPG) of 3 frames of a wooden table, ``size`` = (width, height)."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 30, size)
    assert writer.isOpened()
    rng = np.random.default_rng(1)
    for _ in range(3):
        writer.write(wooden_table(rng, size))
    writer.release()
    return path


@pytest.mark.parametrize(("size", "read_at"), [((1920, 1080), FRAME_SIZE), ((1280, 720), FRAME_SIZE),
                                               ((640, 480), (640, 480))])
def test_a_picture_is_read_at_the_measured_width_at_most(tmp_path: Path, size: tuple[int, int],
                                                         read_at: tuple[int, int]) -> None:
    camera = OpenCVCamera(str(video(tmp_path / "table.avi", size)), loop=False)
    camera.open()
    try:
        assert camera.read().shape == (read_at[1], read_at[0], 3)
    finally:
        camera.close()


def test_a_picture_smaller_than_asked_is_said() -> None:
    assert smaller_than_asked(np.zeros((720, 1280, 3), np.uint8)) is None
    assert smaller_than_asked(np.zeros((480, 640, 3), np.uint8)) == (
        "its picture is 640 x 480, and far cards are read less surely than at 1280 x 720 (does the camera give more?)")
