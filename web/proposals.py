"""Proposed events (from the camera, or any tool) waiting for a tap to confirm, correct or dismiss.

A proposal is not part of the game until someone confirms it; then it is pushed like
any other event, possibly corrected first. Proposals live in memory: the camera
proposes again what it still sees.
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass
from typing import Any

MAX_PENDING = 20
"""Per game; the oldest proposals give way to new ones."""


@dataclass(frozen=True, slots=True)
class Proposal:
    """One proposed event and who proposed it."""

    id: int
    event: dict[str, Any]
    source: str


class Proposals:
    """Pending proposals per game (thread-safe)."""

    def __init__(self) -> None:
        self._pending: dict[int, list[Proposal]] = {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    def add(self, game_id: int, event: dict[str, Any], source: str) -> Proposal:
        proposal = Proposal(next(self._ids), event, source)
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
