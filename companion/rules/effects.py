"""Carrying out checked moves: every card moves from one zone to another, none is made or lost."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.rules.moves import BuyField, Draw, EndTrading, Harvest, Move, Plant, Source, Trade, TurnOver
from companion.rules.phases import Phase
from companion.rules.zones import Field

if TYPE_CHECKING:
    from companion.rules.state import GameState, PlayerState


def apply(state: GameState, move: Move) -> None:
    """Carry out ``move``, which ``checks.check`` accepted."""
    _EFFECTS[type(move)](state, move)


def _plant(state: GameState, move: Plant) -> None:
    player = state.players[move.player]
    if move.source is Source.HAND:
        player.hand.remove_front()
        state.unseen[move.bean] -= 1
        state.plants_this_turn += 1
    elif move.source is Source.FACE_UP:
        state.face_up.remove(move.bean)
    else:
        player.received.remove(move.bean)
    assert move.field is not None
    player.fields[move.field].plant(move.bean)
    _finish_if_last_turn_done(state)


def _turn_over(state: GameState, move: TurnOver) -> None:
    plan = state.plan_take(len(move.beans))
    state.commit_take(plan)
    state.unseen.subtract(move.beans)
    state.face_up = list(move.beans)
    state.phase = Phase.TRADE


def _trade(state: GameState, move: Trade) -> None:
    active, partner = state.players[move.player], state.players[move.partner]
    for bean in move.give_face_up:
        state.face_up.remove(bean)
    active.hand.remove(move.give_hand)
    partner.hand.remove(move.receive)
    state.unseen.subtract(move.give_hand + move.receive)
    partner.received.extend(move.give_face_up + move.give_hand)
    active.received.extend(move.receive)


def _end_trading(state: GameState, move: EndTrading) -> None:
    state.phase = Phase.PLANT_TRADED
    _finish_if_last_turn_done(state)


def _harvest(state: GameState, move: Harvest) -> None:
    harvest_field(state, state.players[move.player], move.field)


def harvest_field(state: GameState, player: PlayerState, index: int) -> int:
    """Harvest a whole field: coins by the beanometer to the coin pile, the rest discarded."""
    bean, count = player.fields[index].clear()
    assert bean is not None
    coins = min(state.rules.coins_for(bean, count), count)
    player.coins.extend([bean] * coins)
    state.discard.extend([bean] * (count - coins))
    return coins


def _buy_field(state: GameState, move: BuyField) -> None:
    player = state.players[move.player]
    price = state.rules.third_field_price()
    assert price is not None
    paid = player.coins[len(player.coins) - price :]
    del player.coins[len(player.coins) - price :]
    state.discard.extend(paid)
    player.fields.append(Field())
    player.bought_field = True


def _draw(state: GameState, move: Draw) -> None:
    plan = state.plan_take(state.rules.draw_count())
    state.commit_take(plan)
    state.players[move.player].hand.add(plan.cards)
    if state.last_pass:
        finish_game(state)
        return
    state.active = state.next_seat(state.active)
    state.phase = Phase.PLANT
    state.plants_this_turn = 0
    state.turn += 1


def _finish_if_last_turn_done(state: GameState) -> None:
    """After the last pass during phase 2, the game ends once phase 3 is complete."""
    if state.last_pass and state.phase is Phase.PLANT_TRADED and state.pending_cards() == 0:
        finish_game(state)


def finish_game(state: GameState) -> None:
    """The game ends: everyone harvests every field."""
    for player in state.players:
        for index, field in enumerate(player.fields):
            if field.count:
                harvest_field(state, player, index)
    state.game_over = True


_EFFECTS: dict[type, Callable[[Any, Any], None]] = {
    Plant: _plant,
    TurnOver: _turn_over,
    Trade: _trade,
    EndTrading: _end_trading,
    Harvest: _harvest,
    BuyField: _buy_field,
    Draw: _draw,
}
