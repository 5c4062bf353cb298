"""000 variant 1, "Three new types of beans" (3-7 players), as the book tells it."""

from __future__ import annotations

import pytest

from companion.rules import BuyField, Draw, EndTrading, Phase, Plant, Source, TurnOver, public_view
from companion.rules.rulesets import ruleset
from support.tables import given_draw_pile, known_table, refused, table

BASE = 104
COCOA, BRANDY, COFFEE, GARDEN = 4, 22, 24, 6


def to_phase_four(game, bean: str = "blue") -> None:
    """The active player plants the front card, turns over two, trades nothing and plants them.

    At a hidden table the front card and the two turned over are ``bean``.
    """
    seat = game.active
    game.push(Plant(seat, game.players[seat].hand.front() or bean))
    game.push(TurnOver(seat, tuple(game.plan_take(2).cards) if game.known else (bean, bean)))
    game.push(EndTrading(seat))
    for bean in list(game.face_up):
        game.push(Plant(seat, bean, Source.FACE_UP))


# --- components and set-up ------------------------------------------------------------------


@pytest.mark.parametrize(("players", "removed", "cards"), [
    (3, {"cocoa"}, BASE + BRANDY + COFFEE),
    (4, {"coffee"}, BASE + BRANDY + COCOA),
    (5, {"coffee"}, BASE + BRANDY + COCOA),
    (6, {"cocoa", "garden"}, BASE - GARDEN + BRANDY + COFFEE),
    (7, {"cocoa", "garden"}, BASE - GARDEN + BRANDY + COFFEE),
])  # fmt: skip
def test_add_cocoa_brandy_and_coffee_then_remove_beans_by_player_count(players, removed, cards):
    deck = ruleset("amigo-25-new-beans", players).deck()
    assert removed.isdisjoint(deck) and sum(deck.values()) == cards
    assert {"cocoa", "brandy", "coffee"} - removed <= set(deck) and "field" not in deck and "wax" not in deck


def test_a_removed_bean_is_refused_when_turned_over():
    game = table("amigo-25-new-beans", 4)
    game.push(Plant(0, "blue"))
    assert refused(game, TurnOver(0, ("coffee", "blue"))) == "bean.not-in-game"


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_players_start_with_five_cards(players):
    game = table("amigo-25-new-beans", players)
    assert [p.hand.size for p in game.players] == [5] * players


def test_three_bean_fields_with_three_players_two_with_four_to_seven():
    assert [len(p.fields) for p in table("amigo-25-new-beans", 3).players] == [3] * 3
    for players in (4, 5, 6, 7):
        assert [len(p.fields) for p in table("amigo-25-new-beans", players).players] == [2] * players


def test_no_third_field_is_sold():
    game = table("amigo-25-new-beans", 4)
    game.players[0].coins = ["blue"] * 5
    assert game.check(BuyField(0)).rule == "field.no-purchase"


def test_the_game_is_for_three_to_seven_players():
    for players in (2, 8):
        with pytest.raises(ValueError, match="3-7 players"):
            ruleset("amigo-25-new-beans", players)


# --- phase 4: every player draws one card ------------------------------------------------------


def test_every_player_draws_one_card_starting_with_the_active_player_clockwise():
    game = table("amigo-25-new-beans", 4, start=2)
    to_phase_four(game)
    assert game.phase is Phase.DRAW and game.draws_due == [(2, 1), (3, 1), (0, 1), (1, 1)]
    sizes = [p.hand.size for p in game.players]
    for seat in (2, 3, 0, 1):
        assert game.to_act() == (seat,)
        drawing = [s for s in range(4) if "draw" in [m.type for m in game.legal_moves(s)]]
        assert drawing == [seat]
        game.push(Draw(seat))
    assert [p.hand.size for p in game.players] == [n + 1 for n in sizes]
    assert game.active == 3 and game.phase is Phase.PLANT  # then the player to the left is active


def test_a_draw_out_of_turn_order_is_refused():
    game = table("amigo-25-new-beans", 5, start=1)
    to_phase_four(game)
    assert refused(game, Draw(2)) == "phase4.order"
    assert "draw" not in [m.type for m in game.legal_moves(2)]
    game.push(Draw(1))
    assert refused(game, Draw(1)) == "phase4.order"  # one card each
    assert refused(game, Draw(2, 3)) == "phase4.count"
    game.push(Draw(2, 1))


def test_each_player_draws_the_next_card_of_a_known_deck_behind_the_last_card():
    hands = [["blue"] * 5, ["chili"] * 5, ["soy"] * 5]
    game = known_table(hands, ["blue", "blue", "red", "green", "stink"], "amigo-25-new-beans")
    to_phase_four(game)
    for seat in (0, 1, 2):
        game.push(Draw(seat))
    assert [p.hand.cards[-1] for p in game.players] == ["red", "green", "stink"]


def test_a_reshuffle_during_the_draws_gives_the_next_player_a_card_of_the_new_pile():
    game = table("amigo-25-new-beans", 4)
    given_draw_pile(game, 3, passes=0, keep=("blue",))
    to_phase_four(game)
    discarded = len(game.discard)
    game.push(Draw(0))  # the last card: the discard pile becomes the draw pile
    assert game.passes == 1 and game.draw.size == discarded
    game.push(Draw(1))
    assert game.draw.size == discarded - 1


# --- the end ----------------------------------------------------------------------------------


def test_with_three_players_the_game_ends_when_the_pile_runs_out_the_second_time():
    game = table("amigo-25-new-beans", 3)
    given_draw_pile(game, 2, passes=1, keep=("garden",))
    to_phase_four(game, "garden")  # the two cards turned over empty the pile: phases 2 and 3 are finished
    assert game.game_over and game.passes == 2


def test_with_four_or_more_players_the_second_time_is_a_reshuffle_the_third_ends_it():
    game = table("amigo-25-new-beans", 6)
    given_draw_pile(game, 2, passes=1, keep=("blue",))
    to_phase_four(game)
    assert not game.game_over and game.passes == 2 and game.phase is Phase.DRAW
    assert ruleset("amigo-25-new-beans", 6).end_pass() == 3


def test_running_out_for_the_last_time_while_drawing_ends_the_game_at_once():
    game = table("amigo-25-new-beans", 4)
    given_draw_pile(game, 4, passes=2, keep=("blue",))
    to_phase_four(game)
    sizes = [p.hand.size for p in game.players]
    game.push(Draw(0))
    game.push(Draw(1))  # the last card
    assert game.game_over and game.to_act() == ()
    assert [p.hand.size for p in game.players] == [sizes[0] + 1, sizes[1] + 1, sizes[2], sizes[3]]


def test_a_tie_goes_to_the_player_furthest_from_the_start_player():
    game = table("amigo-25-new-beans", 6, start=4)
    for seat in (1, 3):
        game.players[seat].coins = ["blue"] * 4
    game.game_over = True
    assert public_view(game).ranking.winners == ("Dee",)  # clockwise from Eve: Eve, Fay, Ann, Ben, Cid, Dee


# --- the other reading with six or seven players (001, 003) ---------------------------------------


def test_six_or_seven_players_may_be_dealt_3_4_5_6_and_the_active_player_draws_four():
    game = table("amigo-25-new-beans", 7, start=1, deal_6_7="3-4-5-6")
    assert [p.hand.size for p in game.players] == [6, 3, 4, 5, 6, 6, 6]
    to_phase_four(game)
    assert game.draws_due == [(1, 4)]
    game.push(Draw(1))
    assert game.active == 2


def test_the_deal_option_changes_nothing_with_three_to_five_players():
    rules = ruleset("amigo-25-new-beans", 5, {"deal_6_7": "3-4-5-6"})
    assert rules.hand_sizes() == (5,) * 5 and rules.edition.draws(3) == [(3, 1), (4, 1), (0, 1), (1, 1), (2, 1)]


def test_the_deal_option_defaults_to_the_anniversary_edition_and_names_its_choices():
    assert ruleset("amigo-25-new-beans", 6).options["deal_6_7"] == "five"
    with pytest.raises(ValueError, match="five, 3-4-5-6"):
        ruleset("amigo-25-new-beans", 6, {"deal_6_7": "six"})
