"""A covered lens in a real browser: the camera page says so beside the picture, and the game goes on."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from support.live_server import LiveServer, live_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    frames = tmp_path_factory.mktemp("frames")
    for k in range(2):
        cv2.imwrite(str(Path(frames) / f"{k}.png"), np.zeros((480, 800, 3), np.uint8))
    with live_server(tmp_path_factory.mktemp("instance"), CAMERA=str(frames), CAMERA_INTERVAL_S=0.05) as running:
        yield running


def test_a_black_picture_is_said_on_the_camera_page(page: Any) -> None:
    page.open("/camera")
    page.until(lambda: "the picture is black" in page.text("#live-off"), "the black picture is not said")
    assert "cards can be entered by hand" in page.text("#live-off")
    assert "the picture is black" in page.text("#cam-state")
    assert page.find("#cam-state").get_attribute("data-state") == "blind"
