"""Naming card crops with the shipped ONNX network (onnxruntime only).

:class:`CardClassifier` takes already-cropped, upright card images (from
:class:`companion.vision.locate.CardLocator` or the later table detector) and classifies
them in batches, against the shipped labels or against an enrolled :class:`Gallery`.
A card whose first answer is unsure gets a second look (:meth:`CardClassifier.classify_views`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import onnxruntime as ort

from companion.vision.keypoints import Keypoints, candidates, close_call, in_doubt, keypoints, reconsidered
from companion.vision.manifest import Manifest, load_manifest
from companion.vision.matcher import DetailMatcher
from companion.vision.onnx import open_session
from companion.vision.preprocess import to_input, turned
from companion.vision.views import CardViews

UNKNOWN = "unknown"
BATCH = 256
CARD_SHARE = 0.65
"""The card network's share of a cosine against an enrolled deck, the deck network's the rest: the deck network
tells a deck's own cards apart, the card network keeps cards of other decks apart from them."""
SECOND_LOOK_GAP = 0.1
"""A card whose best cosine leads the next by less than this gets a second look."""
SECOND_LOOK_MARGIN = 0.1
"""A card whose best cosine is less than this above the threshold gets a second look."""
LIKELY_LEAST = 0.001
"""Least softmax probability of a label for a card to keep it among its likely labels (:attr:`Prediction.likely`): a
label left out is less likely than this."""
Likely = tuple[tuple[str, float], ...]
"""The labels a card may be, each with the softmax probability the classifier gave it, most probable first."""


@dataclass(frozen=True)
class Prediction:
    """One card's answer: a label (or ``unknown``), its confidence and best cosine."""

    label: str
    confidence: float
    """Softmax probability of ``label``; for ``unknown``, 1 - the best cosine."""
    similarity: float
    likely: Likely = ()
    """Each label of softmax probability at least :data:`LIKELY_LEAST`, with it, most probable first (the rules may
    rule the first out: :func:`~companion.tracker.view.likelihood`); of ``unknown``, the labels it came nearest,
    though below the threshold (a guess that waits for a tap: :func:`~companion.tracker.view.seat_columns`)."""


@dataclass(frozen=True)
class Gallery:
    """Labels with one unit vector each, and the least cosine for a match; per label, the keypoints
    (:mod:`companion.vision.keypoints`) and detail-matcher features of its enrolled photos, where the deck was
    enrolled with them."""

    labels: tuple[str, ...]
    vectors: np.ndarray
    threshold: float
    details: tuple[tuple[Keypoints, ...], ...] = ()
    matches: tuple[np.ndarray, ...] = ()
    """Per label, the detail matcher's feature maps of its enrolled photos (:mod:`companion.vision.matcher`)."""


def decide(cosines: np.ndarray, labels: Sequence[str], threshold: float, scale: float) -> list[Prediction]:
    """Predictions from a (N, K) cosine matrix: best label, or ``unknown`` below ``threshold``."""
    logits = scale * cosines
    probs = np.exp(logits - logits.max(axis=1, keepdims=True))
    probs /= probs.sum(axis=1, keepdims=True)
    ranked = np.argsort(-probs, axis=1, kind="stable")  # the first of equals, as argmax
    kept = np.take_along_axis(probs, ranked, axis=1).round(4).tolist()
    out = []
    for row, odds, order in zip(cosines, kept, ranked.tolist()):
        best = order[0]
        sim = float(row[best])
        likely = tuple((labels[k], p) for k, p in zip(order, odds) if p >= LIKELY_LEAST)
        if sim < threshold:
            out.append(Prediction(UNKNOWN, round(min(1.0, max(0.0, 1.0 - sim)), 4), sim, likely))
        else:
            out.append(Prediction(labels[best], odds[0], sim, likely))
    return out


def tempered(prediction: Prediction, power: float) -> Prediction:
    """``prediction`` as decided at a temperature ``power`` times its own: each likely label's probability raised to
    ``power`` and the likely labels' renormalised (with ``power`` above 1, a label left out falls further below
    :data:`LIKELY_LEAST`), and a named card's confidence with them (``unknown`` keeps its own); any prediction at
    ``power`` 1 as it is."""
    if power == 1 or not prediction.likely:
        return prediction
    odds = np.array([p for _, p in prediction.likely], np.float64) ** power
    odds = (odds / odds.sum()).round(4)
    likely = tuple((label, float(p)) for (label, _), p in zip(prediction.likely, odds) if p >= LIKELY_LEAST)
    confidence = prediction.confidence if prediction.label == UNKNOWN else likely[0][1]
    return replace(prediction, confidence=confidence, likely=likely)


def unsure(cosines: np.ndarray, threshold: float) -> np.ndarray:
    """Which rows of a (N, K) cosine matrix deserve a second look: a close runner-up, or
    a best cosine near ``threshold``."""
    ranked = np.sort(cosines, axis=1)
    best = ranked[:, -1]
    runner_up = ranked[:, -2] if cosines.shape[1] > 1 else np.full_like(best, -1.0)
    return (best - runner_up < SECOND_LOOK_GAP) | (best < threshold + SECOND_LOOK_MARGIN)


class CardClassifier:
    """The shipped card network and deck network, each in one onnxruntime session, created once and reused."""

    def __init__(self, manifest: Manifest | None = None, threads: int = 2, directory: Path | None = None) -> None:
        self.manifest = manifest or load_manifest()
        outputs = [(None, self.manifest.embedding_dim), (None, len(self.manifest.labels))]  # embeddings, cosines
        self.session = open_session(self.manifest.classifier, outputs, threads, directory)
        self.deck_session = open_session(self.manifest.deck, [(None, self.manifest.deck_embedding_dim)], threads,
                                         directory)
        self.matcher = DetailMatcher(self.manifest, threads, directory)

    @property
    def input_size(self) -> tuple[int, int]:
        """(width, height) of the crops the card network reads."""
        return self.manifest.classifier.input_width, self.manifest.classifier.input_height

    @property
    def deck_dim(self) -> int:
        """Size of the embeddings that name an enrolled deck (:meth:`deck_embed`)."""
        return self.manifest.embedding_dim + self.manifest.deck_embedding_dim

    def infer(self, crops: Sequence[np.ndarray], deck: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """Embeddings and cosines to the shipped labels (N, labels) of card crops: the card network's
        embeddings (N, D), or with ``deck`` those that name an enrolled deck (:meth:`deck_embed`)."""
        if len(crops) == 0:
            dim = self.deck_dim if deck else self.manifest.embedding_dim
            return np.empty((0, dim), np.float32), np.empty((0, len(self.manifest.labels)), np.float32)
        parts = batched(self.session, crops, self.input_size)
        embeddings, shipped = np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
        return (side_by_side(embeddings, self.deck_network(crops)) if deck else embeddings), shipped

    def deck_network(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """The deck network's unit embeddings (N, D') of card crops, the same for a crop and its 180° turn."""
        size = self.manifest.deck.input_width, self.manifest.deck.input_height
        return np.concatenate([p[0] for p in batched(self.deck_session, crops, size)])

    def embed(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """The card network's unit embeddings (N, D) of card crops."""
        return self.infer(crops)[0]

    def deck_embed(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """Unit embeddings of card crops for naming an enrolled deck: the card network's and the deck network's
        side by side, each scaled by 1/sqrt(2), so that the cosine of two is the mean of the two networks' cosines.
        The deck network, trained to tell one deck's cards apart whatever its colours, reads printed detail the
        card network's colour-led embedding passes over."""
        return self.infer(crops, deck=True)[0]

    def classify(self, crops: Sequence[np.ndarray], gallery: Gallery | None = None) -> list[Prediction]:
        """Name each card crop: against ``gallery`` (an enrolled deck) or the shipped labels."""
        return self.classify_views([CardViews([crop]) for crop in crops], gallery)

    def classify_views(self, views: Sequence[CardViews], gallery: Gallery | None = None,
                       scale: float | None = None) -> list[Prediction]:
        """Name each card from its views (:class:`~companion.vision.views.CardViews`), against
        ``gallery`` (an enrolled deck) or the shipped labels, its confidence at ``scale`` (by default
        :meth:`scale`'s); a card without framings is ``unknown``."""
        threshold = self.threshold(gallery)
        cosines = self.cosines(views, gallery, threshold)
        return decide(cosines, self.labels(gallery), threshold, self.scale(gallery) if scale is None else scale)

    def scale(self, gallery: Gallery | None) -> float:
        """The softmax temperature of cosines to ``gallery``'s prototypes, or to the shipped labels."""
        return self.manifest.scale if gallery is None else self.manifest.deck_scale

    def threshold(self, gallery: Gallery | None) -> float:
        """The least cosine for a match against ``gallery``, or against the shipped labels."""
        return self.manifest.unknown_threshold if gallery is None else gallery.threshold

    def labels(self, gallery: Gallery | None) -> tuple[str, ...]:
        """The labels ``gallery`` (or, without one, the shipped model) can name."""
        return self.manifest.labels if gallery is None else gallery.labels

    @staticmethod
    def against(embeddings: np.ndarray, shipped: np.ndarray, gallery: Gallery | None) -> np.ndarray:
        """Cosines of embeddings to ``gallery``'s prototypes, or their cosines to the shipped labels."""
        return shipped if gallery is None else embeddings @ gallery.vectors.T

    def cosines(self, views: Sequence[CardViews], gallery: Gallery | None, threshold: float) -> np.ndarray:
        """(N, labels) cosines of each card to the shipped labels or ``gallery``'s.

        The first framing decides, unless its answer is :func:`unsure`. Then comes a second
        look: the card's embedding is the mean over all its framings and their 180° turns,
        and each reframing (with its turn) is a reading of its own, whose cosines count where
        they are higher. Both the network and the prototypes (:mod:`companion.vision.profile`)
        see cards either way up, and the mean smooths a framing's miss. A card still unsure
        after it gets a third look: each of its neighbours (with its turn) is one more such
        reading (the caller gives neighbours only for a card it found still unsure:
        :meth:`~companion.vision.reader.CardReader.name`). Most cards need one pass. A card
        without framings (no card was found) gets cosine -1 to every label, below any
        threshold. Against a gallery enrolled with keypoints, a card whose best two labels are
        still close, or whose best is only just a match (unless it is vouched for), gets the second opinion of its
        details (:func:`~companion.vision.keypoints.reconsidered`, with :meth:`matched` in a close call).
        """
        seen = [i for i, v in enumerate(views) if len(v.framings)]
        embeddings, shipped = self.infer([views[i].framings[0] for i in seen], deck=gallery is not None)
        cosines = np.full((len(views), len(self.labels(gallery))), -1.0, np.float32)
        cosines[seen] = self.against(embeddings, shipped, gallery)
        doubtful = [seen[k] for k in np.flatnonzero(unsure(cosines[seen], threshold))]
        self._read(cosines, [(i, views[i].framings, True) for i in doubtful]
                  + [(i, [crop], False) for i in doubtful for crop in views[i].reframings], gallery)
        still = [i for i, doubt in zip(doubtful, unsure(cosines[doubtful], threshold)) if doubt]
        self._read(cosines, [(i, [crop], False) for i in still for crop in views[i].neighbours], gallery)
        if gallery is not None and gallery.details:
            for i in seen:
                if in_doubt(cosines[i], threshold, views[i].vouched) and len(views[i].details):
                    crop = views[i].details[0]
                    cosines[i] = reconsidered(cosines[i], threshold, keypoints(crop), gallery.details,
                                              self.matched(crop, cosines[i], gallery), views[i].vouched)
        return cosines

    def matched(self, crop: np.ndarray, row: np.ndarray, gallery: Gallery) -> dict[int, float] | None:
        """In a close call (``row``: the card's cosines), the detail matcher's logit of the card's detail crop
        (either way up) against each candidate label's enrolled photos; else (or without their features) none."""
        if not gallery.matches or not close_call(row):
            return None
        card = self.matcher.features([crop, turned(crop)])
        return {int(k): self.matcher.logit(card, gallery.matches[k]) for k in candidates(row)}

    def _read(self, cosines: np.ndarray, readings: Sequence[tuple[int, Sequence[np.ndarray], bool]],
             gallery: Gallery | None) -> None:
        """Update rows of ``cosines`` with readings ``(card, crops, replaces)``, all in one pass: the cosines of
        the mean embedding of the crops and their 180° turns replace the card's, or count where they are higher.
        (The deck network reads a crop and its turn alike, so it reads the crops alone.)"""
        crops = [crop for _, some, _ in readings for crop in some]
        embeddings, shipped = self.infer([*crops, *map(turned, crops)])
        deck = self.deck_network(crops) if gallery is not None and crops else None
        start, half = 0, len(crops)
        for i, some, replaces in readings:
            rows = [*range(start, start + len(some)), *range(half + start, half + start + len(some))]
            mean = embeddings[rows].mean(axis=0)
            if deck is not None:
                mean = side_by_side(mean, deck[start:start + len(some)].mean(axis=0))
            start += len(some)
            norm = float(np.linalg.norm(mean))
            # the shipped cosines are linear in the embedding: theirs is the mean's too
            reading = self.against(mean / norm, shipped[rows].mean(axis=0) / norm, gallery)
            cosines[i] = reading if replaces else np.maximum(cosines[i], reading)


def batched(session: ort.InferenceSession, crops: Sequence[np.ndarray],
            size: tuple[int, int]) -> list[list[np.ndarray]]:
    """A network's outputs for card crops resized to ``size``, run ``BATCH`` crops a call."""
    return [session.run(None, {"image": to_input(crops[k:k + BATCH], size)}) for k in range(0, len(crops), BATCH)]


def side_by_side(card: np.ndarray, deck: np.ndarray) -> np.ndarray:
    """The card network's and the deck network's embeddings (or their means) side by side, scaled by the square
    roots of :data:`CARD_SHARE` and the rest: of unit embeddings, a unit embedding whose cosines are the two
    networks' weighted so."""
    return np.concatenate([card * np.float32(np.sqrt(CARD_SHARE)), deck * np.float32(np.sqrt(1 - CARD_SHARE))],
                          axis=-1)
