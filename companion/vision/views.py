"""What the classifier gets of one card: its framings, and other readings of its outline."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import overload

import numpy as np


@dataclass(frozen=True)
class CardViews:
    """One card's upright crops.

    ``framings``: its outline cropped at each stage's corners, the best first (none when no
    card outline was found). ``reframings``: crops at the card-shaped quads an outline that
    is not card-shaped may stand for, and ``neighbours``: crops at the quads around the
    outline, refined (both :mod:`companion.vision.reframe`); each crop a reading of its own
    for an unsure card (made only for a card still unsure, by the reader). ``details``: the best
    framing at :data:`~companion.vision.keypoints.DETAIL_SIZE`, for the second opinion of an
    enrolled deck (:mod:`companion.vision.keypoints`); few cards read it, so it may be :class:`Deferred`.
    ``vouched``: the card tops a column of several, whose bands start as it does: it is a card, so a label named
    near the threshold, with no other label close, needs no keypoints to stand (that check keeps bare table from
    being named).
    """

    framings: Sequence[np.ndarray] = ()
    reframings: Sequence[np.ndarray] = ()
    neighbours: Sequence[np.ndarray] = ()
    details: Sequence[np.ndarray] = ()
    vouched: bool = False


class Deferred(Sequence[np.ndarray]):
    """Crops made on first use (by ``make``, once): a card's neighbours cost a refiner run, and
    few cards read them."""

    def __init__(self, make: Callable[[], Sequence[np.ndarray]]) -> None:
        self._make: Callable[[], Sequence[np.ndarray]] | None = make
        self._crops: Sequence[np.ndarray] = ()

    def _made(self) -> Sequence[np.ndarray]:
        if self._make is not None:
            self._crops, self._make = list(self._make()), None
        return self._crops

    def __len__(self) -> int:
        return len(self._made())

    @overload
    def __getitem__(self, index: int) -> np.ndarray: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[np.ndarray]: ...

    def __getitem__(self, index: int | slice) -> np.ndarray | Sequence[np.ndarray]:
        return self._made()[index]
