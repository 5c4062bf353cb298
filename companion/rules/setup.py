"""What a game starts from: ruleset, options, players in seating order, start player, deck."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class KnownDeck:
    """Full-information mode: the deck's order is known (simulation and tests).

    ``order`` lists the shuffled deck top card first; when None the deck is the
    catalogue order shuffled with ``seed``. Each reshuffle of the discard pile
    uses ``seed`` and the pass number, so a record replays exactly.
    """

    seed: int = 0
    order: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Setup:
    """Everything needed to start a game; the header of a game record holds it."""

    ruleset: str
    players: tuple[str, ...]
    start_player: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    deck: KnownDeck | None = None
    """None: a real table, where hands and the draw pile are hidden."""

    def __post_init__(self) -> None:
        if len(set(self.players)) != len(self.players) or not all(self.players):
            raise ValueError("players need distinct, non-empty names")
        if not 0 <= self.start_player < len(self.players):
            raise ValueError(f"start player must be a seat from 0 to {len(self.players) - 1}")
