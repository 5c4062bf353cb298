"""Training patches for the top checker: the band network's likely card tops on rendered columns, labelled by the truth.

Columns of the ``train`` family (:mod:`models.band_data`: the shipped deck, the training renderer's random designs
and jumbles; never the unseen art styles), outlined by the run-time finder and read both ways, as the band network
is trained. At each row where the shipped band network's logit peaks above the floor
(:func:`companion.vision.top_check.candidates`), a patch (:func:`companion.vision.top_check.patches`) is labelled 1
within :data:`TRUE_ROWS` of a card's true top edge and 0 from :data:`FALSE_ROWS` on (rows between are left out).
Read from its near end, a column has no card top facing the first row: every peak there is 0.
"""

from __future__ import annotations

import numpy as np

from companion.vision.columns import BandNetwork
from companion.vision.strips import to_strip, turned
from companion.vision.top_check import PATCH_H, PATCH_W, candidates, patches
from models.band_data import outlined_one, tops

TRUE_ROWS = 1.5
"""Furthest (strip rows) a likely top may lie from a card's true top edge to count as one."""
FALSE_ROWS = 3.0
"""Nearest (strip rows) a likely top may lie to every true top edge to count as none."""


def labelled(frame: np.ndarray, outline: np.ndarray, true_tops: np.ndarray,
             bands: BandNetwork) -> tuple[np.ndarray, np.ndarray]:
    """Patches at the band network's likely tops of the strip of ``outline``, and their labels (1: a true top)."""
    strip, rows = to_strip(frame, outline)
    found = candidates(bands.infer([strip])[0], rows)
    off = np.array([np.min(np.abs(true_tops - row)) if len(true_tops) else np.inf for row in found])
    keep = (off <= TRUE_ROWS) | (off >= FALSE_ROWS)
    return patches(frame, outline, found[keep]), (off[keep] <= TRUE_ROWS).astype(np.uint8)


def dataset(seed: int, size: int, family: str = "train") -> tuple[np.ndarray, np.ndarray]:
    """Patches (N, PATCH_H, PATCH_W, 3) uint8 and labels (N,) from ``size`` columns of ``family``."""
    rng = np.random.default_rng([seed, 77])
    bands = BandNetwork(threads=1)
    images, labels = [np.empty((0, PATCH_H, PATCH_W, 3), np.uint8)], [np.empty(0, np.uint8)]
    made = 0
    while made < size:
        found = outlined_one(rng, family)
        if found is None:
            continue
        made += 1
        frame, laid, far_first = found
        for way, true_tops in ((far_first, tops(far_first, laid)), (turned(far_first), np.empty(0))):
            x, y = labelled(frame, way, true_tops, bands)
            images.append(x)
            labels.append(y)
    return np.concatenate(images), np.concatenate(labels)
