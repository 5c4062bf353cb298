"""000's variants 1 and 2 and the expansion set (003, Plus in 004), as their books tell them."""

from __future__ import annotations

import pytest

from companion.rules import Draw, EndTrading, Harvest, Phase, Plant, Source, TurnOver
from companion.rules.rulesets import ruleset
from support.tables import known_table, refused, table


def to_phase_four(game, seat: int = 0) -> None:
    """Plant the front card, turn over two beans that fit, plant them, so phase 4 begins."""
    game.push(Plant(seat, game.players[seat].hand.front() or "blue"))
    up = game.plan_take(2).cards if game.known else ["blue", "blue"]
    game.push(TurnOver(seat, tuple(up)))
    game.push(EndTrading(seat))
    for bean in list(game.face_up):
        game.push(Plant(seat, bean, Source.FACE_UP))


# --- 000 variant 1: three new bean types ------------------------------------------------------------


@pytest.mark.parametrize(("players", "removed", "cards"), [
    (3, {"cocoa"}, 104 + 22 + 24),
    (4, {"coffee"}, 104 + 22 + 4),
    (5, {"coffee"}, 104 + 22 + 4),
    (6, {"cocoa", "garden"}, 104 - 6 + 22 + 24),
    (7, {"cocoa", "garden"}, 104 - 6 + 22 + 24),
])  # fmt: skip
def test_variant_1_removes_beans_by_player_count(players, removed, cards):
    deck = ruleset("amigo-25-new-beans", players).deck()
    assert removed.isdisjoint(deck) and sum(deck.values()) == cards


def test_variant_1_fields_three_with_three_players_else_two_and_five_cards_each():
    assert [len(p.fields) for p in table("amigo-25-new-beans", 3).players] == [3, 3, 3]
    seven = table("amigo-25-new-beans", 7)
    assert [len(p.fields) for p in seven.players] == [2] * 7
    assert [p.hand.size for p in seven.players] == [5] * 7


def test_variant_1_every_player_draws_one_card_starting_with_the_active_player():
    game = table("amigo-25-new-beans", 4, start=2)
    to_phase_four(game, 2)
    assert game.phase is Phase.DRAW and game.to_act() == (2,)
    assert refused(game, Draw(3)) == "phase4.order"
    sizes = [p.hand.size for p in game.players]
    for seat in (2, 3, 0, 1):
        assert game.to_act() == (seat,)
        game.push(Draw(seat, 1))
    assert [p.hand.size for p in game.players] == [sizes[0] + 1, sizes[1] + 1, sizes[2] + 1, sizes[3] + 1]
    assert game.active == 3 and game.phase is Phase.PLANT


def test_variant_1_ends_at_the_second_pass_with_three_players_third_otherwise():
    assert ruleset("amigo-25-new-beans", 3).end_pass() == 2
    assert ruleset("amigo-25-new-beans", 4).end_pass() == 3


def test_variant_1_six_or_seven_players_may_deal_as_the_classic_edition():
    rules = ruleset("amigo-25-new-beans", 6, {"deal_6_7": "3-4-5-6"})
    assert rules.hand_sizes() == (3, 4, 5, 6, 6, 6) and rules.edition.draws(0) == [(0, 4)]
    assert ruleset("amigo-25-new-beans", 5, {"deal_6_7": "3-4-5-6"}).hand_sizes() == (5,) * 5


# --- 000 variant 2 and the Field bean ------------------------------------------------------------


def test_variant_2_is_for_four_or_five_with_field_and_brandy_beans():
    deck = ruleset("amigo-25-field-beans", 4).deck()
    assert deck["field"] == 3 and deck["brandy"] == 22 and sum(deck.values()) == 104 + 25
    with pytest.raises(ValueError, match="4-5 players"):
        ruleset("amigo-25-field-beans", 3)


def field_game(*fields: list[str], third: bool = False):
    game = table("amigo-25-field-beans", 4)
    player = game.players[0]
    for field, cards in zip(player.fields, fields):
        field.cards = list(cards)
    if third:
        player.fields[2:] = []
        from companion.rules.zones import Field

        player.fields.append(Field(["blue"]))
    return game, player


def test_two_harvested_field_beans_give_a_third_field_and_are_discarded():
    game, player = field_game(["field", "field"], ["blue"] * 3)
    game.push(Harvest(0, 0))
    assert len(player.fields) == 3 and player.coins == []
    assert game.discard[-2:] == ["field", "field"]
    assert player.fields[1].cards == ["blue"] * 3  # the beans stay in fields 1 and 2


def test_two_field_beans_give_nothing_to_a_player_who_has_a_third_field():
    game, player = field_game(["field", "field"], ["blue"] * 3, third=True)
    game.push(Harvest(0, 0))
    assert len(player.fields) == 3 and player.coins == []


def test_three_field_beans_pay_three_coins():
    game, player = field_game(["field"] * 3, ["blue"] * 3)
    game.push(Harvest(0, 0))
    assert player.coins == ["field"] * 3 and len(player.fields) == 2


def test_field_beans_cannot_be_added_to_an_edition_without_their_cards():
    with pytest.raises(ValueError, match="Field beans come with the editions"):
        ruleset("amigo-25", 4, {"modules": ["field-beans"]})


# --- the expansion set (003) and the Plus expansion (004) ------------------------------------------


@pytest.mark.parametrize(("players", "options", "removed"), [
    (3, {}, {"cocoa", "field"}),
    (4, {}, {"coffee", "cocoa"}),
    (5, {"removed_4_5": "field"}, {"coffee", "field"}),
    (6, {}, {"garden", "cocoa", "field"}),
])  # fmt: skip
def test_the_expansion_set_removes_beans_by_player_count(players, options, removed):
    deck = ruleset("expansion-set", players, options).deck()
    assert removed.isdisjoint(deck)
    assert set(deck) | removed == {"coffee", "brandy", "blue", "chili", "stink", "green", "soy", "black-eyed", "red",
                                   "garden", "cocoa", "field"}  # fmt: skip


def test_the_expansion_set_deals_3_4_5_6_and_draws_four_with_six_or_seven():
    game = table("expansion-set", 7)
    assert [p.hand.size for p in game.players] == [3, 4, 5, 6, 6, 6, 6]
    assert game.rules.edition.draws(0) == [(0, 4)]


def test_the_expansion_sets_third_field_costs_four_or_three_and_three_players_start_with_it():
    assert ruleset("expansion-set", 4).third_field_price() == 4
    assert ruleset("expansion-set", 6).third_field_price() == 3
    three = table("expansion-set", 3)
    assert ruleset("expansion-set", 3).third_field_price() is None
    assert all(len(p.fields) == 3 for p in three.players)


def test_the_expansion_set_ends_at_the_second_pass_with_three_players():
    assert ruleset("expansion-set", 3).end_pass() == 2 and ruleset("expansion-set", 5).end_pass() == 3


def test_the_expansion_set_plays_field_beans():
    hands = [["field", "field", "blue", "blue", "blue"], ["chili"] * 5, ["soy"] * 5, ["green"] * 5]
    game = known_table(hands, ruleset_name="expansion-set")
    game.push(Plant(0, "field"))
    game.push(Plant(0, "field"))
    game.push(Harvest(0, 0))
    assert len(game.players[0].fields) == 3
