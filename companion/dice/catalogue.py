"""Harvest cards and the group's catalogue of them.

The 55 harvest cards are not published, so a group enters each card once, the
first time it is drawn, and keeps the catalogue in a JSON file (format in
``docs/dice-game.md``).  A clearly labelled, invented sample catalogue serves
demos and tests.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from companion.dice.config import DEFAULT_DICE, DiceSet
from companion.dice.matching import impossible_reason
from companion.dice.notation import Order, order

ORDERS_PER_CARD = 5
FORMAT = "bohnanza-dice-harvest-cards"


@dataclass(frozen=True, slots=True)
class HarvestCard:
    """Five orders, bottom (completed first) to top; ``id`` and ``printed`` are labels only."""

    orders: tuple[Order, ...]
    id: str = field(default="", compare=False)
    printed: tuple[str | None, ...] = field(default=(), compare=False)
    """The percentages printed beside the orders, as typed (None where not typed)."""

    def __post_init__(self) -> None:
        if len(self.orders) != ORDERS_PER_CARD:
            raise ValueError(f"a harvest card has {ORDERS_PER_CARD} orders, not {len(self.orders)}")
        if self.printed and len(self.printed) != ORDERS_PER_CARD:
            raise ValueError(f"a harvest card prints {ORDERS_PER_CARD} percentages, not {len(self.printed)}")

    def impossible_reason(self, dice: DiceSet) -> str | None:
        """Why one of the orders can never be met by ``dice``, or None."""
        for number, o in enumerate(self.orders, start=1):
            reason = impossible_reason(o, dice)
            if reason:
                return f"order {number} (from the bottom): {reason}"
        return None


def card_from_data(data: Any) -> HarvestCard:
    """A card from ``{"orders": [5 texts], "id": ..., "printed": [...]}``; ``ValueError`` if malformed."""
    if not isinstance(data, dict) or not isinstance(data.get("orders"), list):
        raise ValueError('a harvest card is an object with "orders": a list of five orders')
    printed = data.get("printed") or ()
    if not isinstance(printed, list | tuple):
        raise ValueError('"printed" is a list of five percentages (null where not typed)')
    orders = tuple(order(str(o)) for o in data["orders"])
    return HarvestCard(orders, str(data.get("id", "")), tuple(None if p is None else str(p) for p in printed))


def card_to_data(card: HarvestCard) -> dict[str, Any]:
    """The JSON form read by :func:`card_from_data` (orders canonical)."""
    data: dict[str, Any] = {"orders": [str(o) for o in card.orders]}
    if card.id:
        data = {"id": card.id, **data}
    if card.printed:
        data["printed"] = list(card.printed)
    return data


class HarvestCatalogue:
    """The harvest cards a group has entered, by id."""

    def __init__(self, name: str, cards: list[HarvestCard] | tuple[HarvestCard, ...] = (), sample: bool = False):
        self.name = name
        self.sample = sample
        self.cards: list[HarvestCard] = []
        for card in cards:
            self.add(card)

    def find(self, card_id: str) -> HarvestCard:
        """The card with ``card_id``; ``KeyError`` names the unknown id."""
        for card in self.cards:
            if card.id == card_id:
                return card
        raise KeyError(f"no harvest card {card_id!r} in catalogue {self.name!r}")

    def add(self, card: HarvestCard) -> HarvestCard:
        """Add a card (numbered if it has no id) and return it; a card already entered is returned as stored."""
        for known in self.cards:
            if known == card:
                return known
        ids = {c.id for c in self.cards}
        if card.id in ids:
            raise ValueError(f"catalogue {self.name!r} already has a different card {card.id!r}")
        if not card.id:
            number = len(self.cards) + 1
            while str(number) in ids:
                number += 1
            card = HarvestCard(card.orders, str(number), card.printed)
        self.cards.append(card)
        return card

    def to_data(self) -> dict[str, Any]:
        """The catalogue file's JSON."""
        return {
            "format": FORMAT,
            "version": 1,
            "name": self.name,
            "sample": self.sample,
            "cards": [card_to_data(c) for c in self.cards],
        }


def catalogue_from_data(data: Any, dice: DiceSet = DEFAULT_DICE) -> HarvestCatalogue:
    """A catalogue from its JSON; every order must be possible with ``dice``."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f'not a harvest card catalogue (expected "format": "{FORMAT}")')
    if data.get("version") != 1:
        raise ValueError(f"unsupported catalogue version {data.get('version')!r}")
    catalogue = HarvestCatalogue(str(data.get("name", "")), sample=bool(data.get("sample", False)))
    for number, raw in enumerate(data.get("cards", []), start=1):
        try:
            card = card_from_data(raw)
            reason = card.impossible_reason(dice)
            if reason:
                raise ValueError(reason)
            catalogue.add(card)
        except ValueError as exc:
            raise ValueError(f"card {number}: {exc}") from None
    return catalogue


def load_catalogue(path: str | Path, dice: DiceSet = DEFAULT_DICE) -> HarvestCatalogue:
    """Read a catalogue file; ``ValueError`` names the file and the fault."""
    try:
        return catalogue_from_data(json.loads(Path(path).read_text(encoding="utf-8")), dice)
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: {exc}") from None


def save_catalogue(catalogue: HarvestCatalogue, path: str | Path) -> None:
    """Write a catalogue file (UTF-8 JSON, one card per line)."""
    data = catalogue.to_data()
    cards = ",\n    ".join(json.dumps(c, ensure_ascii=False) for c in data.pop("cards"))
    head = json.dumps(data, ensure_ascii=False)[:-1]
    Path(path).write_text(f'{head}, "cards": [\n    {cards}\n]}}\n', encoding="utf-8")


def sample_catalogue() -> HarvestCatalogue:
    """The invented sample catalogue (55 cards) shipped for demos and tests."""
    name, cards = _sample()
    return HarvestCatalogue(name, cards, sample=True)


@lru_cache(maxsize=1)
def _sample() -> tuple[str, tuple[HarvestCard, ...]]:
    text = resources.files("companion.dice").joinpath("sample_harvest_cards.json").read_text(encoding="utf-8")
    catalogue = catalogue_from_data(json.loads(text))
    return catalogue.name, tuple(catalogue.cards)
