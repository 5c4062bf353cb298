"""A group that taps the tablet late: what goes in by itself, and what it taps (models/late_tablet.py)."""

from __future__ import annotations

from companion.rules.moves import move_from_dict
from companion.rules.setup import Setup
from companion.rules.state import GameState
from companion.tracker.table import Observation
from models.late_tablet import GAME, LateTablet, Taps

ANN = 0
BLUE = {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"}
TURN = {"type": "turn-over", "player": ANN, "beans": ["chili", "soy"]}
END = {"type": "end-trading", "player": ANN}
CHILI = {"type": "plant", "player": ANN, "bean": "chili", "source": "face-up"}
SOY = {"type": "plant", "player": ANN, "bean": "soy", "source": "face-up"}


def after_blue() -> LateTablet:
    """Ann has planted a blue; the tablet has it."""
    game = GameState(Setup("amigo-25", ("Ann", "Ben", "Cid")))
    game.push(move_from_dict(BLUE))
    return LateTablet(game)


def test_a_tap_on_a_turn_over_lets_the_plants_that_waited_on_it_go_in():
    tablet = after_blue()
    tablet.due += [TURN, END, CHILI, SOY]
    tablet.observed(Observation((TURN,), sure=False))  # named unsurely: it waits
    assert tablet.waiting == [TURN]
    tablet.observed(Observation((END, CHILI, SOY), sure=False, sure_after_waiting=True))
    waiting_on = [p.after for p in tablet.proposals.pending(GAME)]
    assert waiting_on == [None, frozenset({1}), frozenset({1, 2}), frozenset({1, 2, 3})]
    tablet.visit()
    assert tablet.taps == Taps(released=3, confirmed=1) and tablet.taps.total == 1
    assert not tablet.due and not tablet.proposals.pending(GAME)
    assert sorted(f.bean or "" for f in tablet.game.players[ANN].fields) == ["blue", "chili", "soy"]


def test_plants_that_wait_for_their_own_taps_are_each_a_tap():
    tablet = after_blue()
    tablet.due += [TURN, END, CHILI, SOY]
    tablet.observed(Observation((TURN,), sure=False))
    tablet.observed(Observation((END, CHILI, SOY), sure=False))
    tablet.visit()
    assert tablet.taps == Taps(confirmed=4) and tablet.taps.total == 4


def test_what_the_camera_is_sure_of_goes_in_at_once_and_the_group_taps_the_rest():
    """The turn-over is sure and goes in; a sure harvest no one made is undone; of the end of the trading and a soy
    planted (no one planted it: Ann planted her chili), the first is confirmed and the second dismissed, and the chili
    is entered by hand."""
    tablet = after_blue()
    tablet.due.append(TURN)
    tablet.observed(Observation((TURN,), sure=True))
    assert tablet.taps.pushed == 1 and not tablet.due and sorted(tablet.game.face_up) == ["chili", "soy"]
    tablet.observed(Observation(({"type": "harvest", "player": ANN, "field": 0},), sure=True))
    tablet.observed(Observation((END, SOY), sure=False))
    tablet.due += [END, CHILI]
    tablet.visit()
    assert tablet.taps == Taps(pushed=1, confirmed=1, by_hand=1, dismissed=1, wrong=1) and tablet.taps.total == 4
    assert [f.bean for f in tablet.game.players[ANN].fields if f.count] == ["blue", "chili"]


def test_an_event_the_camera_enters_ahead_of_one_it_missed_that_it_would_leave_impossible_is_undone():
    """Ann's second plant from her hand was not seen; the camera enters her turn-over, sure of it. Made before the
    plant, it would end her planting: the group undoes it, and enters both."""
    tablet = after_blue()
    tablet.due += [{**BLUE, "bean": "red"}, TURN]
    tablet.observed(Observation((TURN,), sure=True))
    assert tablet.taps.wrong == 1 and len(tablet.due) == 2
    tablet.visit()
    assert tablet.taps == Taps(by_hand=2, wrong=1) and list(tablet.game.face_up) == ["chili", "soy"]


def test_a_turn_over_misread_is_corrected_with_a_tap_on_its_other_reading_and_its_plants_then_wait_for_theirs():
    tablet = after_blue()
    misread = {**TURN, "beans": ["chili", "red"]}
    tablet.due += [TURN, END, SOY]
    tablet.observed(Observation((misread,), sure=False, alternatives=((TURN,),)))
    tablet.observed(Observation((END, SOY), sure=False, sure_after_waiting=True))
    tablet.visit()
    assert tablet.taps == Taps(corrected=1, confirmed=2) and tablet.taps.total == 3


def test_a_harvest_entered_ahead_of_a_plant_into_that_field_is_undone():
    """Ann's second blue, planted on her first, was not seen; the camera enters the harvest of the field. Made before
    the plant, it would take one blue and leave the other in the field: the group undoes it, and enters both."""
    tablet = after_blue()
    harvest = {"type": "harvest", "player": ANN, "field": 0}
    tablet.due += [{**BLUE, "field": 0}, harvest]
    tablet.observed(Observation((harvest,), sure=True))
    assert tablet.taps.wrong == 1 and len(tablet.due) == 2
    tablet.visit()
    assert tablet.taps == Taps(by_hand=2, wrong=1) and tablet.game.discard == ["blue", "blue"]


def test_proposals_the_camera_became_sure_of_go_in_without_a_tap():
    """The turn-over, the end of the trading and the chili's plant wait for taps; later frames make the camera sure of
    them all: they go in, and the group enters only the soy's plant, which the camera has not seen yet."""
    tablet = after_blue()
    tablet.due += [TURN, END, CHILI, SOY]
    tablet.observed(Observation((TURN,), sure=False))
    tablet.observed(Observation((END, CHILI), sure=False))
    tablet.observed(Observation((), sure=False, sure_of_waiting=True))
    assert not tablet.waiting and tablet.due == [SOY]
    tablet.visit()
    assert tablet.taps == Taps(became_sure=3, by_hand=1) and tablet.taps.total == 1
