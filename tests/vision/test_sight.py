"""Looking again only where a table changed: the parts of a frame that changed since the table last lay still, and
the outlines found in them beside those kept from before.

A table drawn from one seed is the same wood with each field's cards where they lay, so two drawings differ only
where a card was laid, taken away or turned over, as two frames of a real table do.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.changes import SHRINK, changed_boxes, small
from companion.vision.sight import MOST, Sight, parts_to_read, sight, sight_since
from companion.vision.zones import DICTIONARY, FIELDS_ID, MARKER_IDS, find_markers
from models.camera import sensor
from models.game_table import draw_table
from models.render import house_design, render_face
from models.tabletop import card_quad, paste_card, wooden_table

BEANS = ("soy", "red", "blue", "chili", "stink")
FIELDS = {0: [("soy", 3), ("red", 1)], 1: [("blue", 5)], 2: [("chili", 2), ("stink", 4)]}


def faces() -> dict[str, np.ndarray]:
    return {bean: render_face(house_design(bean)) for bean in BEANS}


def with_field(seat: int, slot: int, bean: str, count: int) -> dict[int, list[tuple[str, int]]]:
    fields = {s: list(columns) for s, columns in FIELDS.items()}
    if count:
        fields[seat][slot] = (bean, count)
    else:
        del fields[seat][slot]
    return fields


def same_outlines(one: Sight, other: Sight, px: float = 2.0) -> bool:
    """Whether two sights hold the same outlines, each corner within ``px``."""
    def near(quad: np.ndarray, other_quad: np.ndarray) -> bool:
        return float(np.abs(np.sort(quad, axis=0) - np.sort(other_quad, axis=0)).max()) <= px
    return len(one.outlines) == len(other.outlines) and all(
        any(near(quad, other_quad) for other_quad, _ in other.outlines) for quad, _ in one.outlines)


def test_a_card_laid_on_a_column_of_its_own_bean_is_one_change_around_it():
    drawn = faces()
    before = draw_table(FIELDS, ["red"], drawn, 5)
    after = draw_table(with_field(1, 0, "blue", 6), ["red"], drawn, 5)

    (box,) = changed_boxes(small(before), small(after))
    moved = np.argwhere(np.abs(after.astype(int) - before.astype(int)).max(axis=2) > 40)
    (top, left), (bottom, right) = moved.min(axis=0), moved.max(axis=0)
    assert box[0] <= left + SHRINK and box[1] <= top + SHRINK and box[2] >= right - SHRINK and box[3] >= bottom - SHRINK
    assert (box[2] - box[0]) * (box[3] - box[1]) < 0.05 * before.shape[0] * before.shape[1]
    assert changed_boxes(small(before), small(before)) == []


def test_noise_and_a_stepped_exposure_are_no_parts():
    """Two frames of one still table, each with its own sensor noise, blur and compression: what differs lies on the
    printed markers' sharp edges, which are no change to look at again. A camera whose exposure stepped changes the
    whole frame: no part is told apart."""
    table = draw_table(FIELDS, ["red"], faces(), 5)
    one, two = (sensor(table, np.random.default_rng(k)) for k in (1, 2))
    earlier = sight(one)
    boxes = changed_boxes(small(one), small(two))
    assert boxes is not None
    assert parts_to_read(earlier, boxes, table.shape[1], table.shape[0]).boxes == []
    assert sight_since(two, earlier, boxes) is earlier
    assert changed_boxes(small(one), small(cv2.convertScaleAbs(one, alpha=0.6))) is None


def test_a_card_laid_is_found_as_the_whole_frame_finds_it():
    drawn = faces()
    before = draw_table(FIELDS, ["red"], drawn, 5)
    earlier = sight(before)
    for fields in (with_field(1, 0, "blue", 6), with_field(2, 1, "stink", 5), with_field(0, 1, "red", 2)):
        after = draw_table(fields, ["red"], drawn, 5)
        boxes = changed_boxes(small(before), small(after))
        parts = parts_to_read(earlier, boxes, after.shape[1], after.shape[0])
        assert 0 < sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in parts.boxes) < 0.2 * after.size / 3
        again = sight_since(after, earlier, boxes)
        assert again is not None and same_outlines(again, sight(after))
        assert sorted(again.markers) == sorted(earlier.markers)


def test_a_field_harvested_is_gone_and_the_others_stay():
    drawn = faces()
    before = draw_table(FIELDS, ["red"], drawn, 5)
    after = draw_table(with_field(2, 0, "chili", 0), ["red"], drawn, 5)
    earlier = sight(before)
    again = sight_since(after, earlier, changed_boxes(small(before), small(after)))
    assert again is not None and same_outlines(again, sight(after))
    assert len(again.outlines) == len(earlier.outlines) - 1
    kept = [quad for quad, _ in again.outlines if any(quad is old for old, _ in earlier.outlines)]
    assert len(kept) >= len(earlier.outlines) - 3  # the outlines far from the harvest are not looked for again


def test_a_card_laid_over_a_printed_marker_hides_it():
    drawn = faces()
    before = draw_table(FIELDS, ["red"], drawn, 5)
    marker = find_markers(before)[FIELDS_ID + 1]
    after = before.copy()
    corners = (marker.mean(axis=0) + (marker - marker.mean(axis=0)) * 1.6).astype(np.int32)
    cv2.fillConvexPoly(after, corners, (200, 220, 230))
    earlier = sight(before)
    again = sight_since(after, earlier, changed_boxes(small(before), small(after)))
    assert again is not None and FIELDS_ID + 1 in earlier.markers and FIELDS_ID + 1 not in again.markers
    assert sorted(again.markers) == sorted(find_markers(after))


def test_the_whole_frame_is_looked_at_where_parts_cannot_tell():
    drawn = faces()
    before = draw_table(FIELDS, ["red"], drawn, 5)
    after = draw_table(with_field(1, 0, "blue", 6), ["red"], drawn, 5)
    boxes = changed_boxes(small(before), small(after))
    height, width = after.shape[:2]
    assert parts_to_read(Sight({}, []), boxes, width, height) is None  # no earlier card tells a card's size
    everywhere = [(0, 0, width // 2, height // 2), (width // 2, height // 2, width, height)]
    assert MOST < 0.5 and parts_to_read(sight(before), everywhere, width, height) is None
    # told only of the far end of a column that was not there before: the column found runs out of its part
    bare = draw_table(with_field(1, 0, "blue", 0), ["red"], drawn, 5)
    (x0, y0, x1, y1), = changed_boxes(small(bare), small(after))
    end = (x0, y0, x1, y0 + 12) if y1 - y0 > x1 - x0 else (x0, y0, x0 + 12, y1)
    assert sight_since(after, sight(bare), [end]) is None


def test_a_card_whose_art_reads_as_a_marker_the_companion_never_prints_is_still_a_card():
    """A development table's unseen-style soy card (column evaluation, seed 38302370) drew a pattern the detector read
    as marker 17: the card was cut out of the table as a marker, and never outlined. Only the ids the companion prints
    are markers."""
    face = render_face(house_design("soy")).copy()
    art = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(DICTIONARY), 17, 80)
    face[84:164, 40:120] = art[..., None]
    frame = wooden_table(np.random.default_rng(3), (640, 480))
    paste_card(frame, face, card_quad((320, 240), 200, 10))
    _, ids, _ = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICTIONARY)).detectMarkers(
        cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    assert ids is not None and 17 in ids.ravel() and 17 not in MARKER_IDS  # the detector reads the art as one
    assert find_markers(frame) == {}
    (outline, _), = sight(frame).outlines
    assert abs(cv2.contourArea(outline) - cv2.contourArea(card_quad((320, 240), 200, 10))) < 0.1 * 200 * 129
