"""The phases of a turn, numbered as the rule books number them."""

from __future__ import annotations

from enum import IntEnum


class Phase(IntEnum):
    """Where the active player's turn stands."""

    OFFER = 0
    """The Duel: use (plant or discard) the cards the opponent left as an offer."""
    PLANT = 1
    """Plant one or two cards from the hand."""
    TRADE = 2
    """Cards are turned over; the active player trades."""
    PLANT_TRADED = 3
    """Everyone plants turned-over and received cards."""
    DRAW = 4
    """The active player (in some variants every player) draws."""
