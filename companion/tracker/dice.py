"""The dice tracker: a roll of the electronic dice becomes the roll event of the dice game waiting for one.

The game waiting is the most recently played one whose active player must roll now, as
its engine says (:meth:`DiceGame.awaiting_roll`). The tracker reaches the games only
through :class:`DiceTables`, so it knows neither the store nor the web app.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from companion.dice.game import DiceGame
from companion.dice.moves import move_to_dict


class TableError(Exception):
    """A game the table cannot open, or an event it cannot store, now; the message is a sentence."""


class DiceTables(Protocol):
    """What the dice tracker needs from the table's games."""

    def dice_games(self) -> Iterable[int]:
        """The dice games that may be waiting for a roll, most recently played first (finished ones may be left out)."""
        ...

    def dice_state(self, game_id: int) -> DiceGame:
        """The game as it stands now; ``TableError`` if it cannot be opened."""
        ...

    def push(self, game_id: int, event: dict[str, Any]) -> None:
        """Apply and store one event; ``ValueError`` (``IllegalMove`` too) or ``TableError`` if it is not stored."""
        ...


@dataclass(frozen=True, slots=True)
class RollReport:
    """Where a roll went: the game it was meant for (None if none), and why it was not counted, if it was not."""

    game_id: int | None
    note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "note": self.note}


class DiceTracker:
    """Turns each roll into the event of the game waiting for it, one roll at a time."""

    def __init__(self, tables: DiceTables):
        self._tables = tables
        self._lock = threading.Lock()

    def roll(self, faces: Sequence[int | None]) -> RollReport:
        """Push a roll (a face 1-6 per die, as the dice report it) into the waiting game; say where it went."""
        with self._lock:
            try:
                waiting = self._waiting()
            except TableError as exc:
                return RollReport(None, f"roll not counted: {exc}")
            if waiting is None:
                return RollReport(None, "no dice game is waiting for a roll")
            game_id, game = waiting
            try:
                self._tables.push(game_id, move_to_dict(game.roll_from_faces(list(faces))))
            except (ValueError, TableError) as exc:
                return RollReport(game_id, f"roll refused: {exc}")
            return RollReport(game_id)

    def _waiting(self) -> tuple[int, DiceGame] | None:
        """The first listed game whose active player must roll now, with its state."""
        for game_id in self._tables.dice_games():
            game = self._tables.dice_state(game_id)
            if game.awaiting_roll():
                return game_id, game
        return None
