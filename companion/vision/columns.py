"""Field columns: how many cards each column holds, which end it starts from, and its top card.

Three pure stages, each returning values: :func:`~companion.vision.strips.to_strip` warps a
column's outline into a strip both ways round, :meth:`ColumnReader.infer` runs the band
network (one onnxruntime session, made once) on all strips in one batch, and :func:`decide`
turns its per-row answers into the card tops. The tops must tile the column as cards lie: the
first at the far edge, each band between ``BAND`` card lengths, the last one card length from the
near edge (:func:`tiling`); of the two ends, the one whose best tiling the network believes more
is the far end. The top card is the strip from the last top on, mapped back into the frame.

Every card of a column shows the same design, so each covered card's band starts like the top
card: :func:`evidence` adds to the network's logits how closely the rows from each row on look
like the top card's first rows (:func:`self_similarity`), which holds for art the network never saw.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.vision.manifest import Manifest, load_manifest
from companion.vision.onnx import open_session
from companion.vision.strips import CARD_ROWS, STRIP_L, STRIP_W, strip_transform, to_strip, turned

FIRST = 0.08
"""Furthest the first card's top may lie from the column's far edge, in card lengths."""
BAND = (0.12, 0.4)
"""Shortest and longest visible band of a covered card, in card lengths."""
LAST = (0.8, 1.1)
"""Shortest and longest the top card may seem, in card lengths (the outline is a little wider than a card)."""
LOOK_ROWS = 6
"""Rows compared from each row on with the top card's first rows: about the narrowest band."""
ALIKE = 0.6
"""Correlation with the top card's first rows above which a row counts as evidence of a card top."""
ABOVE_TYPICAL = 0.1
"""A card top must also look this much more alike than the column's typical row: on a plain phone or box
lid every row looks alike, and none is evidence."""
ALIKE_WEIGHT = 8.0
"""Logits a perfect likeness adds (a row no more alike than the bar takes away nothing)."""


@dataclass(frozen=True)
class Column:
    """One column read: ``outline`` from its far end (far-left, far-right, near-right, near-left as its player
    sees them), its card ``count``, the ``top`` card's corners (TL, TR, BR, BL upright) and how sure the
    network was of the weakest card top it counted (``certainty``)."""

    outline: np.ndarray
    count: int
    top: np.ndarray
    certainty: float


def tiling(logits: np.ndarray, rows: int) -> tuple[float, list[int]]:
    """The card tops (strip rows, far end first) that tile a column of ``rows`` rows as cards lie, with the
    highest sum of the network's logits; (-inf, []) when no tiling fits."""
    low, high = round(BAND[0] * CARD_ROWS), round(BAND[1] * CARD_ROWS)
    last_low, last_high = int(rows - LAST[1] * CARD_ROWS), int(rows - LAST[0] * CARD_ROWS)
    best = np.full(rows, -np.inf)
    after = np.full(rows, -1)
    for row in range(rows - 1, -1, -1):
        tail = 0.0 if last_low <= row <= last_high else -np.inf
        lo, hi = row + low, min(rows - 1, row + high)
        if lo <= hi:
            k = int(np.argmax(best[lo:hi + 1]))
            if best[lo + k] > tail:
                tail, after[row] = float(best[lo + k]), lo + k
        best[row] = logits[row] + tail
    first = int(np.argmax(best[:max(1, int(FIRST * CARD_ROWS) + 1)]))
    if best[first] == -np.inf:
        return -np.inf, []
    tops = [first]
    while after[tops[-1]] >= 0:
        tops.append(int(after[tops[-1]]))
    return float(best[first]), tops


def self_similarity(strip: np.ndarray, rows: int, logits: np.ndarray) -> np.ndarray:
    """Per strip row, the correlation of the ``LOOK_ROWS`` rows from there on with the first rows of the top
    card, whose top is taken where the network most believes one within ``LAST`` of the near end (-1 past
    the column)."""
    found = np.full(len(logits), -1.0, np.float32)
    count = rows - LOOK_ROWS + 1
    low, high = max(int(rows - LAST[1] * CARD_ROWS), 0), min(int(rows - LAST[0] * CARD_ROWS), count - 1)
    if high < low:
        return found
    looks = np.lib.stride_tricks.sliding_window_view(strip[:rows].astype(np.float32), LOOK_ROWS, axis=0)
    looks = looks.reshape(count, -1)
    looks = looks - looks.mean(axis=1, keepdims=True)
    looks /= np.linalg.norm(looks, axis=1, keepdims=True) + 1e-3
    top = low + int(np.argmax(logits[low:high + 1]))
    found[:count] = looks @ looks[top]
    return found


def evidence(strip: np.ndarray, rows: int, logits: np.ndarray) -> np.ndarray:
    """The network's row logits with the column's likeness to its own top card added."""
    alike = self_similarity(strip, rows, logits)
    inside = alike[:max(rows - LOOK_ROWS + 1, 1)]
    return logits + ALIKE_WEIGHT * (alike - max(ALIKE, float(np.median(inside)) + ABOVE_TYPICAL))


def decide(outline: np.ndarray, rows: int, ahead: np.ndarray, back: np.ndarray) -> Column | None:
    """A column from the row evidence read from each end (``ahead`` from ``outline``'s first side, ``back``
    from the other); None when no tiling the evidence supports (a positive sum) fits either end."""
    score_ahead, tops_ahead = tiling(ahead, rows)
    score_back, tops_back = tiling(back, rows)
    if max(score_ahead, score_back) <= 0:
        return None
    if score_back > score_ahead:
        outline, tops, logits = turned(outline), tops_back, back
    else:
        tops, logits = tops_ahead, ahead
    certainty = 1.0 / (1.0 + np.exp(-float(logits[tops].min())))
    return Column(np.asarray(outline, np.float32), len(tops), top_card(outline, rows, tops[-1]), round(certainty, 4))


def top_card(outline: np.ndarray, rows: int, start: int) -> np.ndarray:
    """Corners in the frame of the card whose top edge lies at strip row ``start`` (read from ``outline``'s first
    side): one card long, or to the column's end when that is nearer."""
    end = min(float(rows), start + CARD_ROWS)
    start_row = float(max(0, min(start, end - CARD_ROWS)))
    matrix, _ = strip_transform(outline)
    corners = np.array([[0, start_row], [STRIP_W, start_row], [STRIP_W, end], [0, end]], np.float32)
    return cv2.perspectiveTransform(corners.reshape(-1, 1, 2), np.linalg.inv(matrix)).reshape(4, 2)


class ColumnReader:
    """The band network in one onnxruntime session, created once and reused."""

    def __init__(self, manifest: Manifest | None = None, threads: int = 2, directory: Path | None = None) -> None:
        self.manifest = manifest or load_manifest(directory)
        self.session = open_session(self.manifest.bands, [(None, STRIP_L)], threads, directory)

    def infer(self, strips: Sequence[np.ndarray]) -> np.ndarray:
        """Per-row logits (N, L) of a card's top edge, for uint8 strips (L, W, 3)."""
        if not strips:
            return np.empty((0, STRIP_L), np.float32)
        batch = np.stack(strips).astype(np.float32).transpose(0, 3, 1, 2) / 255.0
        return np.asarray(self.session.run(None, {"image": batch})[0])

    def read(self, frame: np.ndarray, outlines: Sequence[np.ndarray]) -> list[Column | None]:
        """Each outline's column (None where no card top shows: not a card or a column)."""
        strips, sizes = [], []
        for outline in outlines:
            ahead, rows = to_strip(frame, outline)
            strips += [ahead, to_strip(frame, turned(outline))[0]]
            sizes.append(rows)
        logits = self.infer(strips)
        found = [evidence(strip, sizes[k // 2], rows_logits)
                 for k, (strip, rows_logits) in enumerate(zip(strips, logits))]
        return [decide(outline, rows, found[2 * k], found[2 * k + 1])
                for k, (outline, rows) in enumerate(zip(outlines, sizes))]
