"""The standard turn of the base game: phases 1 to 4, as every edition but the Duel plays them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from companion.rules import checks, effects, offers
from companion.rules.moves import BuyField, Draw, EndTrading, Harvest, Plant, Trade, TurnOver
from companion.rules.parts import MoveRule, Part, register_turns
from companion.rules.phases import Phase

if TYPE_CHECKING:
    from companion.rules.state import GameState

STANDARD_MOVES: dict[type, MoveRule] = {
    Plant: MoveRule(checks.check_plant, effects.plant, offers.plant_options),
    TurnOver: MoveRule(checks.check_turn_over, effects.turn_over, offers.turn_over_options),
    Trade: MoveRule(checks.check_trade, effects.trade, offers.trade_options),
    EndTrading: MoveRule(checks.check_end_trading, effects.end_trading, offers.end_trading_options),
    Harvest: MoveRule(checks.check_harvest, effects.harvest, offers.harvest_options),
    BuyField: MoveRule(checks.check_buy_field, effects.buy_field, offers.buy_field_options),
    Draw: MoveRule(checks.check_draw, effects.draw, offers.draw_options),
}


def waiting_to_plant(state: GameState) -> tuple[int, ...]:
    """Seats with turned-over or received cards still to plant, the active player first."""
    n = len(state.players)
    order = [(state.active + i) % n for i in range(n)]
    return tuple(s for s in order if state.players[s].received or (s == state.active and state.face_up))


@register_turns
class StandardTurns(Part):
    name = "standard"
    title = "The four phases"
    book = "000_7919b706fb618356.txt, base game; 001_4672c0781fb6202e.txt"
    about = ("Plant one or two cards from the hand, turn over two and trade, plant what was turned over "
             "and traded, draw.")

    def move_rules(self) -> Mapping[type, MoveRule]:
        return STANDARD_MOVES

    def phase_text(self, state: GameState) -> str | None:
        return {
            Phase.PLANT: f"Phase 1 · plant from hand, then turn over {state.rules.turn_over_count()}",
            Phase.TRADE: "Phase 2 · trade and give",
            Phase.PLANT_TRADED: "Phase 3 · plant turned-over and traded cards",
            Phase.DRAW: "Phase 4 · draw",
        }.get(state.phase)

    def to_act(self, state: GameState, seats: tuple[int, ...]) -> tuple[int, ...]:
        if state.phase is Phase.PLANT_TRADED:
            return waiting_to_plant(state)
        if state.phase is Phase.DRAW and state.draws_due:
            return (state.draws_due[0][0],)
        return (state.active,)
