"""The AMIGO Bean Coin, as book 000 tells it."""

from __future__ import annotations

import pytest

from companion.rules import Draw, EndTrading, Harvest, Plant, Source, TurnOver, public_view
from companion.rules.bean_coin import ClaimCoin, DefendCoin, PlantDrawn, YieldCoin
from companion.rules.rulesets import ruleset
from support.tables import refused, table

COIN = {"modules": ["bean-coin"]}



def coin_table(players: int = 4):
    return table("amigo-25", players, **COIN)


def holder(game) -> int:
    return public_view(game).to_dict()["bean_coin"]["holder"]


def rich(game, seat: int = 0) -> None:
    """``seat``'s fields are worth 5 coins: 10 blue (4) and 3 chili (1)."""
    game.players[seat].fields[0].cards = ["blue"] * 10
    game.players[seat].fields[1].cards = ["chili"] * 3


def test_the_coin_starts_with_the_player_right_of_the_start_player():
    assert holder(table("amigo-25", 4, start=1, **COIN)) == 0
    assert holder(coin_table()) == 3


def test_the_bean_coin_is_for_three_to_five_players_in_the_base_game():
    with pytest.raises(ValueError, match="3 to 5 players"):
        ruleset("classic", 6, COIN)
    with pytest.raises(ValueError, match="base game"):
        ruleset("expansion-set", 4, COIN)


def test_a_claim_needs_fields_worth_five_coins_with_four_players():
    game = coin_table()
    game.players[0].fields[0].cards = ["blue"] * 10
    assert refused(game, ClaimCoin(0)) == "bean-coin.worth"
    rich(game)
    game.push(ClaimCoin(0))
    assert game.to_act() == (3,)


def test_a_claim_needs_six_coins_over_three_fields_with_three_players():
    game = coin_table(3)
    rich(game)
    assert refused(game, ClaimCoin(0)) == "bean-coin.worth"
    game.players[0].fields[2].cards = ["soy"] * 2
    game.push(ClaimCoin(0))


def test_only_the_active_player_claims_at_any_point_of_the_turn():
    game = coin_table()
    rich(game, 1)
    assert refused(game, ClaimCoin(1)) == "turn.out-of-turn"
    rich(game)
    game.push(ClaimCoin(0))  # even before planting in phase 1


def test_the_holder_may_hand_the_coin_over():
    game = coin_table()
    rich(game)
    game.push(ClaimCoin(0))
    assert refused(game, Plant(0, "blue")) == "bean-coin.answer"
    game.push(YieldCoin(3))
    assert holder(game) == 0


def test_the_coin_defence_drawing_a_blue_bean_keeps_the_coin_and_stops_a_second_try():
    game = coin_table()
    rich(game)
    game.players[0].fields[2:] = []
    game.push(ClaimCoin(0))
    game.push(DefendCoin(3, "blue", 2))
    assert holder(game) == 3 and game.players[3].hand.size == 4
    assert game.to_act() == (0,)
    assert refused(game, Plant(0, "blue")) == "bean-coin.plant-drawn"
    game.push(PlantDrawn(0, 0))  # planted at once
    assert game.players[0].fields[0].count == 11
    assert refused(game, ClaimCoin(0)) == "bean-coin.stopped"


def test_a_defence_drawing_another_bean_loses_the_coin_and_the_card_is_planted_at_once():
    game = coin_table()
    rich(game)
    game.push(ClaimCoin(0))
    game.push(DefendCoin(3, "soy", 0))
    assert holder(game) == 0
    assert refused(game, PlantDrawn(0, 0)) == "field.one-kind"
    game.push(Harvest(0, 1))  # make room: harvesting is allowed
    game.push(PlantDrawn(0, 1))
    assert game.players[0].fields[1].cards == ["soy"]


def test_fields_worth_nothing_draw_two_and_the_holder_draws_four():
    game = coin_table()
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("soy", "chili")))
    game.push(EndTrading(0))
    game.push(Plant(0, "soy", Source.FACE_UP))
    game.push(Harvest(0, 0))
    game.push(Plant(0, "chili", Source.FACE_UP))
    assert game.draws_due == [(0, 2)]
    assert refused(game, Draw(0, 3)) == "phase4.count"
    game.push(Draw(0, 2))
    for seat in (1, 2):  # Ben and Cid play a turn
        game.push(Plant(seat, "red"))
        game.push(TurnOver(seat, ("red", "red")))
        game.push(EndTrading(seat))
        game.push(Plant(seat, "red", Source.FACE_UP))
        game.push(Plant(seat, "red", Source.FACE_UP))
        game.push(Draw(seat))
    game.push(Plant(3, "green"))
    game.push(TurnOver(3, ("green", "green")))
    game.push(EndTrading(3))
    game.push(Plant(3, "green", Source.FACE_UP))
    game.push(Plant(3, "green", Source.FACE_UP))
    assert game.draws_due == [(3, 4)]  # Dee holds the coin


def test_the_coin_is_worth_nothing_but_wins_a_tie():
    game = coin_table()
    for player in game.players:
        player.coins = ["blue"] * 3
    game.game_over = True
    result = public_view(game).to_dict()
    assert result["scores"] == {"Ann": 3, "Ben": 3, "Cid": 3, "Dee": 3}
    assert result["winners"] == ["Dee"] and "Bean Coin" in result["result"]
