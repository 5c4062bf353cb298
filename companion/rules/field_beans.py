"""The Field bean: two harvested give a third field instead of coins (000 variant 2, 003, Plus)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.rules.parts import Part, register_module
from companion.rules.zones import Field

if TYPE_CHECKING:
    from companion.rules.rulesets import Rules
    from companion.rules.state import GameState

THIRD_FIELD = 3


@register_module
class FieldBeans(Part):
    """Harvesting exactly two Field beans gives a third field; nothing if the player has one already.

    Both harvested cards are discarded (their beanometer pays nothing for two); three Field beans
    pay three coins, as their beanometer says. The beans already growing stay in fields 1 and 2:
    the new field is added as field 3 (000: "put them in your first and/or second bean field").
    A third field won this way is the player's third field: none can be bought after it.
    """

    name = "field-beans"
    title = "Field beans"
    book = "000_7919b706fb618356.txt, variant 2; 003_e82e8ed7cf5f5c14.txt; 004_e13a5e0396bac44f.txt, Plus expansion"
    about = "Harvest two Field beans to get a third bean field (nothing if you already have one); three pay 3 coins."

    def allows(self, rules: Rules) -> str | None:
        if self.name in rules.edition.always_modules:
            return None
        return "Field beans come with the editions that include their cards (amigo-25-field-beans, expansion-set)"

    def harvested(self, state: GameState, seat: int, bean: str, cards: int) -> None:
        player = state.players[seat]
        if bean == "field" and cards == 2 and len(player.fields) < THIRD_FIELD:
            player.fields.append(Field())
