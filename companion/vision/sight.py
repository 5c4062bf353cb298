"""What a frame shows before any card is named: its printed markers, and every card's or column's outline.

:func:`sight` finds them on a whole frame: the markers, then the outlines (:func:`~companion.vision.strips.outlined`)
with the markers cut out, each run on along its length (:func:`~companion.vision.lengthen.lengthened_all`).
:func:`sight_since` finds them again only around the parts of a frame that changed since an earlier one
(:func:`~companion.vision.changes.changed_boxes`), and keeps the earlier outlines that lie clear of every change:
the frame read as a card lands costs a fraction of a whole one. Pure: frames in, values out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from companion.vision.boxes import Box, area, bounds, clipped, grown, joined, meet, merged, within
from companion.vision.lengthen import BESIDE, FURTHEST, lengthened_all, outermost
from companion.vision.rectify import CARD_ASPECT
from companion.vision.strips import CUTS, MIN_AREA_SHARE, outlined, with_margin
from companion.vision.zones import find_markers

Outlines = list[tuple[np.ndarray, list[np.ndarray]]]
"""Outlines of cards and columns (4 corners, a short side first), largest first, each with its card-shaped pieces."""
NEAR = CUTS[1] + 7
"""How far (px) a change reaches the outlines found around it: edges are blurred and their gaps closed, and joins as
wide as the widest cut (:data:`~companion.vision.strips.CUTS`) are cut."""
MOST = 0.4
"""Share of the frame that the parts found again may cover at most; beyond it, the whole frame is looked at."""
EDGE_PX = 3
"""How near (px) an outline may come to a side of its part (not the frame's) and be whole."""


@dataclass(frozen=True)
class Sight:
    """A frame's printed markers found (id -> 4 corners) and its outlines, each run on along its length."""

    markers: dict[int, np.ndarray]
    outlines: Outlines


def sight(frame: np.ndarray) -> Sight:
    """The markers and outlines of the whole of ``frame``."""
    markers = find_markers(frame)
    cut = tuple(markers.values())
    return Sight(markers, lengthened_all(frame, outlined(frame, cut), cut))


def sight_since(frame: np.ndarray, earlier: Sight, changed: Sequence[Box]) -> Sight | None:
    """``frame``'s sight, found again only around the parts that ``changed`` since the frame of ``earlier`` (the same
    camera, which did not move: :func:`parts_to_read`); None where the whole frame must be looked at (see there, and
    where an outline found in a part meets a change or an outline found again, and runs out of the part). Of what a
    part shows, the outlines wholly inside it that meet a change or an outline found again are taken; the earlier
    outlines left alone are kept."""
    height, width = frame.shape[:2]
    parts = parts_to_read(earlier, changed, width, height)
    if parts is None:
        return None
    if not parts.boxes:
        return earlier
    markers = {i: c for i, c in earlier.markers.items() if not any(within(bounds(c), box) for box in parts.boxes)}
    for x0, y0, x1, y1 in parts.boxes:
        markers.update({i: c + np.array([x0, y0], np.float32) for i, c in find_markers(frame[y0:y1, x0:x1]).items()})
    cut = tuple(markers.values())
    meeting = parts.near + list(parts.again.values())
    new = []
    for x0, y0, x1, y1 in parts.boxes:
        shift = np.array([x0, y0], np.float32)
        for outline, pieces in outlined(frame[y0:y1, x0:x1], [c - shift for c in cut], MIN_AREA_SHARE * width * height):
            box = bounds(outline + shift)
            if not any(meet(box, other) for other in meeting):
                continue
            if not _whole(box, (x0, y0, x1, y1), width, height):
                return None
            new.append((outline + shift, [piece + shift for piece in pieces]))
    kept = [outline for k, outline in enumerate(earlier.outlines) if k not in parts.again]
    return Sight(markers, outermost(kept + lengthened_all(frame, new, cut)))


@dataclass(frozen=True)
class Parts:
    """Where a frame is looked at again: its changes grown by :data:`NEAR`, the earlier outlines they come near (by
    index, each with its box), and boxes around both (none where nothing changed)."""

    near: list[Box]
    again: dict[int, Box]
    boxes: list[Box]


def parts_to_read(earlier: Sight, changed: Sequence[Box], width: int, height: int) -> Parts | None:
    """The parts of a ``width`` x ``height`` frame to look at again where it ``changed`` since ``earlier``; None where
    the whole frame must be: no earlier outline tells a card's size, or the parts cover more than :data:`MOST` of it.

    A change within a printed marker found earlier (with its white margin) is its sharp edges blurred otherwise (a
    card laid over the marker changes more). An earlier outline is found again where a change comes near what it was
    found from: its outline, the table it looked at beside it and beyond its ends as it ran on, and :data:`NEAR`.
    Each part takes in a change and the earlier outlines it comes near, and :data:`NEAR` around them."""
    printed = [bounds(with_margin(marker)) for marker in earlier.markers.values()]
    near = [grown(box, NEAR) for box in changed if not any(within(box, marker) for marker in printed)]
    if not near:
        return Parts([], {}, [])
    if not earlier.outlines:
        return None
    card = float(np.median([np.linalg.norm(quad[1] - quad[0]) for quad, _ in earlier.outlines])) / CARD_ASPECT
    reaches = [bounds(_reach(quad, card)) for quad, _ in earlier.outlines]
    again = {k: bounds(earlier.outlines[k][0]) for k, reach in enumerate(reaches) if any(meet(reach, b) for b in near)}
    boxes = merged([clipped(grown(joined([box, *[again[k] for k in again if meet(reaches[k], box)]]), NEAR),
                            width, height) for box in near])
    if sum(area(box) for box in boxes) > MOST * width * height:
        return None
    return Parts(near, again, boxes)


def _reach(quad: np.ndarray, card: float) -> np.ndarray:
    """The corners of what an outline was found from: itself, the table beside it, and beyond each end as far as it
    looked to run on (:mod:`~companion.vision.lengthen`)."""
    corners = np.asarray(quad, np.float32)
    across = (corners[1] - corners[0]) * BESIDE
    middle = (corners[2] + corners[3]) / 2 - (corners[0] + corners[1]) / 2
    along = middle / max(float(np.linalg.norm(middle)), 1e-6) * FURTHEST * card
    return np.array([corners[0] - along - across, corners[1] - along + across, corners[2] + along + across,
                     corners[3] + along - across], np.float32)


def _whole(box: Box, part: Box, width: int, height: int) -> bool:
    """Whether an outline's box lies inside its part, at least :data:`EDGE_PX` from each of its sides that is not the
    frame's."""
    x0, y0, x1, y1 = part
    return ((x0 == 0 or box[0] >= x0 + EDGE_PX) and (y0 == 0 or box[1] >= y0 + EDGE_PX)
            and (x1 == width or box[2] <= x1 - EDGE_PX) and (y1 == height or box[3] <= y1 - EDGE_PX))
