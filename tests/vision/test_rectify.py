"""Finding the card of a single-card photo and warping it upright."""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.vision.corners import fit_sides
from companion.vision.locate import quad_from_mask
from companion.vision.rectify import CARD_ASPECT, centre_crop, crop_card, order_corners, warp_card
from models.camera import photograph_with_quad


def _quad(cx: float, cy: float, h: float, angle: float) -> np.ndarray:
    w = h * CARD_ASPECT
    box = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    return (box @ rot.T + [cx, cy]).astype(np.float32)


def _iou(a: np.ndarray, b: np.ndarray, shape: tuple[int, int]) -> float:
    ma, mb = np.zeros(shape, np.uint8), np.zeros(shape, np.uint8)
    cv2.fillPoly(ma, [a.astype(np.int32)], 1)
    cv2.fillPoly(mb, [b.astype(np.int32)], 1)
    return float((ma & mb).sum() / max((ma | mb).sum(), 1))


@settings(max_examples=60, deadline=None)
@given(st.floats(0, 2 * np.pi), st.integers(0, 3), st.booleans())
def test_order_corners_gives_portrait_clockwise(angle, shift, reverse):
    quad = _quad(100, 100, 80, angle)
    out = order_corners(np.roll(quad, shift, axis=0)[::-1 if reverse else 1])
    assert {tuple(np.round(p, 3)) for p in out} == {tuple(np.round(p, 3)) for p in quad}
    assert np.linalg.norm(out[1] - out[0]) < np.linalg.norm(out[2] - out[1])  # 0->1 is a short edge
    (ax, ay), (bx, by) = out[1] - out[0], out[2] - out[1]
    assert ax * by - ay * bx > 0  # clockwise in image coordinates (y down)


@settings(max_examples=30, deadline=None)
@given(st.floats(-0.7, 0.7), st.floats(100, 170), st.floats(-20, 20))
def test_quad_from_a_low_resolution_mask(angle, height, dx):
    truth = _quad(120 + dx, 100, height, angle)
    mask = np.zeros((200, 240), np.float32)
    cv2.fillPoly(mask, [truth.astype(np.int32)], 1.0)
    found = quad_from_mask(cv2.resize(mask, (48, 40), interpolation=cv2.INTER_AREA), (240, 200))
    assert found is not None and _iou(found, truth, (200, 240)) > 0.93


@settings(max_examples=30, deadline=None)
@given(st.floats(0, 2 * np.pi), st.floats(0.03, 0.12))
def test_fitted_sides_restore_cut_corners(angle, cut):
    truth = _quad(120, 100, 150, angle)
    chamfered = np.concatenate([[c + (p - c) * cut, c + (n - c) * cut]
                                for p, c, n in zip(np.roll(truth, 1, 0), truth, np.roll(truth, -1, 0))])
    rough = truth + np.random.default_rng(0).normal(0, 3, truth.shape).astype(np.float32)
    assert np.abs(fit_sides(chamfered, rough) - truth).max() < 1.0
    assert np.array_equal(fit_sides(truth[:2], rough), rough)  # too few outline points: unchanged


def test_empty_mask_and_fallback_crop():
    assert quad_from_mask(np.zeros((40, 48), np.float32), (240, 200)) is None
    photo = np.zeros((300, 400, 3), np.uint8)
    assert crop_card(photo, None, (48, 72)).shape == (72, 48, 3)
    assert centre_crop(np.zeros((50, 20, 3), np.uint8), (48, 72)).shape == (72, 48, 3)


def test_warp_puts_the_card_upright():
    face = np.zeros((87, 56, 3), np.uint8)
    face[:20] = 255  # a white band at the top of the card
    photo = np.zeros((200, 240, 3), np.uint8)
    quad = _quad(120, 100, 150, 0.3)
    src = np.array([[0, 0], [56, 0], [56, 87], [0, 87]], np.float32)
    cv2.warpPerspective(face, cv2.getPerspectiveTransform(src, quad), (240, 200), photo)
    crop = warp_card(photo, quad, (48, 72))
    assert crop[:10].mean() > 200 and crop[30:].mean() < 30


def test_locator_finds_cards_in_fresh_photos(reader, faces, kit):
    hits = []
    for c, face in enumerate(faces):
        photo, truth = photograph_with_quad(face, np.random.default_rng([kit.seed, 50, c]))
        found = reader.locator.locate(photo)
        hits.append(found is not None and _iou(found, truth, photo.shape[:2]) > 0.7)
    assert sum(hits) >= 0.8 * len(hits)
