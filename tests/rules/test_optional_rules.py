"""The expansion set's two optional rules (003, and the Plus expansion in 004)."""

from __future__ import annotations

import pytest

from companion.rules import Draw, EndTrading, Plant, Source, Trade, TurnOver
from companion.rules.optional_rules import Retrade, RevealHand
from companion.rules.rulesets import ruleset
from support.tables import given_draw_pile, known_table, refused, table

HANDS = [["blue", "chili", "soy", "green", "red"], ["stink"] * 5, ["soy"] * 5, ["green"] * 5]



def test_the_active_player_may_trade_on_received_cards():
    game = known_table(HANDS, ruleset_name="expansion-set", modules=["retrade"])
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, tuple(game.plan_take(2).cards)))
    game.push(Trade(0, 1, (), ("chili",), ("stink",)))
    game.push(Retrade(0, 2, ("stink",), ("soy",)))
    assert game.players[2].received == ["stink"] and game.players[0].received == ["soy"]


def test_without_the_optional_rule_received_cards_cannot_be_traded_on():
    game = known_table(HANDS, ruleset_name="expansion-set")
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, tuple(game.plan_take(2).cards)))
    game.push(Trade(0, 1, (), ("chili",), ("stink",)))
    assert refused(game, Retrade(0, 2, ("stink",))) == "move.not-in-ruleset"


def test_the_optional_rules_belong_to_the_expansion_set():
    with pytest.raises(ValueError, match="expansion set"):
        ruleset("amigo-25", 4, {"modules": ["hand-at-end"]})


def test_at_the_end_every_hand_is_shown_planted_and_sold_with_as_many_fields_as_needed():
    game = table("expansion-set", 4, modules=["hand-at-end"])
    given_draw_pile(game, cards=2, passes=2, keep=("chili",))
    game.push(Plant(0, "chili"))
    game.push(TurnOver(0, ("chili", "chili")))  # the last two cards: the end, after phase 3
    game.push(EndTrading(0))
    game.push(Plant(0, "chili", Source.FACE_UP, 0))
    game.push(Plant(0, "chili", Source.FACE_UP, 0))
    assert not game.game_over and game.to_act() == (0,)
    assert refused(game, Draw(0)) == "hand-at-end.reveal"
    assert refused(game, RevealHand(1, ("chili",) * 5)) == "hand-at-end.order"
    assert refused(game, RevealHand(0, ("chili",) * 3)) == "hand-at-end.all"
    game.push(RevealHand(0, ("chili",) * 4))
    assert game.players[0].coins == ["chili"] * 2  # three chili from the field, then four from the hand
    assert game.to_act() == (1,)
    game.push(RevealHand(1, ("chili",) * 5))
    left = [b for b, n in game.unseen.items() for _ in range(max(0, n))]
    game.push(RevealHand(2, tuple(left[:5])))
    game.push(RevealHand(3, tuple(left[5:10])))
    assert game.game_over
