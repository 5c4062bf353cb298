"""High Bohn building cards whose attribute is an action taken at one moment (book 004).

The bank's attribute "must be taken at the exact time indicated on the card. If the player does
not use the attribute at that time, he may not take it later"; the 2 Distillery's is used
"immediately after buying the building". What these cards do and when is printed only on them:
it is read from ``card_data`` (documented defaults, or what the group entered), each an action
that takes thalers from the top of the discard pile. An ``on-build`` action happens by itself
when the card is bought; the others are offered (``use-building``) while their moment lasts:
``turn-start`` on the owner's turn before the first plant, ``draw`` in the owner's phase 4
before drawing, once a turn each.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.rules.buildings import BUILDINGS, card_name
from companion.rules.card_data import WHEN, CardAction
from companion.rules.high_bohn import HIGH_BOHN
from companion.rules.legal import LegalMove
from companion.rules.moves import register_move
from companion.rules.parts import MoveRule, Part, register_module
from companion.rules.phases import Phase
from companion.rules.town import Build, owned_price, town
from companion.rules.violations import RuleViolation
from companion.rules.wording import Names, wording

if TYPE_CHECKING:
    from companion.rules.rulesets import Rules
    from companion.rules.state import GameState


@register_move("use-building")
@dataclass(frozen=True, slots=True)
class UseBuilding:
    """Take the action a building card prints, at the moment it prints."""

    player: int
    building: str


def action_of(state: GameState, seat: int, building: str) -> CardAction | None:
    """The action ``seat``'s building of this type gives, if any."""
    price = owned_price(state, seat, building)
    data = state.rules.cards.get(f"{building}-{price}") if price else None
    return data.action if data is not None else None


def take_thalers(state: GameState, seat: int, count: int) -> None:
    """``seat`` takes up to ``count`` thalers from the top of the discard pile."""
    for _ in range(min(count, len(state.discard))):
        state.players[seat].coins.append(state.discard.pop())


@register_module
class BuildingActions(Part):
    name = "building-actions"
    title = "High Bohn: buildings used at one moment"
    book = "004_e13a5e0396bac44f.txt, High Bohn: Bank, Distillery"
    about = "The banks (and the 2 Distillery) give thalers at the moment their card prints, or not at all."
    reads_card_data = True

    def allows(self, rules: Rules) -> str | None:
        return None if rules.edition.name == HIGH_BOHN else "the buildings are played with High Bohn"

    def setup(self, state: GameState) -> None:
        state.parts[self.name] = {}  # (seat, building) -> the turn its action was last taken

    def move_rules(self) -> Mapping[type, MoveRule]:
        return {UseBuilding: MoveRule(self.check_use, self.apply_use, self.use_options)}

    def _moment(self, state: GameState, seat: int, when: str) -> bool:
        """Whether the moment ``when`` of ``seat``'s own turn is now."""
        if seat != state.active or town(state).last_round is not None:
            return False
        if when == "turn-start":
            return state.phase is Phase.PLANT and state.plants_this_turn == 0
        return when == "draw" and state.phase is Phase.DRAW and bool(state.draws_due) and state.draws_due[0][0] == seat

    def check_use(self, state: GameState, move: UseBuilding) -> RuleViolation | None:
        who = state.names[move.player]
        if move.building not in BUILDINGS:
            return RuleViolation("building.not-in-game", f"There is no building {move.building!r}.")
        action = action_of(state, move.player, move.building)
        if action is None or action.when == "on-build":
            return RuleViolation("building.no-action", f"{who} owns no {BUILDINGS[move.building].name} whose card "
                                                       "gives an action to take now.")  # fmt: skip
        price = owned_price(state, move.player, move.building) or 0
        card = card_name(move.building, price)
        if not self._moment(state, move.player, action.when):
            return RuleViolation("building.moment", f"{card_name(move.building, price, starts=True)} is used "
                                                    f"{WHEN[action.when]}, or not at all: that moment is not "
                                                    "now.")  # fmt: skip
        if state.parts[self.name].get((move.player, move.building)) == state.turn:
            return RuleViolation("building.used", f"{who} has already used {card} this turn.")
        return None

    def apply_use(self, state: GameState, move: UseBuilding) -> None:
        action = action_of(state, move.player, move.building)
        assert action is not None
        take_thalers(state, move.player, action.thalers)
        state.parts[self.name][move.player, move.building] = state.turn

    def use_options(self, state: GameState, seat: int) -> list[LegalMove]:
        found = []
        for building in town(state).owned[seat]:
            if self.check_use(state, UseBuilding(seat, building)) is None:
                action = action_of(state, seat, building)
                assert action is not None
                card = card_name(building, owned_price(state, seat, building) or 0)
                found.append(LegalMove("use-building", {"player": seat, "building": building},
                                       f"Use {card}: {action.text()}"))  # fmt: skip
        return found

    def after(self, state: GameState, move: Any) -> None:
        if isinstance(move, Build) and (action := action_of(state, move.player, move.building)) is not None \
                and action.when == "on-build":  # fmt: skip
            take_thalers(state, move.player, action.thalers)


@wording("use-building")
def _use_building(e: dict[str, Any], who: Names) -> str:
    building = BUILDINGS[e["building"]].name if e.get("building") in BUILDINGS else e.get("building")
    return f"{who(e['player'])} used the {building}"
