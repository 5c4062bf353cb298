"""What each player may see: the public table, and one player's own view of it.

At a real table the engine itself has only the public view; in full-information
mode a player's view adds that player's own hand.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from companion.rules.forecast import Forecast, forecast
from companion.rules.hidden import hidden_counts
from companion.rules.scoring import Ranking, ranking

if TYPE_CHECKING:
    from companion.rules.state import GameState


@dataclass(frozen=True, slots=True)
class SeatView:
    """One player as everyone sees them."""

    name: str
    coins: int
    coin_beans: tuple[str, ...]
    fields: tuple[tuple[str, int] | None, ...]
    """(bean, count) per field, None for an empty field."""
    harvest_values: tuple[int, ...]
    """Coins a harvest of each field would pay now."""
    hand_size: int
    received: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PublicView:
    """The table as everyone sees it."""

    ruleset: str
    modules: tuple[str, ...]
    seats: tuple[SeatView, ...]
    active: int
    to_act: tuple[int, ...]
    """Who must act now, first to act first."""
    phase: int
    turn: int
    face_up: tuple[str, ...]
    draw_pile: int
    discard_pile: int
    discard_top: str | None
    unseen: dict[str, int]
    hidden: dict[str, dict[str, tuple[int, int]]]
    """Per bean, the fewest and most cards that may be in the draw pile and hidden in hands."""
    passes: int
    end_pass: int
    forecast: Forecast | None
    game_over: bool
    ranking: Ranking
    shown: dict[str, Any]
    """What the turn structure and modules show everyone (the Duel's offer, the Bean Coin's holder)."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (``companion replay --json``, the web API)."""
        return {
            "ruleset": self.ruleset,
            "modules": list(self.modules),
            "players": [
                {
                    "name": s.name,
                    "coins": s.coins,
                    "coins_by_bean": dict(Counter(s.coin_beans).most_common()),
                    "fields": [None if f is None else {"bean": f[0], "count": f[1]} for f in s.fields],
                    "harvest_values": list(s.harvest_values),
                    "hand_size": s.hand_size,
                    "received": list(s.received),
                }
                for s in self.seats
            ],
            "active_player": self.active,
            "to_act": list(self.to_act),
            "phase": self.phase,
            "turn": self.turn,
            "face_up": list(self.face_up),
            "draw_pile": self.draw_pile,
            "discard_pile": self.discard_pile,
            "discard_top": self.discard_top,
            "unseen": self.unseen,
            "pile_beans": {b: list(c["pile"]) for b, c in self.hidden.items()},
            "hidden_in_hands": {b: list(c["hands"]) for b, c in self.hidden.items()},
            "passes": self.passes,
            "end_pass": self.end_pass,
            "forecast": asdict(self.forecast) if self.forecast else None,
            "game_over": self.game_over,
            "winners": list(self.ranking.winners) if self.game_over else [],
            "scores": self.ranking.scores,
            "score_breakdown": self.ranking.breakdown,
            "result": self.ranking.explanation if self.game_over else None,
            **self.shown,
        }


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One player's view: the public table plus their own hand, front card first (if known)."""

    seat: int
    table: PublicView
    hand: tuple[str, ...] | None


def public_view(state: GameState) -> PublicView:
    """Everything on the table that every player can see."""
    rules = state.rules
    seats = tuple(
        SeatView(
            name=p.name,
            coins=len(p.coins),
            coin_beans=tuple(p.coins),
            fields=tuple((f.bean, f.count) if f.bean else None for f in p.fields),
            harvest_values=tuple(rules.harvest_value(state, seat, i) for i in range(len(p.fields))),
            hand_size=p.hand.size,
            received=tuple(p.received),
        )
        for seat, p in enumerate(state.players)
    )
    return PublicView(
        ruleset=rules.name,
        modules=tuple(m.name for m in rules.modules),
        seats=seats,
        active=state.active,
        to_act=state.to_act(),
        phase=int(state.phase),
        turn=state.turn,
        face_up=tuple(state.face_up),
        draw_pile=state.draw.size,
        discard_pile=len(state.discard),
        discard_top=state.discard[-1] if state.discard else None,
        unseen={b: state.unseen[b] for b in state.deck_counts},
        hidden=hidden_counts(state.hidden, Counter({b: state.unseen[b] for b in state.deck_counts}), state.draw.size,
                             sum(p.hand.size for p in state.players)),
        passes=state.passes,
        end_pass=rules.end_pass(),
        forecast=forecast(state),
        game_over=state.game_over,
        ranking=ranking(state),
        shown=rules.public(state),
    )


def player_view(state: GameState, seat: int) -> PlayerView:
    """What the player in ``seat`` sees."""
    cards = state.players[seat].hand.cards
    return PlayerView(seat, public_view(state), tuple(cards) if cards is not None else None)
