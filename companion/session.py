"""A game being played: its rules state kept in step with its stored event log.

Every accepted move is written to the store before the call returns; undo marks
the last events undone and re-derives the state from the log.
"""

from __future__ import annotations

import threading
from typing import Any

from companion.games import GameKind, game_kind
from companion.records.format import Header
from companion.records.replay import replay_log
from companion.rules.violations import RuleViolation
from companion.storage.store import GameStore, StoreError


class GameSession:
    """One game in the store, with its current state."""

    def __init__(self, store: GameStore, game_id: int, header: Header, kind: GameKind, state: Any, events: list[dict]):
        self.store = store
        self.game_id = game_id
        self.header = header
        self.kind = kind
        self.state = state
        self.events = events
        self._lock = threading.RLock()

    @classmethod
    def start(cls, store: GameStore, header: Header) -> GameSession:
        """Create a new game; ``ValueError`` if the header cannot start one."""
        kind = game_kind(header.game)
        state = kind.new_state(header)
        game_id = store.create_game(header)
        return cls(store, game_id, header, kind, state, [])

    @classmethod
    def resume(cls, store: GameStore, game_id: int) -> GameSession:
        """Load a stored game and replay its log (``KeyError`` if there is no such game)."""
        header = store.header(game_id)
        events = store.events(game_id)
        result = replay_log(header, events)
        if result.error is not None:
            raise StoreError(f"game {game_id} does not replay: event {result.error}")
        return cls(store, game_id, header, game_kind(header.game), result.state, events)

    def check(self, move: Any) -> RuleViolation | None:
        """None if the move (or its record form) is legal now."""
        if isinstance(move, dict):
            move = self.kind.move_from_dict(move)
        return self.kind.check(self.state, move)

    def push(self, move: Any) -> dict[str, Any]:
        """Apply and store a move (or its record form); returns the stored event.

        ``ValueError`` for a malformed event, ``IllegalMove`` for a refused one;
        either way nothing changes.
        """
        with self._lock:
            if isinstance(move, dict):
                move = self.kind.move_from_dict(move)
            logged = self.kind.push(self.state, move)
            event = self.kind.move_to_dict(logged)
            try:
                self.store.append(self.game_id, event)
            except BaseException:
                self._rederive()
                raise
            self.events.append(event)
            if self.finished:
                self.store.set_finished(self.game_id, True)
            return event

    def undo(self, count: int = 1) -> int:
        """Undo the last ``count`` events; returns how many were undone."""
        with self._lock:
            undone = self.store.undo(self.game_id, count)
            self.events = self.store.events(self.game_id)
            self._rederive()
            self.store.set_finished(self.game_id, self.finished)
            return undone

    def _rederive(self) -> None:
        self.state = replay_log(self.header, self.events).state

    @property
    def finished(self) -> bool:
        return bool(self.state.game_over)

    def summary(self) -> dict[str, Any]:
        """The state as JSON, with the game id and event count."""
        with self._lock:
            data = self.kind.summary(self.state)
            data["game_id"] = self.game_id
            data["events"] = len(self.events)
            return data
