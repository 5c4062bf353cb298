"""Moves and chance events of the dice game, and their JSON form.

Decisions (save, bean piece, harvest, end of turn, exchange) and chance (a roll's
outcome, a harvest card drawn) are all small frozen records; the move log of a
game replays it exactly.  Players are seat indices.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.dice.catalogue import HarvestCard, card_from_data, card_to_data


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
    """The move of a JSON event; ``ValueError`` says what is malformed.  Unknown keys are ignored."""
    if not isinstance(data, dict):
        raise ValueError(f"an event is a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    if kind not in EVENT_TYPES:
        raise ValueError(f"unknown event type {kind!r}; expected one of {', '.join(EVENT_TYPES)}")
    try:
        match kind:
            case "draw":
                return DrawCard(_int(data, "player"), card_from_data(data.get("card")))
            case "roll":
                beans = _list(data, "beans")
                if not all(b is None or isinstance(b, str) for b in beans):
                    raise ValueError('"beans" holds bean ids, or null for dice in the bean field')
                return Roll(tuple(beans))
            case "save":
                dice = _list(data, "dice")
                if not all(isinstance(d, int) and not isinstance(d, bool) for d in dice):
                    raise ValueError('"dice" holds die indices (integers)')
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


def _int(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f'"{key}" must be a seat index (an integer), got {value!r}')
    return value


def _list(data: dict[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list):
        raise ValueError(f'"{key}" must be a list, got {value!r}')
    return value
