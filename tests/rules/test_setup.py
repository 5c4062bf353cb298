"""Set-up by edition and player count: beans in play, the deal, fields, draws."""

from __future__ import annotations

import pytest

from companion.rules import Plant, TurnOver
from companion.rules.rulesets import ruleset
from support.tables import table


def test_the_base_game_has_104_cards_of_eight_beans_and_deals_five():
    game = table("amigo-25", 5)
    assert sum(game.deck_counts.values()) == 104 and len(game.deck_counts) == 8
    assert [p.hand.size for p in game.players] == [5] * 5
    assert game.draw.size == 104 - 25


@pytest.mark.parametrize(
    ("players", "removed", "cards"),
    [(3, {"cocoa"}, 150), (4, {"coffee"}, 130), (5, {"coffee"}, 130),
     (6, {"cocoa", "garden"}, 144), (7, {"cocoa", "garden"}, 144)],
)
def test_classic_beans_removed_by_player_count(players, removed, cards):
    rules = ruleset("classic", players)
    assert set(rules.deck()).isdisjoint(removed)
    assert sum(rules.deck().values()) == cards


def test_six_players_are_dealt_three_four_five_then_six():
    game = table("classic", 6, start=2)  # Cid starts
    sizes = {p.name: p.hand.size for p in game.players}
    assert sizes == {"Cid": 3, "Dee": 4, "Eve": 5, "Fay": 6, "Ann": 6, "Ben": 6}
    assert game.rules.draws(game) == [(game.active, 4)]


def test_player_counts_outside_the_book_are_refused():
    with pytest.raises(ValueError, match="3-5 players"):
        table("amigo-25", 6)
    with pytest.raises(ValueError, match="unknown ruleset"):
        ruleset("nope", 4)
    with pytest.raises(ValueError, match="option 'protection' must be"):
        ruleset("classic", 4, {"protection": "maybe"})


def test_beans_not_in_this_game_are_refused():
    game = table("amigo-25", 4)
    assert game.check(Plant(0, "coffee")).rule == "bean.not-in-game"
    assert game.check(Plant(0, "pea")).rule == "bean.unknown"


def test_a_card_that_cannot_exist_is_refused(four):
    four.unseen["blue"] = 0  # all twenty blue beans are already in sight
    violation = four.check(Plant(0, "blue"))
    assert violation.rule == "card.impossible" and "20 Blue Beans" in violation.message
    four.push(Plant(0, "red"))
    assert four.check(TurnOver(0, ("blue", "red"))).rule == "card.impossible"


def test_magpie_beans_are_never_planted(four):
    assert four.check(Plant(0, "magpie")).rule in ("bean.not-plantable", "bean.not-in-game")


def test_each_player_sees_only_their_own_hand():
    from companion.rules import player_view, public_view
    from support.tables import known_table

    game = known_table([["blue"] * 5, ["red"] * 5, ["soy"] * 5])
    ben = player_view(game, 1)
    assert ben.hand == ("red",) * 5 and ben.table == public_view(game)
    assert [s.hand_size for s in ben.table.seats] == [5, 5, 5]
    assert player_view(table("amigo-25", 3), 1).hand is None  # a real table: nobody's hand is known
