"""The Magpie bean, as book 000 tells it."""

from __future__ import annotations

from companion.rules import EndTrading, Harvest, Plant, Trade, TurnOver, public_view
from companion.rules.magpie import EndTheft, PlayMagpie, Steal
from companion.rules.rulesets import ruleset
from support.tables import known_table, refused, table

MAGPIE = {"modules": ["magpie"]}



def magpie_table(hands=None):
    hands = hands or [["magpie", "blue", "red", "red", "red"], ["soy"] * 5, ["chili"] * 5, ["green"] * 5]
    game = known_table(hands, ruleset_name="amigo-25", **MAGPIE)
    game.players[1].fields[0].cards = ["stink"]  # a single-card field
    game.players[2].fields[0].cards = ["black-eyed", "black-eyed"]
    return game


def test_six_magpies_are_shuffled_into_the_deck_of_any_edition():
    assert ruleset("amigo-25", 4, MAGPIE).deck()["magpie"] == 6
    assert ruleset("amigo-25-duel", 2, MAGPIE).deck()["magpie"] == 6


def test_a_magpie_is_never_planted():
    game = magpie_table()
    assert refused(game, Plant(0, "magpie")) == "bean.not-plantable"


def test_a_magpie_played_goes_to_the_discard_pile_and_steals_from_up_to_two_players():
    game = magpie_table()
    game.push(PlayMagpie(0))
    assert game.discard == ["magpie"] and game.to_act() == (0,)
    game.push(Steal(0, 1, 0, 0))  # the single-card field is emptied
    assert game.players[1].fields[0].count == 0 and game.players[0].fields[0].cards == ["stink"]
    game.push(Steal(0, 2, 0, 1))
    assert game.players[2].fields[0].cards == ["black-eyed"] and game.players[0].fields[1].cards == ["black-eyed"]
    assert refused(game, Steal(0, 3, 0, 0)) == "magpie.no-theft"  # two victims at most


def test_a_magpie_takes_one_card_from_each_player_and_the_thief_may_stop_early():
    game = magpie_table()
    game.push(PlayMagpie(0))
    game.push(Steal(0, 2, 0, 0))
    assert refused(game, Steal(0, 2, 0, 0)) == "magpie.one-each"
    game.push(EndTheft(0))
    game.push(Plant(0, "blue", field=1))  # the magpie was the first of two cards


def test_the_victims_cannot_escape_by_harvesting():
    game = magpie_table()
    game.push(PlayMagpie(0))
    assert refused(game, Harvest(2, 0)) == "magpie.no-escape"


def test_a_magpie_is_played_only_as_one_of_the_first_two_cards():
    game = magpie_table([["blue", "red", "magpie", "red", "red"], ["soy"] * 5, ["chili"] * 5, ["green"] * 5])
    game.push(Plant(0, "blue"))
    game.push(Plant(0, "red"))
    assert refused(game, PlayMagpie(0)) == "magpie.first-two"


def test_a_magpie_as_the_second_card_played():
    game = magpie_table([["blue", "magpie", "red", "red", "red"], ["soy"] * 5, ["chili"] * 5, ["green"] * 5])
    game.push(Plant(0, "blue"))
    game.push(PlayMagpie(0))
    game.push(Steal(0, 1, 0, 1))
    assert game.players[0].fields[1].cards == ["stink"]


def test_a_received_magpie_goes_to_the_back_of_the_hand():
    game = table("amigo-25", 4, **MAGPIE)
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("soy", "red")))
    game.push(Trade(0, 1, ("soy",), (), ("magpie",)))
    size = game.players[0].hand.size
    game.push(EndTrading(0))
    assert game.players[0].received == [] and game.players[0].hand.size == size + 1
    assert game.unseen["magpie"] == 6  # hidden in a hand again: the engine checks it when it is played


def test_during_a_theft_the_engine_offers_only_the_theft_and_says_so():
    game = magpie_table()
    game.push(PlayMagpie(0))
    offered = {m.type for m in game.legal_moves(0)}
    assert offered <= {"steal", "end-theft", "harvest"} and "steal" in offered
    assert "Ann is stealing with a magpie (0 of 2 taken)" in public_view(game).to_dict()["notes"]
