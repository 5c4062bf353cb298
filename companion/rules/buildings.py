"""High Bohn's building cards as data (book 004): one building type per bean, four cards priced 1 to 4.

What the book prints is written here; what only the cards print is in ``card_data``.
"""

from __future__ import annotations

from dataclasses import dataclass


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


def card_name(building: str, price: int, starts: bool = False) -> str:
    """A building card as the book names it ("the 3 Saloon"; "The 3 Saloon" where it ``starts`` a sentence)."""
    return f"{'The' if starts else 'the'} {price} {BUILDINGS[building].name}"
