"""A column's outline runs on along its length where its edges broke off, and not into a shadow, a glare spot or
a printed marker (companion/vision/lengthen.py). Geometry only, on rendered tables; one end-to-end count."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.columns import ColumnReader
from companion.vision.lengthen import lengthened, lengthened_all
from companion.vision.strips import find_outlines
from models.evaluate_columns import render_table
from models.fields import LaidField, lay_field
from models.render import house_design, render_face, unseen_deck
from models.tabletop import wooden_table


def laid_column(seed: int, count: int = 6, bean: str = "blue") -> tuple[np.ndarray, LaidField]:
    """A wooden table with one column of ``count`` cards running down the frame, its far end at the top."""
    rng = np.random.default_rng(seed)
    frame = wooden_table(rng, (640, 480))
    laid = lay_field(frame, render_face(house_design(bean)), bean, count, (320, 60), 100, 0, rng)
    return frame, laid


def cut(outline: np.ndarray, near: float, far: float) -> np.ndarray:
    """``outline`` with its near end moved in by ``near`` of its length and its far end by ``far``."""
    quad = np.asarray(outline, np.float32).copy()
    along = (quad[3] - quad[0] + quad[2] - quad[1]) / 2
    quad[[2, 3]] -= near * along
    quad[[0, 1]] += far * along
    return quad


def worst_corner(found: np.ndarray, true: np.ndarray) -> float:
    return max(float(np.min(np.linalg.norm(found - corner, axis=1))) for corner in true)


@pytest.mark.parametrize(("near", "far"), [(0.35, 0.0), (0.0, 0.3), (0.2, 0.2)])
def test_an_outline_cut_short_runs_on_to_the_column_ends(near, far):
    frame, laid = laid_column(1)
    (outline,) = find_outlines(frame)
    assert worst_corner(outline, laid.outline) < 5.0
    short = cut(outline, near, far)
    assert worst_corner(short, laid.outline) > 30.0
    assert worst_corner(lengthened(frame, short), laid.outline) < 6.0


def test_an_outline_at_the_column_ends_stays_as_it_is():
    frame, _ = laid_column(2)
    (outline,) = find_outlines(frame)
    assert np.abs(lengthened(frame, outline) - outline).max() < 1e-3


def test_a_shadow_beyond_the_end_over_one_side_is_not_the_column():
    """A hand's shadow falls beyond the column's near end and over the table on one side of it: the middle differs
    from the lit table on the other side, but not from the shadowed side."""
    frame, laid = laid_column(3)
    (outline,) = find_outlines(frame)
    near_left, near_right = outline[3], outline[2]
    across = near_right - near_left
    shade = np.array([near_left - 0.6 * across, near_right + 0.2 * across,
                      near_right + 0.2 * across + (0, 120), near_left - 0.6 * across + (0, 120)], np.int32)
    mask = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, shade, 255)
    mask[:int(max(near_left[1], near_right[1])) + 2] = 0  # the shadow lies beyond the column, not on it
    shadowed = frame.copy()
    shadowed[mask > 0] = (shadowed[mask > 0] * 0.55).astype(np.uint8)
    assert np.abs(lengthened(shadowed, outline) - outline).max() < 1e-3


def test_a_glare_spot_at_the_end_is_not_the_column():
    """A lamp's reflection the size of a coin just beyond the near end: too short to be a missing card."""
    frame, _ = laid_column(4)
    (outline,) = find_outlines(frame)
    middle = (outline[2] + outline[3]) / 2
    cv2.circle(frame, (int(middle[0]), int(middle[1]) + 9), 9, (250, 250, 250), -1)
    assert np.abs(lengthened(frame, outline) - outline).max() < 1e-3


def test_the_rest_of_a_column_broken_in_two_is_taken_into_the_longer_part():
    frame, laid = laid_column(5, count=9, bean="chili")
    (outline,) = find_outlines(frame)
    longer, rest = cut(outline, 0.3, 0.0), cut(outline, 0.0, 0.75)  # the top card's part outlined on its own
    (whole, _), = lengthened_all(frame, [(longer, "longer"), (rest, "rest")])
    assert worst_corner(whole, laid.outline) < 6.0


def test_an_outline_that_would_run_on_over_a_printed_marker_stays_as_found():
    frame, laid = laid_column(6)
    (outline,) = find_outlines(frame)
    short = cut(outline, 0.35, 0.0)
    x, y = ((outline[2] + outline[3]) / 2 + (short[2] + short[3]) / 2) / 2  # the middle of the part cut off
    marker = np.array([[x - 15, y - 15], [x + 15, y - 15], [x + 15, y + 15], [x - 15, y + 15]], np.float32)
    assert worst_corner(lengthened_all(frame, [(short, None)])[0][0], laid.outline) < 6.0
    (kept, _), = lengthened_all(frame, [(short, None)], [marker])
    assert np.abs(kept - short).max() < 1e-3


def test_a_twelve_card_column_whose_sides_fade_is_counted_whole(classifier):  # noqa: ANN001
    """A development table (models/BAND_MODEL_CARD.md, session 38) of the unseen style: a bent column of 12 red cards
    on dark wood, whose outline stops two cards short of its top card. Run on, it is counted 12."""
    frame, fields = render_table(38302442, unseen_deck(38302442))
    column = fields[0]
    centre = column.outline.mean(axis=0)
    width = float(np.linalg.norm(column.outline[1] - column.outline[0]))
    (found,) = [o for o in find_outlines(frame) if np.linalg.norm(o.mean(axis=0) - centre) < width]
    assert worst_corner(found, column.outline) > 50.0
    outline = lengthened(frame, found)
    assert worst_corner(outline, column.outline) < 10.0
    (read,) = ColumnReader(classifier.manifest).read(frame, [outline])
    assert read is not None and read.count == 12
