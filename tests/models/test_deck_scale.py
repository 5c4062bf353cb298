"""The softmax temperature for enrolled decks: fitted so that a card's confidence says how often it is right."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion.cards import VISION_LABELS
from companion.vision.classifier import CardClassifier
from companion.vision.manifest import load_manifest
from models.deck_scale import fitted_scale
from models.heldout.measure import measure


def sampled(scale: float, seed: int, cards: int = 4000, labels: int = 16) -> tuple[np.ndarray, np.ndarray]:
    """Cosines of ``cards`` cards, and true labels drawn from their softmax at ``scale``."""
    rng = np.random.default_rng(seed)
    cosines = rng.uniform(0.2, 0.9, (cards, labels))
    odds = np.exp(scale * (cosines - cosines.max(axis=1, keepdims=True)))
    odds /= odds.sum(axis=1, keepdims=True)
    truth = np.array([rng.choice(labels, p=row) for row in odds])
    return cosines, truth


@pytest.mark.parametrize("scale", [10.0, 24.0, 40.0])
def test_the_fitted_temperature_is_the_one_the_labels_were_drawn_at(scale):
    cosines, truth = sampled(scale, int(scale))
    assert fitted_scale(cosines, truth) == pytest.approx(scale, rel=0.15)


def test_labels_always_the_best_cosine_want_the_hottest_temperature_tried():
    cosines, _ = sampled(16.0, 3)
    scales = np.array([8.0, 16.0, 32.0])
    assert fitted_scale(cosines, cosines.argmax(axis=1), scales) == 32.0


def test_the_shipped_deck_temperature_is_fitted_hotter_than_the_training_scale():
    manifest = load_manifest()
    assert manifest.deck_scale > manifest.scale


@pytest.fixture(scope="module")
def classifiers() -> tuple[CardClassifier, CardClassifier]:
    """The shipped classifier, and one naming enrolled decks at the training scale, as before the deck's own."""
    shipped = CardClassifier(threads=2)
    training = CardClassifier(replace(shipped.manifest, deck_scale=shipped.manifest.scale), threads=2)
    return shipped, training


def test_a_held_out_deck_names_more_of_its_cards_surely_and_each_of_them_right(classifiers):
    """A woodcut deck enrolled from one photo per bean (a family no step of the fit reads), 32 photos: the cards
    named at the tracker's 0.9 are all right, and there are more of them than at the training scale."""
    shipped, training = (measure(clf, "woodcut", 515, decks=1, per_label=2, tables=2, workers=1, counts=(1,))
                         for clf in classifiers)
    assert shipped.right == training.right  # the same names: only how sure they are differs
    (sure, right), (before, _) = shipped.sure[1], training.sure[1]
    assert sure == right and sure > before
    assert sure >= len(VISION_LABELS)
