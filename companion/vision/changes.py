"""Where a still frame differs from one read earlier: boxes around each part that changed (a card laid on a column, a
field harvested, a bean turned over), so that the frame read as a card lands reads only those parts again
(:func:`companion.vision.sight.sight_since`).

Frames are compared at half size, slightly blurred, colour by colour. That is finer than the motion test's thumbnails
(:mod:`companion.vision.motion`): a card laid on a column of its own bean moves the column's end and the top card's
picture by one band (about 14 px at 1280 x 720), which changes no 20 x 20 px cell of a thumbnail by much. Noise and
compression change single pixels, which are opened away, and a frame blurred more than another changes thin lines
along sharp edges, which are too small to be a part; a camera bumped or its exposure stepped changes most of the
frame, and then nothing is told apart (the frame is read in full).
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from companion.vision.boxes import Box

SHRINK = 2
"""Frames are compared at 1 / ``SHRINK`` of their size."""
CHANGED = 24.0
"""Change of a colour level (0-255) of a compared pixel that counts."""
MOST = 0.25
"""Share of the compared pixels changed above which the parts are not told apart."""
JOIN = 5
"""Changed pixels this near each other (compared px) are one part: a card laid changes its rim and picture in pieces."""
SMALLEST = 100
"""Least area (compared px) of a part's box: a card laid changes more (at least a band across a card's width), and
noise on the sharp edges of a card or a printed marker (a frame blurred more than another) changes less."""

def small(frame: np.ndarray) -> np.ndarray:
    """``frame`` as it is compared: shrunk by :data:`SHRINK`, slightly blurred, its colours kept."""
    height, width = frame.shape[:2]
    shrunk = cv2.resize(frame, (max(1, width // SHRINK), max(1, height // SHRINK)), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(shrunk, (3, 3), 0)


def changed_boxes(before: np.ndarray, now: np.ndarray) -> list[Box] | None:
    """A box around each part of ``now`` that differs from ``before`` (both as :func:`small` gives them), in frame
    pixels; none where nothing changed; None where the two cannot be told apart part by part (another size, or more
    than :data:`MOST` of them changed)."""
    if before.shape != now.shape:
        return None
    change = cv2.absdiff(before, now)
    most = change if change.ndim == 2 else np.asarray(functools.reduce(cv2.max, cv2.split(change)))
    mask = cv2.morphologyEx((most > CHANGED).astype(np.uint8), cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))  # noise
    if float(mask.mean()) > MOST:
        return None
    joined = cv2.dilate(mask, np.ones((JOIN, JOIN), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    return [(int(x) * SHRINK, int(y) * SHRINK, int(x + w) * SHRINK, int(y + h) * SHRINK)
            for x, y, w, h, _ in stats[1:count] if w * h >= SMALLEST]
