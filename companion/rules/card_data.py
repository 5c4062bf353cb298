"""Values printed only on cards (High Bohn's buildings, the Cognac bean), as data a group may correct.

Defaults come from ``buildings.json``, each with a ``source`` saying whether the book prints it.
A record's ``card_data`` option replaces entries with what a group's own cards print, e.g.
``{"jail-2": {"beanometer": [3, 5, 7, 9]}, "bank-2": {"action": {"when": "draw", "thalers": 1}}}``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from companion.rules.buildings import BUILDINGS, card_name

Steps = tuple[int | None, int | None, int | None, int | None]
GROUP_SOURCE = "entered by the group from its own card"
MAX_STEP = 30
MAX_ACTION_THALERS = 9

WHEN = {
    "on-build": "right after it is bought",
    "turn-start": "on its owner's turn, before the first plant",
    "draw": "in its owner's phase 4, before drawing",
}
"""When a card's action is taken; once that moment has passed it is lost for the turn."""


@dataclass(frozen=True, slots=True)
class CardAction:
    """An action a card gives its owner at one moment: thalers from the top of the discard pile."""

    when: str
    thalers: int

    def text(self) -> str:
        return f"take {self.thalers} thaler{'s' if self.thalers != 1 else ''} from the discard pile {WHEN[self.when]}"


@dataclass(frozen=True, slots=True)
class CardData:
    """What one card prints beyond the book: a beanometer or an action."""

    source: str
    beanometer: Steps | None = None
    action: CardAction | None = None

    def coins_for(self, cards: int) -> int:
        """Thalers this card's beanometer pays for ``cards`` cards."""
        assert self.beanometer is not None
        return max((step for step, needed in enumerate(self.beanometer, 1) if needed is not None and cards >= needed),
                   default=0)  # fmt: skip


def card_title(card: str) -> str:
    """What a group reads the value off ("the 2 Jail", "the Cognac bean")."""
    building, _, price = card.rpartition("-")
    return card_name(building, int(price)) if building in BUILDINGS else f"the {card.capitalize()} bean"


def to_json(data: Mapping[str, CardData]) -> dict[str, dict[str, Any]]:
    """Card data as a record's ``card_data`` holds it, with each entry's title and source."""
    found: dict[str, dict[str, Any]] = {}
    for card, entry in data.items():
        value: dict[str, Any] = {"title": card_title(card), "source": entry.source}
        if entry.beanometer is not None:
            value["beanometer"] = list(entry.beanometer)
        if entry.action is not None:
            value["action"] = {"when": entry.action.when, "thalers": entry.action.thalers}
        found[card] = value
    return found


@cache
def default_card_data() -> dict[str, CardData]:
    """Card id ("jail-2", "cognac") -> the documented default."""
    text = resources.files("companion.rules").joinpath("buildings.json").read_text(encoding="utf-8")
    return {card: _read(card, entry, entry["source"]) for card, entry in json.loads(text)["cards"].items()}


def with_group_cards(given: Any) -> dict[str, CardData]:
    """The defaults with a group's entries in place; ``ValueError`` says which entry is wrong and why."""
    if not isinstance(given, Mapping):
        raise ValueError('card_data must be an object: card id -> {"beanometer": [...]} or {"action": {...}}')
    found = dict(default_card_data())
    for card, entry in given.items():
        if card not in found:
            raise ValueError(f"card_data: no card {card!r} prints its own values; cards: {', '.join(found)}")
        found[card] = _read(card, entry, GROUP_SOURCE, found[card])
    return found


def _read(card: str, entry: Any, source: str, like: CardData | None = None) -> CardData:
    if not isinstance(entry, Mapping) or set(entry) - {"beanometer", "action", "source"}:
        raise ValueError(f'card_data {card!r}: give {{"beanometer": [...]}} or {{"action": {{...}}}}')
    kind = "beanometer" if "beanometer" in entry else "action"
    if kind not in entry or (like is not None and getattr(like, kind) is None):
        wanted = "beanometer" if like is not None and like.beanometer is not None else "action"
        raise ValueError(f"card_data {card!r}: this card prints a{'n' if wanted == 'action' else ''} {wanted}")
    if kind == "beanometer":
        return CardData(source, beanometer=_steps(card, entry["beanometer"]))
    return CardData(source, action=_action(card, entry["action"]))


def _steps(card: str, value: Any) -> Steps:
    ok = isinstance(value, list) and len(value) == 4
    numbers = [v for v in value if v is not None] if ok else []
    ok = ok and all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= MAX_STEP for v in numbers)
    if not ok or not numbers or numbers != sorted(set(numbers)):
        raise ValueError(f"card_data {card!r}: a beanometer is 4 steps, the cards needed for 1, 2, 3 and 4 thalers "
                         f"(each 1-{MAX_STEP} and rising, null where the card prints none), not {value!r}")  # fmt: skip
    return tuple(value)


def _action(card: str, value: Any) -> CardAction:
    if not isinstance(value, Mapping) or value.get("when") not in WHEN:
        raise ValueError(f"card_data {card!r}: an action needs \"when\": one of {', '.join(WHEN)}")
    thalers = value.get("thalers")
    if not isinstance(thalers, int) or isinstance(thalers, bool) or not 0 <= thalers <= MAX_ACTION_THALERS:
        raise ValueError(f"card_data {card!r}: \"thalers\" is a whole number from 0 to {MAX_ACTION_THALERS}")
    return CardAction(value["when"], thalers)
