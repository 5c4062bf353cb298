"""Scores, the winner and each edition's tie-break, with a sentence that explains it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.rules.editions import TIE_FURTHEST, TIE_MOST_CARDS

if TYPE_CHECKING:
    from companion.rules.state import GameState


@dataclass(frozen=True, slots=True)
class Ranking:
    """Scores per player, the winners (several if they share) and how a tie was broken."""

    scores: dict[str, int]
    breakdown: dict[str, dict[str, int]]
    """Each player's score by kind (coins, orders, ...)."""
    winners: tuple[str, ...]
    explanation: str


def ranking(state: GameState) -> Ranking:
    """Who leads (or, once the game is over, who won)."""
    breakdown = {p.name: state.rules.score(state, seat) for seat, p in enumerate(state.players)}
    scores = {name: sum(parts.values()) for name, parts in breakdown.items()}
    best = max(scores.values())
    tied = [seat for seat, name in enumerate(state.names) if scores[name] == best]
    names = [state.names[s] for s in tied]
    if len(tied) == 1:
        return Ranking(scores, breakdown, (names[0],), f"{names[0]} has the most coins ({best}).")
    winners, reason = state.rules.break_tie(state, tied) or _break_tie(state, tied)
    listed = _joined(names)
    coins = f"{best} coin{'s' if best != 1 else ''}"
    return Ranking(scores, breakdown, tuple(state.names[s] for s in winners), f"{listed} tie on {coins}; {reason}")


def _break_tie(state: GameState, tied: list[int]) -> tuple[list[int], str]:
    rule = state.rules.tie_break
    n = len(state.players)
    if rule == TIE_FURTHEST:
        seat = max(tied, key=lambda s: (s - state.setup.start_player) % n)
        return [seat], f"{state.names[seat]} sits furthest from the start player (clockwise) and wins."
    if rule == TIE_MOST_CARDS:
        most = max(state.players[s].hand.size for s in tied)
        leaders = [s for s in tied if state.players[s].hand.size == most]
        if len(leaders) == 1:
            return leaders, f"{state.names[leaders[0]]} has the most cards in hand ({most}) and wins."
        names = _joined([state.names[s] for s in leaders])
        return leaders, f"{names} also tie on cards in hand ({most}) and share the win."
    return tied, "they share the win."


def _joined(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
