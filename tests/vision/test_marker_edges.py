"""A printed marker's corners at subpixel precision from its sides: a small far marker, as a camera at a slant sees
it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.marker_edges import refined
from companion.vision.zones import DICTIONARY
from models.game_table import paste_marker


def seen_marker(near_left: tuple[float, float], side: float, facing: float) -> tuple[np.ndarray, np.ndarray]:
    """A grey picture of marker 10 (``side`` px, its near-left corner at ``near_left``) on a wooden-brown table,
    blurred as a far marker is; and its black square's true corners (TL, TR, BR, BL)."""
    table = np.full((120, 160, 3), (60, 100, 150), np.uint8)
    paste_marker(table, 10, near_left, facing, side)
    gray = cv2.GaussianBlur(cv2.cvtColor(table, cv2.COLOR_BGR2GRAY), (0, 0), 0.8)
    # the square as paste_marker draws it: the 120 px marker inside a 20 px margin, pixel edges half a pixel out
    t = np.radians(facing)
    up, right = np.array([np.sin(t), -np.cos(t)]), np.array([np.cos(t), np.sin(t)])
    margin = side * 20 / 120
    origin = np.array(near_left, np.float64)
    face = [origin + up * (side + margin) - right * margin, origin + up * (side + margin) + right * (side + margin),
            origin - up * margin + right * (side + margin), origin - up * margin - right * margin]
    matrix = cv2.getPerspectiveTransform(np.array([[0, 0], [160, 0], [160, 160], [0, 160]], np.float32),
                                         np.array(face, np.float32))
    square = np.array([[[19.5, 19.5]], [[139.5, 19.5]], [[139.5, 139.5]], [[19.5, 139.5]]], np.float32)
    return gray, cv2.perspectiveTransform(square, matrix).reshape(4, 2)


@pytest.mark.parametrize(("near_left", "side", "facing"), [((60.3, 80.6), 24.0, 8.0), ((70.7, 85.2), 26.0, 17.0),
                                                           ((50.5, 90.1), 30.0, -33.0)])
def test_a_small_markers_corners_come_from_its_sides(near_left, side, facing):
    """Turned on the table, as markers round a table are (one lying square to the pixels is drawn with its edges on
    whole pixels: the picture itself no longer tells where they lie within one)."""
    gray, truth = seen_marker(near_left, side, facing)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICTIONARY), params)
    corners, ids, _ = detector.detectMarkers(gray)
    assert ids is not None and ids.ravel().tolist() == [10]
    found = corners[0].reshape(4, 2)
    better = refined(gray, found)
    assert np.abs(better - truth).max() < 0.25
    assert np.abs(better - truth).max() < np.abs(found - truth).max()  # ArUco's own corners are further off


def test_corners_with_no_square_under_them_are_kept():
    flat = np.full((60, 60), 128, np.uint8)
    corners = np.array([[20, 20], [40, 20], [40, 40], [20, 40]], np.float32)
    assert np.array_equal(refined(flat, corners), corners)
