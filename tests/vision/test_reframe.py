"""Other readings of a card outline: card-shaped ones of an odd outline, and its neighbours (pure geometry)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.vision.rectify import CARD_ASPECT, order_corners
from companion.vision.reframe import CARD_SHAPED, aspect, neighbours, reframings


def _card(cx: float, cy: float, height: float, angle: float, length: float = 1.0, start: float = 0.0) -> np.ndarray:
    """Corners of the part [start, start + length] (shares of its height, from its top) of a card
    centred at (cx, cy), turned by ``angle`` radians."""
    w = height * CARD_ASPECT
    top, bottom = -height / 2 + start * height, -height / 2 + (start + length) * height
    box = np.array([[-w / 2, top], [w / 2, top], [w / 2, bottom], [-w / 2, bottom]])
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    return (box @ rot.T + [cx, cy]).astype(np.float32)


def _one_is(quads: list[np.ndarray], card: np.ndarray) -> bool:
    """Whether one of ``quads`` has the card's corners (within 2 % of its height)."""
    b = order_corners(card)
    tolerance = 0.02 * float(np.linalg.norm(b[3] - b[0]))
    return any(min(float(np.abs(np.roll(order_corners(a), k, axis=0) - b).max()) for k in range(4)) < tolerance
               for a in quads)


placements = dict(cx=st.floats(90, 150), cy=st.floats(80, 120), height=st.floats(100, 170),
                  angle=st.floats(-np.pi, np.pi))


@settings(max_examples=60, deadline=None)
@given(**placements)
def test_a_card_shaped_outline_has_no_other_reading(cx, cy, height, angle):
    card = _card(cx, cy, height, angle)
    assert abs(aspect(order_corners(card)) - CARD_ASPECT) < 1e-3
    assert reframings(card, (cx, cy)) == []


@settings(max_examples=60, deadline=None)
@given(**placements, covered=st.floats(0.15, 0.35), downwards=st.booleans())
def test_an_outline_that_took_in_the_covering_card_is_cut_back_to_the_card(cx, cy, height, angle, covered, downwards):
    # the next card of the column lies over one end; the outline runs over both
    start = 0.0 if downwards else covered - 1
    outline = _card(cx, cy, height, angle, 2 - covered, start)
    assert aspect(order_corners(outline)) < CARD_SHAPED[0]
    assert _one_is(reframings(outline, (cx, cy)), _card(cx, cy, height, angle))


@settings(max_examples=80, deadline=None)
@given(**placements, found=st.one_of(st.floats(0.15, 0.3), st.floats(0.55, 0.78)), at_top=st.booleans())
def test_a_card_found_only_where_it_stands_out_from_the_cloth_is_grown_back(cx, cy, height, angle, found, at_top):
    # a part across the card at one end (a band, or most of it): the rest matched the tablecloth
    part = _card(cx, cy, height, angle, found, 0.0 if at_top else 1 - found)
    assert not CARD_SHAPED[0] <= aspect(order_corners(part)) <= CARD_SHAPED[1]
    assert _one_is(reframings(part, (cx, cy)), _card(cx, cy, height, angle))


def _moved(quad: np.ndarray, along: float, across: float) -> np.ndarray:
    """``quad`` (ordered) moved by ``along`` of its length and ``across`` of its width."""
    q = order_corners(quad)
    return q + along * (q[3] - q[0]) + across * (q[1] - q[0])


def _scaled(quad: np.ndarray, width: float, length: float) -> np.ndarray:
    """``quad`` (ordered) ``width`` times as wide and ``length`` times as long, about its centre."""
    q = order_corners(quad)
    centre = q.mean(axis=0)
    along, across = (q[3] - q[0]) / np.linalg.norm(q[3] - q[0]), (q[1] - q[0]) / np.linalg.norm(q[1] - q[0])
    d = q - centre
    return (centre + np.outer(d @ across * width, across) + np.outer(d @ along * length, along)).astype(np.float32)


@settings(max_examples=60, deadline=None)
@given(**placements, move=st.sampled_from([-0.15, 0.15]), along=st.booleans())
def test_an_outline_moved_along_or_across_the_card_has_the_card_among_its_neighbours(cx, cy, height, angle,
                                                                                    move, along):
    # a card-shaped outline that slid onto the covering card, or off a side of the card
    card = _card(cx, cy, height, angle)
    outline = _moved(card, move, 0.0) if along else _moved(card, 0.0, move)
    assert not _one_is([outline], card)
    assert _one_is(neighbours(outline), card)


@settings(max_examples=60, deadline=None)
@given(**placements, wrong=st.sampled_from([(0.8, 1.0), (1.25, 1.0), (0.87, 0.87), (1.15, 1.15)]))
def test_an_outline_of_the_wrong_width_or_size_has_a_neighbour_of_the_cards(cx, cy, height, angle, wrong):
    card = _card(cx, cy, height, angle)
    outline = _scaled(card, *wrong)
    assert not _one_is([outline], card)
    assert _one_is(neighbours(outline), card)


def test_an_outline_has_eight_neighbours_and_is_not_one_of_them():
    card = _card(120, 100, 150, 0.3)
    near = neighbours(card)
    assert len(near) == 8 and not _one_is(near, card)
