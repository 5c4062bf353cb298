"""Order (job) cards, as the expansion set (003) and the Plus expansion (004) tell them."""

from __future__ import annotations

import pytest

from companion.rules import Draw, EndTrading, Plant, Source, TurnOver, public_view
from companion.rules.orders import FillOrder, LayOrder
from companion.rules.rulesets import ruleset
from support.tables import known_table, refused, table

ORDERS = {"modules": ["order-cards"]}
HANDS = [["blue", "chili", "soy", "green", "red"], ["stink"] * 5, ["soy"] * 5, ["green"] * 5]



def seat_orders(game, seat: int) -> dict:
    return public_view(game).to_dict()["orders"]["seats"][seat]


def test_each_player_gets_one_order_card_behind_the_dealt_beans():
    game = table("expansion-set", 4, **ORDERS)
    assert seat_orders(game, 0) == {"in_hand": True, "ahead": [5, 5], "shown": None, "filled": 0}
    assert public_view(game).to_dict()["orders"]["stack"] == 39 - 4


def test_the_order_card_moves_forward_as_beans_are_planted_from_the_front():
    game = known_table(HANDS, ruleset_name="expansion-set", **ORDERS)
    game.push(Plant(0, "blue"))
    game.push(Plant(0, "chili"))
    assert seat_orders(game, 0)["ahead"] == [3, 3]


def at_the_front(game, seat: int = 0) -> None:
    game.players[seat].hand.size = 2
    holding = game.parts["order-cards"].seats[seat]
    holding.ahead, holding.hand_size = (0, 0), 2


def test_an_order_at_the_front_is_laid_out_and_only_one_bean_planted():
    game = table("expansion-set", 4, **ORDERS)
    at_the_front(game)
    assert refused(game, Plant(0, "blue")) == "order.front"
    game.push(LayOrder(0, 3, 4))
    assert seat_orders(game, 0)["shown"] == [3, 4]
    game.push(Plant(0, "blue"))
    assert refused(game, Plant(0, "blue")) == "phase1.third-plant"


def test_an_order_is_filled_with_fields_1_and_2():
    game = table("expansion-set", 4, **ORDERS)
    game.players[0].fields[0].cards, game.players[0].fields[1].cards = ["blue"] * 3, ["soy"] * 4
    game.push(FillOrder(0, 3, 4))
    view = public_view(game).to_dict()
    assert view["score_breakdown"]["Ann"] == {"coins": 0, "orders": 1} and view["scores"]["Ann"] == 1


def test_an_order_filled_with_fields_2_and_3():
    game = table("expansion-set", 3, **ORDERS)
    fields = game.players[0].fields
    fields[0].cards, fields[1].cards, fields[2].cards = ["blue"] * 3, ["soy"] * 4, []
    game.push(FillOrder(0, 4, 0))


def test_the_fields_must_be_adjacent_and_hold_exactly_the_numbers_in_order():
    game = table("expansion-set", 3, **ORDERS)
    fields = game.players[0].fields
    fields[0].cards, fields[1].cards, fields[2].cards = ["blue"] * 4, ["soy"] * 2, []
    assert refused(game, FillOrder(0, 4, 0)) == "order.not-met"  # fields 1 and 3 are not adjacent
    assert refused(game, FillOrder(0, 2, 4)) == "order.not-met"  # the order's numbers go left to right
    assert refused(game, FillOrder(0, 4, 3)) == "order.not-met"


def test_an_order_is_filled_only_on_its_owners_turn():
    game = table("expansion-set", 4, **ORDERS)
    game.players[1].fields[0].cards, game.players[1].fields[1].cards = ["blue"] * 3, ["soy"] * 4
    assert refused(game, FillOrder(1, 3, 4)) == "order.own-turn"


def test_a_laid_out_order_not_filled_by_the_end_of_phase_3_goes_under_the_stack_and_a_new_one_is_drawn():
    game = table("expansion-set", 4, **ORDERS)
    at_the_front(game)
    game.push(LayOrder(0, 9, 9))
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("blue", "blue")))
    game.push(EndTrading(0))
    game.push(Plant(0, "blue", Source.FACE_UP))
    game.push(Plant(0, "blue", Source.FACE_UP))
    assert seat_orders(game, 0)["shown"] is None and public_view(game).to_dict()["orders"]["stack"] == 36
    game.push(Draw(0))
    assert seat_orders(game, 0) == {"in_hand": True, "ahead": [4, 4], "shown": None, "filled": 0}
    assert public_view(game).to_dict()["orders"]["stack"] == 35


def test_a_shown_order_must_be_filled_with_its_own_numbers():
    game = table("expansion-set", 4, **ORDERS)
    at_the_front(game)
    game.push(LayOrder(0, 1, 2))
    game.players[0].fields[0].cards, game.players[0].fields[1].cards = ["blue"] * 3, ["soy"] * 4
    assert refused(game, FillOrder(0, 3, 4)) == "order.numbers"


def test_order_cards_need_the_standard_turn():
    with pytest.raises(ValueError, match="four phases"):
        ruleset("amigo-25-duel", 2, ORDERS)
    assert ruleset("classic", 5, ORDERS).modules[0].name == "order-cards"
