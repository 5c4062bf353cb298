"""Lessons from play: the top cards of fields the camera and the game agree on, named with the game's bean."""

from __future__ import annotations

import numpy as np

from companion.rules.moves import move_from_dict
from companion.rules.setup import Setup
from companion.rules.state import GameState
from companion.tracker.lessons import Teacher, lessons
from companion.tracker.view import SURE
from companion.vision.classifier import UNKNOWN
from companion.vision.scene import Scene, SeenCard, Stack

ANN, BEN = 0, 1
ZONES = ("fields-0", "fields-1", "fields-2")


def game(*fields: tuple[int, str, int]) -> GameState:
    """A game of three whose fields hold these (seat, bean, count), each seat's in its fields in order (scenario
    set-up: how they came there does not matter to a lesson)."""
    state = GameState(Setup("amigo-25", ("Ann", "Ben", "Cid")))
    used = {seat: 0 for seat in range(3)}
    for seat, bean, count in fields:
        state.players[seat].fields[used[seat]].cards = [bean] * count
        used[seat] += 1
    return state


def at(x: float) -> np.ndarray:
    return np.array([[x, 0], [x + 60, 0], [x + 60, 90], [x, 90]], np.float32)


def scene(*columns: tuple[int, str, int, float, float]) -> Scene:
    """The camera's scene of (seat, bean named, count, confidence, x) columns, every field zone in sight."""
    return Scene((), tuple(Stack(bean, count, at(x), SeenCard(at(x), bean, confidence), f"fields-{seat}")
                           for seat, bean, count, confidence, x in columns), ZONES)


def told(*columns: tuple[str | None, int]) -> tuple:
    return tuple(sorted(columns, key=lambda c: (c[0] or "", c[1])))


def test_the_top_card_of_each_field_the_camera_and_game_agree_on_is_a_card_of_its_bean():
    state = game((ANN, "blue", 2), (ANN, "soy", 1))
    seen = scene((ANN, "blue", 2, 0.99, 0), (ANN, "soy", 1, 0.99, 100))
    found = lessons(seen, state, {ANN: told(("blue", 2), ("soy", 1))}, SURE)
    assert [(x.seat, x.bean, x.count, float(x.corners[0, 0])) for x in found] == [
        (ANN, "blue", 2, 0), (ANN, "soy", 1, 100)]


def test_a_top_card_the_camera_was_unsure_of_is_learnt_as_the_games_bean():
    """The lesson that matters: a card the enrolled deck does not name well, on a field the game knows."""
    state = game((ANN, "cocoa", 2))
    seen = scene((ANN, UNKNOWN, 2, 0.4, 0))
    assert [x.bean for x in lessons(seen, state, {ANN: told((None, 2))}, SURE)] == ["cocoa"]
    named_wrong_unsurely = scene((ANN, "coffee", 2, 0.7, 0))
    assert [x.bean for x in lessons(named_wrong_unsurely, state, {ANN: told((None, 2))}, SURE)] == ["cocoa"]


def test_a_card_the_camera_took_for_another_bean_is_learnt_but_flagged():
    """A cocoa field whose top card the camera, unsure, took for a coffee: either the camera does not know this deck's
    cocoa yet, or the field was entered wrong. It is learnt, and the coffee said, so that a person can check it."""
    state = game((ANN, "cocoa", 2), (ANN, "soy", 1), (ANN, "blue", 3))
    seen = scene((ANN, "coffee", 2, 0.7, 0), (ANN, "soy", 1, 0.8, 100), (ANN, UNKNOWN, 3, 0.4, 200))
    found = lessons(seen, state, {ANN: told((None, 2), (None, 1), (None, 3))}, SURE)
    assert [(x.bean, x.named, x.taken_for) for x in found] == [
        ("cocoa", "coffee", "coffee"), ("soy", "soy", None), ("blue", UNKNOWN, None)]


def test_a_card_the_camera_is_sure_is_another_bean_teaches_nothing():
    """The camera and the game disagree: one of them is wrong, and the lesson could be."""
    state = game((ANN, "red", 1))
    seen = scene((ANN, "chili", 1, 0.97, 0))
    assert lessons(seen, state, {ANN: told(("chili", 1))}, SURE) == []


def test_a_card_the_camera_is_sure_is_a_bean_the_games_deck_lacks_is_learnt_but_flagged():
    """A stink card named a coffee at 0.97 in an Amigo game, which has no coffee: the camera is wrong, not the game
    (a bean lost to its enrollment photo, which learning mends), so the card is learnt, the coffee said."""
    state = game((ANN, "stink", 2))
    seen = scene((ANN, "coffee", 2, 0.97, 0))
    found = lessons(seen, state, {ANN: told((None, 2))}, SURE)
    assert [(x.bean, x.named, x.taken_for) for x in found] == [("stink", "coffee", "coffee")]


def test_a_seat_whose_columns_differ_from_the_games_teaches_nothing():
    state = game((ANN, "blue", 1), (ANN, "soy", 1))
    one_more = scene((ANN, "blue", 2, 0.99, 0), (ANN, "soy", 1, 0.99, 100))  # a blue laid, not yet entered
    assert lessons(one_more, state, {ANN: told(("blue", 2), ("soy", 1))}, SURE) == []
    hidden = scene((ANN, "soy", 1, 0.99, 100))  # a hand over the blue
    assert lessons(hidden, state, {ANN: told(("blue", 1), ("soy", 1))}, SURE) == []


def test_a_frame_that_shows_other_than_what_the_seat_settled_on_teaches_nothing():
    """A frame that agrees with the game while the seat has not settled on it (a card half laid, a shadow) is not
    trusted; nor is a seat that never settled."""
    state = game((ANN, "blue", 1))
    seen = scene((ANN, "blue", 1, 0.99, 0))
    assert lessons(seen, state, {ANN: told(("blue", 2))}, SURE) == []
    assert lessons(seen, state, {}, SURE) == []


def test_an_unsure_column_that_could_be_either_of_two_fields_teaches_nothing():
    state = game((ANN, "blue", 1), (ANN, "soy", 1))
    seen = scene((ANN, UNKNOWN, 1, 0.4, 0), (ANN, "soy", 1, 0.99, 100))
    found = lessons(seen, state, {ANN: told((None, 1), ("soy", 1))}, SURE)
    assert [(x.bean, float(x.corners[0, 0])) for x in found] == [("soy", 100)]


def test_each_seat_is_judged_on_its_own():
    state = game((ANN, "blue", 1), (BEN, "red", 1))
    seen = scene((ANN, "blue", 1, 0.99, 0), (BEN, "red", 2, 0.99, 200))  # Ben's second red is not entered yet
    found = lessons(seen, state, {ANN: told(("blue", 1)), BEN: told(("red", 2))}, SURE)
    assert [(x.seat, x.bean) for x in found] == [(ANN, "blue")]


def test_a_field_is_learnt_from_once_until_a_card_is_planted_on_it_or_it_is_harvested():
    teacher = Teacher()
    state = game((ANN, "blue", 1))
    one = scene((ANN, "blue", 1, 0.99, 0))
    assert [x.key for x in teacher.new(one, state, {ANN: told(("blue", 1))}, SURE)] == [(ANN, "blue", 1)]
    assert teacher.new(one, state, {ANN: told(("blue", 1))}, SURE) == []  # the same card, frame after frame

    state.push(move_from_dict({"type": "plant", "player": ANN, "bean": "blue", "source": "hand"}))
    two = scene((ANN, "blue", 2, 0.99, 0))
    assert [x.key for x in teacher.new(two, state, {ANN: told(("blue", 2))}, SURE)] == [(ANN, "blue", 2)]

    state = game((ANN, "blue", 1))  # harvested and planted again: a new card lies on top
    assert teacher.new(two, state, {ANN: told(("blue", 2))}, SURE) == []  # (the table still shows two)
    assert [x.key for x in teacher.new(one, state, {ANN: told(("blue", 1))}, SURE)] == [(ANN, "blue", 1)]


def test_a_field_of_more_than_one_bean_teaches_nothing():
    """High Bohn's mixed fields: the field is known by its first bean, and its top card may be another."""
    state = game((ANN, "blue", 2), (ANN, "soy", 1))
    state.players[ANN].fields[0].cards = ["blue", "wax"]
    seen = scene((ANN, UNKNOWN, 2, 0.4, 0), (ANN, "soy", 1, 0.99, 100))
    found = lessons(seen, state, {ANN: told((None, 2), ("soy", 1))}, SURE)
    assert [x.bean for x in found] == ["soy"]
