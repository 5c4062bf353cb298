"""Every card and bean field on a table, seen from above: outlines, counts, upright crops and names.

Pure stages, each returning values: :func:`~companion.vision.strips.find_outlines` (OpenCV
edges -> contours -> rectangles of a card or a column of overlapping cards), the band network
(:class:`~companion.vision.columns.ColumnReader`: how many cards, which end is the top card),
:func:`rectify` (each top card warped upright to the classifier's input size) and
:func:`classify` (one batch through :class:`~companion.vision.classifier.CardClassifier`).
:class:`SceneReader` chains them with one session per network, made once. A lone card is a
column of one. Columns must lie apart; a plain table surface gives the cleanest outlines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from companion.vision.classifier import UNKNOWN, CardClassifier, Gallery, Prediction
from companion.vision.columns import ColumnReader
from companion.vision.rectify import warp_card
from companion.vision.strips import find_outlines
from companion.vision.zones import TableZones


@dataclass(frozen=True)
class SeenCard:
    """One card found in a frame: its corners (TL, TR, BR, BL of the upright card), name and confidence."""

    corners: np.ndarray
    label: str
    confidence: float

    def to_json(self) -> dict[str, object]:
        return {"label": self.label, "confidence": self.confidence,
                "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners]}


def rectify(frame: np.ndarray, quads: Sequence[np.ndarray], size: tuple[int, int]) -> list[np.ndarray]:
    """Each quad's card warped upright to ``size`` = (width, height)."""
    return [warp_card(frame, quad, size) for quad in quads]


def classify(classifier: CardClassifier, crops: Sequence[np.ndarray],
             gallery: Gallery | None = None) -> list[Prediction]:
    """Names of upright card crops, in one batch, against ``gallery`` or the shipped labels."""
    return classifier.classify(crops, gallery)


@dataclass(frozen=True)
class Stack:
    """A bean field's column (or a lone card, a column of one): its bean, card count, outline (4 corners
    from its far end, as :class:`~companion.vision.columns.Column`), top card and table zone (None
    without zones)."""

    bean: str
    count: int
    corners: np.ndarray
    top: SeenCard
    zone: str | None = None

    def to_json(self) -> dict[str, object]:
        return {"bean": self.bean, "count": self.count,
                "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners], "zone": self.zone}


@dataclass(frozen=True)
class Scene:
    """What one frame shows: each column's top card as seen (named or ``unknown``), the named columns, and the
    names of the table zones in sight (once :func:`placed`)."""

    cards: tuple[SeenCard, ...]
    stacks: tuple[Stack, ...]
    zones: tuple[str, ...] = ()


def placed(scene: Scene, zones: TableZones) -> Scene:
    """``scene`` with each stack given the zone (of ``zones``, as they lie in this frame) holding its middle."""
    stacks = []
    for stack in scene.stacks:
        x, y = stack.corners.mean(axis=0)
        zone = zones.zone_at((float(x), float(y)))
        stacks.append(replace(stack, zone=zone.name if zone else None))
    return replace(scene, stacks=tuple(stacks), zones=tuple(zone.name for zone in zones.zones))


class SceneReader:
    """Finds, counts and names every card and column of a frame with one session per network, made once."""

    def __init__(self, classifier: CardClassifier | None = None, columns: ColumnReader | None = None) -> None:
        self.classifier = classifier or CardClassifier()
        self.columns = columns or ColumnReader(self.classifier.manifest)

    def read(self, frame: np.ndarray, gallery: Gallery | None = None) -> Scene:
        """The columns of ``frame``, largest first, their top cards named against ``gallery`` or the shipped
        labels; a column whose top card is not recognised is left out of the stacks."""
        columns = [c for c in self.columns.read(frame, find_outlines(frame)) if c is not None]
        tops = rectify(frame, [c.top for c in columns], self.classifier.input_size)
        predictions = classify(self.classifier, tops, gallery)
        cards = tuple(SeenCard(c.top, p.label, p.confidence) for c, p in zip(columns, predictions))
        stacks = tuple(Stack(card.label, c.count, c.outline, card) for c, card in zip(columns, cards)
                       if card.label != UNKNOWN)
        return Scene(cards, stacks)
