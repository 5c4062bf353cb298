"""Other readings of a card outline: where else the card may truly lie.

The outline found in a single-card photo can be too long, when it took in the end of the
card covering this one (the next card of its column), or too short or too wide, when only
the part of the card that stands out from a tablecloth of its own colour was found. Where
the outline's width over height is far from a card's, :func:`reframings` gives the
card-shaped quads it may stand for, each on the side nearer the photo's centre (where a
single card is framed): the outline cut or grown along its length to a card's, and a card
as wide as the outline is long, grown across it.

A card-shaped outline can be off too: moved onto the covering card, or missing a band of
the card's own art that looks like the cloth. :func:`neighbours` gives the quads around it
(moved, narrower, wider, smaller, larger), which the corner refiner then sharpens; a card
still unsure after its second look reads each of them.
"""

from __future__ import annotations

import numpy as np

from companion.vision.rectify import CARD_ASPECT, order_corners

NEIGHBOUR_MOVE = 0.15
"""How far :func:`neighbours` moves an outline, along and across, as a share of its length and width."""
NEIGHBOUR_WIDTHS = (0.8, 1.25)
"""Widths of :func:`neighbours`' narrower and wider quads, as shares of the outline's."""
NEIGHBOUR_SIZES = (0.87, 1.15)
"""Sizes of :func:`neighbours`' smaller and larger quads, as shares of the outline's."""
CARD_SHAPED = (0.5, 0.8)
"""Width over height of an outline taken as card-shaped (a card's is 0.64; perspective and
loose corners spread it over about 0.55-0.75)."""


def aspect(quad: np.ndarray) -> float:
    """Width over height of an ordered quad (the means of its opposite sides)."""
    q = np.asarray(quad, np.float64)
    width = float(np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2
    height = float(np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2
    return width / max(height, 1e-9)


def _nearer(quads: list[np.ndarray], centre: np.ndarray) -> np.ndarray:
    return min(quads, key=lambda q: float(np.linalg.norm(q.mean(axis=0) - centre)))


def _stretched(kept: tuple[np.ndarray, np.ndarray], moved: tuple[np.ndarray, np.ndarray],
               share: float) -> np.ndarray:
    """The quad with side ``kept`` and the opposite side ``moved`` (its corners in the same order)
    brought to ``share`` of its distance."""
    (a, b), (c, d) = kept, moved
    return np.array([a, b, b + (d - b) * share, a + (c - a) * share])


def reframings(quad: np.ndarray, centre: tuple[float, float]) -> list[np.ndarray]:
    """Card-shaped quads that an outline ``quad`` (ordered corners) may stand for, in a photo
    whose centre is ``centre``; none when the outline is card-shaped already."""
    q = order_corners(quad).astype(np.float64)
    ratio = aspect(q)
    if CARD_SHAPED[0] <= ratio <= CARD_SHAPED[1]:
        return []
    middle = np.asarray(centre, np.float64)
    top, bottom, left, right = (q[0], q[1]), (q[3], q[2]), (q[0], q[3]), (q[1], q[2])
    along = ratio / CARD_ASPECT  # a card's height, as a share of the outline's
    across = 1 / (ratio * CARD_ASPECT)  # a card as wide as the outline is long, as a share of its width
    cut = _nearer([_stretched(top, bottom, along), _stretched(bottom, top, along)], middle)
    grown = _nearer([_stretched(left, right, across), _stretched(right, left, across)], middle)
    return [cut.astype(np.float32), grown.astype(np.float32)]


def neighbours(quad: np.ndarray) -> list[np.ndarray]:
    """Quads around an outline ``quad`` (ordered corners): moved by :data:`NEIGHBOUR_MOVE` either
    way along its length and across it, narrower and wider (:data:`NEIGHBOUR_WIDTHS`, about its
    long axis), smaller and larger (:data:`NEIGHBOUR_SIZES`, about its centre)."""
    q = order_corners(quad).astype(np.float64)
    along = (q[2] + q[3] - q[0] - q[1]) / 2  # top side's middle to the bottom side's
    across = (q[1] + q[2] - q[0] - q[3]) / 2  # left side's middle to the right side's
    right = np.array([-1.0, 1.0, 1.0, -1.0])[:, None]  # which corners lie on the right side
    centre = q.mean(axis=0)
    moved = [q + sign * NEIGHBOUR_MOVE * axis for axis in (along, across) for sign in (-1, 1)]
    widths = [q + right * across * (width - 1) / 2 for width in NEIGHBOUR_WIDTHS]
    sizes = [centre + (q - centre) * size for size in NEIGHBOUR_SIZES]
    return [n.astype(np.float32) for n in moved + widths + sizes]
