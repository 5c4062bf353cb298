"""Harvesting, the bean protection rule in both readings, and buying a third field."""

from __future__ import annotations

import pytest

from companion.rules import BuyField, Harvest
from companion.rules.editions import PROTECTION_LENIENT, PROTECTION_STRICT
from support.tables import table


def fields(state, seat: int, *plants: tuple[str, int]) -> None:
    """Scenario set-up: these cards grow in a player's fields (taken from the unseen cards)."""
    player = state.players[seat]
    for field, (bean, count) in zip(player.fields, plants):
        field.cards = [bean] * count
        state.unseen[bean] -= count


def test_a_harvest_pays_by_the_beanometer_and_discards_the_rest(four):
    fields(four, 2, ("chili", 3), ("stink", 0))
    four.push(Harvest(2, 0))  # Keno's example: 3 chili beans earn 1 coin
    assert four.players[2].coins == ["chili"]
    assert four.discard == ["chili", "chili"]
    assert four.players[2].fields[0].count == 0


def test_some_harvests_earn_nothing(four):
    fields(four, 1, ("stink", 2), ("red", 0))
    four.push(Harvest(1, 0))
    assert four.players[1].coins == [] and four.discard == ["stink", "stink"]


@pytest.mark.parametrize(
    ("count", "coins"), [(1, 0), (2, 0), (3, 1), (4, 1), (5, 2), (6, 2), (7, 3), (8, 4), (9, 4)]
)
def test_the_stink_bean_beanometer(four, count, coins):
    fields(four, 0, ("stink", count), ("red", 0))
    four.push(Harvest(0, 0))
    assert len(four.players[0].coins) == coins


def test_anyone_may_harvest_at_any_time_even_out_of_turn(four):
    fields(four, 3, ("blue", 4), ("red", 0))
    four.push(Harvest(3, 0))
    assert len(four.players[3].coins) == 1


def test_an_empty_field_cannot_be_harvested(four):
    assert four.check(Harvest(0, 0)).rule == "harvest.empty"


@pytest.mark.parametrize(
    ("layout", "lenient", "strict"),
    [
        ([("blue", 1), ("red", 3)], False, False),  # another field holds more than one
        ([("blue", 1), ("red", 1)], True, True),  # every field holds just one card
        ([("blue", 1), ("red", 0)], True, False),  # the readings differ on an empty field
        ([("blue", 1), ("red", 1), ("soy", 0)], True, False),
    ],
)
def test_the_bean_protection_rule_in_both_readings(layout, lenient, strict):
    for reading, allowed in ((PROTECTION_LENIENT, lenient), (PROTECTION_STRICT, strict)):
        game = table("amigo-25", 3 if len(layout) == 3 else 4, protection=reading)  # 3 or 2 fields
        fields(game, 0, *layout)
        violation = game.check(Harvest(0, 0))
        assert (violation is None) == allowed, reading
        if violation:
            assert violation.rule == "harvest.protection"


def test_a_field_of_more_than_one_card_is_never_protected():
    game = table("classic", 4)
    fields(game, 0, ("blue", 2), ("red", 1))
    assert game.check(Harvest(0, 0)) is None


def test_the_editions_default_readings():
    assert table("amigo-25", 4).rules.protection == PROTECTION_LENIENT
    assert table("classic", 4).rules.protection == PROTECTION_STRICT


# --- the third field (001) --------------------------------------------------------------------


def coins(state, seat: int, n: int) -> None:
    state.players[seat].coins.extend(["blue"] * n)
    state.unseen["blue"] -= n


def test_a_third_field_costs_three_coins_which_go_to_the_discard_pile():
    game = table("classic", 4)
    coins(game, 1, 4)
    game.push(BuyField(1))
    assert len(game.players[1].fields) == 3
    assert len(game.players[1].coins) == 1 and game.discard == ["blue"] * 3


def test_a_third_field_is_bought_only_once():
    game = table("classic", 5)
    coins(game, 0, 6)
    game.push(BuyField(0))
    assert game.check(BuyField(0)).rule == "field.bought-once"


def test_a_third_field_needs_the_coins():
    game = table("classic", 4)
    coins(game, 0, 2)
    assert game.check(BuyField(0)).rule == "field.price"


def test_with_six_or_seven_players_a_third_field_costs_two_coins():
    for players in (6, 7):
        game = table("classic", players)
        coins(game, 0, 2)
        game.push(BuyField(0))
        assert game.players[0].coins == [] and len(game.players[0].fields) == 3


def test_three_players_start_with_a_third_field_and_may_not_buy_another():
    game = table("classic", 3)
    assert all(len(p.fields) == 3 for p in game.players)
    coins(game, 0, 3)
    violation = game.check(BuyField(0))
    assert violation.rule == "field.no-purchase" and "three players" in violation.message


def test_the_anniversary_edition_sells_no_third_field():
    game = table("amigo-25", 4)
    coins(game, 0, 5)
    assert game.check(BuyField(0)).rule == "field.no-purchase"
    assert [len(p.fields) for p in table("amigo-25", 3).players] == [3, 3, 3]


def test_a_payment_names_the_coins_it_spends_or_takes_the_topmost():
    game = table("classic", 4)
    game.players[0].coins = ["blue", "chili", "soy", "red"]
    game.push(BuyField(0, ("blue", "soy", "red")))
    assert game.players[0].coins == ["chili"] and game.discard[-3:] == ["blue", "soy", "red"]
    game.players[1].coins = ["blue", "chili", "soy", "red"]
    game.push(BuyField(1))
    assert game.players[1].coins == ["blue"]


def test_a_payment_cannot_name_coins_the_player_does_not_have():
    game = table("classic", 4)
    game.players[0].coins = ["blue", "chili", "soy"]
    violation = game.check(BuyField(0, ("blue", "blue", "soy")))
    assert violation is not None and violation.rule == "field.coins"
