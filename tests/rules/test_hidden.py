"""Hidden information after a reshuffle: the new draw pile is exactly the old discard pile, which lay face up."""

from __future__ import annotations

from companion.records import Header, dumps_record, loads_record, replay
from companion.rules import Draw, EndTrading, Plant, Source, Trade, TurnOver, public_view
from support.tables import given_draw_pile, known_table, refused, table


def some(game, *but: str) -> str:
    """A bean still unseen (so a hidden card may be one)."""
    return next(b for b, n in game.unseen.items() if n > 0 and b not in but)


def reshuffled_without_gardens():
    """Four players; the pile runs out as Ann turns over its last two cards; no garden was ever discarded."""
    game = table("amigo-25", 4)
    given_draw_pile(game, cards=2, passes=0, keep=("garden",))
    discarded = list(game.discard)
    game.push(Plant(0, first := some(game, "garden")))
    up = some(game, "garden", first)
    game.push(TurnOver(0, (up, up)))
    game.push(EndTrading(0))
    game.push(Plant(0, up, Source.FACE_UP, 1))
    game.push(Plant(0, up, Source.FACE_UP, 1))
    assert game.passes == 1 and game.draw.size == len(discarded) and "garden" not in discarded
    return game, discarded


def test_a_turned_over_card_the_reshuffled_pile_cannot_hold_is_refused():
    game, _ = reshuffled_without_gardens()
    game.push(Draw(0))
    game.push(Plant(1, "garden"))  # from a hand: the six gardens are all in hands
    violation = game.check(TurnOver(1, ("garden", "blue")))
    assert violation is not None and violation.rule == "card.impossible"
    assert "no Garden Bean went back into the draw pile" in violation.message
    game.push(TurnOver(1, ("blue", "chili")))  # both went back into the pile


def test_the_view_says_what_the_pile_holds_after_a_reshuffle():
    game, discarded = reshuffled_without_gardens()
    view = public_view(game).to_dict()
    blue = discarded.count("blue")
    assert view["pile_beans"]["garden"] == [0, 0] and view["pile_beans"]["blue"] == [blue, blue]
    assert view["hidden_in_hands"]["garden"] == [6, 6]
    game.push(Draw(0))  # three cards of the new pile go into Ann's hand unseen
    view = public_view(game).to_dict()
    assert view["pile_beans"]["blue"] == [max(0, blue - 3), blue]
    assert view["hidden_in_hands"]["garden"] == [6, 6]


def test_before_the_first_reshuffle_pile_and_hands_share_the_unseen_cards():
    view = public_view(table("amigo-25", 4)).to_dict()
    assert view["pile_beans"]["garden"] == [0, 6] and view["hidden_in_hands"]["garden"] == [0, 6]


def test_hand_cards_revealed_after_a_reshuffle_must_fit_what_the_hands_can_hold():
    game, discarded = reshuffled_without_gardens()
    game.push(Draw(0))
    # Before the reshuffle the hands held every unseen card; since then Ann drew three from the new pile.
    hands = {b: n for b, n in game.hidden.hands.items()}
    assert sum(hands.values()) == sum(p.hand.size for p in game.players) - 3


# --- which copy a trade gives ----------------------------------------------------------------------


def test_a_trade_can_give_the_front_copy_of_a_bean_which_changes_the_hand_order():
    game = known_table([["blue", "soy", "chili", "soy", "red"], ["green"] * 5, ["stink"] * 5, ["wax"] * 5],
                       ruleset_name="classic")
    game.push(Plant(0, "blue"))
    up = tuple(game.plan_take(2).cards)
    game.push(TurnOver(0, up))
    game.push(Trade(0, 1, (), ("soy",), (), give_hand_at=(0,)))
    assert game.players[0].hand.cards == ["chili", "soy", "red"]


def test_without_places_the_rearmost_copy_is_given_as_records_always_said():
    game = known_table([["blue", "soy", "chili", "soy", "red"], ["green"] * 5, ["stink"] * 5, ["wax"] * 5],
                       ruleset_name="classic")
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, tuple(game.plan_take(2).cards)))
    game.push(Trade(0, 1, (), ("soy",)))
    assert game.players[0].hand.cards == ["soy", "chili", "red"]


def test_places_must_name_that_bean_once_each_within_the_hand():
    game = known_table([["blue", "soy", "chili", "soy", "red"], ["green"] * 5, ["stink"] * 5, ["wax"] * 5],
                       ruleset_name="classic")
    game.push(Plant(0, "blue"))
    game.push(TurnOver(0, tuple(game.plan_take(2).cards)))
    assert refused(game, Trade(0, 1, (), ("soy",), (), give_hand_at=(1,))) == "hand.not-held"
    assert refused(game, Trade(0, 1, (), ("soy",), (), give_hand_at=(9,))) == "hand.places"
    assert refused(game, Trade(0, 1, (), ("soy", "soy"), (), give_hand_at=(0, 0))) == "hand.places"


def test_a_record_with_places_replays_and_one_without_reads_as_before():
    header = Header("bohnanza", "amigo-25", ("Ann", "Ben", "Cid"), 0)
    events = [{"type": "plant", "player": 0, "bean": "blue"},
              {"type": "turn-over", "player": 0, "beans": ["soy", "red"]},
              {"type": "trade", "player": 0, "partner": 1, "give_hand": ["chili"], "give_hand_at": [1]}]
    assert replay(loads_record(dumps_record(header, events))).error is None
