"""The Duel for two players, as books 000 (variant 3) and 001 (the bean duel) tell it."""

from __future__ import annotations

import pytest

from companion.rules import Draw, Harvest, Phase, Plant, Source, Trade, TurnOver, public_view
from companion.rules.duel_moves import Discard, DiscardOffer
from companion.rules.rulesets import ruleset
from support.tables import known_table, refused, table

HANDS = [["blue", "chili", "soy", "green", "red"], ["stink", "stink", "soy", "green", "red"]]



def duel(top=("soy", "soy", "red"), hands=HANDS, edition="amigo-25-duel"):
    return known_table(hands, top, ruleset_name=edition)


def offer_soy_and_red(game):
    """Ann plants blue, turns over soy, soy, red, keeps nothing: soy and red are Ben's offer."""
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("soy", "soy", "red")))
    game.push(Draw(0))
    assert public_view(game).to_dict()["offer"] == ["soy", "soy", "red"]


# --- set-up ---------------------------------------------------------------------------------------


def test_the_duel_removes_garden_beans_and_adds_brandy_and_coffee():
    deck = ruleset("amigo-25-duel", 2).deck()
    assert "garden" not in deck and deck["brandy"] == 22 and deck["coffee"] == 24
    assert sum(deck.values()) == 104 - 6 + 22 + 24


def test_each_player_has_three_fields_and_five_cards():
    game = table("amigo-25-duel", 2)
    assert [len(p.fields) for p in game.players] == [3, 3] and [p.hand.size for p in game.players] == [5, 5]


def test_the_duel_is_for_two_players_only():
    with pytest.raises(ValueError, match="2-2 players"):
        ruleset("amigo-25-duel", 3)
    with pytest.raises(ValueError, match="3-5 players"):
        ruleset("amigo-25", 2)


# --- phase 1 and 2 ----------------------------------------------------------------------------------


def test_there_is_no_trading_in_the_duel():
    game = duel()
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("soy", "soy", "red")))
    assert refused(game, Trade(0, 1, ("soy",), (), ("stink",))) == "duel.no-trade"


def test_any_one_hand_card_may_be_discarded_in_phase_1_but_only_one():
    game = duel()
    game.push(Discard(0, "green", at=3))
    assert game.players[0].hand.cards == ["blue", "chili", "soy", "red"] and game.discard == ["green"]
    assert refused(game, Discard(0, "red")) == "duel.discard-once"


def test_a_hand_card_cannot_be_discarded_after_phase_1():
    game = duel()
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("soy", "soy", "red")))
    assert refused(game, Discard(0, "chili")) == "duel.discard-phase"


def test_three_cards_are_turned_over_and_matching_discards_join_them_until_one_does_not_match():
    game = duel()
    game.discard[:] = ["chili", "red", "soy"]  # soy on top, then red, then chili
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("soy", "soy", "red")))
    assert sorted(game.face_up) == ["red", "red", "soy", "soy", "soy"] and game.discard == ["chili"]
    assert game.phase is Phase.PLANT_TRADED


def test_the_discard_pile_chain_stops_when_the_pile_is_empty():
    game = duel()
    game.discard[:] = ["red", "soy"]
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("soy", "soy", "red")))
    assert game.discard == [] and len(game.face_up) == 5


# --- phase 3 and 4: plant by type, or leave it as the offer -------------------------------------------


def test_turned_over_cards_of_one_type_all_go_into_the_same_field():
    game = duel()
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("soy", "soy", "red")))
    game.push(Plant(0, "soy", Source.FACE_UP, 1))
    assert refused(game, Plant(0, "soy", Source.FACE_UP, 2)) == "duel.same-field"
    assert refused(game, Draw(0)) == "duel.same-field"  # cannot leave the other soy as the offer
    game.push(Plant(0, "soy", Source.FACE_UP, 1))
    game.push(Draw(0))
    assert public_view(game).to_dict()["offer"] == ["red"]


def test_the_active_player_draws_two_and_the_opponent_begins_with_the_offer():
    game = duel()
    offer_soy_and_red(game)
    assert game.players[0].hand.size == 5 - 1 + 2 and game.active == 1 and game.phase is Phase.OFFER


def test_the_start_players_first_turn_has_no_offer():
    assert duel().phase is Phase.PLANT


def test_an_offered_type_is_planted_all_in_one_field_or_discarded():
    game = duel()
    offer_soy_and_red(game)
    assert refused(game, Plant(1, "stink")) == "phase1.hand-only"  # the offer comes first
    game.push(Plant(1, "soy", Source.OFFER, 0))
    assert refused(game, DiscardOffer(1, "soy")) == "duel.same-field"
    assert refused(game, Plant(1, "soy", Source.OFFER, 1)) == "duel.same-field"
    game.push(Plant(1, "soy", Source.OFFER, 0))
    game.push(DiscardOffer(1, "red"))
    assert game.players[1].fields[0].cards == ["soy", "soy"] and game.discard[-1] == "red"
    assert game.phase is Phase.PLANT  # the offer is used: phase 1


# --- harvest and the end ---------------------------------------------------------------------------


def test_only_the_active_player_harvests():
    game = duel()
    game.push(Plant(0, "blue"))
    game.players[1].fields[0].cards = ["stink", "stink"]
    assert refused(game, Harvest(1, 0)) == "duel.harvest-active"
    game.push(Harvest(0, 0))


def test_the_game_ends_as_soon_as_the_draw_pile_runs_out_the_first_time():
    game = table("amigo-25-duel", 2)
    game.draw.size = 3
    game.players[0].fields[1].cards = ["chili"] * 3
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("soy", "soy", "red")))
    assert game.game_over and game.players[0].coins == ["chili"]  # both harvest at the end


# --- the classic edition's bean duel ------------------------------------------------------------------


def test_the_classic_duel_discards_only_after_planting_and_plants_drawn_cards_one_by_one():
    hands = [["blue", "chili", "soy", "green", "red"], ["wax", "wax", "soy", "green", "red"]]
    game = duel(hands=hands, edition="classic-duel")
    assert refused(game, Discard(0, "green", 3)) == "duel.discard-after-planting"
    game.push(Plant(0, "blue"))
    game.push(Discard(0, "green", 2))
    game.push(TurnOver(0, ("soy", "soy", "red")))
    game.push(Plant(0, "soy", Source.FACE_UP, 1))
    game.push(Draw(0))  # the other soy and the red are left as the offer
    assert public_view(game).to_dict()["offer"] == ["soy", "red"]
    game.push(Harvest(0, 0))  # anyone may harvest at any time in the classic duel


def test_the_classic_duel_ends_at_the_usual_third_pass():
    assert ruleset("classic-duel", 2).end_pass() == 3 and ruleset("amigo-25-duel", 2).end_pass() == 1


def test_in_the_classic_duel_a_pile_running_out_while_turning_over_ends_the_game_after_planting():
    game = table("classic-duel", 2)
    game.passes, game.draw.size = 2, 2
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("soy", "red")))  # only two were left: the third pass
    assert not game.game_over
    game.push(Plant(0, "soy", Source.FACE_UP, 1))
    game.push(Draw(0))
    assert game.game_over and game.passes == 3
