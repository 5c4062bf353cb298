"""A closer look at each likely card top of a column's strip, at twice the strip's resolution.

The band network reads a strip 32 pixels wide, where a card is about 50 rows long: a card top's thin
shadow and the straight edge where it cuts the card below are a row or less there, and a design's own
lines (a grid, a row of coins ending, an arc) can look alike. At every row where the band network's
logit peaks above :data:`CANDIDATE_FLOOR`, the top checker (``top_check.onnx``) reads the frame
around that row at twice the strip's resolution and gives its own logit that a card's top edge lies
there; :data:`WEIGHT` times it is added to the band network's. Three pure stages (:func:`candidates`,
:func:`patches`, :meth:`TopChecker.infer`) and one onnxruntime session, made once.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from companion.vision.manifest import Manifest, load_manifest
from companion.vision.onnx import open_session
from companion.vision.preprocess import to_input
from companion.vision.strips import STRIP_W, strip_transform

CANDIDATE_FLOOR = -1.0
"""Least band network logit of a row peak that is looked at again."""
HALF_ROWS = 12
"""Strip rows read either side of a likely card top: about a band and a half of a card 50 rows long."""
SCALE = 2
"""Patch pixels per strip pixel: a card 85 to 120 frame pixels long is read at about its own resolution."""
PATCH_W, PATCH_H = STRIP_W * SCALE, 2 * HALF_ROWS * SCALE
WEIGHT = 0.5
"""Share of the checker's logit added to the band network's."""
CLIP = 6.0
"""Largest size of the checker's logit taken (either sign): one look does not overrule everything else."""


def candidates(logits: np.ndarray, rows: int) -> np.ndarray:
    """The rows (inside the strip's first ``rows``, not its first or last) where ``logits`` peak above the floor."""
    inner = np.asarray(logits[:rows], np.float32)
    if len(inner) < 3:
        return np.empty(0, int)
    mid = inner[1:-1]
    peaks = (mid >= inner[:-2]) & (mid >= inner[2:]) & (mid > CANDIDATE_FLOOR)
    return np.flatnonzero(peaks) + 1


def patches(frame: np.ndarray, outline: np.ndarray, at: Sequence[int] | np.ndarray) -> np.ndarray:
    """(N, PATCH_H, PATCH_W, 3) uint8: the frame around each strip row of ``at`` (of the strip of ``outline``, read
    from its first side), upright, at :data:`SCALE` times the strip's resolution. The stretch of the strip they span
    is warped once, and each patch is a slice of it."""
    rows = np.asarray(at, int)
    if not len(rows):
        return np.empty((0, PATCH_H, PATCH_W, 3), np.uint8)
    first, last = int(rows.min()), int(rows.max())
    matrix, _ = strip_transform(outline)
    shift = np.array([[SCALE, 0, 0], [0, SCALE, -SCALE * (first - HALF_ROWS)], [0, 0, 1]], np.float64)
    tall = cv2.warpPerspective(frame, shift @ matrix, (PATCH_W, SCALE * (last - first) + PATCH_H),
                               flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    return np.stack([tall[SCALE * (row - first):][:PATCH_H] for row in rows.tolist()])


class TopChecker:
    """The top checker in one onnxruntime session, created once and reused."""

    def __init__(self, manifest: Manifest | None = None, threads: int = 2, directory: Path | None = None) -> None:
        self.manifest = manifest or load_manifest(directory)
        self.session = open_session(self.manifest.top_check, [(None,)], threads, directory)

    def infer(self, batch: np.ndarray) -> np.ndarray:
        """(N,) logits that a card's top edge lies on the middle row of each uint8 patch (N, H, W, 3)."""
        if not len(batch):
            return np.empty(0, np.float32)
        x = to_input(batch, (PATCH_W, PATCH_H))
        return np.asarray(self.session.run(None, {"image": x})[0], np.float32).reshape(-1)

    def checked(self, frame: np.ndarray, ways: Sequence[np.ndarray], sizes: Sequence[int],
                logits: np.ndarray) -> np.ndarray:
        """The band network's ``logits`` (N, L) of the strips of ``ways`` (``sizes`` rows each), with the checker's
        logit at each candidate row weighed in."""
        out = np.array(logits, np.float32)
        found = [(k, candidates(out[k], rows)) for k, rows in enumerate(sizes)]
        batch = [patches(frame, np.asarray(ways[k], np.float32), rows) for k, rows in found if len(rows)]
        if not batch:
            return out
        looks = iter(np.clip(self.infer(np.concatenate(batch)), -CLIP, CLIP))
        for k, rows in found:
            for row in rows:
                out[k, row] += np.float32(WEIGHT) * next(looks)
        return out
