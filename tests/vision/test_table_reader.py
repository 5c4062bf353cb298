"""The table reader: which camera frames are read, and which the referee hears of.

The referee votes on still frames only, so a hand moving over the table is not read (one frame
in ``REREAD`` is, so that the page still shows the table), and the first two still frames after
it are read at once: a card that lands is named on the first frame that shows it lying still, and the
votes get a second reading of it on the next.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.tracker.view import SURE, Place, landed, view_of
from companion.vision import table_reader
from companion.vision.scene import Scene, SceneReader, SeenCard, Stack
from companion.vision.sight import sight
from companion.vision.table_reader import FIRST_READS, REREAD, TableReader, touched
from companion.vision.zones import FACE_UP_ID, FIELDS_ID, TableZones, Zone, find_markers
from models.game_table import SIZE, draw_table, hand_over
from models.render import house_design, render_face
from models.tilt import tilted


def test_a_moving_hand_is_not_read_and_the_first_still_frame_after_it_is(classifier):
    faces = {bean: render_face(house_design(bean)) for bean in ("soy", "red")}
    before = draw_table({0: [("soy", 2)]}, [], faces, 3)
    after = draw_table({0: [("soy", 2), ("red", 1)]}, [], faces, 3)
    hands = [hand_over(after, np.random.default_rng(k)) for k in range(5)]
    table = TableReader(SceneReader(classifier))
    readings = [table.read(frame) for frame in [before] * 6 + hands + [after] * 6]

    assert REREAD == 4 and FIRST_READS == 2
    assert [r.moving for r in readings] == [False] * 6 + [True] * 6 + [False] * 5  # the hand leaving is a move too
    assert [r.fresh for r in readings] == [True, True, False, True, False, False,  # still: the 1st, 2nd, 4th, 8th ...
                                           False, True, False, False, False, True,  # moving: one in four, for the page
                                           True, True, False, True, False]  # the first still frames at once
    assert [r.news for r in readings] == [r.fresh or r.moving for r in readings]
    stacks = [sorted((s.bean, s.count) for s in r.scene.stacks) for r in readings]
    assert stacks[0] == stacks[5] == [("soy", 2)]
    assert stacks[12] == stacks[-1] == [("red", 1), ("soy", 2)]  # read on the first still frame
    assert all(stacks[k] == stacks[k - 1] for k, r in enumerate(readings) if not r.fresh)  # kept, not read


def test_a_marker_hidden_on_a_later_frame_still_places_its_zone(classifier):
    """A player's hand rests on their fields marker (the table is still): their fields are still theirs."""
    faces = {bean: render_face(house_design(bean)) for bean in ("soy", "red")}
    table_frame = draw_table({0: [("soy", 2)], 1: [("red", 1)]}, [], faces, 3)
    marker = find_markers(table_frame)[FIELDS_ID]
    covered = table_frame.copy()
    centre = marker.mean(axis=0)
    cv2.fillConvexPoly(covered, np.round(centre + (marker - centre) * 1.8).astype(np.int32), (60, 90, 140))
    assert FIELDS_ID not in find_markers(covered)
    alone = TableReader(SceneReader(classifier)).read(covered).scene
    assert "fields-0" not in alone.zones  # a reader that never saw the marker has no zone for it

    table = TableReader(SceneReader(classifier), reread=1)
    seen = table.read(table_frame).scene
    hidden = [table.read(covered) for _ in range(2)][-1]
    assert hidden.fresh and not hidden.moving
    assert sorted((s.bean, s.count, s.zone) for s in hidden.scene.stacks) == \
        sorted((s.bean, s.count, s.zone) for s in seen.stacks) == [("red", 1, "fields-1"), ("soy", 2, "fields-0")]


def test_the_discard_pile_is_read_as_its_top_card(classifier):
    faces = {bean: render_face(house_design(bean)) for bean in ("soy", "red", "blue")}
    reader = SceneReader(classifier)

    def pile(discard: list[str] | None) -> tuple[str, ...] | None:
        scene = TableReader(reader).read(draw_table({0: [("soy", 2)]}, [], faces, 3, discard)).scene
        return view_of(scene, (0,), SURE).discard

    assert pile(["red", "blue"]) == ("blue",)
    assert pile([]) == ()  # the marker in sight, no card beside it
    assert pile(None) is None  # no discard marker: the pile is not told


def test_a_card_thrown_on_the_pile_is_seen_to_land_elsewhere(classifier):
    """Two blues on the pile, then a third: the top's bean is the same, but the card lies elsewhere; the same pile
    read again on another frame lies where it lay."""
    faces = {bean: render_face(house_design(bean)) for bean in ("soy", "blue")}
    reader = SceneReader(classifier)

    def top(discard: list[str], seed: int) -> Place | None:
        scene = TableReader(reader).read(draw_table({0: [("soy", 2)]}, [], faces, seed, discard)).scene
        return view_of(scene, (0,), SURE).pile_top

    two, three = top(["blue", "blue"], 3), top(["blue", "blue", "blue"], 3)
    assert not landed(two, top(["blue", "blue"], 4))  # the same pile, the table drawn again
    assert landed(two, three)


def test_zones_drawn_anew_are_read_into_at_once(classifier):
    """A still table is read one frame in four; zones saved on the tablet place its stacks on the next frame."""
    faces = {bean: render_face(house_design(bean)) for bean in ("soy",)}
    frame = draw_table({0: [("soy", 2)]}, [], faces, 3)
    table = TableReader(SceneReader(classifier))
    assert [table.read(frame).fresh for _ in range(5)] == [True, True, False, True, False]
    table.zones = TableZones()
    assert table.read(frame).fresh  # the 6th still frame, read for the new zones
    assert not table.read(frame).fresh  # the same zones: kept, as before


def test_the_frame_a_card_lands_on_is_looked_at_only_where_it_changed(classifier, monkeypatch):
    """The first still frame after a hand passed finds outlines only around what changed since the table last lay
    still, and reads what the next frame, looked at whole, reads."""
    faces = {bean: render_face(house_design(bean)) for bean in ("soy", "red", "blue")}
    before = draw_table({0: [("soy", 2), ("blue", 3)], 1: [("red", 1)]}, ["blue"], faces, 3)
    after = draw_table({0: [("soy", 3), ("blue", 3)], 1: [("red", 1)]}, ["blue"], faces, 3)
    whole = []
    monkeypatch.setattr(table_reader, "sight", lambda frame: whole.append(frame) or sight(frame))
    table = TableReader(SceneReader(classifier))
    hand = hand_over(after, np.random.default_rng(1))
    readings = [table.read(frame) for frame in [before] * 2 + [hand] + [after] * 3]

    assert [r.fresh for r in readings] == [True, True, False, False, True, True]
    assert len(whole) == 3  # the two still frames before, and the second still one after: not the first
    stacks = [sorted((s.bean, s.count, s.zone) for s in r.scene.stacks) for r in readings]
    assert stacks[4] == stacks[5] == [("blue", 1, "face-up"), ("blue", 3, "fields-0"), ("red", 1, "fields-1"),
                                      ("soy", 3, "fields-0")]


def test_a_still_frame_read_says_in_which_zones_it_changed_since_the_last_one(classifier):
    """A card laid on a column of seat 0 changes that seat's zone alone; a frame like the last says nothing changed,
    and the first frame, with none before it, cannot tell."""
    faces = {bean: render_face(house_design(bean)) for bean in ("soy", "red", "blue")}
    before = draw_table({0: [("soy", 2), ("blue", 3)], 1: [("red", 1)]}, ["blue"], faces, 3)
    after = draw_table({0: [("soy", 3), ("blue", 3)], 1: [("red", 1)]}, ["blue"], faces, 3)
    table = TableReader(SceneReader(classifier))
    hand = hand_over(after, np.random.default_rng(1))
    readings = [table.read(frame) for frame in [before] * 2 + [hand] + [after] * 3]

    assert [r.fresh for r in readings] == [True, True, False, False, True, True]
    assert [r.changed for r in readings if r.fresh] == [None, frozenset(), frozenset({"fields-0"}), frozenset()]


def slant_table(degrees: float) -> tuple[np.ndarray, np.ndarray]:
    """A four-player table (six markers) drawn from straight above, and as a camera tilted ``degrees`` sees it."""
    faces = {bean: render_face(house_design(bean)) for bean in ("soy", "red", "blue", "green", "chili")}
    fields = {0: [("soy", 3), ("blue", 5)], 1: [("red", 2)], 2: [("green", 7)], 3: [("chili", 4), ("soy", 1)]}
    straight = draw_table(fields, ["blue", "red"], faces, 3, ["green"])
    return straight, cv2.warpPerspective(straight, tilted(SIZE, degrees), SIZE, flags=cv2.INTER_AREA)


def test_a_table_seen_at_a_slant_is_read_as_from_straight_above(classifier, monkeypatch):
    """A webcam on a stand looks down at 45 degrees: the far fields are foreshortened and small. Read on the table's
    plane (from its markers), each field's bean, count and zone are those of the table seen from straight above,
    and the stacks and zones are given where they lie in the camera's frame."""
    straight, slanted = slant_table(45)
    reader = SceneReader(classifier)
    above = TableReader(reader).read(straight)
    seen = TableReader(reader).read(slanted)
    assert sorted((s.bean, s.count, s.zone) for s in seen.scene.stacks) == \
        sorted((s.bean, s.count, s.zone) for s in above.scene.stacks)
    assert len(above.scene.stacks) == 9
    to_frame = tilted(SIZE, 45)
    for stack in seen.scene.stacks:
        twin = next(s for s in above.scene.stacks if (s.bean, s.count, s.zone) == (stack.bean, stack.count, stack.zone))
        where = cv2.perspectiveTransform(twin.corners.mean(axis=0).reshape(1, 1, 2), to_frame).reshape(2)
        assert np.linalg.norm(stack.corners.mean(axis=0) - where) < 8  # the frame's pixels, not the view's
        zone = next(z for z in seen.zones.zones if z.name == stack.zone)
        assert zone.contains(tuple(stack.corners.mean(axis=0)))

    monkeypatch.setattr(table_reader, "table_plane", lambda *_: None)  # the frame read as it is
    flat = TableReader(reader).read(slanted)
    assert sorted((s.bean, s.count) for s in flat.scene.stacks) != sorted((s.bean, s.count) for s in above.scene.stacks)


def test_a_marker_found_again_at_a_slant_starts_nothing_over(classifier):
    """A hand lay on the face-up marker while the camera's slant was first found; once it is seen again, the view
    stays as it was (a plane fitted anew from noisy corners would start the reading over: no change told on that
    frame)."""
    _, slanted = slant_table(35)
    marker = find_markers(slanted)[FACE_UP_ID]
    covered = slanted.copy()
    centre = marker.mean(axis=0)
    cv2.fillConvexPoly(covered, np.round(centre + (marker - centre) * 1.8).astype(np.int32), (60, 90, 140))
    table = TableReader(SceneReader(classifier), reread=1)
    readings = [table.read(frame) for frame in [covered] * 2 + [slanted] * 2]
    assert [r.moving for r in readings] == [False] * 4
    assert readings[2].changed is not None and readings[3].changed == frozenset()
    assert sorted((s.bean, s.count) for s in readings[3].scene.stacks) == \
        sorted((s.bean, s.count) for s in readings[0].scene.stacks)


def test_a_camera_moved_to_look_straight_down_is_read_without_the_warp(classifier):
    straight, slanted = slant_table(35)
    table = TableReader(SceneReader(classifier), reread=1)
    at_a_slant = [table.read(slanted) for _ in range(3)][-1]
    above = [table.read(straight) for _ in range(3)][-1]
    expected = sorted((s.bean, s.count, s.zone) for s in TableReader(table.reader).read(straight).scene.stacks)
    assert sorted((s.bean, s.count, s.zone) for s in at_a_slant.scene.stacks) == expected
    assert sorted((s.bean, s.count, s.zone) for s in above.scene.stacks) == expected
    assert {tuple(np.round(z.polygon[0])) for z in above.zones.zones} == \
        {tuple(np.round(z.polygon[0])) for z in TableReader(table.reader).read(straight).zones.zones}


def test_a_change_touches_the_zones_it_meets_and_those_of_the_columns_it_meets():
    """A card laid on the end of a column that runs out of its zone changes that zone too; a diagonal zone's bounding
    box is not the zone."""
    seat = Zone("fields-0", "fields", 0, [(0, 0), (100, 0), (100, 100), (0, 100)])
    slanted = Zone("fields-1", "fields", 1, [(300, 200), (400, 300), (300, 400), (200, 300)])
    column = np.float32([(40, 60), (60, 60), (60, 160), (40, 160)])
    scene = Scene((), (Stack("soy", 4, column, SeenCard(column, "soy", 0.99), "fields-0"),))
    zones = TableZones((seat, slanted))
    assert touched(scene, zones, [(40, 150, 60, 165)]) == {"fields-0"}
    assert touched(scene, zones, [(205, 205, 225, 225)]) == frozenset()  # the corner of the slanted zone's box
    assert touched(scene, zones, [(290, 290, 310, 310), (500, 500, 520, 520)]) == {"fields-1"}
