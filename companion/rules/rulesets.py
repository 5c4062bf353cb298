"""Rulesets: each edition's rules as a small class overriding a few hooks, found by name.

A ruleset is bound to a player count and a set of options when a game starts.
Options that the books disagree on are named here; each ruleset has a default.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from companion.cards import CATALOGUE

BASE_BEANS = ("blue", "chili", "stink", "green", "soy", "black-eyed", "red", "garden")
"""The eight beans of the 104-card base game."""
CLASSIC_BEANS = ("coffee", "wax") + BASE_BEANS + ("cocoa",)
"""The eleven beans of the classic 154-card edition."""

PROTECTION_LENIENT = "lenient"
"""A single-card field cannot be harvested while another field holds more than one card (000)."""
PROTECTION_STRICT = "strict"
"""A single-card field can be harvested only when every field holds exactly one card (001, 003)."""

TIE_FURTHEST = "furthest-from-start"
"""The tied player sitting furthest from the start player, clockwise, wins (000)."""
TIE_MOST_CARDS = "most-cards-in-hand"
"""The tied player with most cards in hand wins (001)."""
TIE_SHARED = "shared"
"""Tied players share the win."""

OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    "protection": (PROTECTION_LENIENT, PROTECTION_STRICT),
    "tie_break": (TIE_FURTHEST, TIE_MOST_CARDS, TIE_SHARED),
}

RULESETS: dict[str, type[Ruleset]] = {}


def register(cls: type[Ruleset]) -> type[Ruleset]:
    """Class decorator: make a ruleset available by its ``name``."""
    RULESETS[cls.name] = cls
    return cls


def ruleset(name: str, players: int, options: Mapping[str, Any] | None = None) -> Ruleset:
    """The ruleset ``name`` bound to ``players`` players; ``ValueError`` explains a bad choice."""
    try:
        cls = RULESETS[name]
    except KeyError:
        raise ValueError(f"unknown ruleset {name!r}; known rulesets: {', '.join(RULESETS)}") from None
    return cls(players, options)


class Ruleset:
    """The base game's rules; editions override the hooks where their book differs."""

    name: ClassVar[str]
    title: ClassVar[str]
    book: ClassVar[str]
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 5
    default_options: ClassVar[dict[str, Any]] = {}

    def __init__(self, players: int, options: Mapping[str, Any] | None = None):
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"the {self.name} ruleset is for {self.min_players}-{self.max_players} players, not {players}"
            )
        self.players = players
        self.options = self._validated_options(options or {})

    def _validated_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        options = dict(self.default_options)
        for key, value in given.items():
            if key not in options:
                raise ValueError(f"the {self.name} ruleset has no option {key!r}; options: {', '.join(options)}")
            choices = OPTION_CHOICES.get(key)
            if choices is not None and value not in choices:
                raise ValueError(f"option {key!r} must be one of {', '.join(choices)}, not {value!r}")
            options[key] = value
        return options

    # --- set-up -------------------------------------------------------------

    def deck(self) -> dict[str, int]:
        """Bean id -> number of cards in play."""
        return {b: CATALOGUE[b].count for b in self.beans_in_play()}

    def beans_in_play(self) -> tuple[str, ...]:
        """The beans shuffled into the deck."""
        return BASE_BEANS

    def hand_sizes(self) -> tuple[int, ...]:
        """Cards dealt to each player, in turn order from the start player."""
        return (5,) * self.players

    def starting_fields(self) -> int:
        """Bean fields each player starts with."""
        return 3 if self.players == 3 else 2

    # --- during play --------------------------------------------------------

    def third_field_price(self) -> int | None:
        """Coins a third field costs, or None where it cannot be bought."""
        return None

    def turn_over_count(self) -> int:
        """Cards turned over in phase 2."""
        return 2

    def draw_count(self) -> int:
        """Cards the active player draws in phase 4."""
        return 3

    def end_pass(self) -> int:
        """The game ends when the draw pile runs out for this time."""
        return 3

    def coins_for(self, bean: str, cards: int) -> int:
        """Coins a harvest of ``cards`` cards of ``bean`` pays."""
        return CATALOGUE[bean].coins_for(cards)

    @property
    def protection(self) -> str:
        """Which reading of the bean protection rule applies."""
        return str(self.options["protection"])

    @property
    def tie_break(self) -> str:
        """How a tie for most coins is broken."""
        return str(self.options["tie_break"])


@register
class Amigo25(Ruleset):
    """AMIGO 25th-anniversary edition, base game for 3-5 players (book 000)."""

    name = "amigo-25"
    title = "Bohnanza, AMIGO 25th-anniversary edition: base game"
    book = "000_7919b706fb618356.txt"
    default_options = {"protection": PROTECTION_LENIENT, "tie_break": TIE_FURTHEST}


@register
class Classic(Ruleset):
    """Classic English edition (Rio Grande) for 3-7 players (book 001)."""

    name = "classic"
    title = "Bohnanza, classic English edition (Rio Grande)"
    book = "001_4672c0781fb6202e.txt"
    max_players = 7
    default_options = {"protection": PROTECTION_STRICT, "tie_break": TIE_MOST_CARDS}

    def beans_in_play(self) -> tuple[str, ...]:
        removed = {3: {"cocoa"}, 4: {"coffee"}, 5: {"coffee"}}.get(self.players, {"cocoa", "garden"})
        return tuple(b for b in CLASSIC_BEANS if b not in removed)

    def hand_sizes(self) -> tuple[int, ...]:
        if self.players < 6:
            return super().hand_sizes()
        return (3, 4, 5) + (6,) * (self.players - 3)

    def third_field_price(self) -> int | None:
        if self.players == 3:
            return None  # everyone starts with it and may not buy another
        return 2 if self.players >= 6 else 3

    def draw_count(self) -> int:
        return 4 if self.players >= 6 else 3

    def end_pass(self) -> int:
        return 2 if self.players == 3 else 3
