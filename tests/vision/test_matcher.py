"""The detail matcher through onnxruntime: a card's detail crop matches its own enrolled photo of a held-out deck
better than any deck-mate's, either way up, and its logit settles a close call among the card's best labels only;
an enrollment photo whose framings disagree has its crop in doubt."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.cards import VISION_LABELS
from companion.vision.classifier import Gallery, turned
from companion.vision.keypoints import CANDIDATES, DETAIL_SIZE, MATCH_WEIGHT, keypoints, reconsidered
from companion.vision.matcher import CROP_DOUBT
from companion.vision.rectify import crop_card
from models.heldout import camera as heldout_camera
from models.heldout.families import FAMILIES
from models.heldout.measure import enrollment_shots
from models.heldout.photos import photo as heldout_photo


@pytest.fixture(scope="module")
def logits(classifier, details) -> np.ndarray:  # noqa: ANN001
    """(card, enrolled photo) match logits of the fresh photo of each card of a held-out woodcut deck."""
    matcher = classifier.matcher
    photos = [matcher.features([details[label][0]]) for label in VISION_LABELS]
    cards = [matcher.features([details[label][1], turned(details[label][1])]) for label in VISION_LABELS]
    return np.array([[matcher.logit(card, photo) for photo in photos] for card in cards])


def test_a_card_matches_its_own_enrolled_photo_better_than_any_deck_mate(logits):
    """Seeds 40-43 and this one: own photo first for 15-16 of 16 cards of either family, median margin 6-13."""
    others = np.where(np.eye(len(VISION_LABELS), dtype=bool), -np.inf, logits).max(axis=1)
    margins = logits.diagonal() - others
    assert sum(margins > 0) >= 14 and np.median(margins) >= 3, margins.round(1)


def test_a_card_is_matched_either_way_up(classifier, details):
    """A crop lies either way up: the card's logit is the better of its two ways."""
    matcher = classifier.matcher
    card, photo = details["wax"][1], matcher.features([details["wax"][0]])
    ways = [matcher.logit(matcher.features([crop]), photo) for crop in (card, turned(card))]
    both = matcher.logit(matcher.features([card, turned(card)]), photo)
    assert both == pytest.approx(max(ways), abs=1e-4) and max(ways) > 10
    assert matcher.logit(matcher.features([turned(card), card]), photo) == pytest.approx(both, abs=1e-4)


def test_a_blank_crop_matches_a_card_worse_than_the_card_itself(classifier, details):
    matcher = classifier.matcher
    blank = np.full((DETAIL_SIZE[1], DETAIL_SIZE[0], 3), 200, np.uint8)
    photo = matcher.features([details["blue"][0]])
    card = details["blue"][1]
    assert matcher.logit(matcher.features([blank, blank]), photo) < matcher.logit(
        matcher.features([card, turned(card)]), photo) - 3


def test_a_label_without_photos_matches_nothing(classifier, details):
    matcher = classifier.matcher
    card = matcher.features([details["blue"][1]])
    assert matcher.logit(card, matcher.features([])) == float("-inf")


def test_the_matcher_settles_a_close_call_among_the_best_labels_only(details):
    blank = keypoints(np.full((DETAIL_SIZE[1], DETAIL_SIZE[0], 3), 200, np.uint8))  # no inliers: SIFT abstains
    photos = [(keypoints(details[label][0]),) for label in VISION_LABELS]
    row = np.full(len(VISION_LABELS), 0.1, np.float32)
    row[3], row[5], row[7] = 0.80, 0.79, 0.77
    matched = {3: -2.0, 5: 12.0, 7: 1.0}
    again = reconsidered(row, 0.3, blank, photos, matched)
    assert again.argmax() == 5
    assert again[5] == pytest.approx(0.79 + MATCH_WEIGHT * 12.0) and again[3] == pytest.approx(0.80 - 2 * MATCH_WEIGHT)
    outside = np.argsort(row)[::-1][CANDIDATES:]
    assert np.array_equal(again[outside], row[outside])
    sure = row.copy()
    sure[3] = 0.95  # no close call: the matcher is not weighed
    assert np.array_equal(reconsidered(sure, 0.3, blank, photos, matched), sure)


def test_the_classifier_asks_the_matcher_only_in_a_close_call(classifier, details):
    labels = VISION_LABELS
    gallery = Gallery(labels, np.eye(len(labels), 64, dtype=np.float32), 0.5, (),
                      tuple(classifier.matcher.features([details[label][0]]) for label in labels))
    card = details["soy"][1]
    close = np.full(len(labels), 0.1, np.float32)
    close[labels.index("soy")], close[labels.index("field")] = 0.70, 0.72
    matched = classifier.matched(card, close, gallery)
    assert matched is not None and set(matched) == {int(k) for k in np.argsort(close)[::-1][:CANDIDATES]}
    assert max(matched, key=matched.__getitem__) == labels.index("soy")
    clear = close.copy()
    clear[labels.index("field")] = 0.3
    assert classifier.matched(card, clear, gallery) is None
    assert classifier.matched(card, close, Gallery(labels, gallery.vectors, 0.5)) is None


def test_an_enrollment_photo_whose_framings_disagree_has_its_crop_in_doubt(reader, kit):
    """A card cropped well matches its other framings; one cropped turned (cloth in the corners) does not. And a
    real bad crop: the mask's framings of the blue of a held-out woodcut deck of development seed 777007, whose 20
    test photos were named wrong 18 times from them (their least logit is -5.5). Enrollment now crops that photo at
    the card's own edges (:mod:`companion.vision.edge_support`), and its framings agree."""
    matcher = reader.classifier.matcher
    family = FAMILIES["woodcut"]
    face = family.deck(kit.seed)[0]
    photo = heldout_camera.photograph(face, np.random.default_rng([kit.seed, 21, 0, 0]), family.look)
    framings, found = reader.enrollment_framings(photo)
    assert found and len(framings) >= 2
    assert matcher.agreement(framings) > 2 * CROP_DOUBT and not matcher.crop_in_doubt(framings)
    quad = reader.locator.quads(photo)[0]
    centre = quad.mean(axis=0)
    turn = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), 25, 1.0)
    askew = crop_card(photo, (np.hstack([quad, np.ones((4, 1))]) @ turn.T).astype(np.float32), DETAIL_SIZE)
    assert matcher.crop_in_doubt([framings[0], askew])
    blue = heldout_photo(enrollment_shots("woodcut", 777007, 0, 1)[3])
    assert matcher.crop_in_doubt(reader.locator.framings(blue, DETAIL_SIZE))
    mended, found = reader.enrollment_framings(blue)
    assert found and not matcher.crop_in_doubt(mended)
    assert matcher.agreement(framings[:1]) is None and not matcher.crop_in_doubt(framings[:1])
