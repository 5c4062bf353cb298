"""High Bohn (book 004) as an edition, and its Cognac variant as a module.

High Bohn is an edition, not a module on the basic game: the book fixes what editions fix
(the beans: every type but cocoa, coffee and wax; 3 to 5 players; the end at the third pass
with three or four players, the fourth with five, where the basic game ends at the second
with three) and "may only be played with the basic Bohnanza game", so no other module is
added to it. Everything else is the Rio Grande basic game it is played with (001): five cards
dealt, three drawn, the third bean field bought for 3 thalers, three players starting with it.
Its buildings are the modules it always plays: ``buildings`` (buying, the removal rules, the
final buying round, the score), ``building-effects`` (beanometers, plants, harvests, end bonuses),
``building-fields`` (one-bean fields, bean stews, farm fields), ``general-store`` and
``building-actions`` (the banks and the 2 Distillery).

Where the book is silent or differs:

- The bean protection rule: the saloon's text states the lenient reading ("may not harvest a
  single bean ... when other field(s) have 2 or more beans"): lenient by default, option ``protection``.
- The tie-break is the basic game's (001): most cards in hand.
- The bonus for four or more buildings: the game-end text prints 1/2/3/5/8, the summary card
  1/2/3/4/5: option ``building_bonus``, the game-end text by default (both agree on the book's example).
- Two fields of one bean: the 2 Saloon's and 2 Blacksmith's texts speak of "the rule" they let
  their owner break, which no book prints: option ``same_bean_fields``, allowed by default.

The Cognac variant is a module (``cognac``) rather than an option: it adds cards (22 Cognac
beans) and a building type (the distilleries), as the Magpie adds its cards, and a module is
played by the property test of every combination the books allow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.cards import CATALOGUE
from companion.rules.editions import (
    BASE_BEANS,
    PROTECTION,
    PROTECTION_LENIENT,
    TIE_BREAK,
    TIE_MOST_CARDS,
    Classic,
    register_edition,
)
from companion.rules.parts import Option, Part, register_module

if TYPE_CHECKING:
    from companion.rules.rulesets import Rules

HIGH_BOHN = "high-bohn"
COGNAC = "cognac"

BONUS_GAME_END = "game-end"
BONUS_SUMMARY = "summary-card"
BUILDING_BONUS = Option("building_bonus", {
    BONUS_GAME_END: "Four to eight buildings give 1, 2, 3, 5 or 8 bonus thalers (the game-end text).",
    BONUS_SUMMARY: "Four to eight buildings give 1, 2, 3, 4 or 5 bonus thalers (the summary card).",
}, "Bonus for four or more buildings")  # fmt: skip

SAME_BEAN_ALLOWED = "allowed"
SAME_BEAN_ONE_FIELD = "one-field"
SAME_BEAN_FIELDS = Option("same_bean_fields", {
    SAME_BEAN_ALLOWED: "A bean may grow in two fields at once (the basic game's books print no rule against it).",
    SAME_BEAN_ONE_FIELD: "A bean grows in one field only, but for the 2 Saloon's or 2 Blacksmith's own field "
                         "(as those buildings' texts imply).",
}, "Two fields of one bean")  # fmt: skip


@register_edition
class HighBohn(Classic):
    name = HIGH_BOHN
    title = "High Bohn (buildings), with the Rio Grande basic game"
    book = "004_e13a5e0396bac44f.txt, High Bohn"
    about = (
        "Invest thalers of a bean in its building: each building helps its owner, and buildings count toward the score."
    )
    max_players = 5
    always_modules = ("buildings", "building-effects", "building-fields", "general-store", "building-actions")
    options = (PROTECTION, TIE_BREAK, BUILDING_BONUS, SAME_BEAN_FIELDS)
    defaults = {"protection": PROTECTION_LENIENT, "tie_break": TIE_MOST_CARDS, "building_bonus": BONUS_GAME_END,
                "same_bean_fields": SAME_BEAN_ALLOWED}

    def beans_in_play(self) -> tuple[str, ...]:
        return BASE_BEANS

    def end_pass(self) -> int:
        return 4 if self.players == 5 else 3


@register_module
class Cognac(Part):
    name = COGNAC
    title = "High Bohn: the Cognac variant"
    book = "004_e13a5e0396bac44f.txt, High Bohn, Cognac variant"
    about = "The 22 Cognac beans join the deck, and the distilleries (built with Cognac thalers) join the buildings."

    def allows(self, rules: Rules) -> str | None:
        return None if rules.edition.name == HIGH_BOHN else "the Cognac variant is played with High Bohn"

    def adjust_deck(self, deck: dict[str, int]) -> dict[str, int]:
        return {**deck, COGNAC: CATALOGUE[COGNAC].count}
