"""The expansion set (003) and the Plus expansion (004): beans, deal, field cards, the end and both optional rules."""

from __future__ import annotations

import random

import pytest

from companion.rules import BuyField, Draw, EndTrading, Harvest, Phase, Plant, Source, Trade, TurnOver, public_view
from companion.rules.hand_at_end import RevealHand
from companion.rules.listing import rules_catalogue
from companion.rules.random_play import step
from companion.rules.retrade import Retrade
from companion.rules.rulesets import ruleset
from companion.rules.setup import KnownDeck, Setup
from companion.rules.state import GameState
from support.tables import NAMES, given_draw_pile, known_table, refused, table

TWELVE = {"coffee", "brandy", "blue", "chili", "stink", "green", "soy", "black-eyed", "red", "garden", "cocoa", "field"}


def whole_turn(game, bean: str = "blue") -> None:
    """At a hidden table the active player plants a ``bean``, turns over two, trades nothing, plants them."""
    seat = game.active
    game.push(Plant(seat, bean))
    game.push(TurnOver(seat, (bean, bean)))
    game.push(EndTrading(seat))
    game.push(Plant(seat, bean, Source.FACE_UP))
    game.push(Plant(seat, bean, Source.FACE_UP))


# --- beans in play --------------------------------------------------------------------------


def test_the_basic_games_eight_beans_with_coffee_brandy_cocoa_and_field_make_twelve():
    played = set()
    for players in range(3, 8):
        for removed in ("cocoa", "field"):
            played |= set(ruleset("expansion-set", players, {"removed_4_5": removed}).deck())
    assert played == TWELVE


@pytest.mark.parametrize(("players", "options", "removed"), [
    (3, {}, {"cocoa", "field"}),
    (4, {}, {"coffee", "cocoa"}),
    (4, {"removed_4_5": "field"}, {"coffee", "field"}),
    (5, {}, {"coffee", "cocoa"}),
    (5, {"removed_4_5": "field"}, {"coffee", "field"}),
    (6, {}, {"garden", "cocoa", "field"}),
    (7, {"removed_4_5": "field"}, {"garden", "cocoa", "field"}),
])  # fmt: skip
def test_beans_are_removed_by_player_count(players, options, removed):
    assert set(ruleset("expansion-set", players, options).deck()) == TWELVE - removed


@pytest.mark.parametrize(("players", "options", "cards"), [
    (3, {}, 150), (4, {}, 129), (5, {"removed_4_5": "field"}, 130), (6, {}, 144), (7, {}, 144),
])  # fmt: skip
def test_the_card_totals(players, options, cards):
    assert sum(ruleset("expansion-set", players, options).deck().values()) == cards


def test_with_four_or_five_the_players_choose_to_remove_cocoa_or_field_beans_cocoa_unless_told():
    assert ruleset("expansion-set", 4).options["removed_4_5"] == "cocoa"
    assert "field" in ruleset("expansion-set", 5).deck() and "cocoa" in ruleset("expansion-set", 5, {
        "removed_4_5": "field"}).deck()  # fmt: skip
    with pytest.raises(ValueError, match="cocoa, field"):
        ruleset("expansion-set", 4, {"removed_4_5": "coffee"})


def test_a_removed_bean_is_refused_at_the_table():
    game = table("expansion-set", 4, removed_4_5="field")
    game.push(Plant(0, "blue"))
    assert refused(game, TurnOver(0, ("field", "blue"))) == "bean.not-in-game"


def test_the_plus_with_the_rio_grande_basic_game_plays_wax_beans_for_brandy_beans():
    deck = ruleset("expansion-set", 4, {"basic_game": "rio-grande"}).deck()
    assert deck["wax"] == 22 and "brandy" not in deck and sum(deck.values()) == 129
    assert "wax" not in ruleset("expansion-set", 4).deck()


# --- deal, draw and field cards ------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_three_to_five_players_are_dealt_five_and_draw_three(players):
    game = table("expansion-set", players)
    assert [p.hand.size for p in game.players] == [5] * players
    whole_turn(game)
    assert game.draws_due == [(0, 3)]


@pytest.mark.parametrize("players", [6, 7])
def test_six_or_seven_are_dealt_3_4_5_then_6_from_the_dealers_left_and_draw_four(players):
    game = table("expansion-set", players, start=2)
    sizes = {(2 + i) % players: n for i, n in enumerate([3, 4, 5] + [6] * (players - 3))}
    assert [p.hand.size for p in game.players] == [sizes[s] for s in range(players)]
    whole_turn(game)
    assert refused(game, Draw(2, 3)) == "phase4.count"
    game.push(Draw(2))
    assert game.players[2].hand.size == 3 - 1 + 4 and game.active == 3


def test_four_to_seven_players_start_with_the_1st_and_2nd_field_cards():
    for players in (4, 5, 6, 7):
        assert [len(p.fields) for p in table("expansion-set", players).players] == [2] * players


def test_three_players_start_with_all_three_field_cards_and_never_buy_one():
    game = table("expansion-set", 3)
    assert [len(p.fields) for p in game.players] == [3] * 3
    game.players[0].coins = ["blue"] * 5
    violation = game.check(BuyField(0))
    assert violation.rule == "field.no-purchase" and "three players" in violation.message


@pytest.mark.parametrize(("players", "price"), [(4, 4), (5, 4), (6, 3), (7, 3)])
def test_the_third_field_costs_four_coins_with_four_or_five_three_with_six_or_seven(players, price):
    game = table("expansion-set", players)
    game.players[1].coins = ["blue"] * (price - 1)
    assert game.check(BuyField(1)).rule == "field.price"
    game.players[1].coins.append("blue")
    game.push(BuyField(1))  # at any time, even out of turn
    assert len(game.players[1].fields) == 3 and game.players[1].coins == [] and game.discard == ["blue"] * price


# --- the end, protection and the tie -----------------------------------------------------------------


def test_with_three_players_the_game_ends_when_the_pile_runs_out_the_second_time():
    game = table("expansion-set", 3)
    given_draw_pile(game, 2, passes=1, keep=("garden",))
    whole_turn(game, "garden")
    assert game.game_over and game.passes == 2


def test_with_four_or_more_the_game_ends_the_third_time_as_in_the_basic_game():
    game = table("expansion-set", 4)
    given_draw_pile(game, 2, passes=1, keep=("blue",))
    whole_turn(game)
    assert not game.game_over and game.phase is Phase.DRAW
    assert ruleset("expansion-set", 7).end_pass() == 3


def test_a_single_bean_is_protected_only_while_another_field_holds_more_than_one():
    game = table("expansion-set", 4)
    game.players[0].fields[0].cards = ["blue"]
    game.players[0].fields[1].cards = ["soy", "soy"]
    assert refused(game, Harvest(0, 0)) == "harvest.protection"
    game.push(Harvest(0, 1))
    game.push(Harvest(0, 0))  # the Plus: "unless he has no field with more than one bean"
    strict = table("expansion-set", 4, protection="strict")
    strict.players[0].fields[0].cards = ["blue"]
    assert refused(strict, Harvest(0, 0)) == "harvest.protection"  # 003's translator: every field just one card


def test_a_tie_goes_to_the_most_cards_in_hand_unless_chosen_otherwise():
    game = table("expansion-set", 4)
    for seat, cards in ((0, 2), (1, 6)):
        game.players[seat].coins = ["blue"] * 7
        game.players[seat].hand.size = cards
    game.game_over = True
    assert public_view(game).ranking.winners == ("Ben",)


def test_the_expansion_set_always_plays_its_field_beans():
    hands = [["field", "field", "blue", "blue", "blue"], ["chili"] * 5, ["soy"] * 5, ["green"] * 5]
    game = known_table(hands, ruleset_name="expansion-set")
    game.push(Plant(0, "field"))
    game.push(Plant(0, "field"))
    game.push(Harvest(0, 0))
    assert len(game.players[0].fields) == 3 and game.players[0].coins == []


# --- optional rule: the active player trades on received cards -----------------------------------

HANDS = [["blue", "chili", "soy", "green", "red"], ["stink"] * 5, ["soy"] * 5, ["green"] * 5]


def trading(modules: tuple[str, ...] = ("retrade",)):
    """Ann has planted her blue bean and turned over two; Ben gave her a stink bean for her chili."""
    game = known_table(HANDS, ["blue", "blue"], "expansion-set", modules=list(modules))
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("blue", "blue")))
    game.push(Trade(0, 1, give_hand=("chili",), receive=("stink",)))
    return game


def test_the_active_player_may_trade_on_cards_received_in_trades():
    game = trading()
    assert [m.type for m in game.legal_moves(0)].count("retrade") == 3
    game.push(Retrade(0, 2, ("stink",), ("soy",)))
    assert game.players[2].received == ["stink"] and game.players[0].received == ["soy"]
    game.push(Retrade(0, 3, ("soy",)))  # or give them away, and again
    assert game.players[3].received == ["soy"] and game.players[0].received == []
    game.push(EndTrading(0))
    assert {2, 3} <= set(game.to_act())  # Cid and Dee plant what they received


def test_the_other_players_still_trade_only_cards_in_hand():
    game = trading()
    assert refused(game, Retrade(1, 2, ("chili",))) == "trade.with-active"
    assert refused(game, Trade(0, 1, receive=("chili",))) == "hand.not-held"  # Ben's chili lies beside his fields
    assert "retrade" not in [m.type for m in game.legal_moves(1)]


def test_only_received_cards_are_traded_on_in_phase_2():
    game = trading()
    assert refused(game, Retrade(0, 2, ("blue",))) == "retrade.not-received"
    assert refused(game, Retrade(0, 2, ())) == "retrade.nothing"
    assert refused(game, Retrade(0, 0, ("stink",))) == "trade.partner"
    assert refused(game, Retrade(0, 2, ("stink",), ("stink",))) == "hand.not-held"
    game.push(EndTrading(0))
    assert refused(game, Retrade(0, 2, ("stink",))) == "phase2.trade"


def test_at_a_real_table_what_the_partner_gives_must_be_possible():
    game = table("expansion-set", 4, modules=["retrade"])
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, ("blue", "red")))
    game.push(Trade(0, 1, give_face_up=("red",), receive=("soy",)))
    assert refused(game, Retrade(0, 2, ("soy",), ("cocoa",))) == "bean.not-in-game"
    game.push(Retrade(0, 2, ("soy",), ("chili", "chili")))
    assert game.players[2].hand.size == 3 and game.players[0].received == ["chili", "chili"]


def test_without_the_optional_rule_received_cards_are_not_traded_on():
    game = trading(())
    assert refused(game, Retrade(0, 2, ("stink",))) == "move.not-in-ruleset"
    assert refused(game, Trade(0, 2, give_face_up=("stink",))) == "trade.face-up"


def test_the_optional_rules_belong_to_the_expansion_set():
    for module in ("retrade", "hand-at-end"):
        with pytest.raises(ValueError, match="belongs to the expansion set"):
            ruleset("amigo-25-new-beans", 4, {"modules": [module]})
        listed = next(m for m in rules_catalogue()["modules"] if m["name"] == module)
        assert listed["with"] == {"expansion-set": [3, 4, 5, 6, 7]}


# --- optional rule: every hand is planted at the end -------------------------------------------------


def gardens_at_the_end():
    """Four gardens left: Ann plants two from her hand, turns over the last two cards and plants them.

    Her fields then hold three gardens and one garden; her three other cards are still in hand.
    """
    game = table("expansion-set", 4, modules=["hand-at-end"])
    given_draw_pile(game, 2, passes=2, keep=("garden",))
    game.push(Plant(0, "garden", field=0))
    game.push(Plant(0, "garden", field=1))
    game.push(TurnOver(0, ("garden", "garden")))  # the pile runs out the third time: phases 2 and 3 end the game
    game.push(EndTrading(0))
    game.push(Plant(0, "garden", Source.FACE_UP, 0))
    game.push(Plant(0, "garden", Source.FACE_UP, 0))
    return game


def others(game) -> list[str]:
    """Cards still unseen, but the gardens."""
    return [b for b, n in game.unseen.items() if b != "garden" for _ in range(max(0, n))]


def test_at_the_end_every_player_plants_the_hand_before_the_fields_are_harvested():
    game = gardens_at_the_end()
    assert not game.game_over and game.to_act() == (0,)
    assert [f.count for f in game.players[0].fields] == [3, 1] and game.players[0].coins == []
    assert public_view(game).shown["phase_text"] == "The end · every hand is planted"
    other = others(game)[0]
    game.push(RevealHand(0, ("garden", other, "garden")))  # regardless of order
    fields = [(f.bean, f.count) for f in game.players[0].fields]
    assert fields == [("garden", 3), ("garden", 3), (other, 1)]  # shared the way that pays most; a new field
    assert game.to_act() == (1,)
    rest = others(game)
    for seat in (1, 2, 3):
        game.push(RevealHand(seat, tuple(rest[:5])))
        rest = rest[5:]
    assert game.game_over and game.to_act() == ()
    assert game.players[0].coins == ["garden"] * 6  # then every field is harvested: 3 + 3 coins
    assert all(f.count == 0 for p in game.players for f in p.fields)


def test_hands_are_shown_in_turn_from_the_active_player_and_whole():
    assert refused(table("expansion-set", 4, modules=["hand-at-end"]), RevealHand(0, ("blue",) * 5)) == \
        "hand-at-end.not-yet"
    game = gardens_at_the_end()
    assert refused(game, RevealHand(1, tuple(others(game)[:5]))) == "hand-at-end.order"
    assert refused(game, RevealHand(0, ("garden", "garden"))) == "hand-at-end.all"
    assert [m.type for m in game.legal_moves(0)] == ["reveal-hand"]
    assert all(game.legal_moves(seat) == [] for seat in (1, 2, 3))


def test_no_trading_no_harvest_no_draw_while_the_hands_are_planted():
    game = gardens_at_the_end()
    assert refused(game, Harvest(0, 0)) == "hand-at-end.reveal"
    assert refused(game, Trade(0, 1, receive=("blue",))) == "hand-at-end.reveal"
    assert refused(game, Draw(0)) == "hand-at-end.reveal"


def test_a_shown_hand_must_be_possible_at_a_real_table():
    game = gardens_at_the_end()
    game.push(RevealHand(0, ("garden", "garden", others(game)[0])))
    assert refused(game, RevealHand(1, ("garden",) + tuple(others(game)[:4]))) == "card.impossible"  # all 6 seen
    assert refused(game, RevealHand(1, ("coffee",) + tuple(others(game)[:4]))) == "bean.not-in-game"


def test_a_player_with_an_empty_hand_has_nothing_to_show():
    game = table("expansion-set", 4, modules=["hand-at-end"])
    given_draw_pile(game, 2, passes=2, keep=("blue",))
    game.players[1].hand.size = 0
    whole_turn(game)
    assert game.to_act() == (0,)
    game.push(RevealHand(0, tuple(others(game)[:4])))
    assert game.to_act() == (2,)


def test_the_tie_break_counts_the_cards_held_when_the_game_ended():
    game = gardens_at_the_end()
    game.push(RevealHand(0, ("garden", "garden", others(game)[0])))
    rest = others(game)
    for seat in (1, 2, 3):
        game.push(RevealHand(seat, tuple(rest[:5])))
        rest = rest[5:]
    game.players[0].coins = game.players[1].coins = ["blue"] * 9
    ranking = public_view(game).ranking
    assert ranking.winners == ("Ben",)
    assert "Ben held the most cards in hand when the game ended (5)" in ranking.explanation
    game.players[2].coins = ["blue"] * 9
    assert public_view(game).ranking.explanation.endswith("Ben and Cid also tie on cards held when the game ended "
                                                          "(5) and share the win.")


def test_a_known_deck_offers_each_hand_as_it_is_and_refuses_another():
    setup = Setup("expansion-set", NAMES[:4], 0, {"modules": ["hand-at-end"]}, KnownDeck(3))
    game, rng = GameState(setup), random.Random(3)
    while "hand-at-end" not in game.parts:
        step(game, rng)
    seat = game.to_act()[0]
    hand = list(game.players[seat].hand.cards)
    [offer] = game.legal_moves(seat)
    assert offer.type == "reveal-hand" and offer.fields["beans"] == hand and not offer.choose
    wrong = ["red" if hand[0] != "red" else "soy"] + hand[1:]
    assert refused(game, RevealHand(seat, tuple(wrong))) == "hand.not-held"
    game.push(offer.move())
