"""The ``Tables`` extension: the game store, the games open in this server, and their live feed.

Every change to a game goes through here, so that it is stored before it is
acknowledged and published to every page watching that game. Changes that another
process (``companion play``, a second server) made to the same store are noticed
on the next request for that game, and within ``STORE_POLL_S`` by a watcher thread,
and published the same way.
"""

from __future__ import annotations

import copy
import logging
import sqlite3
import threading
from dataclasses import replace
from typing import Any

from flask import Flask, current_app

from companion.records.format import Header
from companion.records.jsonl import loads_record
from companion.records.replay import replay
from companion.rules.violations import IllegalMove, RuleViolation
from companion.session import GameSession
from companion.storage.store import GameStore, StaleLog, StoreError
from web.errors import ApiError
from web.live import LiveFeed
from web.present import event_text, present, proposal_text, public_header
from web.proposals import Proposal, Proposals

log = logging.getLogger(__name__)


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
        self._stop = threading.Event()
        app.extensions["tables"] = self
        if app.config["STORE_POLL_S"]:
            threading.Thread(target=self._watch, args=(app.config["STORE_POLL_S"],),
                             name="store-watcher", daemon=True).start()  # fmt: skip

    def close(self) -> None:
        """Stop watching the store and close it."""
        self._stop.set()
        self.store.close()

    def session(self, game_id: int) -> GameSession:
        """The open game ``game_id``, loaded from the store on first use (404 if unknown), kept up to date."""
        with self._lock:
            session = self._sessions.get(game_id)
            if session is None:
                try:
                    session = self._sessions[game_id] = GameSession.resume(self.store, game_id)
                except KeyError:
                    raise ApiError(404, f"there is no game {game_id}") from None
                except (StoreError, ValueError) as exc:  # a damaged header, or one these rules no longer start
                    raise ApiError(422, f"game {game_id} cannot be opened: {exc}") from None
                return session
        self._catch_up(session)
        return session

    def unfinished(self, kind: str) -> list[int]:
        """The unfinished games of ``kind`` (the header's ``game``: "bohnanza" or "dice"), most recently played
        first."""
        return [game.id for game in self.store.games()
                if game.header is not None and game.header.game == kind and not game.finished]

    def copy_state(self, game_id: int) -> Any:
        """A copy of game ``game_id``'s state as it stands between changes (for a reader on another thread)."""
        session = self.session(game_id)
        with self._writing:
            return copy.deepcopy(session.state)

    def _catch_up(self, session: GameSession) -> None:
        """Take in what other writers stored since this server last looked, and tell the pages."""
        if self.store.last_seq(session.game_id) == session.last_seq:  # the usual case: no lock taken
            return
        with self._writing:
            if session.refresh():
                self._changed(session, {"kind": "external"})

    def _watch(self, interval_s: float) -> None:
        """Watcher thread: when another process commits to the store, bring the open games up to date."""
        try:
            seen = self.store.data_version()
            while not self._stop.wait(interval_s):
                version = self.store.data_version()
                if version == seen:
                    continue
                seen = version
                with self._lock:
                    sessions = list(self._sessions.values())
                for session in sessions:
                    self._catch_up(session)
                self.feed.publish("games", "games", {"game_id": None, "change": "external"})
        except (sqlite3.Error, StoreError) as exc:  # the store was closed (the app is shutting down) or broke
            log.debug("stopped watching the game store: %s", exc)

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
        except StaleLog as exc:
            raise ApiError(409, str(exc), stale=True) from None
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

    def propose(self, game_id: int, event: Any, source: str, after: frozenset[int] | None = None,
                alternatives: tuple[dict[str, Any], ...] = ()) -> dict[str, Any]:
        """Hold an event until someone confirms it, or one of its ``alternatives`` in its place (or, with ``after``,
        until the proposals ``after`` are confirmed as they are: then it goes in by itself); says whether the rules
        would accept it now."""
        session = self.session(game_id)
        if not isinstance(event, dict):
            raise ApiError(400, "a proposal needs an event object")
        with self._writing:
            proposal = self.proposals.add(game_id, event, source, after, alternatives)
            self._changed(session, {"kind": "proposal", "proposal": proposal.id})
            return self._judged(session, proposal)

    def confirm(self, game_id: int, proposal_id: int, corrected: dict[str, Any] | None = None) -> dict[str, Any]:
        """Push a proposal (or its correction); 404 if it is gone, 409 if the rules refuse it (it stays). Confirmed as
        it is, the proposals that waited on it go in after it (:meth:`_release`); corrected, they wait for a tap."""
        session = self.session(game_id)
        with self._writing:
            proposal = self.proposals.take(game_id, proposal_id)
            if proposal is None:
                raise ApiError(404, f"there is no pending proposal {proposal_id} in game {game_id}")
            try:
                stored = self._push(session, corrected or proposal.event, proposal.source)
            except (IllegalMove, ApiError):
                self.proposals.put_back(game_id, proposal)
                raise
            if corrected is None or corrected == proposal.event:
                self._release(session, proposal_id)
            else:
                self.proposals.hold(game_id, proposal_id)
            return stored

    def _release(self, session: GameSession, proposal_id: int) -> None:
        """Push the proposals that waited on ``proposal_id`` (confirmed as it was; :meth:`Proposals.release`); one the
        rules refuse now waits for a tap, with those that wait on it."""

        def push(proposal: Proposal) -> bool:
            try:
                self._push(session, proposal.event, proposal.source)
            except (IllegalMove, ApiError) as exc:
                log.info("a proposal that waited on a confirmed one is refused: %s", exc)
                self.proposals.put_back(session.game_id, replace(proposal, after=None))
                return False
            return True

        self.proposals.release(session.game_id, proposal_id, push)

    def hold_proposals(self) -> None:
        """Auto-accept was turned off: no proposal goes in by itself any more (each waits for its own tap)."""
        with self._writing:
            for game_id in self.proposals.hold_all():
                self._changed(self.session(game_id), {"kind": "proposal"})

    def dismiss(self, game_id: int, proposal_id: int) -> None:
        session = self.session(game_id)
        with self._writing:
            if self.proposals.take(game_id, proposal_id) is None:
                raise ApiError(404, f"there is no pending proposal {proposal_id} in game {game_id}")
            self.proposals.hold(game_id, proposal_id)
            self._changed(session, {"kind": "dismiss", "proposal": proposal_id})

    def undo(self, game_id: int, count: int = 1, after: int | None = None) -> dict[str, Any]:
        """Undo the last ``count`` events; 409 if the game changed since event ``after`` (the last one seen).

        Returns the change as pages show it: how many events were undone, and each in words.
        """
        session = self.session(game_id)
        with self._writing:
            last = list(session.events[-count:]) if count > 0 else []
            try:
                undone = session.undo(count, after)
            except StaleLog as exc:
                self._changed(session, {"kind": "external"})
                raise ApiError(409, str(exc), stale=True) from None
            texts = [text for e in last[len(last) - undone:] if (text := event_text(session.header, e))]
            change = {"kind": "undo", "count": undone, "undone": texts}
            if undone:
                self._changed(session, change)
            return change

    def repair(self, game_id: int) -> int:
        """Undo a stored game's first event that does not replay and every one after it."""
        session = self.session(game_id)
        with self._writing:
            if session.broken is None:
                raise ApiError(409, f"game {game_id} replays to the end: there is nothing to repair")
            undone = session.repair()
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
            "header": public_header(session.header),
            "events": len(session.events),
            "seq": session.last_seq,
            "broken": session.broken.to_dict() if session.broken else None,
            "state": present(session.header, session.state),
            "proposals": [self._judged(session, p) for p in self.proposals.pending(session.game_id)],
        }

    @staticmethod
    def _judged(session: GameSession, proposal: Proposal) -> dict[str, Any]:
        """A proposal with what the rules say of it now, and those of its alternatives they allow now."""
        violation = _violation(session, proposal.event)
        return {
            "id": proposal.id, "event": proposal.event, "source": proposal.source, "legal": violation is None,
            "after": sorted(proposal.after) if proposal.after is not None else None,
            "text": proposal_text(session.header, proposal.event) if isinstance(proposal.event, dict) else None,
            "rule": violation and violation.rule, "error": violation and violation.message,
            "alternatives": [{"event": other, "text": proposal_text(session.header, other)}
                             for other in proposal.alternatives if _violation(session, other) is None],
        }  # fmt: skip

    def _changed(self, session: GameSession, change: dict[str, Any]) -> None:
        if isinstance(change.get("event"), dict) and (text := event_text(session.header, change["event"])):
            change = {**change, "text": text}
        with self._lock:
            self._revisions[session.game_id] = self._revisions.get(session.game_id, 0) + 1
        self.feed.publish(f"game:{session.game_id}", "state", {**self.snapshot(session), "change": change})
        self.feed.publish("games", "games", {"game_id": session.game_id, "change": change["kind"]})


def _violation(session: GameSession, event: Any) -> RuleViolation | None:
    """What the rules say of ``event`` now: None where they allow it."""
    try:
        return session.check(event)
    except ValueError as exc:
        return RuleViolation("event.malformed", str(exc))


def tables() -> Tables:
    """The ``Tables`` of the current app."""
    return current_app.extensions["tables"]
