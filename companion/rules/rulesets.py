"""A game's rules: an edition, its turn structure, the modules chosen and the options, as one object.

``ruleset(name, players, options)`` builds it from a record's ``ruleset`` and ``options``;
``options["modules"]`` lists the modules a group added (the Magpie, the Bean Coin, ...).
Every question the engine asks goes through :class:`Rules`, which asks each part in turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.cards import CATALOGUE
from companion.rules import catalogue  # noqa: F401  (registers every edition, turn structure and module)
from companion.rules.card_data import CardData, with_group_cards
from companion.rules.checks import check_common
from companion.rules.editions import EDITIONS, Edition
from companion.rules.parts import MODULES, TURNS, MoveRule, Option, Part
from companion.rules.violations import RuleViolation

if TYPE_CHECKING:
    from companion.rules.legal import Choice, LegalMove
    from companion.rules.moves import Move
    from companion.rules.state import GameState

RULESETS = EDITIONS
"""Editions by name: what a record's ``ruleset`` names."""
MODULES_KEY = "modules"
CARD_DATA_KEY = "card_data"
"""The record option holding what a group's own cards print (see ``card_data``)."""


def ruleset(name: str, players: int, options: Mapping[str, Any] | None = None) -> Rules:
    """The rules of edition ``name`` for ``players`` players; ``ValueError`` explains a bad choice."""
    return Rules(name, players, options or {})


class Rules:
    """Edition + turn structure + modules + options, bound to a player count."""

    def __init__(self, name: str, players: int, options: Mapping[str, Any]):
        try:
            edition_cls = EDITIONS[name]
        except KeyError:
            raise ValueError(f"unknown ruleset {name!r}; known rulesets: {', '.join(EDITIONS)}") from None
        self.players = players
        self.edition: Edition = edition_cls(self)
        low, high = self.edition.min_players, self.edition.max_players
        if not low <= players <= high:
            counts = str(low) if low == high else f"{low}-{high}"
            raise ValueError(f"the {name} ruleset is for {counts} players, not {players}")
        given = dict(options)
        chosen = _module_names(given.pop(MODULES_KEY, []))
        self.group_cards: dict[str, Any] = given.pop(CARD_DATA_KEY, None) or {}
        self.cards: dict[str, CardData] = with_group_cards(self.group_cards)
        """Values printed only on cards: the documented defaults, or what the group entered."""
        self.turns: Part = TURNS[self.edition.turns](self)
        names = list(dict.fromkeys(self.edition.always_modules + chosen))
        self.modules: tuple[Part, ...] = tuple(MODULES[m](self) for m in names)
        self.chosen_modules = tuple(m for m in names if m not in self.edition.always_modules)
        self.parts: tuple[Part, ...] = (self.edition, self.turns, *self.modules)
        self.options = self._options(given)
        for part in self.parts[1:]:
            if (reason := part.allows(self)) is not None:
                raise ValueError(f"{part.title} cannot be played here: {reason}")
        if self.group_cards and not any(part.reads_card_data for part in self.parts):
            raise ValueError(f"option {CARD_DATA_KEY!r} is for games whose cards print their own values (High Bohn)")
        self.move_rules: dict[type, MoveRule] = {}
        for part in self.parts:
            self.move_rules.update(part.move_rules())

    def _options(self, given: dict[str, Any]) -> dict[str, Any]:
        specs: dict[str, Option] = {o.key: o for part in self.parts for o in part.options}
        values: dict[str, Any] = {}
        for key, spec in specs.items():
            values[key] = self.edition.defaults.get(key, next(iter(spec.choices)))
        for key, value in given.items():
            if key not in specs:
                known = ", ".join([MODULES_KEY, *specs])
                raise ValueError(f"the {self.name} ruleset has no option {key!r}; options: {known}")
            values[key] = specs[key].check(value)
        return values

    @property
    def name(self) -> str:
        return self.edition.name

    def record_options(self) -> dict[str, Any]:
        """The options as a record stores them (chosen modules included)."""
        data = dict(self.options)
        if self.chosen_modules:
            data[MODULES_KEY] = list(self.chosen_modules)
        if self.group_cards:
            data[CARD_DATA_KEY] = dict(self.group_cards)
        return data

    # --- set-up --------------------------------------------------------------

    def deck(self) -> dict[str, int]:
        deck = self.edition.deck()
        for part in self.parts[1:]:
            deck = part.adjust_deck(deck)
        return deck

    def hand_sizes(self) -> tuple[int, ...]:
        return self.edition.hand_sizes()

    def starting_fields(self) -> int:
        return self.edition.starting_fields()

    def setup(self, state: GameState) -> None:
        for part in self.parts:
            part.setup(state)

    # --- numbers -------------------------------------------------------------

    def third_field_price(self) -> int | None:
        return self.edition.third_field_price()

    def turn_over_count(self) -> int:
        return self.edition.turn_over_count()

    def end_pass(self) -> int:
        return self.edition.end_pass()

    def draws(self, state: GameState) -> list[tuple[int, int]]:
        """Who draws how many cards in phase 4 this turn, in order."""
        due = []
        for seat, count in self.edition.draws(state.active):
            for part in self.parts[1:]:
                count = part.draw_count(state, seat, count)
            due.append((seat, count))
        return due

    def hand_plants(self, state: GameState, seat: int) -> int:
        """Cards ``seat`` may plant from the hand in phase 1 this turn."""
        count = 2
        for part in self.parts:
            count = part.hand_plants(state, seat, count)
        return count

    def coins_for(self, state: GameState, seat: int, bean: str, cards: int) -> int:
        coins = CATALOGUE[bean].coins_for(cards)
        for part in self.parts:
            coins = part.coins_for(state, seat, bean, cards, coins)
        return coins

    def accepts(self, state: GameState, seat: int, field: int, bean: str) -> bool:
        """Whether ``seat`` may plant ``bean`` in its field ``field``."""
        ok = state.players[seat].fields[field].accepts(bean)
        for part in self.parts:
            ok = part.accepts(state, seat, field, bean, ok)
        return ok

    def harvest_value(self, state: GameState, seat: int, field: int) -> int:
        """Coins a harvest of ``seat``'s field ``field`` would pay now."""
        planted = state.players[seat].fields[field]
        if planted.bean is None:
            return 0
        coins = min(self.coins_for(state, seat, planted.bean, planted.count), planted.count)
        for part in self.parts:
            coins = part.harvest_value(state, seat, field, coins)
        return coins

    def harvest_field(self, state: GameState, seat: int, field: int) -> int | None:
        """The coins of a harvest that a part pays in its own way, or None."""
        for part in reversed(self.parts):
            if (paid := part.harvest_field(state, seat, field)) is not None:
                return paid
        return None

    @property
    def protection(self) -> str:
        return str(self.options["protection"])

    @property
    def tie_break(self) -> str:
        return str(self.options["tie_break"])

    def harvested(self, state: GameState, seat: int, bean: str, cards: int) -> None:
        for part in self.parts:
            part.harvested(state, seat, bean, cards)

    def cards_held(self, state: GameState) -> int:
        return sum(part.cards_held(state) for part in self.parts)

    def delay_end(self, state: GameState) -> bool:
        return any([part.delay_end(state) for part in self.parts])  # every part asked: each notes the end

    def phase_text(self, state: GameState) -> str:
        for part in reversed(self.parts):
            if (text := part.phase_text(state)) is not None:
                return text
        return f"Phase {int(state.phase)}"

    def public(self, state: GameState) -> dict[str, Any]:
        notes = [note for part in self.parts for note in part.notes(state)]
        shown: dict[str, Any] = {"phase_text": self.phase_text(state), "deck_size": sum(state.deck_counts.values()),
                                 "notes": notes}
        for part in self.parts:
            shown.update(part.public(state))
        return shown

    def score(self, state: GameState, seat: int) -> dict[str, int]:
        """``seat``'s score by kind: coins, and whatever modules add."""
        breakdown = {"coins": len(state.players[seat].coins)}
        for part in self.parts:
            breakdown.update(part.score(state, seat))
        return breakdown

    def break_tie(self, state: GameState, tied: list[int]) -> tuple[list[int], str] | None:
        for part in reversed(self.parts):
            if (decided := part.break_tie(state, tied)) is not None:
                return decided
        return None

    # --- moves ---------------------------------------------------------------

    def check(self, state: GameState, move: Move) -> RuleViolation | None:
        if (common := check_common(state, move)) is not None:
            return common
        rule = self.move_rules.get(type(move))
        if rule is None:
            return RuleViolation("move.not-in-ruleset", f"{type(move).__name__} is not a move of this game's rules.")
        for part in self.parts:
            if (vetoed := part.veto(state, move)) is not None:
                return vetoed
        return rule.check(state, move)

    def apply(self, state: GameState, move: Move) -> None:
        self.move_rules[type(move)].apply(state, move)
        for part in self.parts:
            part.after(state, move)

    def legal_moves(self, state: GameState, seat: int) -> list[LegalMove]:
        if state.game_over:
            return []
        found = [m for rule in self.move_rules.values() for m in rule.legal(state, seat)]
        for part in self.parts:
            found.extend(part.legal(state, seat))
        return [m for m in found if not self._vetoed(state, m)]

    def _vetoed(self, state: GameState, offered: LegalMove) -> bool:
        """Whether a part forbids this kind of move now (tried with the first of each open choice)."""
        sample = {name: _first(choice) for name, choice in offered.choose.items()}
        try:
            move = offered.move(**sample)
        except ValueError:
            return False
        return any(part.veto(state, state.resolve(move)) is not None for part in self.parts)

    def to_act(self, state: GameState) -> tuple[int, ...]:
        seats: tuple[int, ...] = ()
        if state.game_over:
            return seats
        for part in self.parts:
            seats = part.to_act(state, seats)
        return seats


def _first(choice: Choice) -> Any:
    first = choice.options[0] if choice.options else None
    if not choice.many:
        return first
    return [first] * (choice.exactly or 1) if first is not None else []


def _module_names(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"option {MODULES_KEY!r} must be a list of module names")
    for name in value:
        if name not in MODULES:
            known = ", ".join(MODULES) or "none"
            raise ValueError(f"unknown module {name!r}; known modules: {known}")
    return tuple(value)
