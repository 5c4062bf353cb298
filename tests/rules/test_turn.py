"""The four phases of a turn, as the rule books tell them (000 pages 4-7, 001 "Playing the game")."""

from __future__ import annotations

from companion.rules import Draw, EndTrading, Harvest, Phase, Plant, Source, Trade, TurnOver
from support.tables import known_table, refused

# --- fixed hand order, phase 1 ------------------------------------------------------------


def test_you_cannot_change_the_order_of_the_cards_in_your_hand():
    game = known_table([["soy", "blue", "red", "red", "red"], ["green"] * 5, ["chili"] * 5, ["stink"] * 5])
    assert refused(game, Plant(0, "blue")) == "hand.order"
    game.push(Plant(0, "soy"))
    game.push(Plant(0, "blue"))
    assert game.players[0].hand.cards == ["red", "red", "red"]


def test_phase_1_must_plant_the_first_card_before_turning_over(four):
    assert refused(four, TurnOver(0, ("blue", "red"))) == "phase1.must-plant"


def test_phase_1_may_plant_the_next_card_but_never_a_third(four):
    four.push(Plant(0, "blue"))
    four.push(Plant(0, "blue"))
    assert refused(four, Plant(0, "blue")) == "phase1.third-plant"


def test_an_empty_hand_skips_phase_1(four):
    four.players[0].hand.size = 0
    four.push(TurnOver(0, ("blue", "red")))
    assert four.phase is Phase.TRADE


def test_only_one_kind_of_bean_grows_in_a_field(four):
    four.push(Plant(0, "blue", field=0))
    assert refused(four, Plant(0, "red", field=0)) == "field.one-kind"


def test_a_bean_that_fits_no_field_must_wait_for_a_harvest(four):
    four.push(Plant(0, "blue"))
    four.push(Plant(0, "red"))
    four.push(TurnOver(0, ("soy", "chili")))
    four.push(EndTrading(0))
    assert refused(four, Plant(0, "soy", Source.FACE_UP)) == "field.none-free"
    four.push(Harvest(0, 0))
    four.push(Plant(0, "soy", Source.FACE_UP))
    assert four.players[0].fields[0].bean == "soy"


def test_the_same_bean_may_grow_in_two_fields(four):
    four.push(Plant(0, "blue", field=0))
    four.push(Plant(0, "blue", field=1))
    assert [f.bean for f in four.players[0].fields] == ["blue", "blue"]


def test_only_the_active_player_plants_from_hand(four):
    assert refused(four, Plant(1, "blue")) == "turn.out-of-turn"


# --- phase 2: turn over and trade -------------------------------------------------------------


def test_phase_2_turns_over_two_cards(four):
    four.push(Plant(0, "blue"))
    assert refused(four, TurnOver(0, ("red",))) == "phase2.count"
    four.push(TurnOver(0, ("red", "soy")))
    assert four.face_up == ["red", "soy"] and four.draw.size == 104 - 20 - 2


def test_only_the_active_player_trades(four):
    four.push(Plant(0, "blue"))
    four.push(TurnOver(0, ("red", "soy")))
    assert refused(four, Trade(1, 2, give_hand=("green",), receive=("chili",))) == "trade.with-active"


def test_trades_and_gifts_with_the_active_player(four):
    four.push(Plant(0, "blue"))
    four.push(TurnOver(0, ("red", "soy")))
    four.push(Trade(0, 1, give_face_up=("soy",), give_hand=("chili",), receive=("red",)))
    four.push(Trade(0, 2, give_face_up=("red",)))  # a gift
    four.push(Trade(0, 3, receive=("green",)))  # a gift to the active player
    assert four.players[1].received == ["soy", "chili"]
    assert four.players[2].received == ["red"]
    assert four.players[0].received == ["red", "green"]
    assert [p.hand.size for p in four.players] == [3, 4, 5, 4]


def test_cards_received_in_a_trade_cannot_be_traded_on():
    game = known_table([["blue"] * 5, ["red"] * 5, ["soy"] * 5, ["green"] * 5], top=["chili", "stink"])
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("chili", "stink")))
    game.push(Trade(0, 1, give_face_up=("stink",), receive=("red",)))
    # The red bean lies beside Ann's fields now: it is neither turned over nor in her hand.
    assert refused(game, Trade(0, 2, give_face_up=("red",))) == "trade.face-up"
    assert refused(game, Trade(0, 2, give_hand=("red",))) == "hand.not-held"


def test_a_trade_moves_at_least_one_card(four):
    four.push(Plant(0, "blue"))
    four.push(TurnOver(0, ("red", "soy")))
    assert refused(four, Trade(0, 1)) == "trade.empty"


def test_trading_happens_only_in_phase_2(four):
    four.push(Plant(0, "blue"))
    assert refused(four, Trade(0, 1, receive=("red",))) == "phase2.trade"


# --- phase 3 and 4 ----------------------------------------------------------------------------


def test_phase_3_everyone_plants_what_they_received_in_any_order(four):
    four.push(Plant(0, "blue"))
    four.push(TurnOver(0, ("red", "soy")))
    four.push(Trade(0, 1, give_face_up=("soy",)))
    assert refused(four, Plant(1, "soy", Source.RECEIVED)) == "phase3.after-trading"
    four.push(EndTrading(0))
    assert refused(four, Draw(0)) == "phase3.plant-all"
    four.push(Plant(1, "soy", Source.RECEIVED))
    four.push(Plant(0, "red", Source.FACE_UP))
    four.push(Draw(0))
    assert four.active == 1 and four.phase is Phase.PLANT


def test_phase_4_draws_three_cards_into_the_back_of_the_hand():
    game = known_table([["blue"] * 5, ["red"] * 5, ["soy"] * 5, ["green"] * 5],
                       top=["chili", "stink", "garden", "black-eyed", "red"])
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("chili", "stink")))
    game.push(EndTrading(0))
    game.push(Harvest(0, 0))
    game.push(Plant(0, "chili", Source.FACE_UP))
    game.push(Plant(0, "stink", Source.FACE_UP))
    assert refused(game, Draw(0, count=2)) == "phase4.count"
    game.push(Draw(0))
    assert game.players[0].hand.cards == ["blue"] * 4 + ["garden", "black-eyed", "red"]


def test_play_goes_to_the_left(four):
    for seat in range(4):
        assert four.active == seat
        four.push(Plant(seat, "blue"))
        four.push(TurnOver(seat, ("red", "soy")))
        four.push(EndTrading(seat))
        four.push(Harvest(seat, 0))
        four.push(Plant(seat, "red", Source.FACE_UP))
        four.push(Plant(seat, "soy", Source.FACE_UP))
        four.push(Draw(seat))
    assert four.active == 0 and four.turn == 5


def test_undo_takes_back_the_last_moves(four):
    four.push(Plant(0, "blue"))
    four.push(Plant(0, "red"))
    undone = four.pop()
    assert undone == [Plant(0, "red", Source.HAND, 1)]
    assert four.players[0].fields[1].count == 0 and four.players[0].hand.size == 4
