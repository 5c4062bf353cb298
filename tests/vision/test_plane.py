"""The table's plane: a camera at a slant seen as from straight above, from the printed markers alone.

Markers are squares lying on the table, so the warp that makes them square again is the table seen from above. A
camera that already looks straight down is read as it is, and so is a frame with too few markers to tell.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.plane import LEAST_MARKERS, MOST_PIXELS, SLANT, TablePlane, rectifying, slant, table_plane
from models.tilt import tilted

SIZE = (1280, 720)
FRAME = (0, 0, *SIZE)
CORNERS = [(40, 40), (1190, 40), (1190, 630), (40, 630), (600, 330)]
"""Where 50 px markers lie on the table drawn from straight above (their top-left corners)."""


def markers_seen(degrees: float, seed: int, count: int = 4, turn: float = 0.0) -> tuple[dict[int, np.ndarray],
                                                                                        np.ndarray]:
    """``count`` markers of a table seen by a camera tilted ``degrees`` (their corners a third of a pixel off), the
    table turned ``turn`` degrees in the frame first; and the map from the drawn table to the frame."""
    rng = np.random.default_rng(seed)
    turned = np.vstack([cv2.getRotationMatrix2D((SIZE[0] / 2, SIZE[1] / 2), turn, 0.8), [0, 0, 1]])
    matrix = tilted(SIZE, degrees) @ turned
    markers = {}
    for marker_id, (x, y) in enumerate(CORNERS[:count]):
        square = np.float32([[x, y], [x + 50, y], [x + 50, y + 50], [x, y + 50]]).reshape(-1, 1, 2)
        seen = cv2.perspectiveTransform(square, matrix).reshape(4, 2)
        markers[marker_id] = seen + rng.normal(0, 0.3, (4, 2)).astype(np.float32)
    return markers, matrix


@pytest.mark.parametrize("degrees", [20, 35, 50])
@pytest.mark.parametrize("turn", [0, 30])
def test_the_markers_make_a_tilted_table_flat_again(degrees, turn):
    markers, drawn_to_frame = markers_seen(degrees, degrees + turn, turn=turn)
    assert slant(np.linalg.inv(drawn_to_frame), FRAME) > 1.2  # the frame foreshortens cards by a fifth and more

    flat = rectifying(markers, SIZE)
    assert flat is not None
    assert slant(flat @ drawn_to_frame, FRAME) < 1.05  # the drawn table's cards keep their shape, give or take 5 %


def test_a_camera_looking_straight_down_is_read_as_it_is():
    for seed in range(5):
        markers, _ = markers_seen(0, seed, count=5)
        assert slant(rectifying(markers, SIZE), FRAME) < SLANT
        assert table_plane(markers, SIZE) is None


def test_too_few_markers_tell_no_plane():
    markers, _ = markers_seen(35, 1, count=LEAST_MARKERS - 1)
    assert rectifying(markers, SIZE) is None and table_plane(markers, SIZE) is None
    assert table_plane({}, SIZE) is None


def test_the_view_shows_the_markers_square_and_as_large_as_the_nearest():
    markers, _ = markers_seen(35, 7)
    plane = table_plane(markers, SIZE)
    assert isinstance(plane, TablePlane)
    assert plane.size[0] * plane.size[1] <= MOST_PIXELS * SIZE[0] * SIZE[1]
    sides = []
    for corners in markers.values():
        flat = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), plane.matrix).reshape(4, 2)
        edges = np.linalg.norm(flat - np.roll(flat, 1, axis=0), axis=1)
        assert edges.max() / edges.min() < 1.05  # far markers are 20 px, their corners a third of a pixel off
        assert np.all(flat >= 0) and np.all(flat < plane.size)  # in the view
        assert np.allclose(plane.to_frame(flat), corners, atol=1e-2)
        sides.append(edges.mean())
    framed = [np.linalg.norm(c - np.roll(c, 1, axis=0), axis=1).mean() for c in markers.values()]
    largest = int(np.argmax(framed))  # the nearest marker keeps its pixels; the far ones are drawn larger
    assert sides[largest] == pytest.approx(framed[largest], rel=0.01)
    assert all(side >= seen * 0.99 for side, seen in zip(sides, framed))


def test_the_view_is_the_frame_warped():
    markers, _ = markers_seen(35, 3)
    plane = table_plane(markers, SIZE)
    assert plane is not None
    frame = np.zeros((SIZE[1], SIZE[0], 3), np.uint8)
    cv2.fillConvexPoly(frame, np.round(markers[0]).astype(np.int32), (255, 255, 255))
    view = plane.view(frame)
    assert view.shape == (plane.size[1], plane.size[0], 3)
    middle = cv2.perspectiveTransform(markers[0].mean(axis=0).reshape(1, 1, 2), plane.matrix).reshape(2)
    assert view[int(middle[1]), int(middle[0])].tolist() == [255, 255, 255]
