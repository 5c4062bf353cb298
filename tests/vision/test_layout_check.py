"""The checks on a deck laid out under the camera: card shape, one card per bean, sure guesses, reading order."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.layout_check import (
    CARD_RATIO,
    NOT_CARD_SHAPED,
    SAME_BEAN,
    UNSURE,
    card_flags,
    card_shaped,
    reading_order,
    same_bean,
    side_ratio,
    unsure,
)
from models.tabletop import card_quad


def box(centre: tuple[float, float], width: float, height: float, angle: float = 0.0) -> np.ndarray:
    """A rectangle's corners (clockwise from the top left), turned by ``angle`` degrees about its middle."""
    corners = np.array([[-width, -height], [width, -height], [width, height], [-width, height]]) / 2
    turn = np.radians(angle)
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    return corners @ rotation.T + np.array(centre)


def test_a_card_is_card_shaped_however_it_lies() -> None:
    for angle in (0, 17, 90, 180, 243):
        quad = card_quad((300, 200), 170, angle)
        assert side_ratio(quad) == pytest.approx(CARD_RATIO, rel=0.02)
        assert card_shaped(quad)


def test_the_shape_tolerance_is_ten_percent_of_the_card_ratio_either_way() -> None:
    for ratio, shaped in ((CARD_RATIO * 1.09, True), (CARD_RATIO * 0.91, True), (CARD_RATIO * 1.12, False),
                          (CARD_RATIO * 0.88, False), (1.0, False), (3.1, False)):  # fmt: skip
        assert card_shaped(box((0, 0), 100, 100 * ratio, 30)) is shaped, ratio
        assert card_shaped(box((0, 0), 100 * ratio, 100)) is shaped, ratio  # lying on its side


def test_an_outline_in_perspective_is_measured_on_its_mean_sides() -> None:
    keystone = np.array([[10, 0], [90, 0], [100, 140], [0, 140]], float)  # near side 100, far side 80
    assert side_ratio(keystone) == pytest.approx(np.hypot(10, 140) / 90)
    assert card_shaped(keystone)
    assert not card_shaped(keystone * [1, 1.2])  # the same card a fifth longer


def test_a_degenerate_outline_is_no_card() -> None:
    flat = np.array([[0, 0], [0, 0], [0, 10], [0, 10]], float)
    assert side_ratio(flat) == float("inf") and not card_shaped(flat)


def test_cards_taken_for_the_same_bean_are_all_named_but_unknown_ones_are_not() -> None:
    assert same_bean(["red", "chili", "red", "unknown", "unknown", "back", "red"]) == {0, 2, 6}
    assert same_bean(["red", "chili", "back"]) == set()
    assert same_bean([]) == set()


def test_a_guess_is_unsure_below_half_or_when_not_recognised() -> None:
    assert unsure("unknown", 0.99)
    assert unsure("red", 0.49)
    assert not unsure("red", 0.5)
    assert not unsure("back", 0.97)


def test_each_card_gets_every_sentence_that_applies() -> None:
    card = card_quad((100, 100), 170, 5)
    squat = box((300, 100), 125, 170)
    flags = card_flags([card, squat, card, card], ["red", "red", "chili", "unknown"], [0.99, 0.3, 0.95, 0.9])
    assert flags == [[SAME_BEAN], [NOT_CARD_SHAPED, SAME_BEAN, UNSURE], [], [UNSURE]]
    with pytest.raises(ValueError):
        card_flags([card], ["red", "chili"], [0.9, 0.9])


def test_cards_are_read_in_rows_from_the_top_each_from_the_left() -> None:
    rng = np.random.default_rng(3)
    spots = [(x, y) for y in (120, 360) for x in (80, 240, 400, 560, 720)]
    quads = [card_quad((x + rng.uniform(-8, 8), y + rng.uniform(-30, 30)), 170, rng.uniform(-10, 10))
             for x, y in spots]
    shuffled = rng.permutation(len(quads))
    order = reading_order([quads[k] for k in shuffled])
    assert [int(shuffled[k]) for k in order] == list(range(len(quads)))
    assert reading_order([]) == []


def test_cards_lying_on_their_side_are_read_in_rows_too() -> None:
    quads = [card_quad((x, y), 170, 90 + turn) for y in (100, 240) for x, turn in ((100, 4), (300, -3), (500, 2))]
    assert reading_order([quads[k] for k in (5, 0, 3, 1, 4, 2)]) == [1, 3, 5, 2, 4, 0]
