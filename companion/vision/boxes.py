"""Upright boxes of frame pixels: left, top, right and bottom (exclusive). Pure."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

Box = tuple[int, int, int, int]
"""A part of a frame: left, top, right and bottom (exclusive), in frame pixels."""


def bounds(corners: np.ndarray) -> Box:
    """The box around ``corners`` (points, in frame pixels)."""
    points = np.asarray(corners, np.float32).reshape(-1, 2)
    x0, y0 = np.floor(points.min(axis=0)).astype(int)
    x1, y1 = np.ceil(points.max(axis=0)).astype(int) + 1
    return int(x0), int(y0), int(x1), int(y1)


def grown(box: Box, by: int) -> Box:
    """``box`` grown by ``by`` px on every side."""
    return box[0] - by, box[1] - by, box[2] + by, box[3] + by


def clipped(box: Box, width: int, height: int) -> Box:
    """``box`` cut to a ``width`` x ``height`` frame."""
    return max(0, box[0]), max(0, box[1]), min(width, box[2]), min(height, box[3])


def area(box: Box) -> int:
    return (box[2] - box[0]) * (box[3] - box[1])


def meet(box: Box, other: Box) -> bool:
    """Whether two boxes share any pixel."""
    return box[0] < other[2] and other[0] < box[2] and box[1] < other[3] and other[1] < box[3]


def within(box: Box, outer: Box) -> bool:
    """Whether ``box`` lies wholly in ``outer``."""
    return outer[0] <= box[0] and outer[1] <= box[1] and box[2] <= outer[2] and box[3] <= outer[3]


def joined(boxes: Sequence[Box]) -> Box:
    """The box around ``boxes``."""
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def merged(boxes: Sequence[Box]) -> list[Box]:
    """``boxes`` with those that meet joined into one, until none meet."""
    apart: list[Box] = []
    for box in boxes:
        while (k := next((k for k, other in enumerate(apart) if meet(box, other)), None)) is not None:
            box = joined([box, apart.pop(k)])
        apart.append(box)
    return apart
