"""High Bohn's building cards as data (book 004): one building type per bean, four cards priced 1 to 4.

What the book prints is written here. Beanometers printed only on a building card are read
from ``buildings.json``, each with a ``source`` that says whether its numbers come from the
book or are a default a group may correct from its own cards.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from companion.cards import with_beanometer


@dataclass(frozen=True, slots=True)
class BuildingType:
    """One building type: bought only with thalers of its bean."""

    id: str
    name: str
    bean: str


BUILDINGS: dict[str, BuildingType] = {b.id: b for b in (
    BuildingType("gold-mine", "Gold mine", "garden"),
    BuildingType("tipi", "Indian tipi", "red"),
    BuildingType("bank", "Bank", "black-eyed"),
    BuildingType("farm", "Farm", "soy"),
    BuildingType("saloon", "Saloon", "green"),
    BuildingType("general-store", "General store", "stink"),
    BuildingType("blacksmith", "Blacksmith", "chili"),
    BuildingType("jail", "Jail", "blue"),
    BuildingType("distillery", "Distillery", "cognac"),
)}  # fmt: skip
COGNAC_BUILDING = "distillery"
"""Played only in the Cognac variant."""
PRICES = (1, 2, 3, 4)

TIPI_STEP = {2: 8, 3: 6, 4: 5}
"""Indian tipi: one more thaler at the end for each this many thalers in the earnings stack."""

BONUS_GAME_END = {4: 1, 5: 2, 6: 3, 7: 5, 8: 8}
"""Bonus thalers for four or more buildings, as the game-end text prints them."""
BONUS_SUMMARY_CARD = {4: 1, 5: 2, 6: 3, 7: 4, 8: 5}
"""The same bonus as the summary card prints it."""


def bonus(table: dict[int, int], buildings: int) -> int:
    """Bonus thalers for ``buildings`` buildings; nine (Cognac variant, not in the book) score as eight."""
    return table.get(min(buildings, max(table)), 0)


def card_name(building: str, price: int) -> str:
    """A building card as the book names it ("the 3 Saloon")."""
    return f"the {price} {BUILDINGS[building].name}"


@dataclass(frozen=True, slots=True)
class Beanometer:
    """A building card's beanometer, used instead of its bean's."""

    bean: str
    steps: tuple[int | None, int | None, int | None, int | None]
    source: str

    def coins_for(self, cards: int) -> int:
        return with_beanometer(self.bean, self.steps).coins_for(cards)


@cache
def beanometers() -> dict[tuple[str, int], Beanometer]:
    """(building, price) -> the beanometer printed on that card, from ``buildings.json``."""
    text = resources.files("companion.rules").joinpath("buildings.json").read_text(encoding="utf-8")
    found = {}
    for card, entry in json.loads(text)["beanometers"].items():
        building, price = card.rsplit("-", 1)
        found[building, int(price)] = Beanometer(entry["bean"], tuple(entry["steps"]), entry["source"])
    return found
