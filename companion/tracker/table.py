"""The table tracker: settled camera views become the moves that explain them, proposed once.

Each analysed frame gives a :class:`~companion.tracker.view.TableView` and whether the table
was moving (a hand over it, a card being laid). :class:`Steadiness` lets a view count only
while the table is still, and settles on it when most of the last still frames agree, so a
hand, a shadow or a half-laid card changes nothing and a real change is reported once.
:class:`TableTracker` then asks the rules which moves explain the settled change
(:func:`~companion.tracker.explain.explain`) and proposes them: ``sure`` when every column it
rests on was named with confidence, so the table may push it without a tap.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass
from typing import Any

from companion.rules.moves import move_to_dict
from companion.rules.state import GameState
from companion.tracker.explain import explain
from companion.tracker.view import TableView

STILL_FRAMES = 4
"""Still frames a view is voted over."""
VOTES = 3
"""Of those, how many must agree to settle on a view."""


class Steadiness:
    """Motion gating and votes over the last still frames."""

    def __init__(self, window: int = STILL_FRAMES, votes: int = VOTES) -> None:
        self.votes = votes
        self.recent: deque[TableView] = deque(maxlen=window)
        self.settled: TableView | None = None

    def moved(self) -> None:
        """The table moved (a hand over it): the votes start again."""
        self.recent.clear()

    def feed(self, view: TableView, moving: bool) -> TableView | None:
        """The view the table settled on, when this frame settles it on a new one; else None."""
        if moving:
            self.moved()
            return None
        self.recent.append(view)
        winner, votes = Counter(self.recent).most_common(1)[0]
        if votes < self.votes or winner == self.settled:
            return None
        self.settled = winner
        return winner


@dataclass(frozen=True, slots=True)
class Observation:
    """A settled change of the table: the moves that explain it (record events, oldest first), whether the table
    may push them without a tap, and a sentence when no legal moves explain what the camera sees."""

    events: tuple[dict[str, Any], ...]
    sure: bool
    note: str | None = None


class TableTracker:
    """One game's camera referee: feed it each frame's view; it answers a settled change with an observation."""

    def __init__(self, steadiness: Steadiness | None = None) -> None:
        self.steadiness = steadiness or Steadiness()

    def observe(self, view: TableView, moving: bool, state: GameState) -> Observation | None:
        """The observation a frame's ``view`` settles, against the game as it stands in ``state``."""
        settled = self.steadiness.feed(view, moving)
        if settled is None:
            return None
        moves = explain(state, settled)
        if moves is None:
            return Observation((), False, "the camera sees a table that no move the rules allow now explains; "
                                          "check the fields and enter what happened")
        if not moves:
            return None
        sure = all(bean is not None for _, columns in settled.fields for bean, _ in columns)
        return Observation(tuple(move_to_dict(m) for m in moves), sure)
