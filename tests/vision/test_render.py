"""The synthetic renderer: deterministic, every label distinct, unseen styles really apart."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cards import BACK, VISION_LABELS
from models.camera import PHOTO_H, PHOTO_W, photograph
from models.dataset import DECK_SIZE, column_cover
from models.render import (
    FACE_H,
    FACE_W,
    KIN_GROUPS,
    KIN_SPREAD,
    TRAIN_LAYOUTS,
    TRAIN_PICTURES,
    UNSEEN_LAYOUTS,
    UNSEEN_PICTURES,
    kin_deck,
    random_design,
    render_face,
    unseen_deck,
)


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


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), family=st.sampled_from(("train", "unseen")))
def test_a_kin_deck_comes_in_a_few_colour_groups_told_apart_by_name_and_numbers(seed, family):
    deck = kin_deck(np.random.default_rng(seed), family, DECK_SIZE)
    assert len({card.picture.kind for card in deck}) == 1
    assert len({(card.layout, card.font, card.background, card.frame, card.ink) for card in deck}) == 1
    assert len({card.title for card in deck}) > DECK_SIZE // 2
    groups: list[tuple[int, ...]] = []
    for card in deck:
        colours = (*card.panel, *card.picture.body, *card.picture.accent)
        near = [g for g in groups if max(abs(a - b) for a, b in zip(g, colours)) <= 2 * KIN_SPREAD]
        if not near:
            groups.append(colours)
    assert len(groups) < KIN_GROUPS[1]


def test_an_unseen_kin_deck_is_a_whole_deck_in_an_unseen_style():
    deck = unseen_deck(3, kin=True)
    assert tuple(deck) == VISION_LABELS and deck != unseen_deck(3)
    assert {d.layout for d in deck.values()} <= set(UNSEEN_LAYOUTS)
    assert len({d.picture.kind for d in deck.values()}) == 1 and deck[BACK].number is None


@settings(max_examples=30, deadline=None)
@given(count=st.integers(2, 80), data=st.data())
def test_the_card_over_another_in_a_column_is_often_of_its_own_deck(count, data):
    c = data.draw(st.integers(0, count - 1))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**31 - 1)))
    covers = [column_cover(count, c, rng) for _ in range(400)]
    assert all(0 <= k < count for k in covers)
    deck = range(c // DECK_SIZE * DECK_SIZE, min(c // DECK_SIZE * DECK_SIZE + DECK_SIZE, count))
    own = np.mean([k in deck and k != c for k in covers])
    if len(deck) > 1:  # half from its own deck, never itself, plus what the other half draws there by chance
        assert 0.4 < own < 0.6 + len(deck) / count
