"""One wording of every event, shared by the tablet, the terminal and the history.

Events are described from their record form, so a stored event reads the same
wherever it is shown. Modules register the wording of the moves they add.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from companion.cards import CATALOGUE

Wording = Callable[[dict[str, Any], "Names"], str]
WORDINGS: dict[str, Wording] = {}


class Names:
    """Players' names by seat, for sentences."""

    def __init__(self, names: Sequence[str]):
        self.names = tuple(names)

    def __call__(self, seat: Any) -> str:
        return self.names[seat] if isinstance(seat, int) and 0 <= seat < len(self.names) else f"seat {seat}"


def wording(kind: str) -> Callable[[Wording], Wording]:
    """Decorator: the sentence for events of type ``kind``."""

    def register(func: Wording) -> Wording:
        WORDINGS[kind] = func
        return func

    return register


def describe(event: dict[str, Any], names: Sequence[str]) -> str:
    """One line in players' words for an event in its record form."""
    func = WORDINGS.get(str(event.get("type")))
    return func(event, Names(names)) if func else str(event.get("type"))


def propose(event: dict[str, Any], names: Sequence[str]) -> str:
    """One line for an event not made yet, waiting for an answer: a trade as the offer it is
    ("Ann offers Ben Blue for Red"); any other event as :func:`describe` words it."""
    if event.get("type") != "trade":
        return describe(event, names)
    active, partner, gives, receive = _trade_sides(event, Names(names))
    if not receive:
        return f"{active} offers {partner} {beans(gives)} as a gift"
    if not gives:
        return f"{active} asks {partner} for {beans(receive)} as a gift"
    return f"{active} offers {partner} {beans(gives)} for {beans(receive)}"


def bean_name(bean: Any) -> str:
    """A bean's name ("Blue Bean"); the id itself when it is not a bean."""
    return CATALOGUE[bean].name if bean in CATALOGUE else str(bean)


def beans(ids: Any) -> str:
    """A list of beans in words ("Blue, Chili"), or "nothing"."""
    if not ids:
        return "nothing"
    return ", ".join(bean_name(b).removesuffix(" Bean") for b in ids)


def cards(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"


_FROM = {"hand": "from hand", "face-up": "turned over", "received": "received", "offer": "offered"}


@wording("plant")
def _plant(e: dict[str, Any], who: Names) -> str:
    where = "" if e.get("field") is None else f" in field {e['field'] + 1}"
    return f"{who(e['player'])} planted a {bean_name(e['bean'])} ({_FROM.get(e.get('source', 'hand'), '')}){where}"


@wording("turn-over")
def _turn_over(e: dict[str, Any], who: Names) -> str:
    return f"{who(e['player'])} turned over {beans(e.get('beans'))}"


def _trade_sides(e: dict[str, Any], who: Names) -> tuple[str, str, list[Any], list[Any]]:
    """A trade's active player and partner by name, what the active player gives and what they receive."""
    gives = [*e.get("give_face_up", ()), *e.get("give_hand", ())]
    return who(e.get("player")), who(e.get("partner")), gives, list(e.get("receive") or ())


@wording("trade")
def _trade(e: dict[str, Any], who: Names) -> str:
    active, partner, gives, receive = _trade_sides(e, who)
    if not receive:
        return f"{active} gave {partner} {beans(gives)}"
    if not gives:
        return f"{partner} gave {active} {beans(receive)}"
    return f"{active} traded {beans(gives)} with {partner} for {beans(receive)}"


@wording("end-trading")
def _end_trading(e: dict[str, Any], who: Names) -> str:
    return f"{who(e['player'])} ended trading"


@wording("harvest")
def _harvest(e: dict[str, Any], who: Names) -> str:
    return f"{who(e['player'])} harvested field {e['field'] + 1}"


@wording("buy-field")
def _buy_field(e: dict[str, Any], who: Names) -> str:
    return f"{who(e['player'])} bought a third field"


@wording("draw")
def _draw(e: dict[str, Any], who: Names) -> str:
    count = e.get("count")
    return f"{who(e['player'])} drew" + (f" {cards(count)}" if count else "")
