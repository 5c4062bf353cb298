"""Column outlines run on along their length where their edges broke off.

A long column's sides lose their edges where its cards differ little from the table (olive on tan
wood, red on dark wood), or where it bends as players lay cards a little askew, and its outline then
stops short of its top card or its first cards; the part left over is no card-shaped outline of its
own. Beyond each end of an outline, a row of the column's width is still the column where much of
its middle differs from the table on both sides of it (so a shadow or a glare spot falling across
one side is not) and one of the column's sides shows a colour step there, or where both of them do
(a picture in the cards' middle may look like the table). Pure: frames in, values out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import cv2
import numpy as np

from companion.vision.rectify import CARD_ASPECT
from companion.vision.strips import inside

FURTHEST = 1.3
"""Furthest an outline is looked beyond at each end in one round, in card lengths (a top card and a band)."""
ROUNDS = 3
"""Rounds of looking further where the last round ran on to its furthest."""
SHORTEST = 0.25
"""Least run-on that counts, in card lengths: less is a cast shadow or a glare spot at the column's end, or the
outline's own rounding. (The parts left out on the development tables were 0.6-1.3 card lengths; at 0.15 a glare spot
and the coloured end of a lone card were taken in, and 0.2 counted one column more of 320 on the tuning tables.)"""
BESIDE = 0.4
"""Table looked at beside the column, each side, as a share of its width; the outer half of it is the table's."""
INSET = 0.15
"""Share of the width left out at each side of a row's middle (a column bends a little)."""
DIFFERS = 20.0
"""Lab distance (OpenCV's 8-bit scale) from the table's colour beside a row at which a pixel differs from it."""
DIFFERING = 0.4
"""Least share of a row's middle that differs from the table on each side for the row to be the column's."""
SIDE_PX = 5
"""How far (px) either way of an outline's side its colour step is looked for."""
SIDE_STEP = 15.0
"""Least Lab distance across 4 px that makes a colour step at a side."""
SMOOTH = 5
"""Rows over which a row's verdict is smoothed: 4 of them must be the column's."""
GAP = 6
"""Rows not the column's that end it."""

Kept = TypeVar("Kept")


def lengthened_all(frame: np.ndarray, found: Sequence[tuple[np.ndarray, Kept]],
                   markers: Sequence[np.ndarray] = ()) -> list[tuple[np.ndarray, Kept]]:
    """Each outline (with what goes with it) run on along its length (:func:`lengthened`), largest first, without
    those whose middle lies in a larger one (the rest of a column whose edges broke in two); an outline that would
    run on over a printed marker (``markers``: each one's corners) stays as found."""
    centres = [np.asarray(m, np.float32).reshape(4, 2).mean(axis=0) for m in markers]
    longer = []
    for outline, kept_with in found:
        grown = lengthened(frame, outline)
        over = any(inside(c, [grown]) for c in centres)
        longer.append((np.asarray(outline, np.float32) if over else grown, kept_with))
    return outermost(longer)


def outermost(found: Sequence[tuple[np.ndarray, Kept]]) -> list[tuple[np.ndarray, Kept]]:
    """The outlines (with what goes with them), largest first, without those whose middle lies in a larger one."""
    kept: list[tuple[np.ndarray, Kept]] = []
    for quad, kept_with in sorted(found, key=lambda item: -cv2.contourArea(item[0])):
        if not inside(quad.mean(axis=0), [other for other, _ in kept]):
            kept.append((quad, kept_with))
    return kept


def lengthened(frame: np.ndarray, outline: np.ndarray) -> np.ndarray:
    """``outline`` (4 corners, a short side first) with each short side moved out as far as the column runs on."""
    quad = np.asarray(outline, np.float32).copy()
    for _ in range(ROUNDS):
        width = float(np.linalg.norm(quad[1] - quad[0]))
        across = (quad[1] - quad[0]) / max(width, 1e-6)
        middle = (quad[2] + quad[3]) / 2 - (quad[0] + quad[1]) / 2
        along = middle / max(float(np.linalg.norm(middle)), 1e-6)
        card = width / CARD_ASPECT
        near = run_on(frame, quad[3], quad[2], along, across, card)
        far = run_on(frame, quad[0], quad[1], -along, across, card)
        quad[[2, 3]] += near * along
        quad[[0, 1]] -= far * along
        if max(near, far) < FURTHEST * card - GAP:
            break
    return quad


def run_on(frame: np.ndarray, left: np.ndarray, right: np.ndarray, along: np.ndarray, across: np.ndarray,
           card: float) -> float:
    """How far (px) a column runs on beyond its end ``left`` -> ``right`` (``along``: away from the column; ``card``:
    a card's length in px), if at least :data:`SHORTEST` of a card; else 0. A short look first settles most ends."""
    shortest = SHORTEST * card
    if _rows_on(frame, left, right, along, across, shortest + GAP) < shortest:
        return 0.0
    return float(_rows_on(frame, left, right, along, across, FURTHEST * card))


def _rows_on(frame: np.ndarray, left: np.ndarray, right: np.ndarray, along: np.ndarray, across: np.ndarray,
             length: float) -> int:
    """Rows (px, up to ``length``) beyond the end ``left`` -> ``right`` that are still the column's, up to the first
    :data:`GAP` rows that are not."""
    width = float(np.linalg.norm(right - left))
    beside = BESIDE * width
    size = (int(round(width + 2 * beside)), max(1, int(round(length))))
    source = np.array([left - beside * across, right + beside * across, right + beside * across + length * along],
                      np.float32)
    target = np.array([[0, 0], [size[0], 0], [size[0], size[1]]], np.float32)
    region = cv2.warpAffine(frame, cv2.getAffineTransform(source, target), size, flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE)
    lab = cv2.cvtColor(region, cv2.COLOR_BGR2LAB).astype(np.float32)
    table = max(1, int(round(beside / 2)))
    inner = lab[:, int(round(beside + INSET * width)):int(round(beside + (1 - INSET) * width))]
    differing = np.minimum(*[_share_differing(inner, np.median(side, axis=1))
                             for side in (lab[:, :table], lab[:, size[0] - table:])])
    step_left, step_right = (_step_near(lab, int(round(x))) > SIDE_STEP for x in (beside, beside + width))
    own = ((differing >= DIFFERING) & (step_left | step_right)) | (step_left & step_right)
    column = np.convolve(own, np.ones(SMOOTH), "same") >= SMOOTH - 1
    ended = np.flatnonzero(np.convolve(~column, np.ones(GAP), "valid") >= GAP)
    last = int(ended[0]) if len(ended) else len(column)  # rows before the first gap
    kept = np.flatnonzero(column[:last])
    return int(kept[-1]) + 1 if len(kept) else 0


def _share_differing(inner: np.ndarray, tone: np.ndarray) -> np.ndarray:
    """Per row, the share of ``inner``'s pixels further than :data:`DIFFERS` from that row's ``tone``."""
    apart = inner - tone[:, None]
    return np.asarray((np.einsum("rcx,rcx->rc", apart, apart) > DIFFERS ** 2).mean(axis=1))


def _step_near(lab: np.ndarray, x: int) -> np.ndarray:
    """Per row, the largest colour step across 4 px within :data:`SIDE_PX` of column ``x``."""
    low, high = max(0, x - SIDE_PX - 2), min(lab.shape[1], x + SIDE_PX + 3)
    window = lab[:, low:high]
    if window.shape[1] <= 4:
        return np.zeros(len(lab), np.float32)
    apart = window[:, 4:] - window[:, :-4]
    return np.asarray(np.sqrt(np.einsum("rcx,rcx->rc", apart, apart).max(axis=1)))

