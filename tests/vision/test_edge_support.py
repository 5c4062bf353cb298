"""Edge support: a quad whose sides all run along a card's edges scores high, one that takes in a band of table
does not, and enrollment crops a card at the photo's own outline where the mask's quad missed its edges."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.edge_support import SHAPE, better_outline, gradients, overlap, support
from companion.vision.layout_check import card_shaped
from companion.vision.rectify import CARD_ASPECT
from models.heldout import camera as heldout_camera
from models.heldout.measure import enrollment_shots
from models.heldout.photos import photo as heldout_photo


def card_quad(centre: tuple[float, float], height: float, degrees: float) -> np.ndarray:
    """Corners of a card ``height`` px long, turned ``degrees``, clockwise from the top left."""
    half = np.array([[-CARD_ASPECT, -1], [CARD_ASPECT, -1], [CARD_ASPECT, 1], [-CARD_ASPECT, 1]]) * height / 2
    turn = np.radians(degrees)
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    return (half @ rotation.T + centre).astype(np.float32)


def scaled(quad: np.ndarray, factor: float) -> np.ndarray:
    """``quad`` grown by ``factor`` about its centre."""
    centre = quad.mean(axis=0)
    return ((quad - centre) * factor + centre).astype(np.float32)


def corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """Largest corner distance (px) of ``found`` from ``truth``, in the corner order that fits best."""
    return min(float(np.abs(np.roll(found, s, axis=0) - truth).max()) for s in range(4))


@pytest.fixture(scope="module")
def table_photo() -> tuple[np.ndarray, np.ndarray]:
    """A light card with a dark printed frame inside it, turned 20 degrees on a mottled cloth; its corners."""
    rng = np.random.default_rng(7)
    mottle = cv2.GaussianBlur(rng.normal(0, 12, (240, 320)).astype(np.float32), (0, 0), 4)
    photo = np.clip(np.float32((60, 90, 130)) + mottle[..., None], 0, 255).astype(np.uint8)
    quad = card_quad((165, 120), 170, 20)
    cv2.fillConvexPoly(photo, quad.astype(np.int32), (225, 230, 235))
    cv2.polylines(photo, [scaled(quad, 0.85).astype(np.int32)], True, (40, 40, 40), 3)
    noisy = photo.astype(np.int16) + rng.integers(-6, 7, photo.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8), quad


def test_a_quad_on_the_cards_edges_is_supported_and_one_taking_in_table_is_not(table_photo):
    photo, quad = table_photo
    grads = gradients(photo)
    assert support(grads, quad) >= 0.9
    assert support(grads, scaled(quad, 1.15)) <= 0.2
    shifted = quad + np.float32([0, 12])  # one long side in the table, the other inside the card
    assert support(grads, shifted) < support(grads, quad) - 0.5


def test_the_photos_own_outline_stands_for_a_quad_that_took_in_table(table_photo):
    photo, quad = table_photo
    found = better_outline(photo, scaled(quad, 1.2))
    assert found is not None and corner_error(found, quad) <= 3.0
    assert better_outline(photo, quad) is None  # nothing is clearly better than the card's own edges


def test_only_card_shaped_outlines_over_the_same_card_count():
    card = card_quad((100, 100), 120, 0)
    assert card_shaped(card, SHAPE) and card_shaped(card_quad((0, 0), 50, 73), SHAPE)
    assert not card_shaped(np.float32([[0, 0], [100, 0], [100, 100], [0, 100]]), SHAPE)  # a square
    assert not card_shaped(np.float32([[0, 0], [60, 0], [60, 300], [0, 300]]), SHAPE)  # a column of several cards
    assert overlap(card, card) == pytest.approx(1.0)
    assert overlap(card, card + np.float32([500, 0])) == 0.0
    assert 0.3 < overlap(card, scaled(card, 1.5)) < 0.5  # 1 / 1.5 squared


@pytest.mark.parametrize("family, seed, deck, card", [
    ("woodcut", 777007, 0, 3),  # blue: 18 of its 20 test photos named wrong from the mask's crop
    ("watercolour", 777002, 1, 10),  # garden: all 10 named wax
    ("watercolour", 777002, 0, 5),  # stink: all 10 named coffee
])
def test_enrollment_crops_a_held_out_card_at_its_edges_where_the_mask_missed_them(reader, monkeypatch, family, seed,
                                                                                  deck, card):
    """Development photos whose mask took in a band of table (the mask's corners 0.2-0.45 card lengths off)."""
    drawn: list[np.ndarray] = []
    lay = heldout_camera.lay
    monkeypatch.setattr(heldout_camera, "lay", lambda photo, face, quad, shadow: (drawn.append(quad.copy()),
                                                                                  lay(photo, face, quad, shadow)))
    photo = heldout_photo(enrollment_shots(family, seed, deck, 1)[card])
    truth = drawn[0]
    length = float(np.linalg.norm(truth[3] - truth[0]))
    assert corner_error(reader.locator.quads(photo)[0], truth) > 0.18 * length
    assert corner_error(reader.locator.enrollment_quads(photo)[0], truth) < 0.06 * length
