"""Editions: which cards, how many dealt, how many fields, how many draws and when the game ends.

An edition is the ``ruleset`` a record names. It fixes its numbers by player count;
its turn structure and the modules it always uses are named here too.
"""

from __future__ import annotations

from typing import ClassVar

from companion.cards import CATALOGUE
from companion.rules.parts import Option, Part, registrar

BASE_BEANS = ("blue", "chili", "stink", "green", "soy", "black-eyed", "red", "garden")
"""The eight beans of the 104-card base game."""
CLASSIC_BEANS = ("coffee", "wax") + BASE_BEANS + ("cocoa",)
"""The eleven beans of the classic 154-card edition."""

PROTECTION_LENIENT = "lenient"
PROTECTION_STRICT = "strict"
PROTECTION = Option("protection", {
    PROTECTION_LENIENT: "A single-card field cannot be harvested while another field holds more than one card "
                        "(AMIGO 25th-anniversary edition, Plus expansion).",
    PROTECTION_STRICT: "A single-card field can be harvested only when every field holds exactly one card "
                       "(classic edition, expansion set).",
}, "Bean protection rule")  # fmt: skip

TIE_FURTHEST = "furthest-from-start"
TIE_MOST_CARDS = "most-cards-in-hand"
TIE_SHARED = "shared"
TIE_BREAK = Option("tie_break", {
    TIE_FURTHEST: "The tied player sitting furthest from the start player, clockwise, wins (AMIGO edition).",
    TIE_MOST_CARDS: "The tied player with most cards in hand wins (classic edition).",
    TIE_SHARED: "Tied players share the win.",
}, "Tie-break")  # fmt: skip


def staggered_deal(players: int) -> tuple[int, ...]:
    """The deal with six or seven players (001, 003): 3, 4 and 5 cards, then 6 to everyone else."""
    return (3, 4, 5) + (6,) * (players - 3)


class Edition(Part):
    """The base game's numbers; editions override the hooks where their book differs."""

    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 5
    turns: ClassVar[str] = "standard"
    """The turn structure this edition plays."""
    always_modules: ClassVar[tuple[str, ...]] = ()
    """Modules that are part of this edition (its Field beans, say)."""
    options: ClassVar[tuple[Option, ...]] = (PROTECTION, TIE_BREAK)
    defaults: ClassVar[dict[str, object]] = {}

    def beans_in_play(self) -> tuple[str, ...]:
        """The beans shuffled into the deck."""
        return BASE_BEANS

    def deck(self) -> dict[str, int]:
        """Bean id -> number of cards shuffled in."""
        return {b: CATALOGUE[b].count for b in self.beans_in_play()}

    def hand_sizes(self) -> tuple[int, ...]:
        """Cards dealt to each player, in turn order from the start player."""
        return (5,) * self.players

    def starting_fields(self) -> int:
        """Bean fields each player starts with."""
        return 3 if self.players == 3 else 2

    def third_field_price(self) -> int | None:
        """Coins a third field costs, or None where it cannot be bought."""
        return None

    def turn_over_count(self) -> int:
        """Cards turned over in phase 2."""
        return 2

    def draws(self, active: int) -> list[tuple[int, int]]:
        """Who draws how many cards in phase 4, in order: the active player draws three."""
        return [(active, 3)]

    def end_pass(self) -> int:
        """The game ends when the draw pile runs out for this time."""
        return 3


EDITIONS: dict[str, type[Edition]] = {}
"""Editions by name: what a record's ``ruleset`` names."""
register_edition = registrar(EDITIONS)
"""Class decorator: an edition, found by its ``name``."""


@register_edition
class Amigo25(Edition):
    name = "amigo-25"
    title = "Bohnanza, AMIGO 25th-anniversary edition: base game"
    book = "000_7919b706fb618356.txt, base game"
    about = "The base game for 3 to 5 players with the eight original beans."
    defaults = {"protection": PROTECTION_LENIENT, "tie_break": TIE_FURTHEST}


@register_edition
class Classic(Edition):
    name = "classic"
    title = "Bohnanza, classic English edition (Rio Grande)"
    book = "001_4672c0781fb6202e.txt"
    about = "The Rio Grande game for 3 to 7 players: eleven beans, a third field to buy."
    max_players = 7
    defaults = {"protection": PROTECTION_STRICT, "tie_break": TIE_MOST_CARDS}

    def beans_in_play(self) -> tuple[str, ...]:
        removed = {3: {"cocoa"}, 4: {"coffee"}, 5: {"coffee"}}.get(self.players, {"cocoa", "garden"})
        return tuple(b for b in CLASSIC_BEANS if b not in removed)

    def hand_sizes(self) -> tuple[int, ...]:
        return super().hand_sizes() if self.players < 6 else staggered_deal(self.players)

    def third_field_price(self) -> int | None:
        if self.players == 3:
            return None  # everyone starts with it and may not buy another
        return 2 if self.players >= 6 else 3

    def draws(self, active: int) -> list[tuple[int, int]]:
        return [(active, 4 if self.players >= 6 else 3)]

    def end_pass(self) -> int:
        return 2 if self.players == 3 else 3
