"""A demo camera: a recorded game played on a rendered table, so a newcomer sees the camera referee with no webcam.

``--camera demo`` (or ``demo:RECORD``) opens :class:`GameDemo`. Every ``step_s`` seconds the
table shows the record's next event that a camera can see (a plant, beans turned over, a
harvest, its beans on the discard pile), with a hand passing over the table as it happens;
the events a camera cannot see (trades, ending the trading, draws) go by unseen, as they would
at a real table. Start a game with the record's ruleset, players and start player (``game``
says which) and the camera proposes the record's events on it; confirm them as they come, or
turn auto-accept on. The table starts its game over whenever a game is started beside it
(:meth:`GameDemo.restart`), so the game may be started at any time after the demo.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from companion.records.jsonl import load_record
from companion.rules.moves import move_from_dict
from companion.rules.setup import Setup
from companion.rules.state import GameState
from models.game_table import draw_table, hand_over
from models.render import house_design, render_face

RECORD = Path(__file__).resolve().parents[1] / "examples" / "records" / "amigo-25-4p-known-deck.jsonl"
HAND_FRAMES = 2
"""Frames with a hand over the table after each change."""
TABLE = 0
"""The seed the table is drawn from: the same wood, and each field's cards where they lay, from one change to the next,
as at a real table."""


def _fields(state: GameState) -> dict[int, list[tuple[str, int]]]:
    return {seat: [(f.bean, f.count) for f in player.fields if f.bean] for seat, player in enumerate(state.players)}


class GameDemo:
    """A frame source playing a record's game on a rendered table, one visible event every ``step_s`` seconds."""

    def __init__(self, record: Path = RECORD, clock: Callable[[], float] = time.monotonic, step_s: float = 4.0) -> None:
        loaded = load_record(record)
        header = loaded.header
        self.setup = Setup(header.ruleset, tuple(header.players), header.start_player, dict(header.options))
        self.events = [event for _, event in loaded.events]
        self.clock = clock
        self.step_s = step_s
        players = ", ".join(header.players)
        self.live = False
        self.house_cards = True
        """Its cards are the house deck's: named so, whatever deck the group enrolled, and that deck learns nothing
        from them."""
        self.game = f"{header.ruleset}: {players}, {header.players[header.start_player]} first"
        """The game to start beside the demo, in words."""
        self.name = f"demo table (start a game of {self.game})"
        """What the camera's status line calls the source: it says which game to start."""
        self.state = GameState(self.setup)
        self._next = 0
        self._due = 0.0
        self._hand = 0
        self._rewind = False
        self._rng = np.random.default_rng(0)
        self._drawn: tuple[tuple, np.ndarray] | None = None
        self._faces = {bean: render_face(house_design(bean)) for bean in self.state.deck_counts}

    def open(self) -> None:
        self._due = self.clock() + self.step_s

    def restart(self) -> None:
        """Play the record again from its start, at the next frame: a game was started beside the demo table, whose
        players clear it and begin (the table had gone on playing meanwhile)."""
        self._rewind = True

    def read(self) -> np.ndarray:
        """The table now; past the step time the game moves on to its next change a camera can see."""
        if self._rewind:
            self._rewind = False
            self.state, self._next, self._hand = GameState(self.setup), 0, HAND_FRAMES
            self._due = self.clock() + self.step_s
        elif self.clock() >= self._due:
            self._advance()
            self._due = self.clock() + self.step_s
        seen = (len(self.state.move_stack), repr(_fields(self.state)), tuple(self.state.face_up),
                tuple(self.state.discard[-1:]))
        if self._drawn is None or self._drawn[0] != seen:  # drawn again only when the table changed
            self._drawn = (seen, draw_table(_fields(self.state), list(self.state.face_up), self._faces, TABLE,
                                            list(self.state.discard)))
        table = self._drawn[1].copy()
        if self._hand:
            self._hand -= 1
            return hand_over(table, self._rng)
        return table

    def close(self) -> None:
        """Nothing to release."""

    def _advance(self) -> None:
        """Play events until one changes what the camera sees (or the record ends: the table then stays)."""
        before = (_fields(self.state), sorted(self.state.face_up))
        while self._next < len(self.events):
            self.state.push(move_from_dict(self.events[self._next]))
            self._next += 1
            if (_fields(self.state), sorted(self.state.face_up)) != before:
                self._hand = HAND_FRAMES
                return
