"""High Bohn buildings that add or change bean fields, the general store and the banks (book 004)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import EndTrading, GameState, Harvest, KnownDeck, Plant, Setup, Source, TurnOver, public_view
from companion.rules.building_actions import UseBuilding
from companion.rules.card_data import default_card_data
from companion.rules.general_store import GiveStored, Store
from companion.rules.listing import rules_catalogue
from companion.rules.random_play import play_randomly
from companion.rules.rulesets import ruleset
from companion.rules.town import Build
from companion.rules.wording import describe
from support.tables import NAMES, refused, table

BEAN = {"gold-mine": "garden", "tipi": "red", "bank": "black-eyed", "farm": "soy", "saloon": "green",
        "general-store": "stink", "blacksmith": "chili", "jail": "blue", "distillery": "cognac"}  # fmt: skip


def high_bohn(players: int = 4, **options):
    return table("high-bohn", players, **options)


def built(game, seat: int, *cards: tuple[str, int]) -> None:
    """``seat`` earns the thalers for each building card and buys it."""
    for building, price in cards:
        game.players[seat].coins.extend([BEAN[building]] * price)
        game.push(Build(seat, building, price))


def stock(game, seat: int, field: int, *cards: str) -> None:
    game.players[seat].fields[field].cards = list(cards)


def turned_over(game, *beans: str) -> None:
    """Ann (the active player) plants her front card and turns ``beans`` over: phase 2."""
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, beans))


# --- the 2 Saloon and the 2 Blacksmith: one more field for one bean ----------------------------


@pytest.mark.parametrize(("building", "bean", "other"), [("saloon", "green", "red"), ("blacksmith", "chili", "soy")])
def test_the_2_saloon_and_2_blacksmith_are_one_more_field_for_their_bean_only(building, bean, other):
    game = high_bohn()
    built(game, 0, (building, 2))
    fields = game.players[0].fields
    assert len(fields) == 3 and fields[2].only == bean
    stock(game, 0, 0, bean, bean)  # the bean grows in a second field too, the building's
    assert refused(game, Plant(0, other, Source.HAND, 2)) == "field.building-bean"
    assert game.check(Plant(0, bean, Source.HAND, 2)) is None
    assert any(f"field 3 is the 2 {building.capitalize()}" in note for note in public_view(game).to_dict()["notes"])


def test_a_single_bean_in_the_2_saloon_is_protected_by_the_normal_harvesting_rules():
    game = high_bohn()
    built(game, 0, ("saloon", 2))
    stock(game, 0, 0, "blue", "blue")
    stock(game, 0, 2, "green")
    assert refused(game, Harvest(0, 2)) == "harvest.protection"
    stock(game, 0, 0, "blue")
    stock(game, 0, 2, "green", "green")
    assert refused(game, Harvest(0, 0)) == "harvest.protection"


# --- bean stew: the 3 and 4 Saloon ---------------------------------------------------------------


def test_the_3_saloon_plants_one_bean_each_of_different_types_in_a_stew():
    game = high_bohn()
    stock(game, 0, 0, "red")
    assert refused(game, Plant(0, "blue", Source.HAND, 0)) == "field.one-kind"
    built(game, 0, ("saloon", 3))  # a field of one bean becomes a stew at once
    game.push(Plant(0, "blue", Source.HAND, 0))
    assert game.players[0].fields[0].mixed == "stew"
    assert not game.rules.accepts(game, 0, 0, "red") and game.rules.accepts(game, 0, 0, "chili")
    game.players[0].hand.size += 1
    assert refused(game, Plant(0, "red", Source.HAND, 0)) == "stew.one-of-each"
    assert "Ann's field 1 is a bean stew: Red Bean, Blue Bean" in public_view(game).to_dict()["notes"]


def test_a_stew_pays_by_the_saloons_beanometer_under_the_saloon_and_counts_at_the_end():
    game = high_bohn()
    built(game, 0, ("saloon", 3), ("tipi", 4))
    game.players[0].coins = ["blue"] * 4
    stock(game, 0, 0, "red", "blue", "chili", "soy")
    game.players[0].fields[0].mixed = "stew"
    paid = default_card_data()["saloon-3"].coins_for(4)
    assert public_view(game).to_dict()["players"][0]["harvest_values"][0] == paid == 2
    game.push(Harvest(0, 0))
    assert game.players[0].coins == ["blue"] * 4  # not spendable: under the saloon
    assert public_view(game).to_dict()["buildings"]["stew"][0] == ["red", "blue"]
    score = public_view(game).to_dict()["score_breakdown"]["Ann"]
    assert score["stew"] == 2 and score["tipi"] == 1  # 4 thalers + 2 stew thalers: one per five with the 4 tipi


def test_the_3_distillery_owner_takes_one_thaler_of_every_stew_harvest():
    game = high_bohn(modules=["cognac"])
    built(game, 1, ("distillery", 3))
    built(game, 0, ("saloon", 4))
    stock(game, 0, 0, "red", "blue", "chili")
    game.players[0].fields[0].mixed = "stew"
    game.push(Harvest(0, 0))
    town = public_view(game).to_dict()["buildings"]
    assert len(town["stew"][0]) == default_card_data()["saloon-4"].coins_for(3) - 1 and len(town["distilled"][1]) == 1
    assert public_view(game).to_dict()["score_breakdown"]["Ben"]["distillery"] == 1


def test_the_4_farm_makes_a_stew_paying_exactly_four_pay_five():
    game = high_bohn()
    built(game, 0, ("saloon", 3), ("farm", 4))
    stock(game, 0, 0, *["red", "blue", "chili", "soy", "green", "stink", "garden", "black-eyed"])
    game.players[0].fields[0].mixed = "stew"
    game.push(Harvest(0, 0))
    assert default_card_data()["saloon-3"].coins_for(8) == 4
    assert len(public_view(game).to_dict()["buildings"]["stew"][0]) == 5


# --- the 2 Farm: soy in another bean's field -------------------------------------------------------


def test_the_2_farm_plants_soy_in_a_field_of_a_bean_numbered_14_or_more_and_both_keep_growing():
    game = high_bohn()
    built(game, 0, ("farm", 2))
    stock(game, 0, 0, "green")
    stock(game, 0, 1, "red")
    game.players[0].hand.size += 3
    assert refused(game, Plant(0, "soy", Source.HAND, 1)) == "field.one-kind"  # red: 8 cards
    game.push(Plant(0, "soy", Source.HAND, 0))
    game.push(Plant(0, "green", Source.HAND, 0))
    assert game.players[0].fields[0].mixed == "farm"
    game.plants_this_turn = 0
    game.push(Plant(0, "soy", Source.HAND, 0))
    assert refused(game, Plant(0, "blue", Source.HAND, 0)) == "farm.two-beans"


def test_a_farm_field_pays_by_its_first_beans_beanometer_its_thalers_that_bean_first():
    game = high_bohn()
    built(game, 0, ("farm", 2))
    game.players[0].coins = []
    stock(game, 0, 0, "green", "soy", "green", "soy", "soy", "soy", "soy")
    game.players[0].fields[0].mixed = "farm"
    game.push(Harvest(0, 0))
    assert game.players[0].coins == ["green", "green", "soy", "soy"]  # seven cards of a green field pay 4


def test_a_soy_field_takes_no_other_bean_with_the_2_farm():
    game = high_bohn()
    built(game, 0, ("farm", 2))
    stock(game, 0, 0, "soy")
    assert refused(game, Plant(0, "green", Source.HAND, 0)) == "field.one-kind"


# --- the general store ----------------------------------------------------------------------------


def test_the_general_store_keeps_one_two_or_three_beans_by_its_price():
    game = high_bohn()
    assert refused(game, Store(0, "blue")) == "store.none"
    built(game, 0, ("general-store", 2))
    game.push(Store(0, "blue"))  # the front card, instead of planting it
    assert refused(game, Store(0, "red")) == "store.full"
    assert public_view(game).to_dict()["stored"][0] == ["blue"]
    assert game.plants_this_turn == 1 and game.check(TurnOver(0, ("red", "soy"))) is None


def test_stored_beans_are_only_traded_and_whoever_takes_one_must_plant_it():
    game = high_bohn()
    built(game, 0, ("general-store", 4))
    built(game, 1, ("general-store", 3))
    turned_over(game, "red", "soy")
    game.push(Store(0, "red", Source.FACE_UP))
    assert refused(game, Plant(0, "red", Source.FACE_UP)) == "phase3.after-trading"
    game.push(GiveStored(0, 1, "red"))  # a gift from Ann's store to Ben
    assert refused(game, Store(1, "red", Source.RECEIVED)) == "store.from-store"
    assert refused(game, GiveStored(1, 0, "blue")) == "store.missing"
    game.push(EndTrading(0))
    assert game.to_act() == (0, 1)  # Ann's soy, Ben's red
    game.push(Plant(1, "red", Source.RECEIVED))
    assert describe({"type": "give-stored", "player": 0, "partner": 1, "bean": "red"}, NAMES[:4]) == \
        "Ann gave a Red Bean from the general store to Ben"  # fmt: skip


def test_only_the_active_player_trades_stored_beans():
    game = high_bohn()
    built(game, 1, ("general-store", 2))
    turned_over(game, "red", "soy")
    game.parts["general-store"].stored[1].append("blue")
    assert refused(game, GiveStored(1, 2, "blue")) == "trade.with-active"
    game.push(GiveStored(1, 0, "blue"))
    assert game.players[0].received == ["blue"]


# --- the bank and the 2 Distillery: an action at one moment -----------------------------------------


def test_the_2_bank_is_used_at_the_start_of_its_owners_turn_or_not_at_all():
    game = high_bohn()
    built(game, 0, ("bank", 2))
    game.discard = ["red", "blue"]
    coins = list(game.players[0].coins)
    assert [m.type for m in game.legal_moves(0)].count("use-building") == 1
    game.push(UseBuilding(0, "bank"))
    assert game.players[0].coins == [*coins, "blue"]  # the top of the discard pile
    assert refused(game, UseBuilding(0, "bank")) == "building.used"
    game.push(Plant(0, "blue"))
    assert refused(game, UseBuilding(0, "bank")) == "building.moment"
    assert refused(game, UseBuilding(1, "bank")) == "building.no-action"


def test_the_2_distillery_takes_its_thalers_as_it_is_bought():
    game = high_bohn(modules=["cognac"])
    game.discard += ["red", "soy", "chili"]
    built(game, 0, ("distillery", 2))  # the two Cognac thalers paid lie on top of the discard pile
    assert game.players[0].coins[-2:] == ["cognac", "cognac"] and game.discard[-1] == "chili"


# --- what a group's own cards print -----------------------------------------------------------------


def test_a_group_enters_what_its_own_cards_print():
    game = high_bohn(card_data={"jail-2": {"beanometer": [2, 3, 4, 5]}, "bank-2": {"action": {"when": "draw",
                                                                                               "thalers": 4}}})
    built(game, 0, ("jail", 2), ("bank", 2))
    game.players[0].coins = []
    stock(game, 0, 0, "blue", "blue", "blue")
    game.push(Harvest(0, 0))
    assert len(game.players[0].coins) == 2
    assert refused(game, UseBuilding(0, "bank")) == "building.moment"  # in phase 4 now
    assert ruleset("high-bohn", 4, {"card_data": {"jail-2": {"beanometer": [2, 3, 4, 5]}}}).record_options()[
        "card_data"] == {"jail-2": {"beanometer": [2, 3, 4, 5]}}  # fmt: skip


def test_the_cognac_beans_beanometer_is_card_data_too():
    game = high_bohn(modules=["cognac"], card_data={"cognac": {"beanometer": [1, 2, 3, 4]}})
    game.players[0].coins = []
    stock(game, 0, 0, "cognac", "cognac")
    game.push(Harvest(0, 0))
    assert len(game.players[0].coins) == 2


@pytest.mark.parametrize(("given", "says"), [
    ({"jail-9": {"beanometer": [1, 2, 3, 4]}}, "no card 'jail-9'"),
    ({"jail-2": {"beanometer": [3, 2, 1, 0]}}, "4 steps"),
    ({"jail-2": {"action": {"when": "draw", "thalers": 1}}}, "prints a beanometer"),
    ({"bank-2": {"action": {"when": "later", "thalers": 1}}}, "one of on-build"),
    ({"bank-2": {"action": {"when": "draw", "thalers": -1}}}, "whole number"),
    ("jail", "must be an object"),
])  # fmt: skip
def test_card_data_that_does_not_fit_is_refused_with_a_sentence(given, says):
    with pytest.raises(ValueError, match=says):
        ruleset("high-bohn", 4, {"card_data": given})


def test_card_data_belongs_to_games_whose_cards_print_their_own_values():
    with pytest.raises(ValueError, match="High Bohn"):
        ruleset("classic", 4, {"card_data": {"jail-2": {"beanometer": [1, 2, 3, 4]}}})


def test_every_default_says_where_its_numbers_come_from():
    for card, data in default_card_data().items():
        assert "default" in data.source or "book" in data.source, card


# --- random games ----------------------------------------------------------------------------------


@settings(max_examples=12, deadline=None)
@given(players=st.integers(3, 5), cognac=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_random_high_bohn_games_end_keep_every_card_and_look_the_same_from_public_events(players, cognac, seed):
    setup = Setup("high-bohn", NAMES[:players], seed % players, {"modules": ["cognac"]} if cognac else {},
                  KnownDeck(seed))  # fmt: skip
    finished = play_randomly(setup, seed)
    assert finished.game_over and finished.passes == finished.rules.end_pass()
    state = GameState(setup)
    total = state.total_cards()
    for move in finished.move_stack:
        state.push(move)
        assert state.total_cards() == total  # thalers, stews and stored beans included
    assert public_view(GameState.replayed(replace(setup, deck=None), finished.move_stack)) == public_view(finished)


def test_two_fields_of_one_bean_are_allowed_unless_the_group_reads_the_saloons_text_as_a_rule():
    game = high_bohn()
    stock(game, 0, 0, "blue")
    assert game.check(Plant(0, "blue", Source.HAND, 1)) is None
    game = high_bohn(same_bean_fields="one-field")
    built(game, 0, ("saloon", 2))
    stock(game, 0, 0, "green")
    assert refused(game, Plant(0, "green", Source.HAND, 1)) == "field.one-per-bean"
    assert game.check(Plant(0, "green", Source.HAND, 2)) is None  # the 2 Saloon's own field


def test_the_rules_listing_and_the_table_show_every_value_printed_only_on_cards_and_its_source():
    edition = next(e for e in rules_catalogue()["editions"] if e["name"] == "high-bohn")
    assert edition["card_data"]["cards"]["jail-2"]["title"] == "the 2 Jail"
    assert set(edition["card_data"]["when"]) == {"on-build", "turn-start", "draw"}
    shown = buildings_shown(high_bohn(card_data={"jail-2": {"beanometer": [2, 3, 4, 5]}}))["card_data"]
    assert shown["jail-2"] == {"beanometer": [2, 3, 4, 5], "title": "the 2 Jail",
                               "source": "entered by the group from its own card"}  # fmt: skip
    assert shown["bank-2"]["source"].startswith("default, not from the book")


def buildings_shown(game) -> dict:
    return public_view(game).to_dict()["buildings"]
