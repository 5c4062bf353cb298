"""The corner refiner: its view of a rough quad, and that the shipped network sharpens corners."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.vision.keypoints import DETAIL_SIZE
from companion.vision.locate import quad_from_mask
from companion.vision.mirrors import MIRRORS
from companion.vision.rectify import crop_card, order_corners
from companion.vision.refine import inner_rectangle, plausible, to_photo, unmirror, view
from companion.vision.reframe import neighbours, reframings
from companion.vision.views import CardViews
from models.camera import photograph_with_quad
from models.dataset import jitter, other_faces
from models.render import render_face, unseen_deck


def _corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """Mean corner distance over the card's height (either upright reading)."""
    found, truth = order_corners(found), order_corners(truth)
    height = np.linalg.norm(truth[3] - truth[0])
    return min(np.linalg.norm(np.roll(found, k, axis=0) - truth, axis=1).mean() for k in (0, 2)) / height


@settings(max_examples=40, deadline=None)
@given(st.floats(-1, 1), st.floats(60, 180), st.floats(-40, 40), st.integers(0, 2**16))
def test_view_puts_the_rough_quad_on_the_inner_rectangle_and_back(angle, height, dx, seed):
    rough = order_corners(jitter(np.array([[0, 0], [height * 0.64, 0], [height * 0.64, height], [0, height]],
                                          np.float32) @ np.array([[np.cos(angle), -np.sin(angle)],
                                                                  [np.sin(angle), np.cos(angle)]]).T.astype(np.float32)
                                 + [120 + dx, 60], np.random.default_rng(seed)))
    photo = np.random.default_rng(seed).integers(0, 255, (200, 240, 3), dtype=np.uint8)
    image, matrix = view(photo, rough, (80, 120))
    assert image.shape == (120, 80, 3)
    assert np.allclose(to_photo(inner_rectangle((80, 120)), matrix), rough, atol=1e-2)


def test_a_failed_round_is_not_plausible():
    square = np.array([[0, 0], [60, 0], [60, 90], [0, 90]], np.float32)
    assert plausible(square, square * 1.1)
    assert not plausible(square, square * 2)  # four times the area
    assert not plausible(square, square[[0, 2, 1, 3]])  # crossed sides


def test_refiner_sharpens_the_locator_corners(reader, kit):
    """On fresh photos of unseen-style decks (with covering cards), refined corners are closer
    to the truth than the mask's, and rarely far off."""
    faces = [render_face(d) for s in range(3) for d in unseen_deck(kit.seed * 10 + s).values()]
    covers = other_faces(kit.seed, 8, "unseen")
    locator = reader.locator
    rough, sharp = [], []
    for i, face in enumerate(faces):
        photo, truth = photograph_with_quad(face, np.random.default_rng([kit.seed, 60, i]), covers[i % 8])
        mask_quad = quad_from_mask(locator.probabilities([photo])[0], (photo.shape[1], photo.shape[0]))
        if mask_quad is None:
            continue
        rough.append(_corner_error(mask_quad, truth))
        sharp.append(_corner_error(locator.refiner.refine(photo, [mask_quad])[0], truth))
    assert len(sharp) >= 0.95 * len(faces)
    assert np.median(sharp) < 0.6 * np.median(rough)
    assert np.median(sharp) < 0.025 and np.mean(np.array(sharp) > 0.1) < 0.1


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-0.08, 0.08), min_size=8, max_size=8), st.sampled_from(MIRRORS))
def test_corners_found_in_a_mirrored_view_map_back(moves, mirror):
    """A perfect refiner would answer, for a mirrored view, the mirrored corners in the view's own
    corner order; :func:`unmirror` turns that answer back into the corners of the unmirrored view."""
    inner = inner_rectangle((1, 1)).astype(np.float64)
    corners = inner + np.reshape(moves, (4, 2))
    ry, rx = mirror
    flipped = np.where([rx < 0, ry < 0], 1 - corners, corners)
    answer = np.array([flipped[np.argmin(np.linalg.norm(flipped - c, axis=1))] for c in inner])
    assert np.allclose(unmirror(answer[None], ry, rx)[0], corners)


def test_framings_are_the_crop_and_the_card_cut_at_the_other_stages_corners(reader, faces, kit):
    photo = kit.photos_of(faces[:1], 1, kit.seed + 11, cover=False)[0]
    views = reader.views(photo)
    framings = views.framings
    size = reader.classifier.input_size
    assert len(framings) == 3 and all(f.shape == (size[1], size[0], 3) for f in framings)
    assert np.array_equal(framings[0], reader.crop(photo))
    assert np.array_equal(framings[2], crop_card(photo, reader.locator.rough(photo), size))
    assert not np.array_equal(framings[0], framings[2])
    again, found = reader.enrollment_framings(photo)
    detailed = reader.locator.framings(photo, DETAIL_SIZE)  # enrollment keeps the same framings, larger
    assert found and len(again) == 3 and all(np.array_equal(a, b) for a, b in zip(again, detailed))
    assert all(a.shape == (DETAIL_SIZE[1], DETAIL_SIZE[0], 3) for a in again)
    centre = (photo.shape[1] / 2, photo.shape[0] / 2)
    outline = reader.locator.quads(photo)[0]
    expected = [crop_card(photo, q, size) for q in reframings(outline, centre)]
    assert len(views.reframings) == len(expected)
    assert all(np.array_equal(a, b) for a, b in zip(views.reframings, expected))
    near = reader.locator.refined_neighbours(photo, outline)
    assert len(near) == len(neighbours(outline)) == 8
    assert all(np.array_equal(a, b) for a, b in zip(near, reader.locator.refiner.step(photo, neighbours(outline))))
    assert len(views.neighbours) == 0  # made only when asked for, for a card still unsure
    asked = reader.views(photo, neighbours=True).neighbours
    assert len(asked) == 8 and all(np.array_equal(a, crop_card(photo, q, size)) for a, q in zip(asked, near))


def test_a_photo_without_a_card_outline_has_no_framings_but_enrollment_takes_its_centre(reader, faces, kit):
    blank = np.full_like(kit.photos_of(faces[:1], 1, kit.seed + 11, cover=False)[0], 128)
    assert reader.locator.rough(blank) is None
    assert reader.views(blank) == CardViews()
    crops, found = reader.enrollment_framings(blank)
    assert not found and [c.tolist() for c in crops] == [crop_card(blank, None, DETAIL_SIZE).tolist()]
