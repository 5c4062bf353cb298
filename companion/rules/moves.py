"""Moves of the card game: small value types, and their JSON form in game records.

Chance is logged like any move: ``TurnOver`` names the cards that came up, and
``Draw`` moves hidden cards from the draw pile into a hand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, fields
from enum import Enum
from typing import Any, Protocol, TypeVar

from companion.records.checked import is_unicode, shown

T = TypeVar("T")


class Source(str, Enum):
    """Where a planted card comes from."""

    HAND = "hand"
    """The front card of the hand (phase 1)."""
    FACE_UP = "face-up"
    """A card the active player turned over and kept (phase 3)."""
    RECEIVED = "received"
    """A card received in a trade or as a gift (phase 3)."""
    OFFER = "offer"
    """The Duel: a card the opponent left as an offer (phase 0)."""


@dataclass(frozen=True, slots=True)
class Plant:
    """Plant one card in a field; ``field`` None picks a matching field, else an empty one."""

    player: int
    bean: str
    source: Source = Source.HAND
    field: int | None = None


@dataclass(frozen=True, slots=True)
class TurnOver:
    """Phase 2: the active player turns over the top cards of the draw pile."""

    player: int
    beans: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Trade:
    """An agreed trade or gift between the active player and one partner.

    The active player gives turned-over cards and/or hand cards; the partner gives hand cards.
    Either side may be empty (a gift), not both.
    """

    player: int
    partner: int
    give_face_up: tuple[str, ...] = ()
    give_hand: tuple[str, ...] = ()
    receive: tuple[str, ...] = ()
    give_hand_at: tuple[int, ...] = ()
    """Where each card of ``give_hand`` sits in the hand (0 = front); left out: the rearmost copy."""
    receive_at: tuple[int, ...] = ()
    """Where each card of ``receive`` sits in the partner's hand; left out: the rearmost copy."""


@dataclass(frozen=True, slots=True)
class EndTrading:
    """The active player ends phase 2; everyone now plants what they received."""

    player: int


@dataclass(frozen=True, slots=True)
class Harvest:
    """Harvest one whole field (any player, at any time)."""

    player: int
    field: int


@dataclass(frozen=True, slots=True)
class BuyField:
    """Buy the third bean field with coins from the coin pile.

    ``coins`` names the coins spent by the bean on their other side; left out, the topmost
    coins are spent, as the classic edition says.
    """

    player: int
    coins: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Draw:
    """Phase 4: a player draws cards into the back of the hand (``count`` None: as the rules say)."""

    player: int
    count: int | None = None


class Move(Protocol):
    """A move: one of the value types above, or one a turn structure or module registers."""

    @property
    def player(self) -> int:
        """The seat that makes the move."""

MOVE_TYPES: dict[str, type] = {
    "plant": Plant,
    "turn-over": TurnOver,
    "trade": Trade,
    "end-trading": EndTrading,
    "harvest": Harvest,
    "buy-field": BuyField,
    "draw": Draw,
}
_TYPE_NAMES = {cls: name for name, cls in MOVE_TYPES.items()}
_BEAN_LISTS = {"beans", "give_face_up", "give_hand", "receive", "coins"}
_PLACE_LISTS = {"give_hand_at", "receive_at"}
FIELD_PARSERS: dict[str, Callable[[str, Any], Any]] = {}
"""Parsers of fields that registered moves add (``(event type, value) -> value``, ``ValueError`` if bad)."""


def register_move(
    kind: str, fields: Mapping[str, Callable[[str, Any], Any]] | None = None
) -> Callable[[type[T]], type[T]]:
    """Class decorator: a move type of a turn structure or module, recorded as ``{"type": kind, ...}``.

    Fields named like the base moves' are checked the same way; ``fields`` adds parsers for new names.
    """

    def register(cls: type[T]) -> type[T]:
        MOVE_TYPES[kind] = cls
        _TYPE_NAMES[cls] = kind
        FIELD_PARSERS.update(fields or {})
        return cls

    return register


def move_type(move: Move) -> str:
    """The record type name of a move (``"plant"``)."""
    return _TYPE_NAMES[type(move)]
MAX_NUMBER = 1000
"""Largest seat, field, card count or list length an event may name: far beyond any table."""
MAX_BEAN_ID = 40


def move_to_dict(move: Move) -> dict[str, Any]:
    """The record form of a move: ``{"type": ..., field: value, ...}`` without empty defaults."""
    data: dict[str, Any] = {"type": _TYPE_NAMES[type(move)]}
    for f in fields(move):  # type: ignore[arg-type]
        value = getattr(move, f.name)
        if value is None or value == ():
            continue
        if isinstance(value, Source):
            value = value.value
        elif isinstance(value, tuple):
            value = list(value)
        data[f.name] = value
    return data


def move_from_dict(data: Any) -> Move:
    """Parse the record form of a move, every field's type and range checked; ``ValueError`` says what is wrong."""
    if not isinstance(data, dict):
        raise ValueError("an event must be a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in MOVE_TYPES:
        raise ValueError(f"unknown event type {shown(kind)}; expected one of {', '.join(MOVE_TYPES)}")
    cls = MOVE_TYPES[kind]
    names = {f.name: f for f in fields(cls)}
    extra = set(data) - set(names) - {"type"}
    if extra:
        raise ValueError(f"a {kind} event has no field {shown(', '.join(sorted(map(str, extra))))}")
    values: dict[str, Any] = {}
    for name, f in names.items():
        if name not in data:
            if f.default is MISSING:
                raise ValueError(f"a {kind} event needs {name!r}")
            continue
        values[name] = _field_value(kind, name, data[name], optional=f.default is None)
    move: Move = cls(**values)
    return move


def _field_value(kind: str, name: str, value: Any, optional: bool) -> Any:
    """A field's value checked (``optional``: the move leaves it out by default, so ``null`` may stand for it)."""
    if name in FIELD_PARSERS:
        return FIELD_PARSERS[name](kind, value)
    if name == "source":
        sources = {s.value: s for s in Source}
        if not isinstance(value, str) or value not in sources:
            raise ValueError(f"source must be one of {', '.join(sources)}, not {shown(value)}")
        return sources[value]
    if name in _PLACE_LISTS:
        if not isinstance(value, list) or len(value) > MAX_NUMBER or \
                not all(type(v) is int and 0 <= v <= MAX_NUMBER for v in value):  # fmt: skip
            raise ValueError(f"{name!r} of a {kind} event must be a list of places in the hand (0 = front)")
        return tuple(value)
    if name in _BEAN_LISTS:
        if not isinstance(value, list) or len(value) > MAX_NUMBER or not all(_is_bean_id(b) for b in value):
            raise ValueError(f"{name!r} of a {kind} event must be a list of bean ids")
        return tuple(value)
    if name == "bean":
        if not _is_bean_id(value):
            raise ValueError(f"'bean' of a {kind} event must be a bean id")
        return value
    if value is None and optional and name in ("field", "count", "at"):
        return None
    if type(value) is not int or not 0 <= value <= MAX_NUMBER:
        raise ValueError(f"{name!r} of a {kind} event must be a whole number from 0 to {MAX_NUMBER}, "
                         f"not {shown(value)}")
    return value


def _is_bean_id(value: Any) -> bool:
    """Whether ``value`` may name a bean: short text (the rules say whether it is one of theirs)."""
    return isinstance(value, str) and len(value) <= MAX_BEAN_ID and is_unicode(value)
