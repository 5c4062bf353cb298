"""Checks on a deck laid out under the camera, one card per bean: what looks wrong about each card found.

Pure functions of the cards' corners (frame pixels) and the names the camera gave them; the
enrollment page shows their sentences beside each card, so that the group looks twice before
keeping it as a photo of a bean.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from companion.vision.classifier import UNKNOWN

CARD_RATIO = 87 / 56
"""A Bohnanza card's long side over its short side."""
SHAPE_TOLERANCE = 0.10
"""How far (as a share of ``CARD_RATIO``) an outline's side ratio may be off and still be card-shaped."""
SURE = 0.5
"""Least confidence at which the model's name for a card is taken as a fair guess."""
ROW_SPREAD = 0.75
"""How far (in a card's short sides) below a row's highest card another card of the row may lie."""

NOT_CARD_SHAPED = "the outline is not card-shaped"
SAME_BEAN = "two cards are taken for the same bean"
UNSURE = "the model is unsure"


def _sides(corners: np.ndarray) -> np.ndarray:
    """The lengths of a 4-corner outline's sides, from corner 0 -> 1 on."""
    pts = np.asarray(corners, np.float64).reshape(4, 2)
    sides: np.ndarray = np.linalg.norm(pts - np.roll(pts, -1, axis=0), axis=1)
    return sides


def side_ratio(corners: np.ndarray) -> float:
    """The long side over the short side of a 4-corner outline (each the mean of two opposite sides);
    ``inf`` for a degenerate outline."""
    sides = _sides(corners)
    first, second = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    short, long = sorted((float(first), float(second)))
    return long / short if short > 0 else float("inf")


def card_shaped(corners: np.ndarray, tolerance: float = SHAPE_TOLERANCE) -> bool:
    """Whether an outline's long/short side ratio is within ``tolerance`` (a share) of a card's 87/56."""
    return abs(side_ratio(corners) / CARD_RATIO - 1) <= tolerance


def same_bean(labels: Sequence[str]) -> set[int]:
    """Positions of the cards whose name (a bean or the card back, not ``unknown``) another card has too."""
    counts = Counter(label for label in labels if label != UNKNOWN)
    return {k for k, label in enumerate(labels) if label != UNKNOWN and counts[label] > 1}


def unsure(label: str, confidence: float) -> bool:
    """Whether the model's name for a card is no fair guess: not recognised, or below ``SURE``."""
    return label == UNKNOWN or confidence < SURE


def card_flags(corners: Sequence[np.ndarray], labels: Sequence[str], confidences: Sequence[float]) -> list[list[str]]:
    """For each card (corners, name and confidence at the same position): the sentences of what looks wrong."""
    twins = same_bean(labels)
    flags: list[list[str]] = []
    for k, (quad, label, confidence) in enumerate(zip(corners, labels, confidences, strict=True)):
        found = [] if card_shaped(quad) else [NOT_CARD_SHAPED]
        found += [SAME_BEAN] if k in twins else []
        found += [UNSURE] if unsure(label, confidence) else []
        flags.append(found)
    return flags


def reading_order(corners: Sequence[np.ndarray]) -> list[int]:
    """Positions of the cards as a person reads the table: rows from the top, each from the left.

    A card starts a new row when its middle lies more than ``ROW_SPREAD`` short sides (of the median card)
    below the middle of the row's highest card: cards laid in rows lie about level, turned a little, and
    rows lie at least a short side apart.
    """
    if not corners:
        return []
    middles = [np.asarray(quad, np.float64).reshape(4, 2).mean(axis=0) for quad in corners]
    step = ROW_SPREAD * float(np.median([_sides(quad).min() for quad in corners]))
    rows: list[list[int]] = []
    for k in sorted(range(len(corners)), key=lambda k: middles[k][1]):
        if rows and middles[k][1] - middles[rows[-1][0]][1] <= step:
            rows[-1].append(k)
        else:
            rows.append([k])
    return [k for row in rows for k in sorted(row, key=lambda k: middles[k][0])]
