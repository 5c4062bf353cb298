"""The Duel for two players, as books 000 (variant 3) and 001 (the bean duel) tell it."""

from __future__ import annotations

import pytest

from companion.rules import BuyField, Draw, Harvest, Phase, Plant, Source, Trade, TurnOver, public_view
from companion.rules.duel_moves import Discard, DiscardOffer
from companion.rules.rulesets import ruleset
from support.tables import given_draw_pile, known_table, refused, table

AMIGO, CLASSIC = "amigo-25-duel", "classic-duel"
HANDS = [["blue", "chili", "soy", "green", "red"], ["stink", "stink", "soy", "green", "red"]]


def duel(edition=AMIGO, top=("soy", "soy", "red"), hands=HANDS):
    """Ann starts with blue, chili, soy, green, red; Ben holds stink, stink, soy, green, red."""
    return known_table(hands, top, ruleset_name=edition)


def offer_soy_and_red(game):
    """Ann plants her blue, turns over soy, soy, red, keeps nothing: they are Ben's offer."""
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("soy", "soy", "red")))
    game.push(Draw(0))


def pile_down_to(game, cards, passes=0):
    """Scenario: the draw pile has run out ``passes`` times and is down to ``cards`` cards."""
    game.draw.size, game.passes = cards, passes


def offered(game):
    return public_view(game).to_dict()["offer"]


# --- set-up -------------------------------------------------------------------------------------------


def test_the_duel_removes_garden_beans_and_adds_brandy_and_coffee():
    deck = ruleset(AMIGO, 2).deck()
    assert "garden" not in deck and deck["brandy"] == 22 and deck["coffee"] == 24
    assert sum(deck.values()) == 104 - 6 + 22 + 24


def test_each_duellist_has_three_fields_and_five_cards():
    game = table(AMIGO, 2)
    assert [len(p.fields) for p in game.players] == [3, 3] and [p.hand.size for p in game.players] == [5, 5]
    assert refused(game, BuyField(0)) == "field.no-purchase"


@pytest.mark.parametrize("edition", [AMIGO, CLASSIC])
@pytest.mark.parametrize("players", [3, 7])
def test_the_duel_is_for_two_players_only(edition, players):
    with pytest.raises(ValueError, match=f"the {edition} ruleset is for 2 players, not {players}"):
        ruleset(edition, players)


# --- no trading ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", [AMIGO, CLASSIC])
def test_there_is_no_trading_in_the_duel(edition):
    game = duel(edition)
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("soy", "soy", "red")))
    assert refused(game, Trade(0, 1, ("soy",), (), ("stink",))) == "duel.no-trade"
    assert refused(game, Trade(0, 1, ("red",))) == "duel.no-trade"  # nor a gift
    assert "left as an offer" in game.check(Trade(0, 1, ("red",))).message
    assert not any(m.type == "trade" for seat in (0, 1) for m in game.legal_moves(seat))


# --- phase 0: the offer -----------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", [AMIGO, CLASSIC])
def test_the_start_players_first_turn_has_no_offer(edition):
    game = duel(edition)
    assert game.phase is Phase.PLANT and offered(game) == []
    assert refused(game, DiscardOffer(0, "soy")) == "duel.not-there"
    assert refused(game, Plant(0, "soy", Source.OFFER, 1)) == "duel.phase"
    assert {m.type for m in game.legal_moves(0)} == ({"plant", "discard"} if edition == AMIGO else {"plant"})


def test_what_the_active_player_leaves_is_the_opponents_offer_in_phase_0():
    game = duel()
    total = game.total_cards()
    offer_soy_and_red(game)
    view = public_view(game).to_dict()
    assert view["offer"] == ["soy", "soy", "red"] and view["face_up"] == [] and game.total_cards() == total
    assert game.players[0].hand.size == 5 - 1 + 2  # Ann drew two
    assert game.active == 1 and game.phase is Phase.OFFER and game.to_act() == (1,)
    choices = {(m.type, m.fields["bean"]) for m in game.legal_moves(1)}
    assert choices == {("plant", "soy"), ("plant", "red"), ("discard-offer", "soy"), ("discard-offer", "red")}
    assert game.legal_moves(0) == []


def test_the_offer_is_used_before_the_hand():
    game = duel()
    offer_soy_and_red(game)
    assert refused(game, Plant(1, "stink")) == "duel.offer-first"
    assert refused(game, Discard(1, "stink", 0)) == "duel.offer-first"
    assert refused(game, TurnOver(1, ("wax", "wax", "wax"))) == "duel.offer-first"


def test_an_offered_type_is_planted_all_in_one_field_or_discarded():
    game = duel()
    offer_soy_and_red(game)
    game.push(Plant(1, "soy", Source.OFFER, 0))
    assert refused(game, Plant(1, "soy", Source.OFFER, 1)) == "duel.same-field"
    assert refused(game, DiscardOffer(1, "soy")) == "duel.same-field"  # all of them, or none
    assert refused(game, Plant(1, "red", Source.OFFER, 1)) == "duel.same-field"  # one type at a time
    assert [m.fields["bean"] for m in game.legal_moves(1)] == ["soy"]
    game.push(Plant(1, "soy", Source.OFFER, 0))
    game.push(DiscardOffer(1, "red"))
    assert game.players[1].fields[0].cards == ["soy", "soy"] and game.discard == ["red"]
    assert game.phase is Phase.PLANT and offered(game) == []  # the offer is used: phase 1


def test_offered_types_are_taken_in_any_order_and_a_discard_takes_every_card_of_its_type():
    game = duel()
    offer_soy_and_red(game)
    game.push(DiscardOffer(1, "soy"))
    assert game.discard == ["soy", "soy"] and offered(game) == ["red"] and game.phase is Phase.OFFER
    game.push(Plant(1, "red", Source.OFFER, 2))
    assert game.players[1].fields[2].cards == ["red"] and game.phase is Phase.PLANT


# --- phase 1: one hand card may be discarded -------------------------------------------------------------


def test_any_one_hand_card_may_be_discarded_at_any_point_in_phase_1():
    game = duel()
    game.push(Discard(0, "blue", at=0))  # even the front card, before planting: the chili is now in front
    assert game.discard == ["blue"] and game.players[0].hand.cards == ["chili", "soy", "green", "red"]
    game.push(Plant(0, "chili"))
    game.push(Plant(0, "soy"))


def test_only_one_hand_card_is_discarded_each_turn():
    game = duel()
    game.push(Plant(0, "blue"))
    game.push(Discard(0, "green", at=2))
    assert game.players[0].hand.cards == ["chili", "soy", "red"] and game.discard == ["green"]
    assert refused(game, Discard(0, "red", at=2)) == "duel.discard-once"
    assert not any(m.type == "discard" for m in game.legal_moves(0))
    game.push(TurnOver(0, ("soy", "soy", "red")))
    game.push(Draw(0))
    game.push(DiscardOffer(1, "soy"))
    game.push(DiscardOffer(1, "red"))
    game.push(Discard(1, "red", at=4))  # Ben's turn: his own discard


def test_a_hand_card_is_not_discarded_after_phase_1():
    game = duel()
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("soy", "soy", "red")))
    assert refused(game, Discard(0, "chili", at=0)) == "duel.discard-phase"
    assert refused(game, Discard(1, "stink", at=0)) == "turn.out-of-turn"


# --- phase 2: three cards, and the discard pile's matching cards ----------------------------------------


def test_matching_cards_from_the_discard_pile_join_the_three_until_one_does_not_match():
    game = duel()
    game.discard[:] = ["soy", "chili", "red", "soy"]  # soy on top, then red, then chili
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("soy", "soy", "red")))
    assert game.face_up == ["soy", "soy", "red", "soy", "red"] and game.discard == ["soy", "chili"]
    assert game.phase is Phase.PLANT_TRADED


def test_a_discard_pile_whose_top_card_does_not_match_gives_nothing():
    game = duel()
    game.discard[:] = ["soy", "chili"]
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("soy", "soy", "red")))
    assert game.face_up == ["soy", "soy", "red"] and game.discard == ["soy", "chili"]


def test_the_chain_stops_when_the_discard_pile_is_empty():
    game = duel()
    game.discard[:] = ["red", "soy"]
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("soy", "soy", "red")))
    assert game.discard == [] and game.face_up == ["soy", "soy", "red", "soy", "red"]


def test_at_a_real_table_the_turn_over_names_the_three_cards_and_the_engine_adds_the_discard_piles():
    game = table(AMIGO, 2)
    given_draw_pile(game, 40, passes=0, keep=("blue", "soy", "red"))
    top = game.discard[-1]
    matches = next(i for i, b in enumerate(reversed(game.discard)) if b != top)
    game.push(Plant(0, "blue"))
    assert refused(game, TurnOver(0, (top, "soy", "red", top))) == "phase2.count"
    game.push(TurnOver(0, (top, "soy", "red")))
    assert game.face_up == [top, "soy", "red"] + [top] * matches and game.draw.size == 37


# --- phase 3: plant by type, or leave it as the offer ---------------------------------------------------------


def test_turned_over_cards_of_one_type_all_go_into_the_same_field_one_type_at_a_time():
    game = duel()
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("soy", "soy", "red")))
    game.push(Plant(0, "soy", Source.FACE_UP, 1))
    assert refused(game, Plant(0, "soy", Source.FACE_UP, 2)) == "duel.same-field"
    assert refused(game, Plant(0, "red", Source.FACE_UP, 2)) == "duel.same-field"
    assert refused(game, Harvest(0, 0)) == "duel.same-field"
    assert refused(game, Draw(0)) == "duel.same-field"  # the other soy cannot be left as the offer
    game.push(Plant(0, "soy", Source.FACE_UP, 1))
    game.push(Draw(0))
    assert offered(game) == ["red"] and game.players[0].fields[1].cards == ["soy", "soy"]


# --- harvest and the end -----------------------------------------------------------------------------------


def test_only_the_active_player_harvests():
    game = duel()
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("soy", "soy", "red")))
    game.push(Draw(0))
    assert refused(game, Harvest(0, 0)) == "duel.harvest-active"  # Ann's turn is over
    assert not any(m.type == "harvest" for m in game.legal_moves(0))
    game.push(Plant(1, "soy", Source.OFFER, 0))
    game.push(Plant(1, "soy", Source.OFFER, 0))
    game.push(Harvest(1, 0))  # the active player harvests at any point of the turn, even in phase 0


def test_the_game_ends_as_soon_as_the_draw_pile_runs_out_and_both_harvest():
    game = table(AMIGO, 2)
    pile_down_to(game, 3, passes=0)
    game.players[0].fields[1].cards = ["chili"] * 3
    game.players[1].fields[0].cards = ["stink"] * 3
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("soy", "soy", "red")))  # the last three cards: no planting, no drawing
    assert game.game_over and game.passes == 1 and game.to_act() == ()
    assert game.players[0].coins == ["chili"] and game.players[1].coins == ["stink"]
    assert all(f.count == 0 for p in game.players for f in p.fields)


def test_the_game_ends_when_the_last_card_is_drawn():
    game = table(AMIGO, 2)
    pile_down_to(game, 4, passes=0)
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("soy", "soy", "red")))
    assert not game.game_over
    game.push(Draw(0))  # one card left for Ann's two
    assert game.game_over and game.players[0].hand.size == 4 + 1


def test_a_tie_goes_to_the_player_furthest_from_the_start_player_unless_the_group_chooses_otherwise():
    for tie_break, winners in (("furthest-from-start", ["Ben"]), ("shared", ["Ann", "Ben"])):
        game = table(AMIGO, 2, tie_break=tie_break)
        pile_down_to(game, 3, passes=0)
        for player in game.players:
            player.coins = ["blue", "blue"]
        game.push(Plant(0, "blue"))
        game.push(TurnOver(0, ("soy", "soy", "red")))
        assert public_view(game).to_dict()["winners"] == winners


# --- the classic edition's bean duel ------------------------------------------------------------------------


def test_the_classic_duel_plays_with_the_whole_deck_two_fields_and_a_third_for_three_coins():
    rules = ruleset(CLASSIC, 2)
    assert sum(rules.deck().values()) == 154 and rules.deck()["cocoa"] == 4
    assert rules.end_pass() == 3 and rules.tie_break == "most-cards-in-hand" and rules.protection == "strict"
    game = table(CLASSIC, 2)
    assert [len(p.fields) for p in game.players] == [2, 2] and [p.hand.size for p in game.players] == [5, 5]
    game.players[1].coins = ["wax"] * 3
    game.push(BuyField(1))  # at any time, even when not the active player
    assert len(game.players[1].fields) == 3 and game.players[1].coins == []


def test_the_classic_duel_discards_a_hand_card_only_after_planting_and_plants_no_more_after_it():
    game = duel(CLASSIC)
    assert refused(game, Discard(0, "green", 3)) == "duel.discard-after-planting"
    game.push(Plant(0, "blue"))
    game.push(Discard(0, "green", 2))
    assert refused(game, Plant(0, "chili")) == "duel.discarded"
    assert not any(m.type == "plant" for m in game.legal_moves(0))


def test_the_classic_duel_plants_any_of_the_drawn_cards_and_offers_the_rest():
    game = duel(CLASSIC)
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("soy", "soy", "red")))
    game.push(Plant(0, "soy", Source.FACE_UP, 1))
    game.push(Draw(0))  # the other soy and the red are left as the offer
    assert offered(game) == ["soy", "red"] and game.phase is Phase.OFFER
    game.push(Harvest(0, 0))  # anyone harvests at any time in the classic duel


def test_the_classic_duel_plants_or_discards_offered_cards_one_by_one():
    game = duel(CLASSIC)
    offer_soy_and_red(game)
    game.push(Plant(1, "soy", Source.OFFER, 0))
    game.push(DiscardOffer(1, "soy"))  # the other soy
    game.push(Plant(1, "red", Source.OFFER, 1))
    assert [f.cards for f in game.players[1].fields] == [["soy"], ["red"]] and game.phase is Phase.PLANT


def test_in_the_classic_duel_the_pile_running_out_while_turning_over_reshuffles_the_discard_pile_first():
    game = table(CLASSIC, 2)
    given_draw_pile(game, 2, passes=0)
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("soy", "red", "coffee")))  # the coffee comes from the reshuffled pile
    assert game.passes == 1 and game.discard == [] and game.face_up == ["soy", "red", "coffee"]


def test_in_the_classic_duel_the_pile_running_out_the_third_time_while_turning_over_ends_after_planting():
    game = table(CLASSIC, 2)
    pile_down_to(game, 2, passes=2)
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("soy", "red")))  # only two were left: the third pass
    assert not game.game_over and game.legal_moves(0)[-1].text == "End the game: the draw pile has run out"
    game.push(Plant(0, "soy", Source.FACE_UP, 1))
    game.push(Draw(0))
    assert game.game_over and game.passes == 3 and game.players[0].hand.size == 4


def test_in_the_classic_duel_the_pile_running_out_the_third_time_while_drawing_ends_at_once():
    game = table(CLASSIC, 2)
    pile_down_to(game, 4, passes=2)
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("soy", "soy", "red")))
    game.push(Draw(0))
    assert game.game_over and game.players[0].hand.size == 4 + 1 and offered(game) == ["soy", "soy", "red"]


def test_the_offer_is_named_for_the_table():
    game = duel()
    offer_soy_and_red(game)
    assert public_view(game).to_dict()["notes"] == ["Offered to Ben: Soy, Soy, Red"]
