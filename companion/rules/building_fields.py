"""High Bohn buildings that change the bean fields (book 004).

- The 2 Saloon and the 2 Blacksmith are each one more field where only green (chili) beans
  grow, under the normal harvesting rules; with it a player may grow that bean in two fields.
- The 3 and 4 Saloon: their owner may plant one bean each of different types in a field (a
  bean stew; never two of one type). A stew is harvested by the owner's saloon's beanometer
  (printed only on the card: ``card_data``); its thalers lie under the saloon, cannot be spent
  and count at the end. The owner of the 3 Distillery (Cognac variant) takes one thaler of
  every stew harvest, to keep under the distillery until the end.
- The 2 Farm: its owner may plant soy beans in a field of another bean numbered 14 or higher
  (not in a stew, not in a field that holds soy), then keep planting both there. The book does
  not say how such a field pays; here it is harvested by its first bean's beanometer, all its
  cards counted, the thalers taken from that bean's cards first.

A field becomes a farm field or a stew when its second kind of bean is planted; where both
could be meant (the owner has the 2 Farm and a 3 or 4 Saloon, and plants a soy on a single
card), it becomes a farm field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.cards import CATALOGUE
from companion.rules import checks, effects, offers
from companion.rules.buildings import card_name
from companion.rules.high_bohn import HIGH_BOHN, SAME_BEAN_ONE_FIELD
from companion.rules.moves import Plant
from companion.rules.parts import MoveRule, Part, register_module
from companion.rules.town import Build, owned_price, owner_of, town
from companion.rules.violations import RuleViolation
from companion.rules.wording import bean_name
from companion.rules.zones import Field

if TYPE_CHECKING:
    from companion.rules.rulesets import Rules
    from companion.rules.state import GameState

STEW, FARM = "stew", "farm"
SOY = "soy"
FARM_FIELD_BEANS = 14
"""The 2 Farm plants soy in fields of beans with at least this many cards in the game."""
EXACTLY_FOUR, FARM_PAYS = 4, 5
ONE_BEAN_FIELDS = {("saloon", 2): "green", ("blacksmith", 2): "chili"}
"""Building cards that are one more field for one bean."""


def stew_saloon(state: GameState, seat: int) -> int | None:
    """The price of ``seat``'s saloon if it makes bean stews (the 3 or 4), else None."""
    price = owned_price(state, seat, "saloon")
    return price if price in (3, 4) else None


def building_of(field: Field) -> str:
    """The building card whose field this is ("the 2 Saloon")."""
    building, price = next(card for card, bean in ONE_BEAN_FIELDS.items() if bean == field.only)
    return card_name(building, price)


@register_module
class BuildingFields(Part):
    name = "building-fields"
    title = "High Bohn: fields the buildings add or change"
    book = "004_e13a5e0396bac44f.txt, High Bohn: Saloon, Blacksmith, Farm"
    about = (
        "The 2 Saloon and 2 Blacksmith are one-bean fields; the 3 and 4 Saloon make bean stews; "
        "the 2 Farm mixes soy in."
    )
    reads_card_data = True

    def allows(self, rules: Rules) -> str | None:
        return None if rules.edition.name == HIGH_BOHN else "the buildings are played with High Bohn"

    def move_rules(self) -> Mapping[type, MoveRule]:
        return {Plant: MoveRule(self.check_plant, effects.plant, offers.plant_options)}

    # --- where a bean may grow -------------------------------------------------------------

    def mixing(self, state: GameState, seat: int, field: Field, bean: str) -> str | None:
        """``STEW`` or ``FARM`` if planting ``bean`` in ``field`` makes or keeps it a mixed field."""
        first = field.bean
        if first is None or field.only is not None:
            return None
        farm_field = CATALOGUE[first].count >= FARM_FIELD_BEANS and first != SOY
        if field.mixed in (None, FARM) and farm_field and bean in (SOY, first) and self._owns(state, seat, "farm", 2):
            return FARM if bean == SOY or field.mixed == FARM else None
        distinct = len(set(field.cards)) == field.count
        if field.mixed in (None, STEW) and distinct and bean not in field.cards and stew_saloon(state, seat):
            return STEW
        return None

    @staticmethod
    def _owns(state: GameState, seat: int, building: str, price: int) -> bool:
        return owned_price(state, seat, building) == price

    def accepts(self, state: GameState, seat: int, field: int, bean: str, ok: bool) -> bool:
        if ok and self._second_field(state, seat, field, bean) is not None:
            return False
        return ok or self.mixing(state, seat, state.players[seat].fields[field], bean) is not None

    def _second_field(self, state: GameState, seat: int, field: int, bean: str) -> int | None:
        """Under option ``same_bean_fields: one-field``: the other field already growing ``bean``, if any."""
        fields = state.players[seat].fields
        if state.rules.options["same_bean_fields"] != SAME_BEAN_ONE_FIELD or fields[field].count \
                or fields[field].only is not None:  # fmt: skip
            return None
        return next((i for i, f in enumerate(fields)
                     if i != field and f.only is None and f.mixed != STEW and f.bean == bean), None)  # fmt: skip

    def check_plant(self, state: GameState, move: Plant) -> RuleViolation | None:
        found = checks.check_plant(state, move)
        if found is None or found.rule != "field.one-kind":
            return found
        player = state.players[move.player]
        field, where = player.fields[move.field or 0], f"Field {(move.field or 0) + 1} of {player.name}"
        if (other := self._second_field(state, move.player, move.field or 0, move.bean)) is not None:
            return RuleViolation("field.one-per-bean", f"{player.name}'s field {other + 1} grows "
                                                       f"{bean_name(move.bean)}s already: a bean grows in one field "
                                                       "only (option same_bean_fields), but for the 2 Saloon's or "
                                                       "2 Blacksmith's own.")  # fmt: skip
        if field.only is not None:
            return RuleViolation("field.building-bean", f"{where} is {building_of(field)}: only "
                                                        f"{bean_name(field.only)}s grow there.")  # fmt: skip
        if field.mixed == STEW or (stew_saloon(state, move.player) and move.bean in field.cards and field.count > 1):
            return RuleViolation("stew.one-of-each", f"{where} is a bean stew that holds a {bean_name(move.bean)} "
                                                     "already: a stew holds one bean of each type.")  # fmt: skip
        if field.mixed == FARM:
            return RuleViolation("farm.two-beans", f"{where} grows {bean_name(field.cards[0])}s with soy beans "
                                                   "(the 2 Farm): only those two beans are planted there.")  # fmt: skip
        return found

    def after(self, state: GameState, move: Any) -> None:
        if isinstance(move, Build) and (only := ONE_BEAN_FIELDS.get((move.building, move.price))):
            state.players[move.player].fields.append(Field(only=only))
        elif isinstance(move, Plant) and move.field is not None:
            field = state.players[move.player].fields[move.field]
            if field.mixed is None and len(set(field.cards)) > 1:
                farm = move.bean == SOY and self._owns(state, move.player, "farm", 2) and \
                    CATALOGUE[field.cards[0]].count >= FARM_FIELD_BEANS  # fmt: skip
                field.mixed = FARM if farm else STEW

    # --- harvesting a stew -------------------------------------------------------------------

    def harvest_value(self, state: GameState, seat: int, field: int, coins: int) -> int:
        stew = state.players[seat].fields[field]
        price = stew_saloon(state, seat)
        if stew.mixed != STEW or price is None:
            return coins
        coins = state.rules.cards[f"saloon-{price}"].coins_for(stew.count)
        coins = FARM_PAYS if coins == EXACTLY_FOUR and self._owns(state, seat, "farm", 4) else coins
        return min(coins, stew.count)

    def harvest_field(self, state: GameState, seat: int, field: int) -> int | None:
        stew = state.players[seat].fields[field]
        if stew.mixed != STEW:
            return None
        coins = state.rules.harvest_value(state, seat, field)
        cards = list(stew.cards)
        stew.clear()
        earned = cards[:coins]
        t = town(state)
        if earned and (owner := owner_of(state, "distillery", 3)) is not None:
            t.distilled[owner].append(earned.pop())
        t.stew[seat].extend(earned)
        state.discard.extend(cards[coins:])
        return coins

    # --- what the table sees ------------------------------------------------------------------

    def notes(self, state: GameState) -> list[str]:
        found = []
        for player in state.players:
            for index, field in enumerate(player.fields, 1):
                if field.only is not None:
                    found.append(f"{player.name}'s field {index} is {building_of(field)}: "
                                 f"{bean_name(field.only)}s only")  # fmt: skip
                elif field.mixed is not None:
                    beans = ", ".join(bean_name(b) for b in dict.fromkeys(field.cards))
                    kind = "a bean stew" if field.mixed == STEW else "a farm field"
                    found.append(f"{player.name}'s field {index} is {kind}: {beans}")
        return found

    def public(self, state: GameState) -> dict[str, Any]:
        return {"field_kinds": [[{"only": f.only, "mixed": f.mixed, "cards": list(f.cards) if f.mixed else None}
                                 for f in p.fields] for p in state.players]}  # fmt: skip
