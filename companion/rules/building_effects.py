"""What High Bohn's buildings do for their owners (book 004), as hooks on the owner's rules.

- Gold mine: the 2 makes the third bean field cost 1 thaler; the 3 harvests garden beans by
  its own beanometer and may harvest a single garden bean whatever the other fields hold; the
  4 is one more bean field (with a bought third field, four).
- Indian tipi: at the end, one thaler more for each 8, 6 or 5 thalers in the earnings stack
  (the 2, 3 or 4 tipi); counted in the score as ``tipi``.
- Farm: the 3 may plant three cards from the hand in phase 1; the 4 turns a harvest that pays
  exactly 4 thalers into 5.
- Blacksmith: the 3 harvests chili beans by its own beanometer; the 4 may harvest any field
  holding a single bean.
- Jail: the 2 and 3 harvest blue beans by their own beanometers; whenever anyone's harvest of
  blue beans pays at least one thaler (at the end too), the owner of the 4 takes a thaler from
  the discard pile (its top card).
- Distillery (Cognac variant): the 4 harvests Cognac beans by its own beanometer.

Beanometers printed only on a card (the Cognac bean's too) come from ``Rules.cards``
(``card_data``). The third bean field is
bought under High Bohn's own rule here: its price depends on the buyer's gold mine, and the
4 gold mine's field does not count as the third.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.rules import checks, effects, offers
from companion.rules.buildings import BUILDINGS, TIPI_STEP
from companion.rules.high_bohn import COGNAC, HIGH_BOHN
from companion.rules.legal import LegalMove
from companion.rules.moves import BuyField, Harvest
from companion.rules.parts import MoveRule, Part, register_module
from companion.rules.town import Build, owns, pay, town
from companion.rules.violations import RuleViolation
from companion.rules.wording import bean_name
from companion.rules.zones import Field

if TYPE_CHECKING:
    from companion.rules.rulesets import Rules
    from companion.rules.state import GameState

BLUE = "blue"
METERED = (("gold-mine", 3), ("jail", 2), ("jail", 3), ("blacksmith", 3), ("distillery", 4))
"""Building cards that harvest their bean by their own beanometer (``card_data``)."""
EXACTLY_FOUR, FARM_PAYS = 4, 5
FARM_PLANTS = 3


def field_price(state: GameState, seat: int) -> int | None:
    """What a third bean field costs ``seat``: 1 thaler with the 2 gold mine."""
    price = state.rules.third_field_price()
    return 1 if price is not None and owns(state, seat, "gold-mine", 2) else price


@register_module
class BuildingEffects(Part):
    name = "building-effects"
    title = "High Bohn: what the buildings do"
    book = "004_e13a5e0396bac44f.txt, High Bohn: the buildings"
    about = "Each building changes a rule for its owner: more fields, better beanometers, more plants, end bonuses."
    reads_card_data = True

    def allows(self, rules: Rules) -> str | None:
        return None if rules.edition.name == HIGH_BOHN else "the buildings are played with High Bohn"

    def move_rules(self) -> Mapping[type, MoveRule]:
        return {
            Harvest: MoveRule(self.check_harvest, effects.harvest, offers.harvest_options),
            BuyField: MoveRule(self.check_buy_field, self.apply_buy_field, self.buy_field_options),
        }

    # --- beanometers and plants -------------------------------------------------------

    def coins_for(self, state: GameState, seat: int, bean: str, cards: int, coins: int) -> int:
        printed = state.rules.cards
        if bean == COGNAC:
            coins = printed[COGNAC].coins_for(cards)
        for building, price in METERED:
            if BUILDINGS[building].bean == bean and owns(state, seat, building, price):
                coins = printed[f"{building}-{price}"].coins_for(cards)
        return FARM_PAYS if coins == EXACTLY_FOUR and owns(state, seat, "farm", 4) else coins

    def hand_plants(self, state: GameState, seat: int, count: int) -> int:
        return max(count, FARM_PLANTS) if owns(state, seat, "farm", 3) else count

    # --- harvesting -------------------------------------------------------------------

    def check_harvest(self, state: GameState, move: Harvest) -> RuleViolation | None:
        found = checks.check_harvest(state, move)
        if found is not None and found.rule == "harvest.protection" and self._unprotected(state, move):
            return None
        return found

    def _unprotected(self, state: GameState, move: Harvest) -> bool:
        """The 4 blacksmith harvests any single bean, the 3 gold mine a single garden bean."""
        garden = state.players[move.player].fields[move.field].bean == "garden"
        return owns(state, move.player, "blacksmith", 4) or (garden and owns(state, move.player, "gold-mine", 3))

    def harvested(self, state: GameState, seat: int, bean: str, cards: int) -> None:
        if bean != BLUE or min(state.rules.coins_for(state, seat, bean, cards), cards) < 1 or not state.discard:
            return
        owner = next((s for s in range(len(state.players)) if owns(state, s, "jail", 4)), None)
        if owner is not None:
            state.players[owner].coins.append(state.discard.pop())

    # --- fields -------------------------------------------------------------------------

    def after(self, state: GameState, move: Any) -> None:
        if isinstance(move, Build) and (move.building, move.price) == ("gold-mine", 4):
            state.players[move.player].fields.append(Field())

    def check_buy_field(self, state: GameState, move: BuyField) -> RuleViolation | None:
        player, price = state.players[move.player], field_price(state, move.player)
        if price is None:
            return RuleViolation("field.no-purchase", "A third field cannot be bought: with three players everyone "
                                                      "starts with a third field and may not buy another.")  # fmt: skip
        if player.bought_field:
            return RuleViolation("field.bought-once", f"{player.name} already has a third field.")
        if len(player.coins) < price or (move.coins and len(move.coins) != price):
            return RuleViolation("field.price", f"A third field costs {player.name} {price} thalers.")
        if missing := Counter(move.coins) - Counter(player.coins):
            return RuleViolation("field.coins", f"{player.name} has no {bean_name(next(iter(missing)))} thaler "
                                                "to pay with.")  # fmt: skip
        return None

    def apply_buy_field(self, state: GameState, move: BuyField) -> None:
        player, price = state.players[move.player], field_price(state, move.player)
        assert price is not None
        pay(state, move.player, list(move.coins) or player.coins[len(player.coins) - price :])
        player.fields.append(Field())
        player.bought_field = True

    def buy_field_options(self, state: GameState, seat: int) -> list[LegalMove]:
        if self.check_buy_field(state, BuyField(seat)) is not None:
            return []
        return [LegalMove("buy-field", {"player": seat}, f"Buy a third field for {field_price(state, seat)} thalers")]

    # --- the end ------------------------------------------------------------------------

    def score(self, state: GameState, seat: int) -> dict[str, int]:
        t = town(state)
        step = TIPI_STEP.get(t.owned[seat].get("tipi") or 0)
        earnings = len(state.players[seat].coins) + len(t.stew[seat]) + len(t.distilled[seat])
        return {"tipi": earnings // step if step else 0}
