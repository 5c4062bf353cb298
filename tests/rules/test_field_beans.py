"""000 variant 2, "The Field beans" (4-5 players), and the Field bean as 003 and the Plus expansion tell it."""

from __future__ import annotations

import pytest

from companion.rules import BuyField, Draw, EndTrading, Harvest, Phase, Plant, Source, TurnOver
from companion.rules.rulesets import ruleset
from support.tables import known_table, refused, table

BASE, BRANDY, FIELD = 104, 22, 3


def fields(game, seat: int, *cards: list[str]) -> None:
    """Scenario set-up: ``seat``'s fields hold these cards (seen by everyone, so no longer unseen)."""
    for field, beans in zip(game.players[seat].fields, cards):
        field.cards = list(beans)
        game.unseen.subtract(beans)


# --- components and set-up ------------------------------------------------------------------


@pytest.mark.parametrize("players", [4, 5])
def test_all_base_beans_plus_field_and_brandy_beans_for_four_or_five(players):
    deck = ruleset("amigo-25-field-beans", players).deck()
    assert deck["field"] == FIELD and deck["brandy"] == BRANDY and deck["garden"] == 6
    assert sum(deck.values()) == BASE + BRANDY + FIELD and not {"coffee", "cocoa", "wax"} & set(deck)


def test_the_field_beans_variant_is_for_four_or_five_players():
    for players in (3, 6):
        with pytest.raises(ValueError, match="4-5 players"):
            ruleset("amigo-25-field-beans", players)


def test_two_bean_fields_and_five_cards_each_at_the_start():
    game = table("amigo-25-field-beans", 5)
    assert [len(p.fields) for p in game.players] == [2] * 5 and [p.hand.size for p in game.players] == [5] * 5


def test_played_as_variant_1_every_player_draws_one_card_in_phase_4():
    game = table("amigo-25-field-beans", 4, start=3)
    game.push(Plant(3, "blue"))
    game.push(TurnOver(3, ("blue", "blue")))
    game.push(EndTrading(3))
    game.push(Plant(3, "blue", Source.FACE_UP))
    game.push(Plant(3, "blue", Source.FACE_UP))
    assert game.draws_due == [(3, 1), (0, 1), (1, 1), (2, 1)]
    assert refused(game, Draw(0)) == "phase4.order"
    for seat in (3, 0, 1, 2):
        game.push(Draw(seat))
    assert game.active == 0 and game.phase is Phase.PLANT
    assert game.rules.end_pass() == 3


def test_field_beans_belong_to_the_editions_that_hold_their_cards():
    for name in ("amigo-25", "classic", "amigo-25-new-beans"):
        with pytest.raises(ValueError, match="Field beans come with the editions"):
            ruleset(name, 4, {"modules": ["field-beans"]})
    assert "field-beans" in [p.name for p in ruleset("amigo-25-field-beans", 4).modules]
    assert "field-beans" in [p.name for p in ruleset("expansion-set", 4).modules]


# --- harvesting Field beans -------------------------------------------------------------------


def test_two_field_beans_give_a_third_field_and_go_to_the_discard_pile():
    game = table("amigo-25-field-beans", 4)
    fields(game, 0, ["field", "field"], ["blue"] * 3)
    game.push(Harvest(0, 0))
    player = game.players[0]
    assert len(player.fields) == 3 and player.coins == []
    assert game.discard == ["field", "field"]


def test_the_beans_in_the_fields_stay_in_fields_1_and_2_and_the_new_field_is_the_third():
    game = table("amigo-25-field-beans", 4)
    fields(game, 1, ["blue"] * 3, ["field", "field"])
    game.push(Harvest(1, 1))
    assert [(f.bean, f.count) for f in game.players[1].fields] == [("blue", 3), (None, 0), (None, 0)]


def test_the_third_field_won_takes_beans_at_once():
    game = known_table([["field", "field", "blue", "soy", "red"], ["chili"] * 5, ["stink"] * 5, ["green"] * 5],
                       ["soy", "red"], "amigo-25-field-beans")  # fmt: skip
    game.push(Plant(0, "field"))
    game.push(Plant(0, "field"))
    game.push(Harvest(0, 0))
    game.push(TurnOver(0, ("soy", "red")))
    game.push(EndTrading(0))
    game.push(Plant(0, "soy", Source.FACE_UP, 0))
    game.push(Plant(0, "red", Source.FACE_UP, 2))
    assert [f.bean for f in game.players[0].fields] == ["soy", None, "red"]


def test_two_field_beans_earn_nothing_when_the_player_already_has_a_third_field():
    game = table("expansion-set", 4)
    game.players[0].coins = ["blue"] * 4
    game.unseen["blue"] -= 4
    game.push(BuyField(0))
    fields(game, 0, ["field", "field"], ["soy"], ["red"])
    game.push(Harvest(0, 0))
    player = game.players[0]
    assert len(player.fields) == 3 and player.coins == [] and game.discard[-2:] == ["field", "field"]


def test_a_third_field_won_with_field_beans_cannot_be_bought_again():
    game = table("expansion-set", 5)
    fields(game, 2, ["field", "field"])
    game.push(Harvest(2, 0))
    game.players[2].coins = ["blue"] * 4
    game.unseen["blue"] -= 4
    assert len(game.players[2].fields) == 3
    assert game.check(BuyField(2)).rule == "field.bought-once"


def test_three_field_beans_earn_three_coins_as_usual():
    game = table("amigo-25-field-beans", 5)
    fields(game, 0, ["field"] * 3, ["blue"])
    game.push(Harvest(0, 0))
    assert game.players[0].coins == ["field"] * 3 and len(game.players[0].fields) == 2 and game.discard == []


def test_a_single_field_bean_earns_nothing_and_no_field():
    game = table("amigo-25-field-beans", 4)
    fields(game, 0, ["field"], [])
    game.push(Harvest(0, 0))
    assert game.players[0].coins == [] and len(game.players[0].fields) == 2 and game.discard == ["field"]


def test_anyone_harvesting_two_field_beans_out_of_turn_gets_the_field():
    game = table("amigo-25-field-beans", 4)
    fields(game, 3, ["field", "field"])
    game.push(Harvest(3, 0))
    assert len(game.players[3].fields) == 3 and game.active == 0

