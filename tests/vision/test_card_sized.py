"""A column no longer than the frame's lone cards (lying its way, or any way on the table's plane) is one card."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from companion.vision.card_sized import LONGER, card_sized, long_sides, room_for_two, too_long_for_one
from companion.vision.columns import Column
from companion.vision.scene import SceneReader
from companion.vision.sight import Sight, sight
from models import fields
from models.game_table import draw_table
from models.render import house_design, render_face
from models.tabletop import wooden_table

WIDTH = 32.0
CARD = 50.0


def outline(x: float, y: float, length: float, degrees: float = 90.0, width: float = WIDTH) -> np.ndarray:
    """An outline from its far end (far-left, far-right, near-right, near-left) whose long sides run ``degrees``."""
    along = np.array([math.cos(math.radians(degrees)), math.sin(math.radians(degrees))])
    across = np.array([-along[1], along[0]])
    middle, half_l, half_w = np.array([x, y]), along * length / 2, across * width / 2
    return np.array([middle - half_l + half_w, middle - half_l - half_w, middle + half_l - half_w,
                     middle + half_l + half_w], np.float32)


def column(x: float, y: float, length: float, count: int, degrees: float = 90.0) -> Column:
    """A column read as ``count`` cards, its top card the near half of its outline."""
    shape = outline(x, y, length, degrees)
    top = np.array([(shape[0] + shape[3]) / 2, (shape[1] + shape[2]) / 2, shape[2], shape[3]], np.float32)
    return Column(shape, count, top)


def test_an_outline_is_measured_along_its_long_sides_whichever_way_it_lies():
    turns = (0.0, 37.0, 90.0, 160.0)
    lengths, ways = long_sides([outline(200, 200, (1.5 + k) * WIDTH, degrees) for k, degrees in enumerate(turns)])
    assert lengths == pytest.approx([1.5, 2.5, 3.5, 4.5])
    assert ways == pytest.approx(turns, abs=1e-3)


def test_a_column_of_two_as_long_as_the_lone_cards_beside_it_is_one_card():
    lone = [column(100, 100, CARD, 1), column(160, 100, CARD * 1.02, 1)]
    misread = column(220, 100, CARD * 1.01, 2)
    read = card_sized([*lone, misread])
    assert all(read is given for read, given in zip(read[:2], lone))
    assert read[2].count == 1
    assert np.array_equal(read[2].top, misread.outline)  # the whole outline is its top card
    assert read[2].other is None


def test_a_column_of_two_a_band_longer_than_the_lone_cards_stays_two():
    lone = [column(100, 100, CARD, 1), column(160, 100, CARD, 1)]
    laid = column(220, 100, CARD * 1.13, 2)  # the shortest band the rendered tables draw
    assert card_sized([*lone, laid])[2] is laid


def test_a_column_just_short_of_half_a_band_longer_is_one_card():
    lone = [column(100, 100, CARD, 1), column(160, 100, CARD, 1)]
    assert card_sized([*lone, column(220, 100, CARD * (LONGER - 0.005), 2)])[2].count == 1
    assert card_sized([*lone, column(220, 100, CARD * (LONGER + 0.005), 2)])[2].count == 2


def test_lone_cards_lying_another_way_do_not_measure_a_column():
    # the camera foreshortens the cards lying one way: the column is a band longer than those lying its way
    across = [column(100, 300, CARD, 1, 0.0), column(100, 360, CARD, 1, 178.0)]
    along = [column(100, 100, CARD * 0.92, 1), column(160, 100, CARD * 0.93, 1)]
    laid = column(220, 100, CARD * 0.92 * 1.13, 2)
    assert card_sized([*across, *along, laid])[-1] is laid
    assert card_sized([*across, laid])[-1] is laid  # and none lying its way: nothing measures it
    turned = column(220, 300, CARD, 2, 3.0)  # 3 degrees from 178 across the turn of the half circle
    assert card_sized([*across, turned])[-1].count == 1


def test_on_the_table_s_plane_lone_cards_lying_any_way_measure_a_column():
    across = [column(100, 300, CARD, 1, 0.0), column(100, 360, CARD * 1.02, 1, 178.0)]
    misread = column(220, 100, CARD * 1.01, 2)
    assert card_sized([*across, misread])[-1] is misread  # in the frame only cards lying its way measure it
    assert card_sized([*across, misread], np.eye(3))[-1].count == 1
    assert too_long_for_one([*across, column(220, 100, CARD * 1.13, 1)], {2}, np.eye(3)) == {2}


def test_lone_cards_lying_its_way_in_the_frame_measure_a_column_before_the_plane_does():
    # the plane is only as true as the markers' corners: those lying across look 10 % longer on this one
    along = [column(100, 100, CARD, 1), column(160, 100, CARD, 1)]
    across = [column(100, 300, CARD * 1.1, 1, 0.0), column(100, 360, CARD * 1.1, 1, 0.0)]
    laid = column(220, 100, CARD * 1.08, 2)
    assert card_sized([*along, *across, laid], np.eye(3))[-1] is laid
    assert card_sized([*along[:1], *across, laid], np.eye(3))[-1].count == 1  # one lying its way: all measure it


def test_on_the_table_s_plane_a_column_is_measured_as_it_lies_there():
    # the camera shows the table 0.8 times as deep as it is: cards lying along the frame's height look shorter
    def seen(on_table: Column) -> Column:
        return Column(on_table.outline * np.float32([1, 0.8]), on_table.count, on_table.top * np.float32([1, 0.8]))

    plane = np.diag([1.0, 1 / 0.8, 1.0])
    across = [seen(column(100, 300, CARD, 1, 0.0)), seen(column(100, 360, CARD, 1, 0.0))]
    laid = seen(column(220, 100, CARD * 1.13, 2))  # two cards, the shortest band
    assert card_sized([*across, laid], plane)[-1] is laid
    assert card_sized([*across, laid], np.eye(3))[-1].count == 1  # measured in the frame as if square, it was cut
    assert card_sized([*across, seen(column(300, 100, CARD, 2))], plane)[-1].count == 1  # one card misread


def test_the_scene_measures_a_misread_card_by_lone_cards_lying_across_it_where_markers_give_the_plane(classifier,
                                                                                                       monkeypatch):
    faces = {bean: render_face(house_design(bean)) for bean in ("blue", "chili", "soy", "red", "green")}
    frame = draw_table({0: [("blue", 1), ("chili", 1)], 1: [("soy", 1), ("red", 2)]}, ["green"], faces, 5)
    soy = next(s for s in SceneReader(classifier).read(frame).stacks if s.bean == "soy")
    assert soy.count == 1
    reader = SceneReader(classifier)
    counted = reader.columns.read

    def twice(frame: np.ndarray, outlines: list[np.ndarray]) -> list[Column | None]:  # the soy card read as two
        read = counted(frame, outlines)
        return [replace(c, count=2) if c is not None and np.allclose(c.outline.mean(axis=0), soy.corners.mean(axis=0),
                                                                      atol=5) else c for c in read]

    monkeypatch.setattr(reader.columns, "read", twice)
    sighted = sight(frame)
    assert len(sighted.markers) == 3  # the fields of two seats and the face-up area
    counts = {s.bean: s.count for s in reader.read(frame, sighted=sighted).stacks}
    assert counts == {"blue": 1, "chili": 1, "soy": 1, "red": 2, "green": 1}  # it lies across the others
    blind = SceneReader(classifier)
    monkeypatch.setattr(blind.columns, "read", twice)
    assert {s.bean: s.count for s in blind.read(frame, sighted=Sight({}, sighted.outlines)).stacks}["soy"] == 2


def test_one_lone_card_does_not_measure_a_column():
    laid = column(220, 100, CARD, 2)
    assert card_sized([column(100, 100, CARD, 1), laid])[-1] is laid
    other = column(300, 100, CARD, 2)
    assert all(read is given for read, given in zip(card_sized([laid, other]), [laid, other]))  # no lone card at all


def test_a_column_read_as_one_card_a_band_longer_than_the_lone_cards_beside_it_holds_several():
    lone = [column(100, 100, CARD, 1), column(160, 100, CARD * 1.02, 1)]
    doubted = [*lone, column(220, 100, CARD * 1.13, 1), column(280, 100, CARD * 1.01, 1)]
    assert too_long_for_one(doubted, {2, 3}) == {2}
    assert too_long_for_one(doubted, {3}) == set()
    assert too_long_for_one(doubted, ()) == set()


def test_a_column_just_short_of_half_a_band_longer_may_be_one_card():
    lone = [column(100, 100, CARD, 1), column(160, 100, CARD, 1)]
    assert too_long_for_one([*lone, column(220, 100, CARD * (LONGER - 0.005), 1)], {2}) == set()
    assert too_long_for_one([*lone, column(220, 100, CARD * (LONGER + 0.005), 1)], {2}) == {2}


def test_columns_read_as_one_card_do_not_measure_each_other():
    # two columns of two read as one card each, and one lone card: the doubted leave one lone card to measure by
    doubted = [column(100, 100, CARD * 1.15, 1), column(160, 100, CARD * 1.15, 1), column(220, 100, CARD, 1)]
    assert too_long_for_one(doubted, {0, 1}) == set()
    across = [column(100, 300, CARD * 0.8, 1, 0.0), column(100, 360, CARD * 0.8, 1, 0.0)]
    assert too_long_for_one([*across, *doubted], {2, 3}) == set()  # lone cards lying another way measure nothing


def test_columns_of_two_with_the_shortest_band_beside_lone_cards_are_read_as_two(classifier, monkeypatch):
    monkeypatch.setattr(fields, "BAND", (fields.BAND[0], fields.BAND[0]))
    rng = np.random.default_rng(4711)
    frame = wooden_table(rng, (960, 540))
    laid = [fields.lay_field(frame, render_face(house_design(bean)), bean, count, (x, y), 110, facing, rng)
            for bean, count, x, y, facing in (("blue", 1, 150, 150, 0), ("chili", 2, 300, 150, 0),
                                              ("stink", 1, 450, 150, 0), ("soy", 2, 600, 150, 0),
                                              ("wax", 1, 750, 150, 0), ("green", 2, 300, 400, 90),
                                              ("red", 1, 700, 330, 90), ("coffee", 1, 700, 450, 90))]
    read = SceneReader(classifier).read(frame)
    assert sorted((s.bean, s.count) for s in read.stacks) == sorted((f.bean, f.count) for f in laid)


def test_an_outline_may_be_two_cards_only_where_it_is_half_again_as_large_as_the_frame_s_lone_cards():
    card = np.float32([[0, 0], [64, 0], [64, 100], [0, 100]])
    lone = [card, card + 200, card * 1.05]
    assert not room_for_two(card * 1.1, lone)  # a card as large as those beside it
    assert room_for_two(np.float32([[0, 0], [100, 0], [100, 140], [0, 140]]), lone)  # two cards side by side
    assert room_for_two(card, lone[:1])  # one lone card measures nothing


def test_the_table_s_plane_is_found_again_only_where_the_markers_moved(classifier):
    reader = SceneReader(classifier)
    square = np.float32([[0, 0], [40, 0], [40, 40], [0, 40]])
    markers = {10: square + 100, 11: square + [900, 120], 20: square + [500, 600]}
    plane = reader.table_plane(markers, (1280, 720))
    assert plane is not None
    assert reader.table_plane({i: c + 1.5 for i, c in markers.items()}, (1280, 720)) is plane  # the same camera
    assert reader.table_plane({i: c + 10 for i, c in markers.items()}, (1280, 720)) is not plane  # it moved
    assert reader.table_plane({10: markers[10], 11: markers[11]}, (1280, 720)) is None  # too few to tell
