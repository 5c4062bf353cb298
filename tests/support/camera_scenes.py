"""The camera's scenes of a 3-player table, made by hand (no frames, no models): what the referee is given to settle."""

from __future__ import annotations

import numpy as np

from companion.vision.scene import Scene, SeenCard, Stack

ZONES = ("fields-0", "fields-1", "fields-2", "face-up")


def table(*fields: tuple[int, str, int], pile: str | None = None, confidence: float = 0.99) -> Scene:
    """The camera's scene of a table with these (seat, bean, count) columns, every zone in sight, each top card named
    with ``confidence``; with ``pile``, a discard pile too, that bean on top (``""``: empty)."""
    corners = np.zeros((4, 2), np.float32)
    stacks = tuple(Stack(bean, count, corners, SeenCard(corners, bean, confidence), f"fields-{seat}")
                   for seat, bean, count in fields)
    if pile is None:
        return Scene((), stacks, ZONES)
    top = (Stack(pile, 1, corners, SeenCard(corners, pile, confidence), "discard"),) if pile else ()
    return Scene((), stacks + top, (*ZONES, "discard"))
