"""The synthetic renderer: deterministic, every label distinct, unseen styles really apart."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cards import VISION_LABELS
from models.camera import PHOTO_H, PHOTO_W, photograph
from models.render import (FACE_H, FACE_W, TRAIN_LAYOUTS, TRAIN_PICTURES, UNSEEN_LAYOUTS, UNSEEN_PICTURES,
                           random_design, render_face, unseen_deck)


def test_house_faces_are_distinct_and_sized(faces):
    assert len(faces) == len(VISION_LABELS)
    assert all(f.shape == (FACE_H, FACE_W, 3) and f.dtype == np.uint8 for f in faces)
    flat = np.stack([f.reshape(-1).astype(np.int32) for f in faces])
    for i in range(len(flat)):
        for j in range(i + 1, len(flat)):
            assert np.abs(flat[i] - flat[j]).mean() > 2, (VISION_LABELS[i], VISION_LABELS[j])


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_photos_are_deterministic_per_seed(seed):
    face = render_face(random_design(np.random.default_rng(seed)))
    a = photograph(face, np.random.default_rng(seed), face)
    b = photograph(face, np.random.default_rng(seed), face)
    assert a.shape == (PHOTO_H, PHOTO_W, 3)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, photograph(face, np.random.default_rng(seed + 1), face))


def test_unseen_family_shares_nothing_with_training():
    assert not set(TRAIN_LAYOUTS) & set(UNSEEN_LAYOUTS)
    assert not set(TRAIN_PICTURES) & set(UNSEEN_PICTURES)
    deck = unseen_deck(3)
    assert tuple(deck) == VISION_LABELS
    assert {d.layout for d in deck.values()} <= set(UNSEEN_LAYOUTS)
    assert all(d.picture.kind in UNSEEN_PICTURES for d in deck.values())
    assert unseen_deck(3) == deck and unseen_deck(4) != deck
