"""Every card on a table, seen from above: outlines, upright crops and names.

Three pure stages, each returning values: :func:`find_quads` (OpenCV edges ->
contours -> quadrilaterals of a card's aspect ratio), :func:`rectify` (each quad
warped upright to the classifier's input size) and :func:`classify` (one batch
through :class:`~companion.vision.classifier.CardClassifier`). :class:`SceneReader`
chains them with one classifier session made once.

Cards must lie apart (an overlapping column of a bean field reads as one shape, not a
card); a plain table surface gives the cleanest outlines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.classifier import CardClassifier, Gallery, Prediction
from companion.vision.corners import fit_sides
from companion.vision.rectify import CARD_ASPECT, order_corners, warp_card

ASPECT_TOLERANCE = 0.22
"""How far (relative) a quad's short/long side ratio may be from a card's, for perspective."""
MIN_AREA_SHARE = 0.002
"""Least area of a card, as a share of the frame (smaller shapes are noise or far away)."""
MAX_AREA_SHARE = 0.6
"""Largest area of a card, as a share of the frame."""
EDGE_THRESHOLDS = (30, 80)
"""Canny's low and high gradient thresholds, per colour channel."""
MIN_FILL = 0.85
"""Least share of its quad that a shape's outline must fill (a card is a convex quad)."""


@dataclass(frozen=True)
class SeenCard:
    """One card found in a frame: its corners (TL, TR, BR, BL of the upright card), name and confidence."""

    corners: np.ndarray
    label: str
    confidence: float

    def to_json(self) -> dict[str, object]:
        return {"label": self.label, "confidence": self.confidence,
                "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners]}


def _edges(frame: np.ndarray) -> np.ndarray:
    """Closed card outlines: Canny edges of each colour channel (a card may differ from the table in
    colour more than in brightness), gaps closed."""
    blurred = cv2.GaussianBlur(frame, (5, 5), 0)
    edges: np.ndarray = np.zeros(frame.shape[:2], np.uint8)
    for channel in cv2.split(blurred):
        edges |= cv2.Canny(channel, EDGE_THRESHOLDS[0], EDGE_THRESHOLDS[1])
    return cv2.morphologyEx(edges, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (5, 5)))


def _as_card(hull: np.ndarray) -> np.ndarray | None:
    """The 4 corners of a convex outline if it is card-shaped, else ``None``."""
    approx = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True).reshape(-1, 2)
    quad = approx if len(approx) == 4 else cv2.boxPoints(cv2.minAreaRect(hull))
    quad = order_corners(quad.astype(np.float32))
    if cv2.contourArea(hull) < MIN_FILL * cv2.contourArea(quad):
        return None
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    short, long = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    if long <= 0 or abs(short / long - CARD_ASPECT) > ASPECT_TOLERANCE * CARD_ASPECT:
        return None
    return quad


def find_quads(frame: np.ndarray) -> list[np.ndarray]:
    """Corners (4 x 2, ordered as :func:`order_corners`) of every card-shaped outline, largest first."""
    h, w = frame.shape[:2]
    edges = _edges(frame)
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    found = []
    for contour in contours:
        hull = cv2.convexHull(contour)
        area = cv2.contourArea(hull)
        if not MIN_AREA_SHARE * w * h <= area <= MAX_AREA_SHARE * w * h:
            continue
        quad = _as_card(hull)
        if quad is not None:
            found.append((area, order_corners(fit_sides(hull, quad))))
    return [quad for _, quad in sorted(found, key=lambda item: -item[0])]


def rectify(frame: np.ndarray, quads: Sequence[np.ndarray], size: tuple[int, int]) -> list[np.ndarray]:
    """Each quad's card warped upright to ``size`` = (width, height)."""
    return [warp_card(frame, quad, size) for quad in quads]


def classify(classifier: CardClassifier, crops: Sequence[np.ndarray],
             gallery: Gallery | None = None) -> list[Prediction]:
    """Names of upright card crops, in one batch, against ``gallery`` or the shipped labels."""
    return classifier.classify(crops, gallery)


class SceneReader:
    """Finds and names every card of a frame with one classifier session, made once."""

    def __init__(self, classifier: CardClassifier | None = None) -> None:
        self.classifier = classifier or CardClassifier()

    def read(self, frame: np.ndarray, gallery: Gallery | None = None) -> list[SeenCard]:
        """The cards of ``frame``, largest first, named against ``gallery`` or the shipped labels."""
        quads = find_quads(frame)
        predictions = classify(self.classifier, rectify(frame, quads, self.classifier.input_size), gallery)
        return [SeenCard(quad, p.label, p.confidence) for quad, p in zip(quads, predictions)]
