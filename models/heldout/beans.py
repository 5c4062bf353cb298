"""What a printed bean card shows, whoever draws it: its colour, name and numbers.

Colours follow the real beans (BGR), so that beans of like colour (coffee and cocoa,
brandy and stink, soy and field) are alike in every family, as on real decks.
"""

from __future__ import annotations

import numpy as np

from companion.cards import BACK, CATALOGUE

Colour = tuple[int, int, int]

CARD_W, CARD_H = 320, 496
"""Size every held-out family draws a card at: 56 x 87 mm at about 5.7 pixels per mm."""

BEAN_BGR: dict[str, Colour] = {
    "coffee": (38, 64, 101),
    "wax": (90, 208, 238),
    "brandy": (52, 62, 138),
    "blue": (172, 92, 58),
    "chili": (32, 42, 202),
    "stink": (52, 88, 122),
    "green": (62, 150, 72),
    "soy": (148, 202, 224),
    "black-eyed": (198, 222, 234),
    "red": (44, 30, 178),
    "garden": (82, 180, 128),
    "cocoa": (36, 54, 88),
    "field": (138, 192, 214),
    "magpie": (34, 34, 38),
    "cognac": (42, 104, 172),
}
"""The colour of each bean as printed on real cards (B, G, R)."""


def bean_colour(label: str, rng: np.random.Generator, spread: float = 10.0) -> Colour:
    """``label``'s colour with a printer's small drift (a normal spread of ``spread`` per channel)."""
    base = np.asarray(BEAN_BGR[label], np.float64)
    return tuple(int(v) for v in np.clip(base + rng.normal(0, spread, 3), 0, 255))  # type: ignore[return-value]


def shifted(colour: Colour, toward: Colour, share: float) -> Colour:
    """``colour`` moved ``share`` of the way to ``toward``."""
    return tuple(int(round(a + (b - a) * share)) for a, b in zip(colour, toward))  # type: ignore[return-value]


def title(label: str) -> str:
    """The card's printed name ("Black-eyed Bean"); the back has none."""
    return "" if label == BACK else CATALOGUE[label].name


def count(label: str) -> str:
    """How many cards of the bean the deck holds, as printed in a corner ("24")."""
    return "" if label == BACK else str(CATALOGUE[label].count)


def beanometer(label: str) -> tuple[str, str, str, str]:
    """The cards needed for 1-4 coins as printed, "" where the card prints no step."""
    steps = (None,) * 4 if label == BACK else CATALOGUE[label].beanometer
    return tuple("" if s is None else str(s) for s in steps)  # type: ignore[return-value]
