"""The turn, exactly as the book runs it: scenario tests of the dice game referee."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from companion.dice.catalogue import HarvestCard
from companion.dice.game import MAX_DICE, DiceGame, Phase
from companion.dice.moves import DrawCard, EndTurn, Exchange, Harvest, Move, Roll, Save, UseBeanPiece
from companion.rules.violations import IllegalMove

NAMES = ["Ann", "Ben", "Cat"]
FILLER = ("2x garden",) * 5
"""Five orders no roll in these tests meets (both dark dice on garden)."""

Card = Callable[..., HarvestCard]


def start(
    card: Card, hands: list[tuple[tuple[str, ...], tuple[str, ...]]], start_player: int = 0, **options
) -> DiceGame:
    """A table game whose players draw the given (top, bottom) cards."""
    game = DiceGame.new(NAMES[: len(hands)], start_player, {"harvest_cards": "table", **options})
    for seat, (top, bottom) in enumerate(hands):
        game.push(DrawCard(seat, card(*top, id=f"{seat}-top")))
        game.push(DrawCard(seat, card(*bottom, id=f"{seat}-bottom")))
    return game


def roll(*beans: str | None) -> Roll:
    return Roll(tuple(beans))


def refused(game: DiceGame, move: Move) -> str:
    """The rule id ``push`` refuses ``move`` with."""
    with pytest.raises(IllegalMove) as caught:
        game.push(move)
    assert caught.value.violation == game.check(move)
    return caught.value.violation.rule


def completed(game: DiceGame) -> list[tuple[int, int]]:
    return [(c.player, c.index) for c in game.last_completions]


def test_another_player_completes_from_a_fresh_roll_but_not_from_saved_dice(card: Card) -> None:
    # Book example 2: Ann (active) keeps a stink; Ben needs two greens, Cat two stinks.
    game = start(
        card,
        [(("stink", "soy", "2x soy", "red", "blue"), FILLER),
         (("2x green", "green + blue", "2x garden", "soy", "soy"), FILLER),
         (("2x stink", "soy", "soy", "soy", "soy"), FILLER)],
    )
    game.push(roll("soy", "blue", "stink", "blue", "red"))
    assert completed(game) == []
    game.push(Save((2,)))
    game.push(roll("stink", "blue", None, "green", "green"))
    # Ben covers two orders in a row; Cat's second stink lies in the bean field and does not count.
    assert completed(game) == [(1, 0), (1, 1)]
    assert [p.completed for p in game.players] == [0, 2, 0]  # the active player does not check during rolls
    assert game.summary()["last_completions"] == [
        {"player": 1, "name": "Ben", "index": 0, "order": "2x green"},
        {"player": 1, "name": "Ben", "index": 1, "order": "green + blue"},
    ]


def test_the_bean_piece_repeats_the_roll_and_everyone_checks_again(card: Card) -> None:
    game = start(card, [(FILLER, FILLER), (("red", "2x red", *FILLER[:3]), FILLER)])
    game.push(roll("soy", "soy", "stink", "blue", "blue"))
    game.push(Save((0,)))
    game.push(roll(None, "soy", "green", "blue", "blue"))
    assert refused(game, roll(None, "soy", "green", "blue", "blue")) == "dice.save-at-least-one"
    game.push(UseBeanPiece())
    assert game.phase is Phase.ROLL and game.summary()["bean_piece_used"] is True
    assert refused(game, roll(None, "soy", "green", "blue", None)) == "dice.roll-all-dice"
    assert refused(game, roll("soy", "soy", "green", "blue", "blue")) == "dice.roll-saved-die"
    game.push(roll(None, "blue", "red", "red", "green"))
    assert completed(game) == [(1, 0), (1, 1)]
    assert refused(game, UseBeanPiece()) == "dice.bean-piece-once"
    game.push(Save((1, 2, 3, 4)))
    game.push(EndTurn())
    assert (game.active, game.phase, game.bean_piece_used) == (1, Phase.ROLL, False)
    assert refused(game, UseBeanPiece()) == "dice.bean-piece-after-roll"


def test_the_active_player_checks_the_five_saved_dice_at_the_end(card: Card) -> None:
    # Book example 4: one soy die serves two orders; nothing is burnt.
    game = start(card, [(("stink + soy", "soy", "2x soy", "red", "red"), FILLER), (("soy",) * 5, FILLER)])
    assert refused(game, Save((0,))) == "dice.save-after-roll"
    game.push(roll("soy", "blue", "stink", "blue", "blue"))
    assert completed(game) == [(1, 0), (1, 1), (1, 2), (1, 3), (1, 4)]
    assert refused(game, Save(())) == "dice.save-at-least-one"
    assert refused(game, Save((0, 0))) == "dice.save-die-twice"
    assert refused(game, Save((5,))) == "dice.no-such-die"
    game.push(Save((0, 2)))
    assert refused(game, EndTurn()) == "dice.turn-not-over"
    game.push(roll(None, "garden", None, "red", "green"))
    assert refused(game, Save((0,))) == "dice.save-already-saved"
    game.push(Save((1, 3, 4)))
    assert game.phase is Phase.TURN_END
    assert completed(game) == [(0, 0), (0, 1)]
    assert game.summary()["saved_dice"] == ["soy", "garden", "stink", "red", "green"]
    assert refused(game, roll(None, None, None, None, None)) == "dice.turn-over"


@pytest.mark.parametrize(("orders", "dollars"), [(3, 1), (4, 2), (5, 3)])
def test_a_harvest_pays_one_to_three_dollars(card: Card, orders: int, dollars: int) -> None:
    game = start(card, [(FILLER, FILLER), (("stink",) * orders + FILLER[orders:], FILLER)])
    game.push(roll("stink", "blue", "blue", "blue", "blue"))
    game.push(Harvest(1))
    assert game.players[1].dollars == dollars
    assert game.deck_left == 55 - 4 - (dollars - 1)  # the dollar cards come from the deck
    game.push(DrawCard(1, card(*FILLER)))
    assert game.deck_left == 55 - 4 - dollars


def test_a_harvest_chains_into_the_new_top_card(card: Card) -> None:
    game = start(
        card,
        [(FILLER, FILLER),
         (("blue", "blue", "2x blue", "2x garden", "2x garden"), ("stink", "stink + blue", "2x garden", "red", "red"))],
    )
    game.push(roll("blue", "soy", "red", "green", "green"))
    assert completed(game) == [(1, 0), (1, 1)]
    assert refused(game, Harvest(1)) == "dice.harvest-needs-three"
    assert "harvesting needs 3" in str(game.check(Harvest(1)))
    game.push(Save((0,)))
    game.push(roll(None, "blue", "blue", "stink", "red"))
    assert completed(game) == [(1, 2)]
    game.push(Harvest(1))
    # The bottom card moved up and was checked at once against the dice just rolled.
    assert completed(game) == [(1, 0), (1, 1)]
    assert game.summary()["players"][1]["top_card"]["id"] == "1-bottom"
    assert game.summary()["pending_draw"] == 1
    assert refused(game, Save((1,))) == "dice.draw-pending"
    assert refused(game, DrawCard(0, card(*FILLER))) == "dice.draw-wrong-player"
    game.push(DrawCard(1, card(*FILLER, id="new")))
    assert game.summary()["players"][1]["bottom_card"] == "new"
    assert game.players[1].dollars == 1


def test_the_final_phase_on_another_players_turn(card: Card) -> None:
    # Ben harvests four five-order cards in a row from one roll (3 + 3 + 3 + 3 dollars).
    stinks = ("stink",) * 5
    game = start(
        card,
        [
            (("soy", "blue + green", "stink + soy", "2x red", "red"), FILLER),
            (stinks, stinks),
            (("blue",) * 3 + FILLER[3:], FILLER),
        ],
    )
    game.push(roll("soy", "blue", "stink", "blue", "blue"))
    assert completed(game) == [(1, i) for i in range(5)] + [(2, i) for i in range(3)]
    game.push(Save((0,)))
    game.push(roll(None, "stink", "red", "blue", "green"))
    for _ in range(3):
        game.push(Harvest(1))
        assert completed(game) == [(1, i) for i in range(5)]
        game.push(DrawCard(1, card(*stinks)))
    assert (game.players[1].dollars, game.final_phase) == (9, False)
    game.push(Harvest(1))
    # Ann must stop: all dice go to the bean field and she checks them for the last time.
    assert completed(game) == [(1, i) for i in range(5)] + [(0, 0), (0, 1), (0, 2)]
    summary = game.summary()
    assert summary["game_over"] is True and summary["phase"] == "over"
    assert summary["saved_dice"] == ["soy", "stink", "red", "blue", "green"]
    assert summary["scores"] == {"Ann": 1, "Ben": 15, "Cat": 1}  # everyone with three orders harvests
    assert summary["winners"] == ["Ben"]
    assert summary["pending_draw"] is None
    assert refused(game, Save((1,))) == "dice.game-over"
    assert game.legal_moves() == []


def test_a_tie_shares_the_victory(card: Card) -> None:
    game = start(card, [(("soy",) * 5, FILLER), (("stink",) * 5, FILLER)], target_dollars=3)
    game.push(roll("soy", "blue", "stink", "blue", "blue"))
    game.push(Harvest(1))
    assert game.game_over
    assert game.scores() == {"Ann": 3, "Ben": 3}
    assert game.winners() == ["Ann", "Ben"]


def test_the_active_player_reaching_the_target_finishes_the_turn(card: Card) -> None:
    game = start(card, [(("stink",) * 5, ("stink",) * 3 + FILLER[3:]), (("soy",) * 3 + FILLER[3:], FILLER)],
                 target_dollars=3)
    game.push(roll("soy", "blue", "stink", "blue", "blue"))
    game.push(Save((0, 1, 2, 3, 4)))
    assert completed(game) == [(0, i) for i in range(5)]
    game.push(Harvest(0))
    # Ann is active: the game goes on; her new top card is checked against her saved dice.
    assert (game.final_phase, game.game_over) == (True, False)
    assert completed(game) == [(0, 0), (0, 1), (0, 2)]
    game.push(DrawCard(0, card(*FILLER)))
    game.push(EndTurn())
    assert game.game_over
    assert game.scores() == {"Ann": 4, "Ben": 1}
    assert game.winners() == ["Ann"]


def test_the_player_aid_exchange_when_the_deck_runs_out(card: Card) -> None:
    stinks = ("stink",) * 5
    game = start(
        card,
        [(stinks, stinks[:4] + ("2x garden",)),
         (("blue", "blue", "2x blue", "2x garden", "2x garden"), ("stink + 4x blue", "stink", "stink", "red", "red"))],
        start_player=1,
        deck_size=9,
    )
    assert game.deck_left == 5
    game.push(roll("stink", "blue", "blue", "blue", "blue"))
    game.push(Harvest(0))  # 3 dollars: two dollar cards from the deck
    game.push(DrawCard(0, card(*FILLER)))
    game.push(Harvest(0))  # 4 orders chained from the same roll: 2 dollars
    game.push(DrawCard(0, card(*FILLER)))
    assert (game.deck_left, game.players[0].dollars) == (0, 5)
    game.push(Save((0, 1, 2, 3, 4)))
    assert completed(game) == [(1, 0), (1, 1), (1, 2)]
    assert refused(game, Harvest(1)) == "dice.deck-empty"
    assert refused(game, Exchange(1)) == "dice.exchange-needs-five"
    game.push(Exchange(0))
    assert (game.deck_left, game.players[0].dollars, game.players[0].aid_cards) == (5, 5, 1)
    assert game.summary()["aid_cards_left"] == 4
    game.push(Harvest(1))
    assert completed(game) == [(1, 0), (1, 1), (1, 2)]  # the active player's new top card, saved dice
    game.push(DrawCard(1, card(*FILLER)))
    assert refused(game, Exchange(0)) == "dice.deck-not-empty"


def test_bad_rolls_and_cards_are_refused_with_the_reason(card: Card) -> None:
    game = DiceGame.new(NAMES[:2], 0, {})
    assert refused(game, DrawCard(0, card("3x garden", *FILLER[1:]))) == "dice.order-impossible"
    assert "can never be met" in str(game.check(DrawCard(0, card("3x garden", *FILLER[1:]))))
    assert refused(game, roll("soy", "soy", "red", "red", "red")) == "dice.draw-pending"
    for seat in (0, 0, 1, 1):
        game.push(DrawCard(seat, card(*FILLER)))
    assert refused(game, DrawCard(0, card(*FILLER))) == "dice.no-draw-due"
    assert refused(game, roll("red", "soy", "red", "red", "red")) == "dice.face-not-on-die"
    assert str(game.check(roll("red", "soy", "red", "red", "red"))) == "Die 1 (dark) has no red face."
    assert refused(game, roll("soy", "soy", "red", "red", "red", "red")) == "dice.roll-dice-count"
    assert refused(game, Harvest(7)) == "dice.no-such-player"
    with pytest.raises(ValueError, match="faces 1-6, not 7"):
        game.roll_from_faces([1, 2, 3, 4, 7])
    with pytest.raises(ValueError, match="5 dice, got 6"):
        game.roll_from_faces([1, 2, 3, 4, 5, 6])
    game.push(game.roll_from_faces([5, 2, 2, 5, 1]))
    assert game.last_roll == ("soy", "garden", "red", "green", "stink")
    game.push(Save((1,)))
    assert game.roll_from_faces([6, 1, 6, 6, 6]) == roll("soy", None, "green", "green", "green")
    with pytest.raises(ValueError, match="die 3 was rolled but reported no face"):
        game.roll_from_faces([6, 1, None, 6, 6])


def test_legal_moves_after_a_roll(card: Card) -> None:
    game = start(card, [(FILLER, FILLER), (("stink",) * 3 + FILLER[3:], FILLER)])
    assert game.legal_moves() == []  # the dice must be rolled
    game.push(roll("soy", "blue", "stink", "blue", "blue"))
    moves = game.legal_moves()
    assert Harvest(1) in moves and UseBeanPiece() in moves
    assert sum(isinstance(m, Save) for m in moves) == 31
    assert all(game.check(m) is None for m in moves)


def test_a_full_information_deck_is_dealt_by_the_game(card: Card) -> None:
    game = DiceGame.new(NAMES, 2, {"harvest_cards": "sample", "seed": 3})
    other = DiceGame.new(NAMES, 2, {"harvest_cards": "sample", "seed": 4})
    assert game.legal_moves() == [game.deal()]
    assert game.deal() != other.deal()
    assert refused(game, DrawCard(0, card(*FILLER))) == "dice.draw-not-deck-top"
    while game.pending_draws:
        game.push(game.deal())
    assert game.deck_left == 55 - 6 and len(game.deck or []) == 49
    with pytest.raises(ValueError, match="no harvest card is due"):
        game.deal()
    with pytest.raises(ValueError, match="hidden"):
        DiceGame.new(NAMES, 0, {}).deal()


def test_the_summary_is_json_for_the_tablet(card: Card) -> None:
    game = start(card, [(("stink",) * 5, FILLER), (("soy",) * 5, FILLER)])
    game.push(roll("soy", "blue", "stink", "blue", "blue"))
    summary = json.loads(json.dumps(game.summary()))
    assert summary["active_player"] == 0 and summary["phase"] == "save"
    assert summary["last_roll"] == ["soy", "blue", "stink", "blue", "blue"]
    assert summary["dice"][0] == {"kind": "dark", "bean": "soy", "saved": False}
    ben = summary["players"][1]
    assert (ben["name"], ben["dollars"], ben["completed"]) == ("Ben", 0, 5)
    assert ben["top_card"]["orders"][4] == {"order": "soy", "completed": True}
    assert summary["harvest_deck_left"] == 51
    assert (summary["game_over"], summary["winners"], summary["scores"]) == (False, [], {"Ann": 0, "Ben": 0})


@pytest.mark.parametrize(
    ("players", "start_player", "options", "message"),
    [
        (["Ann"], 0, {}, "2-5 players, not 1"),
        (["A", "B", "C", "D", "E", "F"], 0, {}, "not 6"),
        (["Ann", "Ann"], 0, {}, "names must differ"),
        (["Ann", "Ben"], 2, {}, "start_player must be a seat from 0 to 1"),
        (["Ann", "Ben"], 0, {"colour": "red"}, "unknown dice option"),
        (["Ann", "Ben"], 0, {"harvest_cards": "secret"}, '"harvest_cards" is "table", "sample" or a list'),
        (["Ann", "Ben"], 0, {"harvest_cards": [{"orders": ["3x garden", *FILLER[1:]]}] * 4}, "can never be met"),
        (["Ann", "Ben"], 0, {"harvest_cards": [{"orders": list(FILLER)}] * 3}, "need at least 4 harvest cards"),
        (["Ann", "Ben"], 0, {"target_dollars": 0}, '"target_dollars" must be a whole number of at least 1'),
        (["Ann", "Ben"], 0, {"dice": {"dice": [{"kind": "x", "faces": ["soy"]}]}}, "needs 6 faces"),
    ],
)
def test_bad_players_and_options_are_refused(
    players: list[str], start_player: int, options: dict, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        DiceGame.new(players, start_player, options)


def test_custom_dice_change_what_a_roll_may_show(card: Card) -> None:
    plain = {"kind": "plain", "faces": ["blue", "green", "red", "soy", "stink", "garden"]}
    game = DiceGame.new(NAMES[:2], 0, {"dice": {"dice": [plain] * 3}, "harvest_cards": "table"})
    for seat in (0, 0, 1, 1):
        game.push(DrawCard(seat, card(*(("red",) * 5))))
    assert refused(game, roll("red", "red", "red", "red", "red")) == "dice.roll-dice-count"
    game.push(roll("red", "garden", "garden"))
    assert completed(game) == [(1, i) for i in range(5)]


def test_a_game_has_at_most_eight_dice_and_a_configuration_of_the_right_shape() -> None:
    die = {"kind": "dark", "faces": ["blue", "garden", "stink", "stink", "soy", "soy"]}
    assert len(DiceGame.new(["Ann", "Ben"], 0, {"dice": {"dice": [die] * MAX_DICE}}).dice.dice) == MAX_DICE
    with pytest.raises(ValueError, match="at most 8 dice, not 30"):
        DiceGame.new(["Ann", "Ben"], 0, {"dice": {"dice": [die] * 30}})
    for config in ({"dice": [{"kind": "x", "faces": [[1]] * 6}]}, {"dice": 5}, [die], {"dice": [{"faces": []}]}):
        with pytest.raises(ValueError, match="a dice configuration is"):
            DiceGame.new(["Ann", "Ben"], 0, {"dice": config})


def test_listed_harvest_cards_are_checked_like_drawn_ones() -> None:
    card = {"orders": ["10000000x soy", "soy", "soy", "soy", "soy"]}
    with pytest.raises(ValueError, match="harvest card 1: '10000000x soy' asks for 10000000 dice"):
        DiceGame.new(["Ann", "Ben"], 0, {"harvest_cards": [card] * 4})
    with pytest.raises(ValueError, match="at most 1000 cards"):
        DiceGame.new(["Ann", "Ben"], 0, {"harvest_cards": [card] * 1001})


def test_a_harvest_card_in_play_cannot_be_drawn_again(card: Card) -> None:
    """Issue 21, item 10: one physical card is on one player's table at a time."""
    game = DiceGame.new(NAMES, 0, {})
    game.push(DrawCard(0, card(*FILLER, id="G7")))
    assert refused(game, DrawCard(0, card(*FILLER, id="G7"))) == "dice.card-in-play"
    assert "Ann's top card" in game.check(DrawCard(0, card(*FILLER, id="G7"))).message
    game.push(DrawCard(0, card(*FILLER, id="G8")))
    game.push(DrawCard(1, card(*FILLER)))  # cards without a label are never taken for another
    game.push(DrawCard(1, card(*FILLER)))
    assert refused(game, DrawCard(2, card(*FILLER, id="G8"))) == "dice.card-in-play"
