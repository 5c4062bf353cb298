"""The phases of a turn."""

from __future__ import annotations

from enum import IntEnum


class Phase(IntEnum):
    """Where the active player's turn stands."""

    PLANT = 1
    """Plant one or two cards from the hand."""
    TRADE = 2
    """Cards are turned over; the active player trades."""
    PLANT_TRADED = 3
    """Everyone plants turned-over and received cards; then the active player draws (phase 4)."""
