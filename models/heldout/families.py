"""The held-out families: how each draws a deck and how its decks are photographed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from models.heldout import watercolour, woodcut
from models.heldout.camera import Look


@dataclass(frozen=True)
class Family:
    """A held-out art style: its decks (faces in ``VISION_LABELS`` order, from a deck seed) and its camera."""

    name: str
    deck: Callable[[int], list[np.ndarray]]
    look: Look


FAMILIES: dict[str, Family] = {
    "woodcut": Family("woodcut", woodcut.deck,
                      Look(size=(320, 240), tilt=(0.0, 15.0), length=(0.55, 0.88), warmth=0.15, motion=0.15)),
    "watercolour": Family("watercolour", watercolour.deck,
                          Look(size=(320, 240), tilt=(10.0, 35.0), length=(0.6, 0.92), warmth=0.25, motion=0.35)),
}
"""Woodcut decks are photographed from above by a webcam; watercolour decks by a phone held at an angle."""
