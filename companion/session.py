"""A game being played: its rules state kept in step with its stored event log.

Every accepted move is written to the store before the call returns; undo marks
the last events undone and re-derives the state from the log. Each write names the
last event this session knows (``last_seq``): when another writer (a second server,
``companion play``) changed the game first, the store refuses it, and the session
reloads the log and checks the move again against the game as it now stands.

A stored log that no longer replays (written by an older or faulty writer) opens at
its last good event; ``broken`` says which event fails and why, nothing can be added
after it, and ``repair`` undoes it and every event after it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from companion.games import GameKind, game_kind
from companion.records.format import Header
from companion.records.replay import replay_log
from companion.rules.violations import IllegalMove, RuleViolation
from companion.storage.store import GameStore, StaleLog, StoredLog

WRITE_TRIES = 5
"""How often a move is checked again after another writer changed the game first."""


@dataclass(frozen=True, slots=True)
class BrokenEvent:
    """The first stored event that does not replay: its number (from 1), why, and how many events it starts."""

    number: int
    error: str
    rule: str | None
    undo: int
    """Events to undo to repair the game: this one and every one after it."""

    def to_dict(self) -> dict[str, Any]:
        return {"event": self.number, "error": self.error, "rule": self.rule, "undo": self.undo}

    @property
    def message(self) -> str:
        return (
            f"event {self.number} does not replay ({self.error}); undo it"
            + (f" and the {self.undo - 1} after it" if self.undo > 1 else "")
            + " to go on"
        )


class GameSession:
    """One game in the store, with its current state."""

    def __init__(self, store: GameStore, game_id: int, header: Header, kind: GameKind):
        self.store = store
        self.game_id = game_id
        self.header = header
        self.kind = kind
        self.state: Any = kind.new_state(header)
        self.events: list[dict[str, Any]] = []
        """The events the state reflects (all the live ones, unless the log is broken)."""
        self.last_seq = 0
        """Sequence number of the last live stored event, broken ones included."""
        self.broken: BrokenEvent | None = None
        self._lock = threading.RLock()

    @classmethod
    def start(cls, store: GameStore, header: Header) -> GameSession:
        """Create a new game; ``ValueError`` if the header cannot start one."""
        kind = game_kind(header.game)
        kind.new_state(header)
        return cls(store, store.create_game(header), header, kind)

    @classmethod
    def resume(cls, store: GameStore, game_id: int) -> GameSession:
        """Load a stored game and replay its log (``KeyError`` if there is no such game)."""
        header = store.header(game_id)
        session = cls(store, game_id, header, game_kind(header.game))
        session._load(store.log(game_id))
        return session

    def _load(self, log: StoredLog) -> None:
        """Take ``log`` as the truth: replay it up to its first bad event."""
        result = replay_log(self.header, log.events)
        good = len(result.moves)
        self.state, self.events, self.last_seq = result.state, log.events[:good], log.last_seq
        self.broken = None
        if result.error is not None:
            self.broken = BrokenEvent(good + 1, result.error.message, result.rule, len(log.events) - good)

    def refresh(self) -> bool:
        """Reload the log if another writer changed it; returns whether it had."""
        with self._lock:
            if self.store.last_seq(self.game_id) == self.last_seq:
                return False
            self._load(self.store.log(self.game_id))
            return True

    def check(self, move: Any) -> RuleViolation | None:
        """None if the move (or its record form) is legal now."""
        if isinstance(move, dict):
            move = self.kind.move_from_dict(move)
        if self.broken is not None:
            return self._broken_violation()
        return self.kind.check(self.state, move)

    def push(self, move: Any) -> dict[str, Any]:
        """Apply and store a move (or its record form); returns the stored event.

        ``ValueError`` for a malformed event, ``IllegalMove`` for a refused one (checked
        against the stored game as it stands, whoever changed it last); either way
        nothing changes. ``StaleLog`` if other writers kept changing the game meanwhile.
        """
        with self._lock:
            if isinstance(move, dict):
                move = self.kind.move_from_dict(move)
            for _ in range(WRITE_TRIES):
                if self.broken is not None:
                    raise IllegalMove(self._broken_violation())
                try:
                    logged = self.kind.push(self.state, move)
                    event = self.kind.move_to_dict(logged)
                except IllegalMove:
                    raise  # refused before anything changed
                except Exception:
                    self.state = replay_log(self.header, self.events).state  # whatever the failure left half done
                    raise
                try:
                    seq = self.store.append(self.game_id, event, after=self.last_seq)
                except StaleLog:
                    self._load(self.store.log(self.game_id))
                    continue
                except BaseException:
                    self.state = replay_log(self.header, self.events).state
                    raise
                self.events.append(event)
                self.last_seq = seq
                if self.finished:
                    self.store.set_finished(self.game_id, True)
                return event
            raise StaleLog(self.game_id, self.last_seq, self.store.last_seq(self.game_id))

    def undo(self, count: int = 1, after: int | None = None) -> int:
        """Undo the last ``count`` stored events; returns how many were undone.

        ``after`` is the last event the caller saw (default: the last this session
        knows): ``StaleLog`` if the game changed since, so no one undoes a move they
        have not seen; the session then holds the game as it now stands.
        """
        with self._lock:
            try:
                undone = self.store.undo(self.game_id, count, after=self.last_seq if after is None else after)
            finally:
                self._load(self.store.log(self.game_id))
            self.store.set_finished(self.game_id, self.finished)
            return undone

    def repair(self) -> int:
        """Undo the first event that does not replay and every one after it; returns how many (0 if none)."""
        with self._lock:
            return self.undo(self.broken.undo) if self.broken is not None else 0

    def _broken_violation(self) -> RuleViolation:
        assert self.broken is not None
        return RuleViolation("game.broken-log", f"This game cannot go on: {self.broken.message}.")

    @property
    def finished(self) -> bool:
        return bool(self.state.game_over) and self.broken is None

    def summary(self) -> dict[str, Any]:
        """The state as JSON, with the game id, event count and a broken event if any."""
        with self._lock:
            data = self.kind.summary(self.state)
            data["game_id"] = self.game_id
            data["events"] = len(self.events)
            data["broken"] = self.broken.to_dict() if self.broken else None
            return data
