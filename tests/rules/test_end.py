"""Running out of cards, the end of the game, the final harvest and each edition's tie-break."""

from __future__ import annotations

from companion.rules import Draw, EndTrading, Plant, Source, TurnOver, public_view
from companion.rules.forecast import forecast
from support.tables import given_draw_pile, known_table, table


def plant_turned_over(state, seat):
    for bean in list(state.face_up):
        state.push(Plant(seat, bean, Source.FACE_UP))


def whole_turn(state, planted: str, turned: tuple[str, str]) -> None:
    """The active player plants one card, turns over two, trades nothing, plants them and draws."""
    seat = state.active
    state.push(Plant(seat, planted))
    state.push(TurnOver(seat, turned))
    state.push(EndTrading(seat))
    plant_turned_over(state, seat)
    state.push(Draw(seat))


def test_the_discard_pile_is_reshuffled_when_the_last_card_is_drawn(four):
    given_draw_pile(four, 3, passes=0)
    discarded = len(four.discard)
    whole_turn(four, "blue", ("red", "blue"))  # the draw finds one card: then the discard pile is reshuffled
    assert four.passes == 1
    assert four.draw.size == discarded - 2 and four.discard == []
    assert four.players[0].hand.size == 5 - 1 + 3


def test_the_game_ends_when_the_pile_runs_out_the_third_time_in_phase_4_at_once(four):
    given_draw_pile(four, 4, passes=2)
    whole_turn(four, "blue", ("red", "blue"))
    assert four.game_over and four.passes == 3
    assert four.players[0].hand.size == 4 + 2  # only two cards were left to draw


def test_running_out_in_phase_2_finishes_phases_2_and_3_with_one_card(four):
    given_draw_pile(four, 1, passes=2)
    four.push(Plant(0, "blue"))
    assert four.check(TurnOver(0, ("red", "soy"))).rule == "phase2.count"
    four.push(TurnOver(0, ("red",)))
    assert not four.game_over and forecast(four).text.startswith("The draw pile has run out for the 3rd time")
    four.push(EndTrading(0))
    assert not four.game_over  # the red bean must still be planted
    four.push(Plant(0, "red", Source.FACE_UP))
    assert four.game_over


def test_the_final_harvest_counts_fields_but_not_hands(four):
    given_draw_pile(four, 2, passes=2, keep=("blue",))
    four.push(Plant(0, "blue"))
    four.push(Plant(0, "blue"))
    four.push(TurnOver(0, ("blue", "blue")))
    four.push(EndTrading(0))
    plant_turned_over(four, 0)
    assert four.game_over
    assert four.players[0].coins == ["blue"]  # four blue beans: one coin
    assert all(f.count == 0 for p in four.players for f in p.fields)
    assert public_view(four).ranking.winners == ("Ann",)


def test_three_players_of_the_classic_edition_end_at_the_second_pass():
    game = table("classic", 3)
    assert game.rules.end_pass() == 2
    given_draw_pile(game, 4, passes=1)
    whole_turn(game, "blue", ("red", "soy"))
    assert game.game_over


def test_the_anniversary_base_game_ends_at_the_third_pass_even_with_three_players():
    assert table("amigo-25", 3).rules.end_pass() == 3


def test_the_forecast_says_exactly_when_the_game_ends(four):
    given_draw_pile(four, 12, passes=0)
    assert forecast(four).text == "12 cards until the 1st pass (the game ends at the 3rd)."
    given_draw_pile(four, 7, passes=2)
    text = forecast(four).text
    assert text == ("7 cards until the 3rd pass: the game ends during the next player's turn (Ben),"
                    " after phases 2 and 3.")
    given_draw_pile(four, 4, passes=2)
    assert forecast(four).ending_phase == 4 and forecast(four).turns_ahead == 0


# --- tie-breaks -------------------------------------------------------------------------------


def finish_with(state, coins: dict[int, int], hands: dict[int, int] | None = None):
    for seat, n in coins.items():
        state.players[seat].coins = ["blue"] * n
    for seat, n in (hands or {}).items():
        state.players[seat].hand.size = n
    state.game_over = True
    return public_view(state).ranking


def test_anniversary_tie_goes_to_the_player_furthest_from_the_start_player():
    game = table("amigo-25", 4, start=1)  # Ben starts; clockwise: Ben, Cid, Dee, Ann
    ranking = finish_with(game, {0: 5, 2: 5, 1: 3})
    assert ranking.winners == ("Ann",)
    assert "Ann sits furthest from the start player" in ranking.explanation


def test_classic_tie_goes_to_most_cards_in_hand():
    game = table("classic", 4)
    ranking = finish_with(game, {0: 5, 2: 5}, {0: 3, 2: 6})
    assert ranking.winners == ("Cid",) and "most cards in hand (6)" in ranking.explanation


def test_classic_tie_on_cards_in_hand_too_is_shared():
    game = table("classic", 4)
    assert finish_with(game, {0: 5, 2: 5}, {0: 4, 2: 4}).winners == ("Ann", "Cid")


def test_a_shared_win_can_be_chosen():
    game = table("amigo-25", 3, tie_break="shared")
    assert finish_with(game, {1: 2, 2: 2}).winners == ("Ben", "Cid")


def test_known_deck_draws_the_exact_cards_and_refuses_wrong_ones():
    game = known_table([["blue"] * 5, ["red"] * 5, ["soy"] * 5, ["green"] * 5], top=["chili", "stink"])
    game.push(Plant(0, "blue"))
    assert game.check(TurnOver(0, ("stink", "chili"))).rule == "card.wrong"
    game.push(TurnOver(0, ("chili", "stink")))
