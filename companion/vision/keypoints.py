"""A second opinion for an enrolled deck: how much of a card's printed detail matches each enrolled photo.

Two beans of like colour (coffee and cocoa, red and chili, soy and black-eyed) can embed close
together in a deck the network never saw, but their printed names and pictures differ. SIFT
keypoints of an upright card crop, matched to those of an enrolled photo (ratio test, then a
RANSAC homography), count how many details lie where the same card would put them. For a card
whose two best cosines are close, each of its few best labels gains :data:`WEIGHT` per inlier
of its best enrolled photo. Pure functions of arrays (OpenCV only).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

DETAIL_SIZE = (96, 144)
"""(width, height) of the crops keypoints are found in: enough for a card's printed name."""
FEATURES = 300
"""Most keypoints kept per crop."""
RATIO = 0.75
"""A match counts when its distance is below this share of the second-best match's (Lowe's test)."""
RANSAC_PX = 6.0
"""Largest distance (detail pixels) of an inlier from where the homography puts it."""
CLOSE = 0.05
"""A card whose best cosine leads the runner-up by less than this gets the second opinion."""
CANDIDATES = 3
"""How many of its best labels the second opinion weighs."""
WEIGHT = 0.002
"""Cosine added per inlier (a card matching its own photo has some 20-100, another bean's a few).
Chosen with CLOSE and CANDIDATES on development seeds of the held-out families (models/MODEL_CARD.md)."""
DOUBT = 0.2
"""A label less than this above the threshold needs :data:`LEAST_INLIERS` to keep its cosine; without, it loses this."""
LEAST_INLIERS = 3
"""Inliers a card named near the threshold must share with one of its label's enrolled photos."""
MATCH_WEIGHT = 0.01
"""Cosine added per unit of the detail matcher's logit (:mod:`companion.vision.matcher`) in a close call.
Chosen on development seeds of the held-out families (models/MODEL_CARD.md)."""


@dataclass(frozen=True)
class Keypoints:
    """A crop's keypoints: their positions (N, 2) and SIFT descriptors (N, 128)."""

    points: np.ndarray
    descriptors: np.ndarray


def detail(crop: np.ndarray) -> np.ndarray:
    """``crop`` (BGR) at :data:`DETAIL_SIZE`."""
    w, h = DETAIL_SIZE
    return crop if crop.shape[:2] == (h, w) else cv2.resize(crop, (w, h), interpolation=cv2.INTER_AREA)


def keypoints(crop: np.ndarray) -> Keypoints:
    """The SIFT keypoints of an upright card crop (BGR, any size; taken at :data:`DETAIL_SIZE`)."""
    grey = cv2.cvtColor(detail(crop), cv2.COLOR_BGR2GRAY)
    found, descriptors = cv2.SIFT_create(nfeatures=FEATURES).detectAndCompute(grey, None)  # type: ignore[attr-defined]
    if descriptors is None:
        return Keypoints(np.empty((0, 2), np.float32), np.empty((0, 128), np.float32))
    return Keypoints(np.array([k.pt for k in found], np.float32), descriptors)


def inliers(card: Keypoints, photo: Keypoints) -> int:
    """How many of ``card``'s keypoints match ``photo``'s where one homography puts them."""
    if len(card.descriptors) < 2 or len(photo.descriptors) < 2:
        return 0
    pairs = cv2.BFMatcher(cv2.NORM_L2).knnMatch(card.descriptors, photo.descriptors, k=2)
    good = [p[0] for p in pairs if len(p) == 2 and p[0].distance < RATIO * p[1].distance]
    if len(good) < 4:
        return 0
    source = card.points[[m.queryIdx for m in good]]
    target = photo.points[[m.trainIdx for m in good]]
    _, mask = cv2.findHomography(source, target, cv2.RANSAC, RANSAC_PX)
    return 0 if mask is None else int(mask.sum())


def close_call(row: np.ndarray) -> bool:
    """Whether a card's cosines to the labels (one row) leave its best two within :data:`CLOSE`."""
    ranked = np.sort(row)
    return len(ranked) > 1 and float(ranked[-1] - ranked[-2]) < CLOSE


def near_threshold(row: np.ndarray, threshold: float) -> bool:
    """Whether a card's best cosine is a match, but less than :data:`DOUBT` above ``threshold``."""
    return threshold <= float(row.max()) < threshold + DOUBT


def in_doubt(row: np.ndarray, threshold: float, vouched: bool = False) -> bool:
    """Whether a card's cosines (one row) need the second opinion: a close call, or a best label only just a match
    for a card not ``vouched`` for as a card (it tops a column of several)."""
    return close_call(row) or (near_threshold(row, threshold) and not vouched)


def candidates(row: np.ndarray) -> np.ndarray:
    """The :data:`CANDIDATES` best labels of a card's cosines (one row), best first."""
    return np.argsort(row)[::-1][:CANDIDATES]


def reconsidered(row: np.ndarray, threshold: float, card: Keypoints, photos: Sequence[Sequence[Keypoints]],
                 matched: dict[int, float] | None = None, vouched: bool = False) -> np.ndarray:
    """A card's cosines (one row) after the second opinion (``photos``: per label, its photos' keypoints;
    ``matched``: the detail matcher's logit of each of the card's :func:`candidates`, where it was asked).

    In a close call (:func:`close_call`) each of its :data:`CANDIDATES` best labels gains :data:`WEIGHT` per
    inlier of its best enrolled photo, and :data:`MATCH_WEIGHT` per unit of its matcher logit. Then whichever
    label leads, if less than :data:`DOUBT` above ``threshold``, needs :data:`LEAST_INLIERS` with one of its
    photos, or loses :data:`DOUBT` and the next one leads (so a label the first look ranked lower is never
    named unchecked); unless the card is ``vouched`` for as a card (it tops a column of several) and no other label
    comes close: then only which label it is could be in doubt, and none is.
    """
    found: dict[int, int] = {}

    def best(label: int) -> int:
        if label not in found:
            found[label] = max((inliers(card, photo) for photo in photos[label]), default=0)
        return found[label]

    out = row.copy()
    if not in_doubt(row, threshold, vouched):
        return out
    if close_call(row):
        for label in candidates(row):
            out[label] += WEIGHT * best(int(label)) + MATCH_WEIGHT * (matched or {}).get(int(label), 0.0)
    while True:
        lead = int(np.argmax(out))
        if not threshold <= out[lead] < threshold + DOUBT or best(lead) >= LEAST_INLIERS:
            return out
        out[lead] -= DOUBT  # now under the threshold: the next label leads
