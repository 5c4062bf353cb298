"""The pieces a game's rules are composed of: an edition, a turn structure, modules, options.

Each piece is a :class:`Part` that overrides a few hooks. :class:`~companion.rules.rulesets.Rules`
asks the edition first, then the turn structure, then each module in order, so a module
(the Magpie, the Bean Coin, order cards, a High Bohn building) changes only what it is about.
Hooks take the state and the seat they are asked about: a rule may depend on who acts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

if TYPE_CHECKING:
    from companion.rules.legal import LegalMove
    from companion.rules.moves import Move
    from companion.rules.rulesets import Rules
    from companion.rules.state import GameState
    from companion.rules.violations import RuleViolation


@dataclass(frozen=True, slots=True)
class Option:
    """A choice a group makes when a game starts, where the books differ or offer a variant."""

    key: str
    choices: Mapping[Any, str]
    """Each allowed value and a sentence that says what it means at the table."""
    title: str

    def check(self, value: Any) -> Any:
        """``value`` if it is one of the choices; ``ValueError`` names the choices otherwise."""
        if isinstance(value, (str, bool, int)) and value in self.choices:
            return value
        listed = ", ".join(str(c) for c in self.choices)
        raise ValueError(f"option {self.key!r} must be one of {listed}, not {value!r}")


@dataclass(frozen=True, slots=True)
class MoveRule:
    """How one kind of move is checked, carried out and offered."""

    check: Callable[[GameState, Any], RuleViolation | None]
    apply: Callable[[GameState, Any], None]
    legal: Callable[[GameState, int], list[LegalMove]] = field(default=lambda state, seat: [])


class Part:
    """A piece of the rules. Every hook passes the value so far through unchanged."""

    name: ClassVar[str]
    title: ClassVar[str]
    book: ClassVar[str]
    """Which rule book (and section) this follows."""
    about: ClassVar[str]
    """One sentence a player understands."""
    options: ClassVar[tuple[Option, ...]] = ()
    """Options this part adds (the edition's own are listed on the edition)."""
    reads_card_data: ClassVar[bool] = False
    """Whether this part uses values printed only on cards (``Rules.cards``)."""

    def __init__(self, rules: Rules):
        self.rules = rules

    @property
    def players(self) -> int:
        return self.rules.players

    def allows(self, rules: Rules) -> str | None:
        """None if this part can be played with ``rules``, else why not (the books' limits)."""
        return None

    # --- set-up --------------------------------------------------------------

    def adjust_deck(self, deck: dict[str, int]) -> dict[str, int]:
        """The deck with this part's cards added or removed."""
        return deck

    def setup(self, state: GameState) -> None:
        """Anything this part lays out after the deal."""

    # --- moves ---------------------------------------------------------------

    def move_rules(self) -> Mapping[type, MoveRule]:
        """The kinds of move this part adds or redefines."""
        return {}

    def veto(self, state: GameState, move: Move) -> RuleViolation | None:
        """A rule of this part that forbids an otherwise legal move."""
        return None

    def after(self, state: GameState, move: Move) -> None:
        """What this part does once ``move`` is carried out."""

    def harvested(self, state: GameState, seat: int, bean: str, cards: int) -> None:
        """What this part does when ``seat`` has harvested ``cards`` of ``bean`` (coins already paid)."""

    def legal(self, state: GameState, seat: int) -> list[LegalMove]:
        """Moves this part offers besides the move kinds it defines."""
        return []

    def to_act(self, state: GameState, seats: tuple[int, ...]) -> tuple[int, ...]:
        """Who must act now, given who would otherwise."""
        return seats

    # --- numbers ---------------------------------------------------------------

    def hand_plants(self, state: GameState, seat: int, count: int) -> int:
        """Cards ``seat`` may plant from the hand in phase 1 (two in the base game)."""
        return count

    def draw_count(self, state: GameState, seat: int, count: int) -> int:
        """Cards ``seat`` draws in phase 4."""
        return count

    def coins_for(self, state: GameState, seat: int, bean: str, cards: int, coins: int) -> int:
        """Coins a harvest of ``cards`` of ``bean`` pays ``seat``."""
        return coins

    def accepts(self, state: GameState, seat: int, field: int, bean: str, ok: bool) -> bool:
        """Whether ``seat`` may plant ``bean`` in field ``field`` (``ok``: what the basic rule says)."""
        return ok

    def harvest_value(self, state: GameState, seat: int, field: int, coins: int) -> int:
        """Coins a harvest of ``seat``'s field ``field`` pays now."""
        return coins

    def harvest_field(self, state: GameState, seat: int, field: int) -> int | None:
        """Harvest a field this part pays in its own way (a bean stew), returning the coins; None for others."""
        return None

    def cards_held(self, state: GameState) -> int:
        """Cards this part keeps outside the base game's zones (offers, order cards), for conservation."""
        return 0

    def delay_end(self, state: GameState) -> bool:
        """Whether the game, which would end now, waits for moves of this part before the fields are harvested."""
        return False

    def phase_text(self, state: GameState) -> str | None:
        """What the phase now asks of the table, in a few words (the turn structure's wording)."""
        return None

    def notes(self, state: GameState) -> list[str]:
        """Sentences the table shows about this part now ("Cid holds the Bean Coin")."""
        return []

    def public(self, state: GameState) -> dict[str, Any]:
        """What this part shows everyone (JSON values), added to the public view."""
        return {}

    def score(self, state: GameState, seat: int) -> dict[str, int]:
        """What this part adds to ``seat``'s score, by name (e.g. ``{"orders": 2}``)."""
        return {}

    def break_tie(self, state: GameState, tied: list[int]) -> tuple[list[int], str] | None:
        """Who wins a tie, and why, if this part decides it."""
        return None


P = TypeVar("P", bound=type[Part])
TURNS: dict[str, type[Part]] = {}
MODULES: dict[str, type[Part]] = {}


def registrar(registry: dict[str, Any]) -> Callable[[P], P]:
    """A class decorator that files a part in ``registry`` under its ``name``."""

    def register(cls: P) -> P:
        registry[cls.name] = cls
        return cls

    return register


register_turns = registrar(TURNS)
"""Class decorator: a turn structure, found by its ``name``."""
register_module = registrar(MODULES)
"""Class decorator: a module, found by its ``name`` (listed in the record's ``modules`` option)."""
