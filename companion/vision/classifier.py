"""Naming card crops with the shipped ONNX network (onnxruntime only).

:class:`CardClassifier` takes already-cropped, upright card images (from
:class:`companion.vision.locate.CardLocator` or the later table detector) and classifies
them in batches, against the shipped labels or against an enrolled :class:`Gallery`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pathlib import Path

import numpy as np

from companion.vision.manifest import Manifest, load_manifest
from companion.vision.onnx import open_session
from companion.vision.preprocess import to_input

UNKNOWN = "unknown"
BATCH = 256


@dataclass(frozen=True)
class Prediction:
    """One card's answer: a label (or ``unknown``), its confidence and best cosine."""

    label: str
    confidence: float
    """Softmax probability of ``label``; for ``unknown``, 1 - the best cosine."""
    similarity: float


@dataclass(frozen=True)
class Gallery:
    """Labels with one unit vector each, and the least cosine for a match."""

    labels: tuple[str, ...]
    vectors: np.ndarray
    threshold: float


def decide(cosines: np.ndarray, labels: Sequence[str], threshold: float, scale: float) -> list[Prediction]:
    """Predictions from a (N, K) cosine matrix: best label, or ``unknown`` below ``threshold``."""
    logits = scale * cosines
    probs = np.exp(logits - logits.max(axis=1, keepdims=True))
    probs /= probs.sum(axis=1, keepdims=True)
    out = []
    for row, prob in zip(cosines, probs):
        best = int(row.argmax())
        sim = float(row[best])
        if sim < threshold:
            out.append(Prediction(UNKNOWN, round(min(1.0, max(0.0, 1.0 - sim)), 4), sim))
        else:
            out.append(Prediction(labels[best], round(float(prob[best]), 4), sim))
    return out


class CardClassifier:
    """The shipped card network in one onnxruntime session, created once and reused."""

    def __init__(self, manifest: Manifest | None = None, threads: int = 2, directory: Path | None = None) -> None:
        self.manifest = manifest or load_manifest()
        self.session = open_session(self.manifest.classifier, threads, directory)

    @property
    def input_size(self) -> tuple[int, int]:
        """(width, height) of the crops the network reads."""
        return self.manifest.classifier.input_width, self.manifest.classifier.input_height

    def infer(self, crops: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Embeddings (N, D) and cosines to the shipped labels (N, labels) of card crops."""
        if len(crops) == 0:
            return np.empty((0, self.manifest.embedding_dim), np.float32), np.empty((0, len(self.manifest.labels)))
        parts = [self.session.run(None, {"image": to_input(crops[k:k + BATCH], self.input_size)})
                 for k in range(0, len(crops), BATCH)]
        return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])

    def embed(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """Unit embeddings (N, D) of card crops."""
        return self.infer(crops)[0]

    def classify(self, crops: Sequence[np.ndarray], gallery: Gallery | None = None) -> list[Prediction]:
        """Name each card crop: against ``gallery`` (an enrolled deck) or the shipped labels."""
        embeddings, cosines = self.infer(crops)
        if gallery is None:
            m = self.manifest
            return decide(cosines, m.labels, m.unknown_threshold, m.scale)
        return decide(embeddings @ gallery.vectors.T, gallery.labels, gallery.threshold, self.manifest.scale)
