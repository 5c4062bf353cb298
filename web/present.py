"""A game's state as the page draws it: the engine's summary plus what the page shows beside it."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

from companion.dice.config import DiceSet
from companion.dice.game import DiceGame
from companion.dice.moves import Exchange, Harvest
from companion.dice.notation import Order
from companion.dice.odds import probability
from companion.games import game_kind
from companion.records.format import Header
from companion.rules import GameState
from companion.rules.wording import describe, propose


def present(header: Header, state: Any) -> dict[str, Any]:
    """The state of a game as JSON for the page."""
    data = game_kind(header.game).summary(state)
    data["game"] = header.game
    if isinstance(state, DiceGame):
        _add_dice_details(data, state)
    if isinstance(state, GameState):
        public = as_a_real_table(state)
        data["legal"] = [[m.to_dict() for m in public.legal_moves(seat)] for seat in range(len(public.players))]
    return data


def as_a_real_table(state: GameState) -> GameState:
    """The game as a real table knows it: a known deck's moves replayed without the deck.

    The moves a page offers must not tell a watcher a hidden card (the front of a hand, the
    top of the draw pile), as the header hides a known deck's seed.
    """
    if not state.known:
        return state
    return GameState.replayed(replace(state.setup, deck=None), state.move_stack)


def event_text(header: Header, event: dict[str, Any]) -> str | None:
    """The shared sentence for a card-game event (the dice page words its own events)."""
    return describe(event, header.players) if header.game == "bohnanza" else None


def proposal_text(header: Header, event: dict[str, Any]) -> str | None:
    """The sentence for a card-game event that waits to be confirmed or answered (a trade: an offer)."""
    return propose(event, header.players) if header.game == "bohnanza" else None


def public_header(header: Header) -> dict[str, Any]:
    """A game's header as every watcher may see it: a known deck's seed and order stay hidden.

    A real table shows no one the order of the draw pile; a watcher who read the seed
    of a known deck would know every hand.
    """
    data = header.to_dict()
    if data.get("deck") is not None:
        data["deck"] = {"known": True}
    if header.game == "dice" and data.get("options", {}).get("harvest_cards") not in (None, "table"):
        data["options"] = {k: v for k, v in data["options"].items() if k != "seed"}
    return data


def holds_hidden_order(header: Header) -> bool:
    """Whether the header's deck fixes hidden cards (so its record is for editors only)."""
    return public_header(header) != header.to_dict()


def progress(header: Header, events: list[dict[str, Any]]) -> dict[str, Any]:
    """Every player's score (coins or dollars) at the start and after each event."""
    kind = game_kind(header.game)
    state = kind.new_state(header)
    series: list[list[int]] = [_scores(kind.summary(state), header)]
    for event in events:
        kind.push(state, kind.move_from_dict(event))
        series.append(_scores(kind.summary(state), header))
    return {"players": list(header.players), "scores": series}


def _scores(summary: dict[str, Any], header: Header) -> list[int]:
    return [summary["scores"][name] for name in header.players]


@lru_cache(maxsize=4096)
def order_odds(order: Order, dice: DiceSet) -> Fraction:
    """The exact probability that one roll of ``dice`` meets ``order`` (cached: cards repeat all game)."""
    return probability(order, dice)


def odds_json(odds: Fraction) -> dict[str, Any]:
    """An exact probability as the page shows it: a percentage (one decimal) and the fraction."""
    return {"percent": round(float(odds * 100), 1), "fraction": f"{odds.numerator}/{odds.denominator}"}


def _add_dice_details(data: dict[str, Any], game: DiceGame) -> None:
    """Odds of every order on the top cards, faces of every die, the deck kind, and who may harvest or exchange."""
    for seat, player in enumerate(data["players"]):
        top = game.players[seat].top
        if top is not None:
            for shown, order in zip(player["top_card"]["orders"], top.orders):
                shown.update(odds_json(order_odds(order, game.dice)))
        player["can_harvest"] = game.check(Harvest(seat)) is None
        player["can_exchange"] = game.check(Exchange(seat)) is None
    for die, shown in zip(game.dice.dice, data["dice"]):
        shown["faces"] = list(die.faces)
    data["to_roll"] = game.to_roll()
    data["deck"] = "hidden" if game.deck is None else "known"
