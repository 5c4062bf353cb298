"""The second opinion of an enrolled deck: a card's printed detail matches its own enrolled photo, not a
deck-mate's of like colour, and it settles a close call only among the card's best labels."""

from __future__ import annotations

import numpy as np
import pytest

from companion.cards import VISION_LABELS
from companion.vision.keypoints import (
    CANDIDATES,
    DETAIL_SIZE,
    DOUBT,
    WEIGHT,
    Keypoints,
    close_call,
    inliers,
    keypoints,
    near_threshold,
    reconsidered,
)


def test_a_card_matches_its_own_enrolled_photo_better_than_any_other_bean(details):
    """Deck-mates share their frame, ribbon and coins, so every pair matches somewhat; the card's own photo more."""
    photos = [keypoints(details[label][0]) for label in VISION_LABELS]
    margins = []
    for c, label in enumerate(VISION_LABELS):
        counts = [inliers(keypoints(details[label][1]), photo) for photo in photos]
        margins.append(counts[c] - max(n for k, n in enumerate(counts) if k != c))
    assert sum(m > 0 for m in margins) >= 12 and np.median(margins) >= 5, margins


def test_a_card_upside_down_matches_as_well(details):
    card, photo = details["wax"][1], keypoints(details["wax"][0])
    upright, turned = inliers(keypoints(card), photo), inliers(keypoints(card[::-1, ::-1].copy()), photo)
    assert turned >= 10 and turned >= upright // 2


def test_a_crop_without_detail_matches_nothing():
    blank = keypoints(np.full((DETAIL_SIZE[1], DETAIL_SIZE[0], 3), 200, np.uint8))
    assert len(blank.points) == 0 and inliers(blank, blank) == 0


def test_only_a_close_call_among_the_best_labels_is_reconsidered(details):
    assert close_call(np.array([0.70, 0.68, 0.2])) and not close_call(np.array([0.80, 0.60, 0.2]))
    photos = [(keypoints(details[label][0]),) for label in VISION_LABELS]
    cards = [keypoints(details[label][1]) for label in VISION_LABELS]
    counts = np.array([[inliers(card, photo[0]) for photo in photos] for card in cards])
    margin = counts.diagonal()[:, None] - counts
    np.fill_diagonal(margin, -1000)
    truth, wrong = np.unravel_index(np.argmax(margin), margin.shape)
    assert margin[truth, wrong] > 0.02 / WEIGHT  # a card whose own photo beats a deck-mate's by more than 0.02
    row = np.full(len(VISION_LABELS), 0.1, np.float32)
    row[wrong], row[truth] = 0.70, 0.68  # the embedding leans the wrong way, a little
    again = reconsidered(row, 0.3, cards[truth], photos)  # both well above the threshold: no doubt
    assert again.argmax() == truth and again[truth] == pytest.approx(0.68 + WEIGHT * counts[truth, truth])
    outside = np.argsort(row)[::-1][CANDIDATES:]
    assert np.array_equal(again[outside], row[outside])  # labels outside the best few are not weighed


def test_a_label_named_just_above_the_threshold_keeps_it_only_if_its_photos_match_the_card(details):
    photos = [(keypoints(details[label][0]),) for label in VISION_LABELS]
    blank = keypoints(np.full((DETAIL_SIZE[1], DETAIL_SIZE[0], 3), 200, np.uint8))  # a bare table's crop
    blue, wax = VISION_LABELS.index("blue"), VISION_LABELS.index("wax")
    row = np.full(len(VISION_LABELS), 0.1, np.float32)
    row[blue] = 0.6
    assert near_threshold(row, 0.5) and not near_threshold(row, 0.3) and not near_threshold(row, 0.61)
    assert reconsidered(row, 0.5, blank, photos)[blue] == pytest.approx(0.6 - DOUBT)  # no longer a match
    assert reconsidered(row, 0.5, keypoints(details["blue"][1]), photos)[blue] == pytest.approx(0.6)  # its own card
    row[wax] = 0.2  # far below the threshold: no doubt to cast
    assert reconsidered(row, 0.5, blank, photos)[wax] == pytest.approx(0.2)


def test_a_card_vouched_for_by_its_column_keeps_a_label_named_just_above_the_threshold(details):
    """The top card of a column of several is a card (its bands start as it does): the check that keeps a bare
    table from being named does not take its label away, even with no detail shared, unless another label comes
    close (a split column's bands taken for a top card look like two beans at once)."""
    photos = [(keypoints(details[label][0]),) for label in VISION_LABELS]
    blank = keypoints(np.full((DETAIL_SIZE[1], DETAIL_SIZE[0], 3), 200, np.uint8))
    blue = VISION_LABELS.index("blue")
    row = np.full(len(VISION_LABELS), 0.1, np.float32)
    row[blue] = 0.6
    assert reconsidered(row, 0.5, blank, photos)[blue] < 0.5
    assert reconsidered(row, 0.5, blank, photos, vouched=True)[blue] == pytest.approx(0.6)
    row[VISION_LABELS.index("wax")] = 0.58  # which bean it is is in doubt: the label must still be vouched for
    assert reconsidered(row, 0.5, blank, photos, vouched=True).max() < 0.5


def test_a_bare_table_is_not_named_after_a_label_the_first_look_ranked_lower(details):
    """The labels just above the threshold lose their match one after the other, down the ranking, until one is
    vouched for by its photos or none is left: a bare table comes out unknown (it used to be named after the
    fourth, which the first look had ranked below the three it checked)."""
    photos = [(keypoints(details[label][0]),) for label in VISION_LABELS]
    blank = keypoints(np.full((DETAIL_SIZE[1], DETAIL_SIZE[0], 3), 200, np.uint8))
    row = np.full(len(VISION_LABELS), 0.1, np.float32)
    ranked = [VISION_LABELS.index(bean) for bean in ("field", "wax", "soy", "garden", "blue")]
    row[ranked] = [0.62, 0.61, 0.58, 0.56, 0.55]  # more labels just above the threshold than CANDIDATES
    assert len(ranked) > CANDIDATES
    assert reconsidered(row, 0.555, blank, photos).max() < 0.555


def test_keypoints_are_positions_and_sift_descriptors(details):
    found = keypoints(details["blue"][0])
    assert isinstance(found, Keypoints) and found.points.shape[1] == 2
    assert found.descriptors.shape == (len(found.points), 128) and 30 <= len(found.points) <= 300
