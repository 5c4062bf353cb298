"""The detail matcher: how well a card's detail crop matches an enrolled photo's, by the shipped ONNX networks.

Its two networks (trained by :mod:`models.train_detail`) run in one onnxruntime session each, made once:
``features`` turns a crop at the detail size into a feature map, ``compare`` gives a pair of maps (the
card's, an enrolled photo's) a match logit. An enrolled photo's map is made once, when its deck is
loaded (:func:`companion.vision.profile.gallery`); a card's, only when its close call asks
(:meth:`companion.vision.classifier.CardClassifier.cosines`). The same comparison tells an enrollment photo
whose crop is in doubt: its framings (cropped at each stage's corners) match each other poorly when the
outline took in cloth, the card lies turned inside it or runs off the photo (:meth:`DetailMatcher.crop_in_doubt`).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from pathlib import Path

import numpy as np

from companion.vision.manifest import Manifest
from companion.vision.onnx import open_session
from companion.vision.preprocess import to_input, turned

CROP_DOUBT = 6.0
"""An enrollment photo whose framings match each other worse than this (the least logit between two of them) has
its crop in doubt. A crop that matches itself scores 15-25. Chosen on development seeds of the held-out families
(models/MODEL_CARD.md, "An enrollment photo's crop in doubt")."""


class DetailMatcher:
    """The shipped detail matcher's two sessions."""

    def __init__(self, manifest: Manifest, threads: int = 2, directory: Path | None = None) -> None:
        features, compare = manifest.detail_features, manifest.detail_compare
        fmap = (manifest.detail_channels, compare.input_height, compare.input_width)
        self.size = (features.input_width, features.input_height)
        self.features_session = open_session(features, [(None, *fmap)], threads, directory)
        self.compare_session = open_session(compare, [(None,)], threads, directory,
                                            inputs=[("card", (None, *fmap)), ("photo", (None, *fmap))])
        self.shape = fmap

    def features(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """Feature maps (N, C, H, W) of upright card crops (BGR, any size; taken at the detail size)."""
        if len(crops) == 0:
            return np.empty((0, *self.shape), np.float32)
        return self.features_session.run(None, {"image": to_input(crops, self.size)})[0]

    def logit(self, card: np.ndarray, photos: np.ndarray) -> float:
        """How well a card matches one label: the best logit of the card's maps (itself and its 180° turn, (2, C,
        H, W)) against each of the label's enrolled photos' maps (P, C, H, W); a label without photos gets -inf."""
        if len(photos) == 0:
            return float("-inf")
        cards = np.repeat(card, len(photos), axis=0)
        paired = np.tile(photos, (len(card), 1, 1, 1))
        return float(self.compare_session.run(None, {"card": cards, "photo": paired})[0].max())

    def agreement(self, framings: Sequence[np.ndarray]) -> float | None:
        """How well a photo's framings match each other: the least logit of one (either way up) against another;
        None for fewer than two."""
        if len(framings) < 2:
            return None
        maps = self.features(framings)
        turns = self.features([turned(crop) for crop in framings])
        return min(self.logit(np.stack([maps[a], turns[a]]), maps[b:b + 1])
                   for a, b in combinations(range(len(framings)), 2))

    def crop_in_doubt(self, framings: Sequence[np.ndarray]) -> bool:
        """Whether an enrollment photo's framings disagree so much (:data:`CROP_DOUBT`) that its crop is likely off:
        cloth in it, the card turned inside it, or the card running off the photo. A group is best told to take it
        again."""
        agreement = self.agreement(framings)
        return agreement is not None and agreement < CROP_DOUBT
