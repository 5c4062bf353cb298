"""Carrying out checked moves of the standard turn: every card moves from one zone to another.

No card is made or lost. Other turn structures and modules reuse these effects or replace them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.rules.moves import BuyField, Draw, EndTrading, Harvest, Plant, Source, Trade, TurnOver
from companion.rules.phases import Phase
from companion.rules.zones import Field

if TYPE_CHECKING:
    from companion.rules.state import GameState


def plant(state: GameState, move: Plant) -> None:
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
    if move.source is not Source.HAND:
        end_phase_three_when_planted(state)


def turn_over(state: GameState, move: TurnOver) -> None:
    plan = state.plan_take(len(move.beans))
    state.commit_take(plan, move.beans)
    state.face_up = list(move.beans)
    state.phase = Phase.TRADE


def trade(state: GameState, move: Trade) -> None:
    active, partner = state.players[move.player], state.players[move.partner]
    for bean in move.give_face_up:
        state.face_up.remove(bean)
    active.hand.remove(move.give_hand, move.give_hand_at)
    partner.hand.remove(move.receive, move.receive_at)
    state.unseen.subtract(move.give_hand + move.receive)
    partner.received.extend(move.give_face_up + move.give_hand)
    active.received.extend(move.receive)


def end_trading(state: GameState, move: EndTrading) -> None:
    state.phase = Phase.PLANT_TRADED
    end_phase_three_when_planted(state)


def end_phase_three_when_planted(state: GameState) -> None:
    """Once every turned-over and received card is planted, phase 3 ends: the game, or phase 4."""
    if state.phase is not Phase.PLANT_TRADED or state.pending_cards():
        return
    if state.last_pass:
        finish_game(state)
        return
    state.phase = Phase.DRAW
    state.draws_due = state.rules.draws(state)


def harvest(state: GameState, move: Harvest) -> None:
    harvest_field(state, move.player, move.field)


def harvest_field(state: GameState, seat: int, index: int) -> int:
    """Harvest a whole field: coins by the beanometer to the coin pile, the rest discarded.

    The thalers are cards of the field's own bean first (a High Bohn farm field also holds soy).
    """
    if (paid := state.rules.harvest_field(state, seat, index)) is not None:
        return paid
    player, field = state.players[seat], state.players[seat].fields[index]
    coins, bean, count = state.rules.harvest_value(state, seat, index), field.bean, field.count
    assert bean is not None
    cards = sorted(field.cards, key=lambda card: card != bean)
    field.clear()
    player.coins.extend(cards[:coins])
    state.discard.extend(cards[coins:])
    state.rules.harvested(state, seat, bean, count)
    return coins


def buy_field(state: GameState, move: BuyField) -> None:
    player = state.players[move.player]
    price = state.rules.third_field_price()
    assert price is not None
    paid = list(move.coins) or player.coins[len(player.coins) - price :]
    for coin in reversed(paid):  # the topmost copy of each coin named
        del player.coins[len(player.coins) - 1 - player.coins[::-1].index(coin)]
    state.discard.extend(paid)
    player.fields.append(Field())
    player.bought_field = True


def draw(state: GameState, move: Draw) -> None:
    seat, count = state.draws_due.pop(0)
    plan = state.plan_take(count)
    state.commit_take(plan)
    state.players[seat].hand.add(plan.cards)
    if state.last_pass:
        finish_game(state)
    elif not state.draws_due:
        next_turn(state, Phase.PLANT)


def next_turn(state: GameState, phase: Phase) -> None:
    """The player to the left becomes the active player, starting at ``phase``."""
    state.active = state.next_seat(state.active)
    state.phase = phase
    state.plants_this_turn = 0
    state.turn += 1


def finish_game(state: GameState) -> None:
    """The game ends: a module may first ask for moves (and calls this again), then everyone harvests every field."""
    if state.rules.delay_end(state):
        return
    for seat, player in enumerate(state.players):
        for index, field in enumerate(player.fields):
            if field.count:
                harvest_field(state, seat, index)
    state.game_over = True
