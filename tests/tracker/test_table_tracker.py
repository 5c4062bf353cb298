"""The table tracker on a real game: what the camera sees, once it settles, becomes the moves that explain it.

Views are written as the camera would report them (per seat, its field columns; the face-up
beans; the discard pile's top), frames as (view, moving). The game is a real table's: hands and the draw pile hidden.
"""

from __future__ import annotations

import copy
import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.moves import move_from_dict
from companion.rules.setup import KnownDeck, Setup
from companion.rules.state import GameState
from companion.tracker import table as table_module
from companion.tracker.explain import explain, explained
from companion.tracker.table import NAMED_OTHERWISE, Observation, Steadiness, TableTracker, believed, discarded
from companion.tracker.view import (
    FACE_UP,
    SURE,
    Place,
    TableView,
    cards_differing,
    distance,
    landed,
    likelihood,
    mismatch,
    place_of,
    share,
    sorted_columns,
    top_of_pile,
    view_in_game,
    view_of,
)
from companion.vision.classifier import LIKELY_LEAST
from companion.vision.scene import Scene, SeenCard, Stack

ANN, BEN, CID = 0, 1, 2


def table() -> GameState:
    return GameState(Setup("amigo-25", ("Ann", "Ben", "Cid")))


def seen(ann: tuple = (), ben: tuple = (), cid: tuple = (), face_up: tuple[str, ...] | None = ()) -> TableView:
    return TableView(((ANN, tuple(sorted(ann))), (BEN, tuple(sorted(ben))), (CID, tuple(sorted(cid)))),
                     tuple(sorted(face_up)) if face_up is not None else None)


def play(state: GameState, *events: dict) -> GameState:
    for event in events:
        state.push(move_from_dict(event))
    return state


def settle(tracker: TableTracker, state: GameState, view: TableView, frames: int = 3) -> Observation | None:
    """Feed ``frames`` still frames of ``view``; the last answer."""
    answer = None
    for _ in range(frames):
        answer = tracker.observe(view, False, state)
    return answer


def hand_passes(tracker: TableTracker, state: GameState, waiting: tuple[dict, ...] = ()) -> None:
    """A hand passes over the table (a moving frame): the still frames after it are a new still period."""
    assert tracker.observe(seen(), True, state, waiting) is None


def test_a_bean_planted_from_the_hand_is_proposed_once_the_table_is_still():
    state, tracker = table(), TableTracker()
    assert tracker.observe(seen(), False, state) is None  # the empty table: nothing happened
    assert settle(tracker, state, seen(), 3) is None
    planted = seen(ann=(("blue", 1),))
    assert tracker.observe(planted, False, state) is None
    assert tracker.observe(planted, False, state) is None
    observation = tracker.observe(planted, False, state)
    assert observation == Observation(({"type": "plant", "player": ANN, "bean": "blue", "source": "hand",
                                        "field": 0},), sure=True)
    play(state, *observation.events)
    assert settle(tracker, state, planted, 5) is None  # reported once


def test_a_hand_passing_over_the_table_changes_nothing():
    state, tracker = table(), TableTracker()
    settle(tracker, state, seen(), 4)
    for garbage in (seen(ann=(("soy", 3),)), seen(cid=(("red", 1),)), seen()):
        assert tracker.observe(garbage, True, state) is None  # moving frames never count
    half_laid = seen(ann=(("chili", 1),))
    assert tracker.observe(half_laid, False, state) is None
    assert tracker.observe(half_laid, False, state) is None
    assert tracker.observe(seen(), True, state) is None  # the hand comes back: the votes start again
    assert settle(tracker, state, seen(), 4) is None


def test_votes_outweigh_a_single_misread_frame():
    steadiness = Steadiness(window=4, votes=3)
    blue, misread = seen(ann=(("blue", 1),)), seen(ann=(("blue", 2),))
    answers = [steadiness.feed(view, False) for view in (blue, misread, blue, blue)]
    assert answers == [None, None, None, blue]


def flickering(steadiness: Steadiness, changed: frozenset | None, game: TableView) -> TableView | None:
    """Ann's blue field of one, agreed on in one still period; in the next, a chili and a soy turned over while the
    camera reads her field as two cards in 3 of 4 frames: what the table settles on then."""
    blue = seen(ann=(("blue", 1),))
    for _ in range(4):
        steadiness.feed(blue, False, frozenset(), game)
    steadiness.moved()
    turned = seen(ann=(("blue", 1),), face_up=("chili", "soy"))
    misread = seen(ann=(("blue", 2),), face_up=("chili", "soy"))
    answers = [steadiness.feed(view, False, changed, game) for view in (misread, misread, turned, misread)]
    return next((answer for answer in answers if answer is not None), None)


def test_a_field_that_did_not_change_stays_as_the_game_has_it_whatever_a_frame_reads():
    game = seen(ann=(("blue", 1),))
    settled = flickering(Steadiness(), frozenset({FACE_UP}), game)
    assert settled == seen(ann=(("blue", 1),), face_up=("chili", "soy"))


def test_a_field_that_changed_or_may_have_is_voted_on_as_its_frames_read_it():
    game = seen(ann=(("blue", 1),))
    misread = seen(ann=(("blue", 2),), face_up=("chili", "soy"))
    assert flickering(Steadiness(), frozenset({ANN, FACE_UP}), game) == misread
    assert flickering(Steadiness(), None, game) == misread  # the camera could not tell what changed


def test_a_field_settled_on_otherwise_than_the_game_has_it_is_voted_on_again():
    """The camera settled on Ann's field as the game does not have it (a misreading, or an event not entered yet): it
    is not kept so, even where nothing changed."""
    assert flickering(Steadiness(), frozenset({FACE_UP}), seen(ann=(("soy", 1),))) == seen(
        ann=(("blue", 2),), face_up=("chili", "soy"))


def test_a_field_is_kept_only_once_its_frames_agreed_on_it_in_an_earlier_still_period():
    """Within the still period a change settles in, frames that missed the card just laid are not believed more than
    the others: the field is voted on until a hand has passed since its frames agreed."""
    steadiness, game = Steadiness(), seen(ann=(("blue", 1),))
    blue, planted = seen(ann=(("blue", 1),)), seen(ann=(("blue", 2),))
    answers = [steadiness.feed(view, False, frozenset() if k else None, game)
               for k, view in enumerate((blue, blue, blue, planted, planted, planted))]
    assert answers[-1] == planted


def test_a_turn_over_is_proposed_while_a_field_that_did_not_change_flickers():
    """Ann's blue field of one lay still and agreed with the game; she turns over a chili and a soy, and the camera,
    told that only the face-up area changed, takes shadows beside her field and in Ben's for columns in most frames:
    the turn-over is still proposed (with two parts misread, setting one aside explains nothing)."""
    state = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"})
    tracker = TableTracker()
    blue = seen(ann=(("blue", 1),))
    for k in range(4):
        assert tracker.observe(blue, False, state, changed=frozenset() if k else None) is None
    hand_passes(tracker, state)
    turned = seen(ann=(("blue", 1),), face_up=("chili", "soy"))
    shadow = seen(ann=(("blue", 1), ("soy", 3)), ben=(("red", 2),), face_up=("chili", "soy"))
    answers = [tracker.observe(view, False, state, changed=frozenset({FACE_UP}))
               for view in (shadow, shadow, turned, shadow)]
    observed = [answer.events for answer in answers if answer is not None]
    assert observed == [({"type": "turn-over", "player": ANN, "beans": ["chili", "soy"]},)]
    untold = TableTracker()
    for _ in range(4):
        untold.observe(blue, False, state)
    hand_passes(untold, state)
    answers = [untold.observe(view, False, state) for view in (shadow, shadow, turned, shadow)]
    assert [answer for answer in answers if answer is not None and answer.events] == []


def turned_by_turns(odds: tuple[float | None, ...], beans: tuple[str, ...] = ("chili", "red", "red", "chili"),
                    ann: tuple = ()) -> list[TableView]:
    """Frames of a blue and a second bean turned over, the second named each of ``beans`` in turn, unsurely at the
    given ``odds`` (the other of a chili and a red the rest) or surely (None)."""
    def frame(bean: str, odds: float | None) -> TableView:
        other = "red" if bean == "chili" else "chili"
        return dataclasses.replace(seen(ann=ann, face_up=("blue", bean)), face_up_unsure=odds is not None,
                                   face_up_likely=((((bean, odds), (other, 1 - odds)),) if odds else ()))
    return [frame(bean, p) for bean, p in zip(beans, odds)]


def test_a_bean_turned_over_named_a_chili_and_a_red_by_turns_unsurely_settles_as_the_frame_sure_of_it_named_it():
    """Three frames name Ann's second bean turned over unsurely (a chili at 0.87, a red at 0.68 and at 0.87); the last
    names it a chili surely. Each unsure frame may show the chili: the face-up area settles, once."""
    steadiness = Steadiness()
    answers = [steadiness.feed(view, False) for view in turned_by_turns((0.87, 0.68, 0.87, None))]
    assert answers[:3] == [None] * 3 and answers[3] is not None and answers[3].face_up == ("blue", "chili")
    assert steadiness.feed(turned_by_turns((0.87,), ("red",))[0], False) is None  # no second settling


def test_a_bean_three_frames_of_four_name_alike_unsurely_settles_as_they_name_it():
    """A red named unsurely in 3 frames of 4, a chili in the other: a red, once the third frame names it so."""
    steadiness = Steadiness()
    frames = turned_by_turns((0.7, 0.6, 0.7, 0.7), ("red", "chili", "red", "red"))
    answers = [steadiness.feed(view, False) for view in frames]
    assert answers[:3] == [None] * 3 and answers[3] is not None and answers[3].face_up == ("blue", "red")


def test_beans_named_otherwise_by_as_many_frames_settle_nothing():
    assert [Steadiness().feed(view, False) for view in turned_by_turns((None,) * 4)] == [None] * 4
    unsure = turned_by_turns((0.8, 0.7, 0.7, 0.8))  # every frame could show either
    steadiness = Steadiness()
    assert [steadiness.feed(view, False) for view in unsure] == [None] * 4


def test_a_turn_over_named_unsurely_by_turns_is_proposed_for_a_tap():
    state = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"})
    tracker = TableTracker()
    frames = turned_by_turns((0.87, 0.68, 0.87, None), ann=(("blue", 1),))
    observed = [answer for view in frames if (answer := tracker.observe(view, False, state)) is not None]
    assert [(answer.events, answer.sure) for answer in observed] == [
        (({"type": "turn-over", "player": ANN, "beans": ["blue", "chili"]},), False)]


def test_a_turn_over_waiting_for_a_tap_is_sure_once_most_still_frames_name_its_beans_surely():
    """The first still frames name Ann's second bean turned over a chili, unsurely: the turn-over waits for a tap.
    Most of the next frames of the same still period name it a chili surely: the turn-over is not proposed again, and
    the camera says it is now sure of it. Frames that stay unsure leave it waiting."""
    state = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"})
    unsure = turned_by_turns((0.87,) * 3, ("chili",) * 3, ann=(("blue", 1),))
    for later, sure in ((None, True), (0.87, False)):
        tracker = TableTracker()
        observed = [answer for view in unsure if (answer := tracker.observe(view, False, state)) is not None]
        assert [(answer.events, answer.sure) for answer in observed] == [
            (({"type": "turn-over", "player": ANN, "beans": ["blue", "chili"]},), False)]
        waiting = list(observed[0].events)
        frames = turned_by_turns((later,) * 4, ("chili",) * 4, ann=(("blue", 1),))
        answers = [answer for view in frames if (answer := tracker.observe(view, False, state, waiting)) is not None]
        assert answers == ([Observation((), sure=False, sure_of_waiting=True)] if sure else []), later


def test_two_beans_turned_over_are_proposed_with_the_beans_seen():
    state = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"})
    tracker = TableTracker()
    observation = settle(tracker, state, seen(ann=(("blue", 1),), face_up=("chili", "soy")))
    assert observation is not None
    assert observation.events == ({"type": "turn-over", "player": ANN, "beans": ["chili", "soy"]},)


def test_beans_turned_over_that_the_camera_named_unsurely_wait_for_a_tap():
    """A turned-over card can be any bean still unseen: only the camera tells which, so it must be sure of it."""
    state = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"})
    turned = seen(ann=(("blue", 1),), face_up=("chili", "soy"))
    named = settle(TableTracker(), state, turned)
    unsure = settle(TableTracker(), state, dataclasses.replace(turned, face_up_unsure=True))
    assert named is not None and unsure is not None and named.events == unsure.events
    assert named.sure and not unsure.sure


def test_a_face_up_card_named_unsurely_is_told_by_its_name_and_the_view_unsure_of_the_face_up_area():
    corners = np.zeros((4, 2), np.float32)
    soy = SeenCard(corners, "soy", 0.6, (("soy", 0.6), ("cocoa", 0.4)))
    cards = (Stack("chili", 1, corners, SeenCard(corners, "chili", 0.97, (("chili", 0.97),)), "face-up"),
             Stack("soy", 1, corners, soy, "face-up"))
    assert not view_of(Scene((), cards[:1], ("face-up",)), (), SURE).face_up_unsure
    view = view_of(Scene((), cards, ("face-up",)), (), SURE)
    assert view.face_up == ("chili", "soy") and view.face_up_unsure
    assert view.face_up_likely == (soy.likely,)  # the unsure card's beans, the sure one's not


def test_a_face_up_card_named_nothing_is_told_as_the_bean_it_came_nearest_and_never_surely():
    """A turned-over card far off at a slant names nothing, but came nearest a field bean: the face-up area holds it as
    a field bean named unsurely, every bean of the deck it may be among its beans, none holding 0.9 of what the camera
    gave it and another; a card that came nearest a card back is left out."""
    corners = np.zeros((4, 2), np.float32)
    blue = Stack("blue", 1, corners, SeenCard(corners, "blue", 0.97, (("blue", 0.97),)), "face-up")

    def far(*likely: tuple[str, float]) -> Stack:
        return Stack("unknown", 1, corners, SeenCard(corners, "unknown", 0.37, likely), "face-up")

    view = view_of(Scene((), (blue,), ("face-up",), (far(("field", 0.98), ("chili", 0.01)),)), (), SURE,
                   ("blue", "field", "chili", "soy"))  # fmt: skip
    assert view.face_up == ("blue", "field") and view.face_up_unsure
    (likely,) = view.face_up_likely
    assert likely[0][0] == "field" and {bean for bean, _ in likely} == {"blue", "field", "chili", "soy"}
    assert all(share(likely, ("field", bean)) < SURE for bean in ("blue", "chili", "soy"))
    backed = view_of(Scene((), (blue,), ("face-up",), (far(("back", 0.6), ("field", 0.3)),)), (), SURE)
    assert backed.face_up == ("blue",) and not backed.face_up_unsure


def test_the_share_of_a_cards_first_bean_is_weighed_over_the_beans_allowed_alone():
    likely = (("stink", 0.65), ("cocoa", 0.2), ("soy", 0.1), ("chili", 0.05))
    assert share(likely, {"stink", "soy", "chili"}) == pytest.approx(0.65 / 0.8)
    assert share(likely, {"stink", "green"}) == pytest.approx(0.65 / (0.65 + LIKELY_LEAST))  # green: below the least
    assert share(likely, {"soy", "chili"}) == 0.0  # its first bean is not allowed
    assert share((), {"stink"}) == 0.0


def turned_unsure(state: GameState, field: str, turned: tuple[str, str], *odds: dict[str, float]) -> Observation | None:
    """What the tracker makes of two cards Ann turns over beside her field of one ``field``, named ``turned``, the
    camera unsure of each, with ``odds``."""
    tracker = TableTracker()
    settle(tracker, state, seen(ann=((field, 1),)))
    likely = tuple(tuple(sorted(card.items(), key=lambda item: -item[1])) for card in odds)
    return settle(tracker, state, dataclasses.replace(seen(ann=((field, 1),), face_up=turned), face_up_unsure=True,
                                                      face_up_likely=likely))


def test_beans_turned_over_unsurely_are_sure_where_the_beans_this_game_has_leave_the_camera_sure():
    """A turned-over card can only be a bean still unseen: the camera's doubt between a chili and a coffee or a wax,
    which the Amigo deck has none of, is no doubt."""
    state = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"})
    sure = turned_unsure(state, "blue", ("chili", "soy"), {"chili": 0.7, "coffee": 0.25, "soy": 0.05},
                         {"soy": 0.6, "wax": 0.35, "red": 0.05})
    assert sure is not None and sure.sure and sure.events[-1]["beans"] == ["chili", "soy"]
    unsure = turned_unsure(state, "blue", ("chili", "soy"), {"chili": 0.7, "red": 0.25, "soy": 0.05},
                           {"soy": 0.6, "wax": 0.35, "red": 0.05})  # the chili might be a red, which is in the deck
    assert unsure is not None and unsure.events == sure.events and not unsure.sure


def test_beans_turned_over_from_a_known_deck_need_the_camera_only_to_tell_them_apart():
    """Where the deck's order is known, the rules know the two beans turned over (a green and a soy): a card the
    camera took for a green, unsure between it and a red, is the green."""
    state = GameState(Setup("amigo-25", ("Ann", "Ben", "Cid"), deck=KnownDeck(seed=4)))
    play(state, {"type": "plant", "player": ANN, "bean": "chili", "source": "hand"})
    odds = ({"green": 0.5, "red": 0.45, "soy": 0.05}, {"soy": 0.9, "green": 0.02, "red": 0.08})
    known = turned_unsure(state, "chili", ("green", "soy"), *odds)
    assert known is not None and known.sure and known.events[-1]["beans"] == ["green", "soy"]
    hidden = turned_unsure(play(table(), {"type": "plant", "player": ANN, "bean": "chili", "source": "hand"}),
                           "chili", ("green", "soy"), *odds)
    assert hidden is not None and hidden.events == known.events and not hidden.sure


def test_face_up_beans_planted_after_trading_end_trading_and_both_plants():
    state = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"},
                 {"type": "turn-over", "player": ANN, "beans": ["chili", "soy"]})
    observation = settle(TableTracker(), state, seen(ann=(("blue", 1), ("chili", 1), ("soy", 1)), face_up=()))
    assert observation is not None
    assert [e["type"] for e in observation.events] == ["end-trading", "plant", "plant"]
    after = play(state, *observation.events)
    assert sorted(f.bean or "" for f in after.players[ANN].fields) == ["blue", "chili", "soy"]
    assert not after.face_up


def test_face_up_beans_planted_while_their_turn_over_waits_are_sure_once_it_is_confirmed():
    """Ann turns over a chili and a soy the camera names unsurely: the turn-over waits for a tap. She plants both
    beside her blue, each named surely: the plants presuppose the turn-over, so they too wait, but a tap confirming it
    as it is settles them. A plant of a card the camera took, unsure, for a bean not turned over still waits for its
    own tap."""
    state = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"})
    tracker = TableTracker()
    settle(tracker, state, seen(ann=(("blue", 1),)), 4)
    turned = settle(tracker, state, dataclasses.replace(seen(ann=(("blue", 1),), face_up=("chili", "soy")),
                                                        face_up_unsure=True))
    assert turned == Observation(({"type": "turn-over", "player": ANN, "beans": ["chili", "soy"]},), sure=False)
    waiting = list(turned.events)
    planted = [tracker.observe(seen(ann=(("blue", 1), ("chili", 1), ("soy", 1)), face_up=()), False, state, waiting)
               for _ in range(3)]
    assert planted[-1] is not None and not planted[-1].sure and planted[-1].sure_after_waiting
    assert [e["type"] for e in planted[-1].events] == ["end-trading", "plant", "plant"]
    unsure = TableView(((ANN, (("blue", 1), ("chili", 1), (None, 1))), (BEN, ()), (CID, ())), (),
                       guesses=((ANN, (("red", 1),)),))
    tracker = TableTracker()
    answers = [tracker.observe(view, False, state, waiting)
               for view in [seen(ann=(("blue", 1),), face_up=("chili", "soy"))] * 4 + [unsure] * 3]
    assert answers[-1] is not None and answers[-1].events == planted[-1].events
    assert answers[-1] is not None and not answers[-1].sure and not answers[-1].sure_after_waiting


def test_beans_turned_over_while_a_second_plant_from_the_hand_waits_wait_for_it():
    """Ann's second plant from her hand, a card the camera is unsure of, waits for a tap; then she turns over two beans
    named surely. Pushed at once, the turn-over would end her planting and the plant waiting could not follow: it is
    sure only once the plant is confirmed."""
    state = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"})
    tracker = TableTracker()
    settle(tracker, state, seen(ann=(("blue", 1),)), 4)
    second = TableView(((ANN, (("blue", 1), (None, 1))), (BEN, ()), (CID, ())), (), guesses=((ANN, (("red", 1),)),))
    planted = settle(tracker, state, second)
    assert planted is not None and [e["type"] for e in planted.events] == ["plant"] and not planted.sure
    turned = replace_face_up(second, ("chili", "soy"))
    answers = [tracker.observe(turned, False, state, list(planted.events)) for _ in range(3)]
    assert answers[-1] is not None and [e["type"] for e in answers[-1].events] == ["turn-over"]
    assert not answers[-1].sure and answers[-1].sure_after_waiting
    confirmed, tracker = play(state, *planted.events), TableTracker()
    alone = [tracker.observe(view, False, confirmed) for view in [second] * 4 + [turned] * 3]
    assert alone[-1] == Observation(answers[-1].events, sure=True)  # with the plant made: sure


def test_a_harvest_seen_while_a_plant_into_that_field_waits_waits_for_it():
    """Ann lays a second blue on her blue field, a card the camera took for a red (the plant waits); then she harvests
    the field, both blues landing on the pile. Pushed before the plant, the harvest would take one blue, and the plant
    confirmed after it would leave a blue in the field: it is sure only once the plant is confirmed."""
    state = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"})
    tracker = TableTracker()
    settle(tracker, state, piled(seen(ann=(("blue", 1),)), ()), 4)
    misread = dataclasses.replace(piled(seen(ann=((None, 2),)), ()), guesses=((ANN, (("red", 2),)),))
    planted = settle(tracker, state, misread)
    assert planted is not None and [e["bean"] for e in planted.events] == ["blue"] and not planted.sure
    answers = [tracker.observe(piled(seen(), ("blue",)), False, state, list(planted.events)) for _ in range(3)]
    assert answers[-1] is not None and answers[-1].events == ({"type": "harvest", "player": ANN, "field": 0},)
    assert not answers[-1].sure and answers[-1].sure_after_waiting


def test_a_harvest_that_leaves_fields_looking_as_before_a_plant_still_waiting_is_proposed():
    """Ann's chili and green fields of one card each, named unsurely; she plants the blue Ben gave her into her third
    field (auto-accept off: the plant waits for a tap); then she harvests the green. Her fields look as they did before
    the blue, two of one card, but the camera took them for a blue and a chili: the harvest is proposed (before, the
    game's own table agreeing with the view, nothing was). Where her hand rests over the blue instead, the camera
    takes the two it sees for the chili and the green: no harvest of the blue is proposed."""
    state = play(table(), {"type": "plant", "player": ANN, "bean": "chili", "source": "hand"},
                 {"type": "plant", "player": ANN, "bean": "green", "source": "hand"},
                 {"type": "turn-over", "player": ANN, "beans": ["soy", "soy"]},
                 {"type": "trade", "player": ANN, "partner": BEN, "give_face_up": ["soy", "soy"], "receive": ["blue"]},
                 {"type": "end-trading", "player": ANN})
    two = TableView(((ANN, ((None, 1), (None, 1))), (BEN, ()), (CID, ())), ())
    three = TableView(((ANN, ((None, 1), (None, 1), (None, 1))), (BEN, ()), (CID, ())), ())
    tracker = TableTracker()
    settle(tracker, state, guessing(two, ANN, ("chili", 1), ("green", 1)), 4)
    planted = settle(tracker, state, guessing(three, ANN, ("blue", 1), ("chili", 1), ("green", 1)))
    assert planted is not None and [e["bean"] for e in planted.events] == ["blue"]
    waiting = list(planted.events)
    answers = [tracker.observe(guessing(two, ANN, ("blue", 1), ("chili", 1)), False, state, waiting) for _ in range(3)]
    assert answers[-1] is not None and answers[-1].events == ({"type": "harvest", "player": ANN, "field": 1},)
    tracker = TableTracker()
    hidden = [tracker.observe(view, False, state, waiting)
              for view in [guessing(three, ANN, ("blue", 1), ("chili", 1), ("green", 1))] * 4
              + [guessing(two, ANN, ("chili", 1), ("green", 1))] * 3]
    assert all(o is None or not o.events for o in hidden) and tracker.agrees


def replace_face_up(view: TableView, beans: tuple[str, ...]) -> TableView:
    """``view`` with ``beans`` lying face up, named surely."""
    return dataclasses.replace(view, face_up=tuple(sorted(beans)))


def test_a_gift_of_a_face_up_bean_is_left_to_a_tap():
    """The camera sees the soy go to Ben's field, but not what Ann got for it: a trade is entered by hand."""
    state = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"},
                 {"type": "turn-over", "player": ANN, "beans": ["chili", "soy"]})
    assert explain(state, seen(ann=(("blue", 1),), ben=(("soy", 1),), face_up=("chili",))) is None


def test_a_field_cleared_is_a_harvest():
    state = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"},
                 {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"})
    observation = settle(TableTracker(), state, seen())
    assert observation is not None
    assert observation.events == ({"type": "harvest", "player": ANN, "field": 0},)
    assert not observation.sure  # a hand resting on the field would look the same: a harvest waits for a tap


def test_a_column_named_unsure_takes_the_bean_its_field_grows():
    state = play(table(), {"type": "plant", "player": ANN, "bean": "garden", "source": "hand"})
    observation = settle(TableTracker(), state, seen(ann=((None, 2),)))
    assert observation is not None
    assert observation.events[0]["bean"] == "garden"
    assert not observation.sure  # an unsure reading waits for a tap


def guessing(view: TableView, seat: int, *columns: tuple[str, int]) -> TableView:
    """``view`` with the camera's guesses of the columns of ``seat`` it was unsure of."""
    return dataclasses.replace(view, guesses=((seat, tuple(sorted(columns))),))


def chili_planted_unsure(tracker: TableTracker, state: GameState) -> Observation:
    """A card of a group's own deck laid into Ann's empty field, which the camera names a chili, unsure: the plant it
    proposes waits for a tap."""
    settle(tracker, state, seen())
    observation = settle(tracker, state, guessing(seen(ann=((None, 1),)), ANN, ("chili", 1)))
    assert observation is not None and not observation.sure
    return observation


def test_a_bean_planted_unsure_is_proposed_as_the_bean_the_camera_took_it_for():
    """The plant the camera proposes for a card it names a chili, unsure, is of a chili, not of the first bean the
    rules would allow."""
    state = table()
    observation = chili_planted_unsure(TableTracker(), state)
    assert [(e["type"], e["bean"]) for e in observation.events] == [("plant", "chili")]
    blind = TableTracker()
    settle(blind, state, seen())
    unguessed = settle(blind, state, seen(ann=((None, 1),)))
    assert unguessed is not None and unguessed.events[0]["bean"] != "chili"  # without the guess: the rules' first


def test_a_plant_waiting_for_a_tap_is_sure_once_later_frames_name_its_card_surely():
    """Ann's chili, planted into an empty field from her hand, is named a chili unsurely by the first still frames:
    its plant waits for a tap. The next frames of the same still period name it a chili surely: the plant is not
    proposed again, and the camera says it is now sure of it. Had they named it a blue, the chili's plant would not
    explain it, and the camera would not be sure of it."""
    state, tracker = table(), TableTracker()
    waiting = list(chili_planted_unsure(tracker, state).events)
    later = [tracker.observe(seen(ann=(("chili", 1),)), False, state, waiting) for _ in range(3)]
    assert [o for o in later if o is not None] == [Observation((), sure=False, sure_of_waiting=True)]
    assert tracker.agrees
    assert not table_module.sure_of(waiting, state, seen(ann=(("blue", 1),)), False)
    assert not table_module.sure_of([], state, seen(ann=(("chili", 1),)), False)  # nothing waiting


def test_of_two_like_fields_the_one_harvested_is_the_one_the_camera_no_longer_guesses():
    state = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"},
                 {"type": "plant", "player": ANN, "bean": "stink", "source": "hand"})
    tracker = TableTracker()
    settle(tracker, state, seen(ann=(("blue", 1), ("stink", 1))))
    observation = settle(tracker, state, guessing(seen(ann=((None, 1),)), ANN, ("blue", 1)))
    assert observation is not None
    assert observation.events == ({"type": "harvest", "player": ANN, "field": 1},)  # the stink went, the blue stays
    assert observation.alternatives == (({"type": "harvest", "player": ANN, "field": 0},),)  # or, with a tap, the blue


def test_what_the_camera_takes_a_field_no_move_touches_for_does_not_hold_back_a_harvest_beside_it():
    """Ann harvests her 2 blues onto the pile, beside her stink, which a group's deck lost to a soy: the camera
    takes the stink left for a soy, as it did before the harvest. The only move that explains the table leaves that
    field as it was, so the guess says nothing of the change, and the harvest, its blue seen on the pile, is sure."""
    state = play(table(), *[{"type": "plant", "player": ANN, "bean": "blue", "source": "hand"}] * 2)
    state.players[ANN].fields[1].cards = ["stink"]  # scenario set-up: how it came there does not matter here
    before = TableView(((ANN, ((None, 1), ("blue", 2))), (BEN, ()), (CID, ())), (), (), guesses=((ANN, (("soy", 1),)),))
    after = dataclasses.replace(before, fields=((ANN, ((None, 1),)), (BEN, ()), (CID, ())), discard=("blue",))
    tracker = TableTracker()
    settle(tracker, state, before, 4)
    observation = settle(tracker, state, after, 3)
    assert observation is not None and observation.sure
    assert observation.events == ({"type": "harvest", "player": ANN, "field": 0},)


def test_the_view_keeps_what_the_camera_took_unsure_columns_for_apart_from_what_it_tells():
    corners = np.zeros((4, 2), np.float32)
    scene = Scene((), (Stack("chili", 2, corners, SeenCard(corners, "chili", 0.6), "fields-0"),
                       Stack("unknown", 1, corners, SeenCard(corners, "unknown", 0.2), "fields-0"),
                       Stack("blue", 1, corners, SeenCard(corners, "blue", 0.97), "fields-0")), ("fields-0",))
    view = view_of(scene, (ANN,), SURE)
    assert view.fields == ((ANN, ((None, 1), (None, 2), ("blue", 1))),)  # fmt: skip
    assert view.guesses == ((ANN, (("chili", 2),)),)
    assert view == dataclasses.replace(view, guesses=())  # a guess tells the rules nothing


def test_the_view_keeps_the_beans_each_unsure_column_may_be_beside_its_guess():
    corners = np.zeros((4, 2), np.float32)
    chili = SeenCard(corners, "chili", 0.6, (("chili", 0.6), ("coffee", 0.3), ("stink", 0.1)))
    soy = SeenCard(corners, "soy", 0.7, (("soy", 0.7), ("blue", 0.3)))
    scene = Scene((), (Stack("soy", 1, corners, soy, "fields-0"), Stack("chili", 3, corners, chili, "fields-0"),
                       Stack("blue", 2, corners, SeenCard(corners, "blue", 0.97, (("blue", 0.97),)), "fields-0")),
                  ("fields-0",))
    view = view_of(scene, (ANN,), SURE)
    assert view.guesses == ((ANN, (("chili", 3), ("soy", 1))),)
    assert view.likely == ((ANN, ((3, chili.likely), (1, soy.likely))),)  # in the guesses' order
    assert view == dataclasses.replace(view, likely=())


def amigo_scene(*stacks: tuple[str, int, float, tuple[tuple[str, float], ...], str]) -> Scene:
    """A still frame of an Amigo table: per stack its bean as the camera named it, count, confidence, likely beans
    and zone."""
    corners = np.array([[840, 160], [896, 160], [896, 247], [840, 247]], np.float32)
    made = tuple(Stack(bean, count, corners, SeenCard(corners, bean, odds, likely), zone)
                 for bean, count, odds, likely, zone in stacks)
    return Scene((), made, ("fields-0", FACE_UP, "discard"))


def seen_change(state: GameState, before: Scene, after: Scene, beans: dict[str, int] | None) -> Observation | None:
    """What the tracker makes of still frames of ``before``, a hand passing and still frames of ``after``, each card
    taken as ``beans`` (the game's deck) allows: the observation the change settles."""
    tracker = TableTracker()
    settle(tracker, state, view_of(before, (ANN,), SURE, beans), 4)
    tracker.observe(view_of(after, (ANN,), SURE, beans), True, state)
    return next(filter(None, (tracker.observe(view_of(after, (ANN,), SURE, beans), False, state) for _ in range(4))),
                None)


def test_a_card_named_a_bean_the_games_deck_lacks_is_taken_for_the_likeliest_bean_it_has():
    """A group's stink card lost to a coffee in its one enrollment photo: the Amigo deck has no coffee, so a stink
    card named a coffee, even surely, is no coffee. Its column is left open and guessed the likeliest Amigo bean,
    the face-up card and the pile's top card likewise; a bean the deck has is told as the camera named it."""
    scene = amigo_scene(("coffee", 3, 0.95, (("coffee", 0.95), ("stink", 0.04), ("cocoa", 0.01)), "fields-0"),
                        ("blue", 1, 0.97, (("blue", 0.97), ("wax", 0.03)), "fields-0"),
                        ("wax", 1, 0.6, (("wax", 0.6), ("soy", 0.3), ("red", 0.1)), FACE_UP),
                        ("cognac", 1, 0.92, (("cognac", 0.92), ("stink", 0.05), ("chili", 0.03)), "discard"))
    beans = table().deck_counts
    anyway = view_of(scene, (ANN,), SURE)
    assert anyway.fields == ((ANN, (("blue", 1), ("coffee", 3))),) and anyway.discard == ("cognac",)
    view = view_of(scene, (ANN,), SURE, beans)
    assert view.fields == ((ANN, ((None, 3), ("blue", 1))),) and view.guesses == ((ANN, (("stink", 3),)),)
    assert view.likely == ((ANN, ((3, (("stink", 0.04),)),)),)
    assert view.face_up == ("soy",) and view.face_up_unsure and view.face_up_likely == ((("soy", 0.3), ("red", 0.1)),)
    assert view.discard is None and view.pile_guess == ("stink",)


def test_a_card_laid_on_a_field_and_named_surely_a_bean_the_deck_lacks_is_the_fields_bean():
    """A second stink laid on Ann's stink, named a coffee at 0.95: no move explains a coffee field of 2, but the Amigo
    deck has no coffee, and the plant of a stink is proposed, sure. A camera not told the game's deck takes the coffee
    named for a misnaming all the same, the only card a move may lay there being a stink, but proposes it for a tap."""
    state = play(table(), {"type": "plant", "player": ANN, "bean": "stink", "source": "hand"})
    before = amigo_scene(("stink", 1, 0.95, (("stink", 0.95),), "fields-0"))
    after = amigo_scene(("coffee", 2, 0.95, (("coffee", 0.95), ("stink", 0.04)), "fields-0"))
    answers = {lacking: seen_change(state, before, after, None if lacking else state.deck_counts)
               for lacking in (True, False)}
    dealt, untold = answers[False], answers[True]
    assert dealt is not None and dealt.sure
    assert dealt.events == ({"type": "plant", "player": ANN, "bean": "stink", "source": "hand", "field": 0},)
    assert untold is not None and untold.events == dealt.events and not untold.sure and untold.note == NAMED_OTHERWISE


def test_a_field_harvested_onto_the_pile_is_sure_where_the_deck_leaves_the_new_top_card_the_harvested_bean():
    """Ann harvests her stink field onto the empty pile; its top card, a stink the camera names a coffee unsurely:
    in an Amigo game that coffee is a stink, and the harvest is seen taken by the pile."""
    state = play(table(), *[{"type": "plant", "player": ANN, "bean": "stink", "source": "hand"}] * 2)
    before = amigo_scene(("stink", 2, 0.95, (("stink", 0.95),), "fields-0"))
    after = amigo_scene(("coffee", 1, 0.7, (("coffee", 0.7), ("stink", 0.25), ("blue", 0.05)), "discard"))
    answers = {lacking: seen_change(state, before, after, None if lacking else state.deck_counts)
               for lacking in (True, False)}
    lacking, dealt = answers[True], answers[False]
    assert dealt is not None and dealt.events == ({"type": "harvest", "player": ANN, "field": 0},) and dealt.sure
    assert lacking is not None and lacking.events == dealt.events and not lacking.sure  # a coffee: not the stink


def test_a_harvest_is_seen_taken_by_the_pile_where_its_new_top_card_looks_more_like_the_harvested_bean_than_the_last():
    """Ann harvests her 2 stinks onto a pile topped with a blue, in a classic game, which has coffees; the pile's top
    card now lies elsewhere, named a coffee unsurely. Where the camera gave a stink far more than a blue, a stink landed
    there: the harvest is sure. Where it gave the blue more, the blue may only have been bumped: it waits for a tap."""
    state = GameState(Setup("classic", ("Ann", "Ben", "Cid")))
    play(state, *[{"type": "plant", "player": ANN, "bean": "stink", "source": "hand"}] * 2)
    state.discard.append("blue")  # scenario set-up: how the blue came there does not matter here
    before = amigo_scene(("stink", 2, 0.95, (("stink", 0.95),), "fields-0"), ("blue", 1, 0.97, (), "discard"))
    answers = []
    for second in ("stink", "blue"):
        after = amigo_scene(("coffee", 1, 0.6, (("coffee", 0.6), (second, 0.3), ("cocoa", 0.09)), "discard"))
        moved = tuple(dataclasses.replace(stack, top=dataclasses.replace(stack.top, corners=stack.top.corners + 30))
                      for stack in after.stacks)
        answers.append(seen_change(state, before, dataclasses.replace(after, stacks=moved), state.deck_counts))
    stink, blue = answers
    assert stink is not None and stink.events == ({"type": "harvest", "player": ANN, "field": 0},) and stink.sure
    assert blue is not None and blue.events == stink.events and not blue.sure


def test_a_harvest_seen_taken_by_the_pile_is_sure_whatever_the_camera_takes_a_field_it_left_for():
    """As above, the stink landing on the blue; beside the stinks lies Ann's soy, which the harvest leaves, and which
    the camera names surely, or unsurely as a soy, or unsurely as a chili: the harvest is sure all three times, since
    what the camera was unsure of at a field the change leaves asks nothing of the rules."""
    state = GameState(Setup("classic", ("Ann", "Ben", "Cid")))
    play(state, *[{"type": "plant", "player": ANN, "bean": "stink", "source": "hand"}] * 2)
    state.players[ANN].fields[1].cards = ["soy"]  # scenario set-up: how they came there does not matter here
    state.discard.append("blue")
    answers = []
    for soy in ((("soy", 0.97),), (("soy", 0.5), ("blue", 0.3)), (("chili", 0.5), ("soy", 0.3))):
        left = (soy[0][0], 1, soy[0][1], soy, "fields-0")
        before = amigo_scene(("stink", 2, 0.95, (("stink", 0.95),), "fields-0"), left, ("blue", 1, 0.97, (), "discard"))
        after = amigo_scene(left, ("coffee", 1, 0.6, (("coffee", 0.6), ("stink", 0.3), ("cocoa", 0.09)), "discard"))
        moved = tuple(dataclasses.replace(stack, top=dataclasses.replace(stack.top, corners=stack.top.corners + 30))
                      if stack.zone == "discard" else stack for stack in after.stacks)
        answers.append(seen_change(state, before, dataclasses.replace(after, stacks=moved), state.deck_counts))
    assert [answer.events if answer else None for answer in answers] == [
        ({"type": "harvest", "player": ANN, "field": 0},)] * 3
    assert [answer.sure for answer in answers if answer] == [True] * 3


def test_the_likelihood_of_a_table_is_what_the_camera_gave_the_beans_of_the_columns_it_was_unsure_of():
    unsure = TableView(((ANN, ((None, 1), (None, 1), ("blue", 1))),), guesses=((ANN, (("chili", 1), ("soy", 1))),),
                       likely=((ANN, ((1, (("chili", 0.6), ("stink", 0.3))), (1, (("soy", 0.8), ("blue", 0.2))))),))
    game = TableView(((ANN, (("blue", 1), ("chili", 1), ("soy", 1))),))
    assert likelihood(game, unsure) == pytest.approx(0.6 * 0.8)
    swapped = TableView(((ANN, (("blue", 1), ("blue", 1), ("stink", 1))),))  # the blue named surely is one of them
    assert likelihood(swapped, unsure) == pytest.approx(0.3 * 0.2)
    unlisted = TableView(((ANN, (("blue", 1), ("coffee", 1), ("soy", 1))),))
    assert likelihood(unlisted, unsure) == pytest.approx(LIKELY_LEAST * 0.8)  # a bean left out counts as the least
    assert likelihood(TableView(((ANN, (("blue", 1), ("chili", 2), ("soy", 1))),)), unsure) == 0.0  # no such column


def received(*beans: str) -> GameState:
    """Ann's turn after trading, her blue field of one beside two empty fields: she received ``beans`` from Ben for
    the two beans she turned over."""
    return play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"},
                {"type": "turn-over", "player": ANN, "beans": ["garden", "soy"]},
                {"type": "trade", "player": ANN, "partner": BEN, "give_face_up": ["garden", "soy"],
                 "receive": list(beans)},
                {"type": "end-trading", "player": ANN})


def planted_unsure(state: GameState, **odds: float) -> Observation | None:
    """What the tracker makes of a card laid into Ann's empty field that the camera named unsurely, with ``odds``."""
    tracker = TableTracker()
    settle(tracker, state, seen(ann=(("blue", 1),)))
    likely = tuple(sorted(odds.items(), key=lambda item: -item[1]))
    fields = ((ANN, ((None, 1), ("blue", 1))), (BEN, ()), (CID, ()))
    view = TableView(fields, (), guesses=((ANN, ((likely[0][0], 1),)),), likely=((ANN, ((1, likely),)),))
    return settle(tracker, state, view)


def test_a_received_bean_planted_into_an_empty_field_is_sure_where_the_camera_weighs_it_over_the_others_received():
    """Ann received a chili and a stink: the card laid is one of the two. The camera gave the chili 0.6 and the stink
    0.05 (it thought of a coffee too, which Ann has not received): the chili holds 0.92 of the two."""
    observation = planted_unsure(received("chili", "stink"), chili=0.6, coffee=0.3, stink=0.05, soy=0.05)
    assert observation is not None and observation.sure
    assert [(e["type"], e["bean"], e["source"]) for e in observation.events] == [("plant", "chili", "received")]


def test_a_bean_planted_into_an_empty_field_waits_where_the_beans_the_rules_allow_stay_close():
    between = planted_unsure(received("chili", "stink"), chili=0.6, stink=0.3, coffee=0.1)  # 0.67 of the two
    assert between is not None and between.events[0]["bean"] == "chili" and not between.sure
    hand = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"})
    from_hand = planted_unsure(hand, chili=0.6, coffee=0.3, stink=0.05, soy=0.05)  # any bean may come from the hand
    assert from_hand is not None and from_hand.events[0]["bean"] == "chili" and not from_hand.sure
    other = planted_unsure(received("chili", "stink"), coffee=0.6, stink=0.38, chili=0.02)  # not one Ann received
    assert other is not None and other.events[0]["bean"] == "stink" and not other.sure  # the likelier of the two


def test_a_received_bean_named_surely_as_one_no_move_may_plant_is_proposed_as_the_bean_received_for_a_tap():
    """Ann received a chili from Ben and plants it into an empty field; the camera names it a red, surely, in every
    frame. She may plant only what she received, and no red: the chili's plant is proposed, waiting for a tap. With
    a stink received too, either may have been planted: one is proposed, the other offered as a one-tap correction."""
    planted = seen(ann=(("blue", 1), ("red", 1)))
    observation = settle(TableTracker(), received("chili"), planted)
    assert observation is not None and not observation.sure and observation.note == NAMED_OTHERWISE
    assert [(e["type"], e["bean"], e["source"]) for e in observation.events] == [("plant", "chili", "received")]
    either = settle(TableTracker(), received("chili", "stink"), planted)
    assert either is not None and not either.sure and len(either.events) == 1
    assert {either.events[0]["bean"], *(e["bean"] for e in either.alternatives[0])} == {"chili", "stink"}
    assert settle(TableTracker(), received("chili"), seen(ann=(("blue", 1), ("red", 2)))).note  # two cards laid


def test_a_plant_proposed_as_the_rules_allow_is_sure_once_later_frames_leave_the_card_unnamed():
    """As above, the chili's plant waits for a tap while the frames name the card a red; then the next frames of the
    same still period name it nothing, taking it for a chili: the chili received is the only bean Ann may plant, and
    the camera is now sure of the plant waiting, as it would have been had those frames come first."""
    state, tracker = received("chili"), TableTracker()
    proposed = settle(tracker, state, seen(ann=(("blue", 1), ("red", 1))))
    assert proposed is not None and not proposed.sure and proposed.note == NAMED_OTHERWISE
    waiting = list(proposed.events)
    unnamed = guessing(TableView(((ANN, ((None, 1), ("blue", 1))), (BEN, ()), (CID, ())), ()), ANN, ("chili", 1))
    later = [tracker.observe(unnamed, False, state, waiting) for _ in range(4)]
    assert [o for o in later if o is not None] == [Observation((), sure=False, sure_of_waiting=True)]
    first = settle(TableTracker(), state, unnamed)
    assert first is not None and first.sure and first.events == proposed.events


def test_a_plant_waiting_for_a_tap_offers_the_other_beans_the_rules_allow_likeliest_first():
    """The card laid is one of the chili and the stink Ann received, the chili at 0.67 of the two: the plant waits,
    offering the stink as a one-tap correction. From her hand any bean still unseen may come: the likeliest three of
    those the camera gave some belief are offered, and a coffee, which the Amigo deck lacks, is not."""
    between = planted_unsure(received("chili", "stink"), chili=0.6, stink=0.3, coffee=0.1)
    assert between is not None and not between.sure
    (offered,) = between.alternatives
    assert [(e["type"], e["bean"], e["source"]) for e in offered] == [("plant", "stink", "received")]
    hand = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"})
    from_hand = planted_unsure(hand, chili=0.5, coffee=0.2, stink=0.15, soy=0.1, red=0.04, green=0.01)
    assert from_hand is not None and from_hand.events[0]["bean"] == "chili"
    assert [e["bean"] for e in from_hand.alternatives[0]] == ["stink", "soy", "red"]


def test_a_turn_over_waiting_for_a_tap_offers_each_unsure_card_as_another_bean_it_may_be():
    """The soy might be a red (0.3) or a coffee (0.1, not in the Amigo deck); the chili is named surely."""
    state = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"})
    tracker = TableTracker()
    settle(tracker, state, seen(ann=(("blue", 1),)))
    view = dataclasses.replace(seen(ann=(("blue", 1),), face_up=("chili", "soy")), face_up_unsure=True,
                               face_up_likely=((("soy", 0.6), ("red", 0.3), ("coffee", 0.1)),))
    observation = settle(tracker, state, view)
    assert observation is not None and not observation.sure
    assert observation.events == ({"type": "turn-over", "player": ANN, "beans": ["chili", "soy"]},)
    assert observation.alternatives == (({"type": "turn-over", "player": ANN, "beans": ["chili", "red"]},),)


def test_a_turn_over_corrected_on_the_tablet_holds_back_no_harvest_elsewhere():
    """The camera took Ann's turned-over red for a soy, unsure of it, and the group corrected the turn-over to a chili
    and a red. The camera still takes that card for a soy, but a card it is unsure of is the game's: Ann's blue field
    harvested onto the pile is proposed, and sure. A card it names surely still tells the face-up area."""
    state = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"})
    turned = dataclasses.replace(seen(ann=(("blue", 1),), face_up=("chili", "soy")), face_up_unsure=True,
                                 face_up_likely=((("soy", 0.6), ("red", 0.3)),))
    harvested = dataclasses.replace(turned, fields=seen().fields, discard=("blue",))
    for camera_sure, proposed in ((False, [{"type": "harvest", "player": ANN, "field": 0}]), (True, [])):
        game, tracker = copy.deepcopy(state), TableTracker()
        taken = settle(tracker, game, dataclasses.replace(turned, face_up_unsure=not camera_sure))
        assert taken is not None and taken.events == ({"type": "turn-over", "player": ANN, "beans": ["chili", "soy"]},)
        play(game, {"type": "turn-over", "player": ANN, "beans": ["chili", "red"]})  # as corrected on the tablet
        assert settle(tracker, game, dataclasses.replace(turned, face_up_unsure=not camera_sure)) is None
        hand_passes(tracker, game)
        observation = settle(tracker, game, dataclasses.replace(harvested, face_up_unsure=not camera_sure))
        assert observation is not None and list(observation.events) == proposed
        assert observation.sure == bool(proposed)


def test_a_harvest_of_one_of_two_fields_of_a_bean_offers_nothing_else():
    like = play(table(), *[{"type": "plant", "player": ANN, "bean": "blue", "source": "hand", "field": field}
                           for field in (0, 1)])  # two blue fields of one
    tracker = TableTracker()
    settle(tracker, like, seen(ann=(("blue", 1), ("blue", 1))))
    either = settle(tracker, like, seen(ann=(("blue", 1),)))
    assert either is not None and [e["type"] for e in either.events] == ["harvest"]
    assert either.alternatives == ((),)  # the other blue field's harvest leaves the same table: nothing to offer


def test_what_the_rules_do_not_allow_is_said_and_proposed_only_as_they_allow_it():
    """A card named a chili, surely, laid on Ann's blue field: the rules allow only a blue there. The tablet says so,
    and proposes the blue's plant for a tap, the camera having perhaps misnamed it. No move explains five cards from
    nowhere, or two laid on her field, whatever they are."""
    state = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"})
    observation = settle(TableTracker(), state, seen(ann=(("chili", 2),)))
    assert observation is not None and not observation.sure and observation.note == NAMED_OTHERWISE
    assert observation.events == ({"type": "plant", "player": ANN, "bean": "blue", "source": "hand", "field": 0},)
    assert explain(state, seen(ann=(("soy", 5),))) is None
    refused = settle(TableTracker(), state, seen(ann=(("chili", 3),)))
    assert refused is not None and refused.events == () and "no move the rules allow" in (refused.note or "")


def test_a_misreading_while_the_table_lies_still_after_its_change_is_not_said():
    """Ann plants a second blue, proposed and confirmed. With no hand over the table since, three frames of four then
    count her field one card short: no move explains that, but nothing can have changed, so nothing is said. The two
    beans she turns over after a hand passes are proposed as usual."""
    blue = {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"}
    state, tracker = play(table(), blue), TableTracker()
    settle(tracker, state, seen(ann=(("blue", 1),)), 4)
    hand_passes(tracker, state)
    grown = settle(tracker, state, seen(ann=(("blue", 2),)))
    assert grown is not None and grown.events == ({**blue, "field": 0},)
    play(state, *grown.events)
    misread = seen(ann=(("blue", 1),))
    assert [tracker.observe(view, False, state) for view in (misread, misread, seen(ann=(("blue", 2),)), misread)
            ] == [None] * 4
    assert explain(state, misread) is None  # a field does not lose one card
    hand_passes(tracker, state)
    turned = settle(tracker, state, seen(ann=(("blue", 2),), face_up=("red", "soy")))
    assert turned is not None and turned.note is None
    assert turned.events[-1] == {"type": "turn-over", "player": ANN, "beans": ["red", "soy"]}


def test_a_seat_the_camera_does_not_see_is_not_compared():
    state = table()
    only_ann = TableView(((ANN, ()),), None)
    assert mismatch(TableView(((ANN, ()), (BEN, (("red", 3),))), ()), only_ann) == 0
    assert explain(state, only_ann) == []


def test_a_seat_out_of_sight_in_one_frame_neither_confirms_nor_contradicts_it():
    """A hand resting on Ben's marker hides his fields in one still frame: Ann's plant still settles."""
    steadiness = Steadiness(window=4, votes=3)
    before = seen(ben=(("soy", 1),))
    for _ in range(3):
        steadiness.feed(before, False)
    planted = seen(ann=(("blue", 1),), ben=(("soy", 1),))
    no_ben = TableView(((ANN, (("blue", 1),)), (CID, ())), ())
    answers = [steadiness.feed(view, False) for view in (planted, no_ben, planted)]
    assert answers == [None, None, planted]


def test_a_misread_of_an_unchanged_seat_does_not_hold_back_a_change_elsewhere():
    """Ben harvests his soy; one frame of the three reads Ann's unchanged blue field as two cards."""
    steadiness = Steadiness(window=4, votes=3)
    before = seen(ann=(("blue", 1),), ben=(("soy", 2),))
    for _ in range(3):
        steadiness.feed(before, False)
    harvested = seen(ann=(("blue", 1),))
    ann_misread = seen(ann=(("blue", 2),))
    answers = [steadiness.feed(view, False) for view in (harvested, ann_misread, harvested)]
    assert answers == [None, None, harvested]


def test_a_column_the_camera_has_lost_holds_back_no_change_elsewhere():
    """Ben's blue field of one lies where the camera never finds it; the rules allow no harvest of it while his soy
    field holds two, so nothing explains his seat. Ann's plant is still proposed, and Ben's seat is left as the game
    has it."""
    state = play(table(), {"type": "plant", "player": ANN, "bean": "red", "source": "hand"})
    state.players[BEN].fields[0].cards = ["soy", "soy"]  # scenario set-up: how they came there does not matter here
    state.players[BEN].fields[1].cards = ["blue"]
    tracker = TableTracker()
    lost = settle(tracker, state, seen(ann=(("red", 1),), ben=(("soy", 2),)))
    assert lost is not None and lost.events == () and lost.note  # said once, as before
    observation = settle(tracker, state, seen(ann=(("red", 2),), ben=(("soy", 2),)))
    assert observation is not None and observation.note is None
    assert observation.events == ({"type": "plant", "player": ANN, "bean": "red", "source": "hand", "field": 0},)
    assert observation.sure
    assert settle(tracker, state, seen(ann=(("red", 2),), ben=(("soy", 2),)), 4) is None  # proposed once


def test_a_change_most_frames_misread_is_proposed_as_the_frame_that_read_it_right_saw_it():
    """Ann plants the face-up soy in her second field; three still frames of four read her blue field of two as one
    card, so no move explains what the table settled on. The frame that counted it right is explained by the plant:
    it is proposed, for a tap (most frames belie it)."""
    state = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"},
                 {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"},
                 {"type": "turn-over", "player": ANN, "beans": ["soy", "red"]},
                 {"type": "end-trading", "player": ANN})
    tracker = TableTracker()
    assert settle(tracker, state, seen(ann=(("blue", 2),), face_up=("red", "soy")), 4) is None
    misread = seen(ann=(("blue", 1), ("soy", 1)), face_up=("red",))
    right = seen(ann=(("blue", 2), ("soy", 1)), face_up=("red",))
    hand_passes(tracker, state)
    answers = [tracker.observe(view, False, state) for view in (misread, right, misread, misread)]
    assert answers[:3] == [None, None, None]
    plant = {"type": "plant", "player": ANN, "bean": "soy", "source": "face-up", "field": 1}
    assert answers[3] == Observation((plant,), sure=False)


def test_a_change_beside_a_column_every_frame_counts_one_short_is_proposed_as_the_games_field_explains_it():
    """Ann plants the face-up soy in her second field; every still frame reads her blue field of two as one card (its
    covered card's band too thin), so neither the table nor any frame is explained. Told as the game's field, one card
    longer (as a blue, or a column whose bean the camera was unsure of), it is explained by the plant: proposed, for a
    tap. A red column of one is not her blue field counted short: the tablet says no move explains it."""
    state = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"},
                 {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"},
                 {"type": "turn-over", "player": ANN, "beans": ["soy", "red"]},
                 {"type": "end-trading", "player": ANN})
    plant = {"type": "plant", "player": ANN, "bean": "soy", "source": "face-up", "field": 1}
    for blue, proposed in (("blue", (plant,)), (None, (plant,)), ("red", ())):
        tracker = TableTracker()
        settle(tracker, state, seen(ann=(("blue", 2),), face_up=("red", "soy")), 4)
        hand_passes(tracker, state)
        short = TableView(((ANN, sorted_columns([(blue, 1), ("soy", 1)])), (BEN, ()), (CID, ())), ("red",))
        observation = settle(tracker, state, short)
        assert observation is not None and observation.events == proposed and not observation.sure
        assert bool(observation.note) == (not proposed)  # a red field of one is not the blue one counted short


def test_cards_gone_are_never_explained_by_setting_a_part_aside():
    """A hand rests over Ann's blue field and the face-up chili and soy: both look empty. Setting the face-up area
    aside would explain Ann's field as harvested; a hand hides as much, so nothing is proposed."""
    state = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"},
                 {"type": "turn-over", "player": ANN, "beans": ["chili", "soy"]})
    observation = settle(TableTracker(), state, seen(face_up=()))
    assert observation is not None and observation.events == () and observation.note


@pytest.mark.parametrize("pile, face_up", [(("black-eyed",), ()), ((), ("chili",))], ids=["pile", "face-up"])
def test_a_new_game_beside_another_games_cards_gets_no_moves_pushed(pile, face_up):
    """A game is started while the table still shows another game's: Ann's blue and chili fields, and a black-eyed on
    the discard pile (or a chili face up). Ann may plant the blue and the chili from her hand, but nothing put a card
    on the new game's pile or face up: those cards were laid, not misread, so they are not set aside to explain the
    rest by two plants, and the tablet says that no move explains the table."""
    observation = settle(TableTracker(), table(), piled(seen(ann=(("blue", 1), ("chili", 1)), face_up=face_up), pile))
    assert observation is not None and observation.events == () and observation.note
    assert not observation.sure


def test_a_part_that_changed_settles_only_on_enough_agreeing_frames():
    steadiness = Steadiness(window=4, votes=3)
    for _ in range(3):
        steadiness.feed(seen(), False)
    planted, misread = seen(ann=(("blue", 1),)), seen(ann=(("blue", 2),))
    answers = [steadiness.feed(view, False) for view in (planted, misread, planted, misread)]
    assert answers == [None, None, None, None]  # two against two: nothing settles


def test_changes_of_two_parts_settle_together():
    """A face-up bean planted: the face-up area and the field change in one settled view, never one at a time. While
    half the frames still show Ann's fields as they were, they are held so, and the face-up area's change alone, which
    no move explains, is neither proposed nor taken as settled."""
    state = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"},
                 {"type": "turn-over", "player": ANN, "beans": ["chili", "soy"]})
    tracker = TableTracker()
    before = seen(ann=(("blue", 1),), face_up=("chili", "soy"))
    assert settle(tracker, state, before, 4) is None
    after = seen(ann=(("blue", 1), ("chili", 1)), face_up=("soy",))
    field_late = seen(ann=(("blue", 1),), face_up=("soy",))
    answers = [tracker.observe(view, False, state) for view in (after, field_late, after, after)]
    assert answers[:3] == [None, None, None] and answers[3] is not None
    assert [(e["type"], e.get("bean")) for e in answers[3].events] == [("end-trading", None), ("plant", "chili")]
    steadiness = Steadiness(window=4, votes=3)
    for view in (before, before, before, after, field_late):
        steadiness.feed(view, False)
    held = steadiness.feed(after, False)
    assert held == field_late and held is not None and held.held == {ANN}
    assert steadiness.told[FACE_UP] == ("chili", "soy")  # taken as settled only once the tracker explains it


def test_while_a_part_is_held_cards_gone_wait_for_it_to_settle():
    """The face-up red is missed in every other frame while Ann's soy field goes to the pile: held as it was, the
    face-up area may be misread, and so may the rest (two cards read as one column look harvested), so the harvest waits
    until three frames agree on the face-up area too."""
    state = play(two_lone_beans(), {"type": "turn-over", "player": ANN, "beans": ["chili", "red"]})
    tracker = TableTracker()
    assert settle(tracker, state, piled(seen(ann=(("blue", 1), ("soy", 1)), face_up=("chili", "red")), ()), 4) is None
    harvested = piled(seen(ann=(("blue", 1),), face_up=("chili", "red")), ("soy",))
    misread = piled(seen(ann=(("blue", 1),), face_up=("chili",)), ("soy",))
    answers = [tracker.observe(view, False, state) for view in (misread, harvested, misread, harvested, harvested)]
    assert answers[:4] == [None] * 4
    assert answers[4] == Observation(({"type": "harvest", "player": ANN, "field": 1},), sure=True)


def test_a_held_view_that_no_move_explains_is_searched_once_while_the_frames_stay_split(monkeypatch):
    state = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"},
                 {"type": "turn-over", "player": ANN, "beans": ["chili", "soy"]})
    tracker = TableTracker()
    settle(tracker, state, seen(ann=(("blue", 1),), face_up=("chili", "soy")), 4)
    searched = []
    monkeypatch.setattr(table_module, "explained", lambda *args: searched.append(args) or explained(*args))
    after = seen(ann=(("blue", 1), ("chili", 1)), face_up=("soy",))
    field_late = seen(ann=(("blue", 1),), face_up=("soy",))
    answers = [tracker.observe(view, False, state) for view in (after, field_late, after, field_late, after)]
    assert answers == [None] * 5 and len(searched) == 1


def test_a_column_read_otherwise_in_half_the_frames_holds_back_no_change_elsewhere():
    """Ann's soy field of one card is read as two in every other frame while she turns over a chili and a red: held as
    it was, it no longer keeps the turn-over from being proposed."""
    state, tracker = two_lone_beans(), TableTracker()
    assert settle(tracker, state, seen(ann=(("blue", 1), ("soy", 1))), 4) is None
    turned = seen(ann=(("blue", 1), ("soy", 1)), face_up=("chili", "red"))
    misread = seen(ann=(("blue", 1), ("soy", 2)), face_up=("chili", "red"))
    answers = [tracker.observe(view, False, state) for view in (misread, turned, misread)]
    assert answers[:2] == [None, None] and answers[2] is not None
    assert answers[2].events == ({"type": "turn-over", "player": ANN, "beans": ["chili", "red"]},)
    assert tracker.steadiness.told[FACE_UP] == ("chili", "red") and tracker.steadiness.told[ANN] == turned.fields[0][1]


def test_a_frame_unsure_of_a_bean_agrees_with_the_frames_that_name_it():
    """Ben plants a chili; one frame of three names it with too little confidence (its bean left open)."""
    steadiness = Steadiness(window=4, votes=3)
    for _ in range(3):
        steadiness.feed(seen(), False)
    named, unsure = seen(ben=(("chili", 1),)), seen(ben=((None, 1),))
    answers = [steadiness.feed(view, False) for view in (named, unsure, named)]
    assert answers == [None, None, named]
    assert steadiness.feed(seen(ben=(("chili", 2),)), False) is None  # a count no frame agrees with stays out


def test_frames_each_naming_another_column_of_a_seat_agree():
    """Cid's garden of one and red of two: some frames name the red and are unsure of the garden, the others name the
    garden and are unsure of the red. No frame contradicts another, so the seat settles."""
    steadiness = Steadiness(window=4, votes=3)
    for _ in range(3):
        steadiness.feed(seen(), False)
    def cid_reads(*columns: tuple[str | None, int]) -> TableView:  # columns in the view's order, open ones first
        return TableView(((ANN, ()), (BEN, ()), (CID, columns)), ())

    red_named, garden_named = cid_reads((None, 1), ("red", 2)), cid_reads((None, 2), ("garden", 1))
    answers = [steadiness.feed(view, False) for view in (red_named, garden_named, red_named, garden_named)]
    assert answers[:2] == [None, None] and answers[2] in (red_named, garden_named)
    soy_named = cid_reads((None, 1), ("soy", 2))
    other = Steadiness(window=4, votes=3)
    assert [other.feed(view, False) for view in (red_named, soy_named, red_named, soy_named)] == [None] * 4


def test_a_frame_unsure_of_the_piles_top_card_agrees_with_the_frames_that_name_it():
    """A red lands on the pile: two still frames name it, the other two are unsure of it (a group's own deck)."""
    steadiness = Steadiness(window=4, votes=3)
    for _ in range(3):
        steadiness.feed(piled(seen(), ()), False)
    place = (850.0, 200.0, 90.0)
    named, unsure = piled(seen(), ("red",)), unsure_pile(seen(), "red", place)
    answers = [steadiness.feed(view, False) for view in (named, unsure, named)]
    assert answers == [None, None, named]
    emptied = Steadiness(window=4, votes=3)
    for _ in range(3):
        emptied.feed(named, False)
    assert [emptied.feed(view, False) for view in (piled(seen(), ()), unsure, unsure)] == [None] * 3  # not empty


def test_the_guesses_are_those_most_still_frames_made_not_the_last_frames():
    """Ann plants a card the camera is unsure of: two frames take it for a blue, the last for a soy; the pile's
    unsure top card is taken for a soy by two frames and for a red by the last."""
    steadiness = Steadiness(window=4, votes=3)
    for _ in range(3):
        steadiness.feed(seen(), False)
    place = (850.0, 200.0, 90.0)
    frames = [dataclasses.replace(seen(ann=((None, 1),)), guesses=((ANN, ((bean, 1),)),), pile_top=place,
                                  pile_guess=(top,))
              for bean, top in (("blue", "soy"), ("blue", "soy"), ("soy", "red"))]
    answers = [steadiness.feed(view, False) for view in frames]
    assert answers[:2] == [None, None] and answers[2] == seen(ann=((None, 1),))
    assert answers[2].guesses == ((ANN, (("blue", 1),)),) and answers[2].pile_guess == ("soy",)


@pytest.mark.parametrize(("unsure_frames", "unsure"), [((True, True, False), True), ((False, True, False), False)])
def test_the_face_up_area_is_unsure_where_most_still_frames_named_a_card_in_it_unsurely(unsure_frames, unsure):
    steadiness = Steadiness(window=4, votes=3)
    for _ in range(3):
        steadiness.feed(seen(), False)
    turned = seen(face_up=("chili", "soy"))
    answers = [steadiness.feed(dataclasses.replace(turned, face_up_unsure=frame), False) for frame in unsure_frames]
    assert answers[2] == turned and answers[2].face_up_unsure == unsure


def test_of_guesses_made_as_often_the_latest_counts():
    steadiness = Steadiness(window=4, votes=3)
    for _ in range(3):
        steadiness.feed(seen(), False)
    unsure = seen(ann=((None, 1),))
    frames = [dataclasses.replace(unsure, guesses=((ANN, ((bean, 1),)),)) for bean in ("blue", "soy")]
    named = [steadiness.feed(view, False) for view in (*frames, unsure)]  # the last frame guessed nothing
    assert named[2] is not None and named[2].guesses == ((ANN, (("soy", 1),)),)


def test_two_like_beans_planted_from_the_hand_at_once_are_both_proposed():
    """Ann's two first cards are blues: she lays both on one field before the camera sees the table still."""
    state = table()
    observation = settle(TableTracker(), state, seen(ann=(("blue", 2),)))
    assert observation is not None
    plant = {"type": "plant", "player": ANN, "bean": "blue", "source": "hand", "field": 0}
    assert observation.events == (plant, plant)
    assert explain(table(), seen(ann=(("blue", 3),))) is None  # a third card from the hand: the rules refuse it


def test_cards_apart_count_each_column_against_its_beans_nearest():
    assert cards_differing((("blue", 1),), (("blue", 3),)) == 2
    assert cards_differing((("blue", 1), ("soy", 4)), (("soy", 5),)) == 2  # one soy more, the blue field gone
    assert cards_differing((("blue", 2),), ((None, 2),)) == 0
    assert distance(seen(ann=(("blue", 1),)), seen(ann=(("blue", 2),))) == (1, 1)


def piled(view: TableView, top: tuple[str, ...] | None) -> TableView:
    """``view`` with the discard pile's top as the camera reads it (``()``: an empty pile)."""
    return TableView(view.fields, view.face_up, top)


def test_a_harvest_whose_beans_are_seen_on_the_discard_pile_is_sure():
    state = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"},
                 {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"})
    observation = settle(TableTracker(), state, piled(seen(), ("blue",)))
    assert observation == Observation(({"type": "harvest", "player": ANN, "field": 0},), sure=True)


def test_a_hand_resting_on_a_field_lays_nothing_on_the_pile_so_no_harvest_is_proposed():
    state = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"},
                 {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"})
    observation = settle(TableTracker(), state, piled(seen(), ()))  # Ann's field hidden, the pile still empty
    assert observation is not None and observation.events == ()
    assert "no move the rules allow" in (observation.note or "")
    assert settle(TableTracker(), state, piled(seen(ann=(("blue", 2),)), ())) is None  # the hand gone: all agrees


def test_a_magpie_laid_on_the_pile_tells_nothing_of_a_harvest_before_it():
    """Ann's lone blue is missed (a hand, a misread) as she plays a magpie onto the pile: a harvest of her blue and
    the magpie explain the table, but the magpie hides whatever the harvest laid there, so it waits for a tap. A
    blue seen on top is the harvest's own."""
    state = play(GameState(Setup("amigo-25", ("Ann", "Ben", "Cid"), options={"modules": ["magpie"]})),
                 {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"})
    magpie = settle(TableTracker(), state, piled(seen(), ("magpie",)))
    assert magpie is not None and not magpie.sure
    assert magpie.events == ({"type": "harvest", "player": ANN, "field": 0}, {"type": "play-magpie", "player": ANN})
    assert settle(TableTracker(), state, piled(seen(), ("blue",))) == Observation(
        ({"type": "harvest", "player": ANN, "field": 0},), sure=True)


def test_a_pile_already_topped_with_the_harvested_bean_tells_nothing_new():
    state = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"},
                 {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"},
                 {"type": "harvest", "player": ANN, "field": 0})
    assert not discarded(state, piled(seen(), ("blue",)), state)  # the same top as before
    assert not discarded(state, seen(), state)  # no pile in sight
    assert discarded(state, piled(seen(), ("soy",)), state)


def harvested_blue_twice() -> GameState:
    """Ann planted a blue in each of two fields and harvested the first onto the pile: a blue tops it."""
    return play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand", "field": 0},
                {"type": "plant", "player": ANN, "bean": "blue", "source": "hand", "field": 1},
                {"type": "harvest", "player": ANN, "field": 0})


def test_a_harvest_of_the_bean_already_on_top_of_the_pile_is_sure_once_a_card_is_seen_to_land():
    """The pile's top tells no new bean, but its top card lies elsewhere now: cards landed on it."""
    state, tracker = harvested_blue_twice(), TableTracker()
    before = TableView(seen(ann=(("blue", 1),)).fields, (), ("blue",), pile_top=(850.0, 200.0, 90.0))
    assert settle(tracker, state, before, 4) is None  # the table as the game has it
    after = TableView(seen().fields, (), ("blue",), pile_top=(857.0, 195.0, 96.0))
    harvest = {"type": "harvest", "player": ANN, "field": 1}
    assert settle(tracker, state, after) == Observation((harvest,), sure=True)


def test_a_pile_whose_top_card_lies_where_it_lay_took_nothing():
    """A hand resting on Ann's field hides it as a harvest would; the pile's top card has not moved: it waits for a
    tap, as does a harvest where the pile is not seen at all."""
    state, tracker = harvested_blue_twice(), TableTracker()
    here = (850.0, 200.0, 90.0)
    settle(tracker, state, TableView(seen(ann=(("blue", 1),)).fields, (), ("blue",), pile_top=here), 4)
    observation = settle(tracker, state, TableView(seen().fields, (), ("blue",), pile_top=(850.6, 200.4, 90.5)))
    assert observation is not None and not observation.sure
    unseen = TableTracker()
    settle(unseen, state, TableView(seen(ann=(("blue", 1),)).fields, (), ("blue",)), 4)
    observation = settle(unseen, state, TableView(seen().fields, (), ("blue",), pile_top=here))
    assert observation is not None and not observation.sure  # no earlier sighting to compare with


def test_a_card_has_landed_where_the_top_card_lies_elsewhere_or_turned():
    card = np.array([[0, 0], [56, 0], [56, 87], [0, 87]], np.float64)
    here = place_of(card)
    assert here == pytest.approx((28.0, 43.5, 90.0))
    assert place_of(np.roll(card, 2, axis=0)) == pytest.approx(here)  # read the other way up: the same place
    assert not landed(here, place_of(card + 1))  # a pixel off: the same card read again
    assert landed(here, place_of(card + [9, 0]))
    turn = np.deg2rad(12)
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    centre = card.mean(axis=0)
    assert landed(here, place_of((card - centre) @ rotation.T + centre))
    assert not landed(None, here) and not landed(here, None)


def test_the_view_tells_where_the_piles_top_card_lies():
    corners = np.array([[840, 160], [896, 160], [896, 247], [840, 247]], np.float32)
    card = SeenCard(corners, "blue", 0.99)
    scene = Scene((card,), (Stack("blue", 1, corners, card, "discard"),), ("discard",))
    view = view_of(scene, (), 0.9)
    assert view.discard == ("blue",) and view.pile_top == pytest.approx(place_of(corners))
    unsure = SeenCard(corners, "blue", 0.5)
    scene = Scene((unsure,), (Stack("blue", 1, corners, unsure, "discard"),), ("discard",))
    view = view_of(scene, (), 0.9)
    assert view.discard is None and view.pile_guess == ("blue",)  # the pile untold: its top only a guess
    assert view.pile_top == pytest.approx(place_of(corners))  # but a card is seen to lie there


def test_a_pile_topped_by_a_card_named_nothing_is_untold_not_empty():
    """Far off at a slant, the card just harvested onto the pile names nothing: the pile is untold (a card lies there,
    and it agrees with any top in the votes), guessed the bean the card came nearest; one that came nearest a card
    back leaves the pile untold with no guess. Read as an empty pile, it would hold the harvest back half the time."""
    corners = np.array([[840, 160], [896, 160], [896, 247], [840, 247]], np.float32)

    def pile(*likely: tuple[str, float]) -> TableView:
        top = SeenCard(corners, "unknown", 0.4, likely)
        return view_of(Scene((top,), (), ("discard",), (Stack("unknown", 1, corners, top, "discard"),)), (), SURE)

    near = pile(("soy", 0.7), ("wax", 0.2))
    assert near.discard is None and near.pile_guess == ("soy",) and near.pile_unnamed
    assert near.pile_top == pytest.approx(place_of(corners))
    back = pile(("back", 0.8), ("soy", 0.2))
    assert back.discard is None and back.pile_guess is None and back.pile_unnamed
    assert view_of(Scene((), (), ("discard",)), (), SURE).discard == ()  # nothing there: empty


def test_the_discard_pile_is_compared_only_where_the_camera_sees_it():
    game = piled(seen(ann=(("blue", 1),)), ("soy",))
    assert mismatch(game, piled(seen(ann=(("blue", 1),)), ("red",))) == 1
    assert mismatch(game, piled(seen(ann=(("blue", 1),)), ())) == 1
    assert mismatch(game, seen(ann=(("blue", 1),))) == 0


def test_a_pile_the_game_has_cards_on_and_the_camera_sees_empty_is_untold():
    """Ann harvested her lone blue: the game's pile holds it. Far off at a slant the camera finds no card in the discard
    zone: it lost the pile's top card (only a reshuffle, which the game knows of, empties the pile), so the pile is
    untold, not empty. Before any harvest, an empty discard zone is an empty pile."""
    harvested = play(two_lone_beans(), {"type": "harvest", "player": ANN, "field": 0})
    assert harvested.discard
    nothing = Scene((), (), ("fields-0", "discard"))
    assert view_in_game(nothing, harvested, SURE).discard is None
    assert view_in_game(nothing, two_lone_beans(), SURE).discard == ()


def test_the_pile_is_its_top_card_when_the_camera_is_sure_of_it():
    assert top_of_pile([]) == ()
    assert top_of_pile([("soy", True)]) == ("soy",)
    assert top_of_pile([("soy", False)]) is None  # a top card named unsure: the pile is not told
    assert top_of_pile([("soy", True), ("red", True)]) is None  # two beans lying there: which is on top?


def two_lone_beans() -> GameState:
    """Ann has planted a blue (field 0) and a soy (field 1) from her hand."""
    return play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"},
                {"type": "plant", "player": ANN, "bean": "soy", "source": "hand"})


def test_a_change_is_explained_against_the_proposals_waiting_on_the_tablet():
    """Ann harvests her blue; its proposal waits for a tap. Then a hand rests on her soy: the blue still tops the pile,
    so no harvest of the soy explains the table (it would top the pile with soy). Before, harvesting the soy and
    then the blue explained it, and the soy was proposed beside the blue still waiting."""
    state, tracker = two_lone_beans(), TableTracker()
    harvest_blue = {"type": "harvest", "player": ANN, "field": 0}
    settle(tracker, state, piled(seen(ann=(("blue", 1), ("soy", 1))), ()), 4)
    observation = settle(tracker, state, piled(seen(ann=(("soy", 1),)), ("blue",)))
    assert observation == Observation((harvest_blue,), sure=True)
    waiting = list(observation.events)
    hand_passes(tracker, state, tuple(waiting))
    hidden = [tracker.observe(piled(seen(), ("blue",)), False, state, waiting) for _ in range(3)]
    assert hidden[-1] is not None and hidden[-1].events == () and "no move the rules allow" in (hidden[-1].note or "")
    assert explain(state, piled(seen(), ("blue",))) == [move_from_dict({"type": "harvest", "player": ANN,
                                                                         "field": 1}), move_from_dict(harvest_blue)]
    back = [tracker.observe(piled(seen(ann=(("soy", 1),)), ("blue",)), False, state, waiting) for _ in range(3)]
    assert back[-1] == Observation((), sure=False, sure_of_waiting=True) and tracker.agrees  # the hand gone: the
    # blue, still waiting, is not proposed again; the camera, sure of it, says so


def test_a_waiting_proposal_the_game_no_longer_allows_is_left_out_with_those_after_it():
    state = two_lone_beans()
    harvest_blue = {"type": "harvest", "player": ANN, "field": 0}
    harvest_soy = {"type": "harvest", "player": ANN, "field": 1}
    assert believed(state, []) is state
    both = believed(state, [harvest_blue, harvest_soy])
    assert [f.count for f in both.players[ANN].fields] == [0, 0, 0] and both.discard == ["blue", "soy"]
    assert [f.count for f in state.players[ANN].fields] == [1, 1, 0]  # the game itself is untouched
    play(state, harvest_blue)  # confirmed meanwhile: its proposal, still listed, no longer applies
    kept = believed(state, [harvest_blue, harvest_soy])
    assert [f.count for f in kept.players[ANN].fields] == [0, 1, 0]


def test_what_presupposes_a_proposal_still_waiting_is_not_sure():
    """Ann's blue harvest waits for a tap (no pile in sight); she plants her soy in the field it emptied. The plant is
    proposed, but not sure: the game cannot take it before the harvest, so auto-accept must not push it. (The game's
    own explanation plants the soy in her free field 1 and then harvests: a plant matches whichever its field.)"""
    state, tracker = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"}), TableTracker()
    settle(tracker, state, seen(ann=(("blue", 1),)), 4)
    harvest = settle(tracker, state, seen())
    assert harvest is not None and harvest.events == ({"type": "harvest", "player": ANN, "field": 0},)
    waiting = list(harvest.events)
    answers = [tracker.observe(seen(ann=(("soy", 1),)), False, state, waiting) for _ in range(3)]
    plant = {"type": "plant", "player": ANN, "bean": "soy", "source": "hand", "field": 0}
    assert answers[-1] == Observation((plant,), sure=False, sure_after_waiting=True)  # once the harvest is confirmed
    assert TableTracker().observe(seen(ann=(("blue", 1), ("soy", 1))), False, state) is None
    alone = settle(TableTracker(), state, seen(ann=(("blue", 1), ("soy", 1))))
    assert alone == Observation(({**plant, "field": 1},), sure=True)  # nothing waiting: the same plant is sure


def test_a_plant_beside_a_proposal_still_waiting_at_that_seat_waits_for_it():
    """Ann's first bean, planted into an empty field, was proposed as the chili the camera took it for, unsure; it
    waits. Her second, a soy the camera names surely, is explained with the chili made, so it goes in only once the
    chili is confirmed as it is: were the first card a blue, the soy would rest on a wrong guess."""
    state, tracker = table(), TableTracker()
    settle(tracker, state, seen(), 4)
    one = guessing(TableView(seen(ann=((None, 1),)).fields, ()), ANN, ("chili", 1))
    first = settle(tracker, state, one)
    chili = {"type": "plant", "player": ANN, "bean": "chili", "source": "hand", "field": 0}
    assert first == Observation((chili,), sure=False)
    two = guessing(TableView(((ANN, ((None, 1), ("soy", 1))), (BEN, ()), (CID, ())), ()), ANN, ("chili", 1))
    answers = [tracker.observe(two, False, state, [chili]) for _ in range(3)]
    soy = {"type": "plant", "player": ANN, "bean": "soy", "source": "hand", "field": 1}
    assert answers[-1] == Observation((soy,), sure=False, sure_after_waiting=True)


def unsure_pile(view: TableView, guess: str, place: Place) -> TableView:
    """``view`` with the discard pile's top card where it lies, taken for ``guess`` by a camera unsure of it."""
    return TableView(view.fields, view.face_up, None, pile_top=place, pile_guess=(guess,))


def test_a_harvest_onto_a_pile_the_camera_is_unsure_of_is_sure_once_a_card_lands_that_it_takes_for_the_bean():
    """A group's own deck is named less surely than the house deck: the pile's top card is only a guess. A card seen
    to land there, taken for the harvested bean, still tells that the pile took the field's beans."""
    state, tracker = harvested_blue_twice(), TableTracker()
    settle(tracker, state, unsure_pile(seen(ann=(("blue", 1),)), "blue", (850.0, 200.0, 90.0)), 4)
    observation = settle(tracker, state, unsure_pile(seen(), "blue", (857.0, 195.0, 96.0)))
    assert observation == Observation(({"type": "harvest", "player": ANN, "field": 1},), sure=True)


def test_an_unsure_pile_tells_no_harvest_where_no_card_landed_or_the_card_was_taken_for_another_bean():
    state = harvested_blue_twice()
    for guess, place in (("blue", (850.6, 200.4, 90.5)), ("soy", (857.0, 195.0, 96.0))):
        tracker = TableTracker()
        settle(tracker, state, unsure_pile(seen(ann=(("blue", 1),)), "blue", (850.0, 200.0, 90.0)), 4)
        observation = settle(tracker, state, unsure_pile(seen(), guess, place))
        assert observation is not None and observation.events and not observation.sure


def test_a_card_laid_on_a_field_the_camera_is_unsure_of_is_sure_when_the_rules_leave_one_bean_and_it_guessed_it():
    """Ann's field holds a blue: a second card laid on it can only be a blue; the camera, unsure, took it for one."""
    state = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"})
    observation = settle(TableTracker(), state, TableView(seen(ann=((None, 2),)).fields, (),
                                                          guesses=((ANN, (("blue", 2),)),)))
    assert observation == Observation(({"type": "plant", "player": ANN, "bean": "blue", "source": "hand",
                                        "field": 0},), sure=True)


def test_what_the_camera_is_unsure_of_at_a_seat_no_explanation_changes_does_not_hold_a_change_back():
    """Ann lays a second blue on her blue field; Ben's soy, unchanged, the camera took for a chili, or named nothing:
    Ben's field is as the game has it whatever the camera took it for."""
    state = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"})
    state.players[BEN].fields[0].cards = ["soy"]  # scenario set-up: how it came there does not matter here
    fields = seen(ann=((None, 2),), ben=((None, 1),)).fields
    for ben_guessed in ((("chili", 1),), ()):
        guesses = ((ANN, (("blue", 2),)), (BEN, ben_guessed)) if ben_guessed else ((ANN, (("blue", 2),)),)
        observation = settle(TableTracker(), state, TableView(fields, (), guesses=guesses))
        assert observation is not None and observation.sure
        assert [e["bean"] for e in observation.events] == ["blue"]


def test_an_unsure_card_the_rules_leave_open_or_the_camera_took_for_another_bean_waits_for_a_tap():
    state = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand"})
    fields = ((ANN, ((None, 1), ("blue", 1))), (BEN, ()), (CID, ()))
    open_field = TableView(fields, (), guesses=((ANN, (("chili", 1),)),))
    observation = settle(TableTracker(), state, open_field)  # any bean may go into the empty field
    assert observation is not None and observation.events[0]["bean"] == "chili" and not observation.sure
    other = TableView(seen(ann=((None, 2),)).fields, (), guesses=((ANN, (("soy", 2),)),))
    observation = settle(TableTracker(), state, other)  # the rules say blue, the camera took it for a soy
    assert observation is not None and observation.events[0]["bean"] == "blue" and not observation.sure


def test_which_of_two_like_fields_was_harvested_onto_an_empty_pile_matters_not_so_an_unsure_harvest_is_sure():
    """Ann's two fields hold a blue each; one is harvested onto the empty pile. The camera is unsure of the blue left
    and of the pile's new top card, and took both for blues: either field's harvest leaves that table."""
    state = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand", "field": 0},
                 {"type": "plant", "player": ANN, "bean": "blue", "source": "hand", "field": 1})
    tracker = TableTracker()
    before = TableView(seen(ann=(("blue", 1), ("blue", 1))).fields, (), ())
    assert settle(tracker, state, before, 4) is None  # the table as the game has it, the pile empty
    tracker.observe(before, True, state)  # a hand harvests
    fields = ((ANN, ((None, 1),)), (BEN, ()), (CID, ()))
    after = TableView(fields, (), None, pile_top=(850.0, 200.0, 90.0), guesses=((ANN, (("blue", 1),)),),
                      pile_guess=("blue",))
    observation = settle(tracker, state, after)
    assert observation is not None and observation.sure
    assert [(e["type"], e["player"]) for e in observation.events] == [("harvest", ANN)]


def test_the_bean_the_camera_took_the_piles_new_top_card_for_tells_which_field_was_harvested():
    """Ann's fields hold a blue and a chili; one is gone, and the camera named the card left no bean at all. It took
    the card now topping the pile for a chili: the chili field was harvested."""
    state = play(table(), {"type": "plant", "player": ANN, "bean": "blue", "source": "hand", "field": 0},
                 {"type": "plant", "player": ANN, "bean": "chili", "source": "hand", "field": 1})
    fields = ((ANN, ((None, 1),)), (BEN, ()), (CID, ()))
    for guess, field in (("chili", 1), ("blue", 0)):
        view = TableView(fields, (), None, pile_guess=(guess,))
        assert explain(state, view) == [move_from_dict({"type": "harvest", "player": ANN, "field": field})]


def test_a_card_laid_on_one_of_like_fields_is_sure_where_the_guesses_of_the_others_tell_which():
    """Ann's three fields hold a chili, a green and a soy, one card each; a card is laid on one. The camera is unsure of
    all three columns: it took the column of two for greens and the others for the game's chili and soy, so the card is
    a green (a chili or a soy would belie two guesses). Where it took one of the others for another bean than the
    game's, its guesses are not all borne out, and the plant waits for a tap."""
    state = table()
    for field, bean in zip(state.players[ANN].fields, ("chili", "green", "soy")):
        field.cards = [bean]  # scenario set-up: how they came there does not matter here
    fields = seen(ann=((None, 1), (None, 1), (None, 2))).fields
    told = TableView(fields, (), guesses=((ANN, (("chili", 1), ("green", 2), ("soy", 1))),))
    observation = settle(TableTracker(), state, told)
    assert observation == Observation(({"type": "plant", "player": ANN, "bean": "green", "source": "hand",
                                        "field": 1},), sure=True)
    belied = TableView(fields, (), guesses=((ANN, (("chili", 1), ("green", 2), ("red", 1))),))
    observation = settle(TableTracker(), state, belied)
    assert observation is not None and observation.events[0]["bean"] == "green" and not observation.sure


def test_a_bean_planted_into_an_empty_field_rests_on_one_guess_and_waits_for_a_tap():
    """Ann's fields hold a chili and a green, and she plants a bean into her empty third field; the camera took the
    columns for the chili, the green and a soy: only the new column's guess tells the soy."""
    state = table()
    for field, bean in zip(state.players[ANN].fields, ("chili", "green")):
        field.cards = [bean]  # scenario set-up: how they came there does not matter here
    fields = seen(ann=((None, 1), (None, 1), (None, 1))).fields
    told = TableView(fields, (), guesses=((ANN, (("chili", 1), ("green", 1), ("soy", 1))),))
    observation = settle(TableTracker(), state, told)
    assert observation is not None and observation.events[0]["bean"] == "soy" and not observation.sure


BEANS = ("chili", "stink", "green", "soy", "black-eyed", "red")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(BEANS), min_size=1, max_size=3),
       st.lists(st.floats(0.0, 1.0), min_size=len(BEANS), max_size=len(BEANS)).filter(lambda w: sum(w) > 0.1))
def test_a_received_bean_planted_into_an_empty_field_is_sure_exactly_where_it_holds_the_most_of_those_received(
        beans: list[str], weights: list[float]):
    """Whatever Ann received and however the camera spread its belief: the plant is sure where the camera's first
    bean is one she received and holds at least 0.9 of what the camera gave the beans she received."""
    total = sum(weights)
    odds = {bean: round(weight / total, 4) for bean, weight in zip(BEANS, weights) if weight / total >= LIKELY_LEAST}
    first = max(odds, key=lambda bean: odds[bean])
    observation = planted_unsure(received(*beans), **odds)
    assert observation is not None and observation.events[0]["source"] == "received"
    share = odds.get(first, 0) / sum(odds.get(bean, LIKELY_LEAST) for bean in set(beans))
    assert observation.sure == (first in beans and share >= SURE)


def test_a_field_the_group_turned_down_is_proposed_again_only_for_a_tap():
    """Ann's lone red card is misread as two in every frame: the camera proposes a second red, sure, and the group
    dismisses it. When she then turns over two beans, the camera, still reading two reds, proposes the plant again
    with the turn-over, but for a tap: auto-accept would push it each time. A camera that had never proposed it is
    sure, and so is this one where the group took the second red after all."""
    red = {"type": "plant", "player": ANN, "bean": "red", "source": "hand", "field": 0}
    turn_over = {"type": "turn-over", "player": ANN, "beans": ["chili", "soy"]}
    turned = seen(ann=(("red", 2),), face_up=("chili", "soy"))

    def misread_then_turned(taken: bool) -> Observation | None:
        state, tracker = play(table(), red), TableTracker()
        settle(tracker, state, seen(ann=(("red", 1),)), 4)
        hand_passes(tracker, state)
        misread = settle(tracker, state, seen(ann=(("red", 2),)))
        assert misread is not None and misread.sure and misread.events == (red,)
        if taken:
            play(state, red)
        hand_passes(tracker, state)  # dismissed on the tablet, or taken
        return settle(tracker, state, turned)

    again = misread_then_turned(taken=False)
    assert again is not None and again.events == (red, turn_over) and not again.sure
    fresh = settle(TableTracker(), play(table(), red), turned)
    assert fresh is not None and fresh.events == (red, turn_over) and fresh.sure
    taken = misread_then_turned(taken=True)
    assert taken is not None and taken.events == (turn_over,) and taken.sure


def test_a_field_whose_card_the_camera_cannot_name_is_a_field_of_some_bean_not_an_empty_place():
    """Far off at a slant, Ann's red card is too small to name: the scene keeps it apart as a column naming nothing.
    The game has a field of one card there, so it is a field of a bean the camera does not know, and her blue planted
    beside it is proposed (for a tap: the camera has no guess at the red to bear out); taken for an empty place, the
    red would be proposed harvested too."""
    state = play(table(), {"type": "plant", "player": ANN, "bean": "red", "source": "hand", "field": 0})
    corners = np.zeros((4, 2), np.float32)
    red = Stack("unknown", 1, corners, SeenCard(corners, "unknown", 0.4), "fields-0")
    blue = Stack("blue", 1, corners, SeenCard(corners, "blue", 0.99), "fields-0")
    before, after = Scene((), (), ("fields-0",), (red,)), Scene((), (blue,), ("fields-0",), (red,))
    assert view_in_game(after, state, SURE).fields[ANN] == (ANN, ((None, 1), ("blue", 1)))
    tracker = TableTracker()
    settle(tracker, state, view_in_game(before, state, SURE), 4)
    hand_passes(tracker, state)
    observation = settle(tracker, state, view_in_game(after, state, SURE))
    assert observation is not None and not observation.sure
    assert observation.events == ({"type": "plant", "player": ANN, "bean": "blue", "source": "hand", "field": 1},)
    empty = seen_change(state, Scene((), (), ("fields-0",)), dataclasses.replace(after, unnamed=()), None)
    assert empty is not None and {"type": "harvest", "player": ANN, "field": 0} in empty.events


def test_a_new_card_the_camera_cannot_name_is_proposed_as_the_bean_it_came_nearest_for_a_tap():
    """Ann plants a second card into her empty field, far off at a slant: the camera names it nothing, but came nearest
    a chili (0.55 below its threshold), then a soy. The plant is proposed as a chili, for a tap, with the soy and the
    blue offered first in its place; however peaked the camera's guess, it is never sure by itself."""
    state = play(table(), {"type": "plant", "player": ANN, "bean": "red", "source": "hand", "field": 0})
    corners = np.zeros((4, 2), np.float32)
    red = Stack("red", 1, corners, SeenCard(corners, "red", 0.99), "fields-0")
    zones = ("fields-0", "fields-1", "fields-2")

    def planted(*likely: tuple[str, float]) -> Observation | None:
        far = Stack("unknown", 1, corners, SeenCard(corners, "unknown", 0.6, likely), "fields-0")
        tracker = TableTracker()
        settle(tracker, state, view_in_game(Scene((), (red,), zones), state, SURE), 4)
        hand_passes(tracker, state)
        return settle(tracker, state, view_in_game(Scene((), (red,), zones, (far,)), state, SURE))

    chili = {"type": "plant", "player": ANN, "bean": "chili", "source": "hand", "field": 1}
    guessed = planted(("chili", 0.55), ("soy", 0.3), ("blue", 0.1), ("back", 0.05))
    assert guessed is not None and guessed.events == (chili,) and not guessed.sure
    assert [event["bean"] for event in guessed.alternatives[0][:2]] == ["soy", "blue"]
    peaked = planted(("chili", 0.999))
    assert peaked is not None and peaked.events == (chili,) and not peaked.sure
    assert planted(("back", 0.9), ("chili", 0.1)) is None  # nearest a card back: no bean to guess


def test_a_new_card_the_camera_cannot_name_nor_guess_is_left_out_rather_than_taken_for_some_bean():
    """Ben plants a card the camera cannot name, and came nearest no bean, into his empty field: no field of the game's
    may be it there, so the column is left out (as if unseen) and nothing is proposed, rather than a plant of whichever
    bean the rules list first. Beside Ann's red, told by its name, a second column she does not have is left out too;
    but where the camera cannot name her red field grown to two, that column is her red field, and the plant a red."""
    state = play(table(), {"type": "plant", "player": ANN, "bean": "red", "source": "hand", "field": 0})
    corners = np.zeros((4, 2), np.float32)

    def unnamed(seat: int, count: int) -> Stack:
        return Stack("unknown", count, corners, SeenCard(corners, "unknown", 0.4), f"fields-{seat}")

    red = (Stack("red", 1, corners, SeenCard(corners, "red", 0.99), "fields-0"),)
    zones = ("fields-0", "fields-1")
    view = view_in_game(Scene((), red, zones, (unnamed(BEN, 1), unnamed(ANN, 2))), state, SURE)
    assert view.fields[:2] == ((ANN, (("red", 1),)), (BEN, ()))
    tracker = TableTracker()
    settle(tracker, state, view_in_game(Scene((), red, zones), state, SURE), 4)
    hand_passes(tracker, state)
    assert settle(tracker, state, view) is None
    grown = view_in_game(Scene((), (), zones, (unnamed(ANN, 2),)), state, SURE)
    assert grown.fields[:2] == ((ANN, ((None, 2),)), (BEN, ()))
    planted = settle(tracker, state, grown)
    assert planted is not None and planted.events == ({"type": "plant", "player": ANN, "bean": "red", "source": "hand",
                                                       "field": 0},)
