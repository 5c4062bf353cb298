"""Proposed events (from the camera, or any tool) waiting for a tap to confirm, correct or dismiss.

A proposal is not part of the game until someone confirms it; then it is pushed like
any other event, possibly corrected first (one of the proposer's other readings, with a
tap). One the camera is sure of but for the proposals before it (a plant of a bean whose
turn-over still waits) goes in by itself once those are confirmed as they are (``after``);
where one of them is corrected or dismissed, it waits for its own tap. Proposals live in
memory: the camera proposes again what it still sees.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

MAX_PENDING = 20
"""Per game; the oldest proposals give way to new ones."""


@dataclass(frozen=True, slots=True)
class Proposal:
    """One proposed event and who proposed it."""

    id: int
    event: dict[str, Any]
    source: str
    after: frozenset[int] | None = None
    """The proposals whose confirmation, as they are, lets this one go in by itself (None: it waits for a tap)."""
    alternatives: tuple[dict[str, Any], ...] = ()
    """Other events the proposer would have in its place, likeliest first (one-tap corrections)."""


class Proposals:
    """Pending proposals per game (thread-safe)."""

    def __init__(self) -> None:
        self._pending: dict[int, list[Proposal]] = {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    def add(self, game_id: int, event: dict[str, Any], source: str, after: frozenset[int] | None = None,
            alternatives: tuple[dict[str, Any], ...] = ()) -> Proposal:
        proposal = Proposal(next(self._ids), event, source, after or None, alternatives)
        with self._lock:
            pending = self._pending.setdefault(game_id, [])
            pending.append(proposal)
            del pending[:-MAX_PENDING]
        return proposal

    def take(self, game_id: int, proposal_id: int) -> Proposal | None:
        """Remove and return a pending proposal (None if there is none with that id)."""
        with self._lock:
            pending = self._pending.get(game_id, [])
            for index, proposal in enumerate(pending):
                if proposal.id == proposal_id:
                    return pending.pop(index)
        return None

    def put_back(self, game_id: int, proposal: Proposal) -> None:
        with self._lock:
            self._pending.setdefault(game_id, []).insert(0, proposal)

    def pending(self, game_id: int) -> list[Proposal]:
        with self._lock:
            return list(self._pending.get(game_id, []))

    def confirmed(self, game_id: int, proposal_id: int) -> list[Proposal]:
        """Proposal ``proposal_id`` went in as it was: those that waited on it alone are removed and returned (oldest
        first), to go in by themselves; the others wait on one fewer."""
        with self._lock:
            freed = [replace(p, after=p.after - {proposal_id}) if p.after else p
                     for p in self._pending.get(game_id, [])]
            released = [p for p in freed if p.after == frozenset()]
            self._pending[game_id] = [p for p in freed if p.after != frozenset()]
            return released

    def release(self, game_id: int, proposal_id: int, push: Callable[[Proposal], bool]) -> None:
        """Proposal ``proposal_id`` went in as it was: ``push``, oldest first, each that waited on it alone, and each
        that then waits on nothing more; one ``push`` says did not go in (it answers False, having put it back to wait
        for its own tap where it should) leaves those waiting on it to their own taps."""
        released = self.confirmed(game_id, proposal_id)
        while released:
            proposal = released.pop(0)
            if push(proposal):
                released += self.confirmed(game_id, proposal.id)
            else:
                self.hold(game_id, proposal.id)

    def hold(self, game_id: int, proposal_id: int) -> None:
        """Proposal ``proposal_id`` was corrected, dismissed or refused: those that waited on it wait for their own
        tap."""
        with self._lock:
            self._pending[game_id] = [replace(p, after=None) if p.after and proposal_id in p.after else p
                                      for p in self._pending.get(game_id, [])]

    def hold_all(self) -> list[int]:
        """Auto-accept was turned off: every proposal waits for its own tap. The games where one waited on others."""
        with self._lock:
            held = [game_id for game_id, pending in self._pending.items() if any(p.after for p in pending)]
            self._pending = {game_id: [replace(p, after=None) for p in pending]
                             for game_id, pending in self._pending.items()}
            return held
