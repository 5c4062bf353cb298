"""The ``Tables`` extension: the game store, the games open in this server, and their live feed.

Every change to a game goes through here, so that it is stored before it is
acknowledged and published to every page watching that game.
"""

from __future__ import annotations

import threading
from typing import Any

from flask import Flask, current_app

from companion.records.format import Header
from companion.records.jsonl import loads_record
from companion.records.replay import replay
from companion.rules.violations import IllegalMove, RuleViolation
from companion.session import GameSession
from companion.storage.store import GameStore, StoreError
from web.errors import ApiError
from web.live import LiveFeed
from web.present import present
from web.proposals import Proposal, Proposals


class Tables:
    """One app's games: ``tables.session(id)``, ``start``, ``push``, ``undo``, ``import_record``."""

    def init_app(self, app: Flask) -> None:
        self.store = GameStore(app.config["DATABASE"])
        self.feed = LiveFeed()
        self.proposals = Proposals()
        self._sessions: dict[int, GameSession] = {}
        self._revisions: dict[int, int] = {}
        self._lock = threading.Lock()
        self._writing = threading.RLock()
        """Held through every change and its publication, so pages see changes in order."""
        app.extensions["tables"] = self

    def session(self, game_id: int) -> GameSession:
        """The open game ``game_id``, loaded from the store on first use (404 if unknown)."""
        with self._lock:
            if game_id not in self._sessions:
                try:
                    self._sessions[game_id] = GameSession.resume(self.store, game_id)
                except KeyError:
                    raise ApiError(404, f"there is no game {game_id}") from None
                except StoreError as exc:
                    raise ApiError(422, str(exc)) from None
            return self._sessions[game_id]

    def start(self, header: Header) -> GameSession:
        """Create and store a new game (400 if the rules cannot start it)."""
        try:
            session = GameSession.start(self.store, header)
        except ValueError as exc:
            raise ApiError(400, str(exc)) from None
        with self._lock:
            self._sessions[session.game_id] = session
        with self._writing:
            self._changed(session, {"kind": "start"})
        return session

    def push(self, game_id: int, event: Any, source: str = "tablet") -> dict[str, Any]:
        """Apply and store one event; 400 if malformed, 409 with the rule if refused."""
        session = self.session(game_id)
        with self._writing:
            return self._push(session, event, source)

    def _push(self, session: GameSession, event: Any, source: str) -> dict[str, Any]:
        game_id = session.game_id
        try:
            stored = session.push(event)
        except IllegalMove as exc:
            self.feed.publish(f"game:{game_id}", "refused", {
                "game_id": game_id, "event": event, "source": source,
                "error": exc.violation.message, "rule": exc.violation.rule,
            })  # fmt: skip
            raise
        except ValueError as exc:
            raise ApiError(400, str(exc)) from None
        self._changed(session, {"kind": "move", "event": stored, "source": source})
        return stored

    def propose(self, game_id: int, event: Any, source: str) -> dict[str, Any]:
        """Hold an event until someone confirms it; says whether the rules would accept it now."""
        session = self.session(game_id)
        if not isinstance(event, dict):
            raise ApiError(400, "a proposal needs an event object")
        with self._writing:
            proposal = self.proposals.add(game_id, event, source)
            self._changed(session, {"kind": "proposal", "proposal": proposal.id})
            return self._judged(session, proposal)

    def confirm(self, game_id: int, proposal_id: int, corrected: dict[str, Any] | None = None) -> dict[str, Any]:
        """Push a proposal (or its correction); 404 if it is gone, 409 if the rules refuse it (it stays)."""
        session = self.session(game_id)
        with self._writing:
            proposal = self.proposals.take(game_id, proposal_id)
            if proposal is None:
                raise ApiError(404, f"there is no pending proposal {proposal_id} in game {game_id}")
            try:
                return self._push(session, corrected or proposal.event, proposal.source)
            except (IllegalMove, ApiError):
                self.proposals.put_back(game_id, proposal)
                raise

    def dismiss(self, game_id: int, proposal_id: int) -> None:
        session = self.session(game_id)
        with self._writing:
            if self.proposals.take(game_id, proposal_id) is None:
                raise ApiError(404, f"there is no pending proposal {proposal_id} in game {game_id}")
            self._changed(session, {"kind": "dismiss", "proposal": proposal_id})

    def undo(self, game_id: int, count: int = 1) -> int:
        session = self.session(game_id)
        with self._writing:
            undone = session.undo(count)
            if undone:
                self._changed(session, {"kind": "undo", "count": undone})
            return undone

    def import_record(self, text: str) -> GameSession:
        """Store a whole record as a new game; 400 names the bad line, and nothing is stored."""
        try:
            record = loads_record(text)
            result = replay(record)
        except ValueError as exc:
            raise ApiError(400, f"this is not a readable game record: {exc}") from None
        if result.error is not None:
            raise ApiError(400, f"the record does not replay: {result.error}", line=result.error.line, rule=result.rule)
        events = [e for _, e in record.events]
        game_id = self.store.import_game(record.header, events)
        if result.state.game_over:
            self.store.set_finished(game_id, True)
        session = self.session(game_id)
        with self._writing:
            self._changed(session, {"kind": "import"})
        return session

    def snapshot(self, session: GameSession) -> dict[str, Any]:
        """What a page needs to draw a game: header, state and revision."""
        with self._lock:
            revision = self._revisions.get(session.game_id, 0)
        return {
            "game_id": session.game_id,
            "revision": revision,
            "header": session.header.to_dict(),
            "events": len(session.events),
            "state": present(session.header, session.state),
            "proposals": [self._judged(session, p) for p in self.proposals.pending(session.game_id)],
        }

    @staticmethod
    def _judged(session: GameSession, proposal: Proposal) -> dict[str, Any]:
        """A proposal with what the rules say of it now."""
        try:
            violation = session.check(proposal.event)
        except ValueError as exc:
            violation = RuleViolation("event.malformed", str(exc))
        return {
            "id": proposal.id, "event": proposal.event, "source": proposal.source, "legal": violation is None,
            "rule": violation and violation.rule, "error": violation and violation.message,
        }  # fmt: skip

    def _changed(self, session: GameSession, change: dict[str, Any]) -> None:
        with self._lock:
            self._revisions[session.game_id] = self._revisions.get(session.game_id, 0) + 1
        self.feed.publish(f"game:{session.game_id}", "state", {**self.snapshot(session), "change": change})
        self.feed.publish("games", "games", {"game_id": session.game_id, "change": change["kind"]})


def tables() -> Tables:
    """The ``Tables`` of the current app."""
    return current_app.extensions["tables"]
