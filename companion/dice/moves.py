"""Moves and chance events of the dice game, and their JSON form.

Decisions (save, bean piece, harvest, end of turn, exchange) and chance (a roll's
outcome, a harvest card drawn) are all small frozen records; the move log of a
game replays it exactly.  Players are seat indices.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from companion.dice.catalogue import ORDERS_PER_CARD, HarvestCard, card_to_data
from companion.dice.notation import Order, parse_order
from companion.records.checked import clean_text, is_unicode, shown

MAX_NUMBER = 1000
"""Largest seat, die index or list length an event may name: far beyond any table."""
MAX_TEXT = 40
"""Longest bean id, card id or printed percentage."""
MAX_ORDER_TEXT = 200
MAX_ORDER_DICE = 100
"""Most dice one alternative of an order may ask for; the dice of a game refuse more than they have."""
_PERCENT = re.compile(r"[0-9]{1,3}(?:\.[0-9]{1,3})?")


@dataclass(frozen=True, slots=True)
class DrawCard:
    """Chance: ``player`` draws ``card`` from the harvest deck (to their top, else bottom, place)."""

    player: int
    card: HarvestCard


@dataclass(frozen=True, slots=True)
class Roll:
    """Chance: the bean each die shows after a roll, None for dice in the bean field."""

    beans: tuple[str | None, ...]


@dataclass(frozen=True, slots=True)
class Save:
    """The active player puts these dice (indices) in the bean field."""

    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class UseBeanPiece:
    """The active player repeats the roll of all dice just rolled (once per turn)."""


@dataclass(frozen=True, slots=True)
class Harvest:
    """``player`` harvests their top card (three or more orders completed)."""

    player: int


@dataclass(frozen=True, slots=True)
class EndTurn:
    """All five dice are saved: the bean piece passes to the left."""


@dataclass(frozen=True, slots=True)
class Exchange:
    """The deck runs out: ``player`` swaps five single dollars for a player aid card (5 dollars)."""

    player: int


Move = DrawCard | Roll | Save | UseBeanPiece | Harvest | EndTurn | Exchange

EVENT_TYPES = ("draw", "roll", "save", "bean-piece", "harvest", "end-turn", "exchange")


def move_to_dict(move: Move) -> dict[str, Any]:
    """The JSON event for ``move``."""
    match move:
        case DrawCard(player, card):
            return {"type": "draw", "player": player, "card": card_to_data(card)}
        case Roll(beans):
            return {"type": "roll", "beans": list(beans)}
        case Save(dice):
            return {"type": "save", "dice": list(dice)}
        case UseBeanPiece():
            return {"type": "bean-piece"}
        case Harvest(player):
            return {"type": "harvest", "player": player}
        case EndTurn():
            return {"type": "end-turn"}
        case Exchange(player):
            return {"type": "exchange", "player": player}
    raise TypeError(f"not a dice move: {move!r}")


def move_from_dict(data: dict[str, Any]) -> Move:
    """The move of a JSON event, every field's type and range checked; ``ValueError`` says what is malformed.

    Unknown keys are ignored.
    """
    if not isinstance(data, dict):
        raise ValueError(f"an event is a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in EVENT_TYPES:
        raise ValueError(f"unknown event type {shown(kind)}; expected one of {', '.join(EVENT_TYPES)}")
    try:
        match kind:
            case "draw":
                return DrawCard(_int(data, "player"), checked_card(data.get("card")))
            case "roll":
                beans = _list(data, "beans")
                if not all(b is None or (isinstance(b, str) and len(b) <= MAX_TEXT and is_unicode(b)) for b in beans):
                    raise ValueError('"beans" holds bean ids, or null for dice in the bean field')
                return Roll(tuple(beans))
            case "save":
                dice = _list(data, "dice")
                if not all(type(d) is int and 0 <= d <= MAX_NUMBER for d in dice):
                    raise ValueError(f'"dice" holds die indices (integers from 0 to {MAX_NUMBER})')
                return Save(tuple(dice))
            case "bean-piece":
                return UseBeanPiece()
            case "harvest":
                return Harvest(_int(data, "player"))
            case "end-turn":
                return EndTurn()
            case _:
                return Exchange(_int(data, "player"))
    except ValueError as exc:
        raise ValueError(f"{kind} event: {exc}") from None


def checked_order(text: Any) -> Order:
    """Order text from outside: at most ``MAX_ORDER_TEXT`` characters and ``MAX_ORDER_DICE`` dice per alternative.

    ``OrderSyntaxError`` where the text is malformed, ``ValueError`` where it is too long or asks too much.
    """
    if not isinstance(text, str):
        raise ValueError(f"an order is text, not {shown(text)}")
    if len(text) > MAX_ORDER_TEXT:
        raise ValueError(f"an order is at most {MAX_ORDER_TEXT} characters")
    result = parse_order(text)
    problem = order_problem(result)
    if problem:
        raise ValueError(problem)
    return result


def checked_percentage(value: Any) -> str:
    """A percentage printed on a card, from outside ("14", "4.5", "14 %"): its number as text; ``ValueError`` if not."""
    text = str(value).strip().removesuffix("%").strip() if type(value) in (str, int, float) else ""
    if len(text) > MAX_TEXT or not _PERCENT.fullmatch(text) or float(text) > 100:
        raise ValueError(f"{shown(value)} is not a percentage between 0 and 100 (e.g. 14 or 4.5)")
    return text


def order_problem(order: Order) -> str | None:
    """Why ``order`` asks for more dice than any table has (too many even to try), or None."""
    for alt in order.alternatives:
        if alt.dice > MAX_ORDER_DICE:
            return f"{shown(str(alt))} asks for {alt.dice} dice; an order may ask for at most {MAX_ORDER_DICE}"
    return None


def checked_card(data: Any) -> HarvestCard:
    """A harvest card from outside (a draw event, a game's options), each field checked before it is parsed."""
    if not isinstance(data, dict) or not isinstance(data.get("orders"), list):
        raise ValueError('a harvest card is an object with "orders": a list of five orders')
    if len(data["orders"]) != ORDERS_PER_CARD:
        raise ValueError(f"a harvest card has {ORDERS_PER_CARD} orders, not {len(data['orders'])}")
    orders = tuple(checked_order(text) for text in data["orders"])
    card_id = data.get("id", "")
    if card_id != "":
        card_id = clean_text(card_id, "a harvest card's id", MAX_TEXT)
    return HarvestCard(orders, card_id, _printed(data.get("printed") or []))


def _printed(value: Any) -> tuple[str | None, ...]:
    """The percentages printed on a card, as typed: short texts or numbers from 0 to 100, None where not typed."""
    wrong = ValueError(f'"printed" is a list of {ORDERS_PER_CARD} percentages (null where not typed)')
    if not isinstance(value, list):
        raise wrong
    typed: list[str | None] = []
    for p in value:
        if type(p) in (int, float) and 0 <= p <= 100:
            typed.append(str(p))
        elif p is None or (isinstance(p, str) and len(p) <= MAX_TEXT and is_unicode(p)):
            typed.append(p)
        else:
            raise wrong
    return tuple(typed)


def _int(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if type(value) is not int or not 0 <= value <= MAX_NUMBER:
        raise ValueError(f'"{key}" must be a seat index (an integer from 0 to {MAX_NUMBER}), got {shown(value)}')
    return value


def _list(data: dict[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list) or len(value) > MAX_NUMBER:
        raise ValueError(f'"{key}" must be a list of at most {MAX_NUMBER} items, got {shown(value)}')
    return value
