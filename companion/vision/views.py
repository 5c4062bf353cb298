"""What the classifier gets of one card: its framings, and other readings of its outline."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class CardViews:
    """One card's upright crops.

    ``framings``: its outline cropped at each stage's corners, the best first (none when no
    card outline was found). ``reframings``: crops at the card-shaped quads an outline that
    is not card-shaped may stand for (:mod:`companion.vision.reframe`), each a reading of
    its own.
    """

    framings: Sequence[np.ndarray] = ()
    reframings: Sequence[np.ndarray] = ()
