"""Every card and bean field on a table, seen from above: outlines, counts, upright crops and names.

Pure stages, each returning values: :func:`~companion.vision.strips.outlined` (OpenCV
edges -> contours -> rectangles of a card or a column of overlapping cards, and the card-shaped pieces
of one that joins cards lying side by side), each run on along its length where its edges broke off
(:func:`~companion.vision.lengthen.lengthened_all`), the band network
(:class:`~companion.vision.columns.ColumnReader`: how many cards, which end is the top card; a column no longer
than the frame's lone cards lying its way is one card, or than all of them measured on the table's plane where fewer
lie its way and the markers give the plane, :func:`~companion.vision.card_sized.card_sized`, and one longer than them
is not, whichever end looks more like a card, :func:`measured`),
:func:`rectify` (each top card warped upright to the classifier's input size) and
:func:`classify` (one batch through :class:`~companion.vision.classifier.CardClassifier`; a top card not
named at first is named again with its corners :func:`sharpened` by the corner refiner).
:class:`SceneReader` chains them with one session per network, made once. A lone card is a
column of one. Columns must lie apart; a plain table surface gives the cleanest outlines.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from companion.cards import BACK
from companion.vision.card_sized import card_sized, room_for_two, too_long_for_one
from companion.vision.classifier import UNKNOWN, CardClassifier, Gallery, Likely, Prediction, tempered
from companion.vision.columns import Column, ColumnReader
from companion.vision.keypoints import DETAIL_SIZE
from companion.vision.plane import moved, rectifying
from companion.vision.rectify import warp_card
from companion.vision.refine import CornerRefiner
from companion.vision.sight import Sight, sight
from companion.vision.strips import halves, to_strip
from companion.vision.views import CardViews, Deferred
from companion.vision.zones import TableZones, carried

Pair = tuple[Column, Prediction]
"""A column with its top card named."""
Held = tuple[Pair, ...]
"""What one outline holds: its column (or its pieces' columns), each with its top card named."""
Looked = tuple[Held, Pair | None]
"""What one outline holds, with the reading of several cards its look set aside (:func:`by_look`), if any."""
DOUBTFUL = 0.9
"""Below this confidence (at the training scale: :func:`classify`) a lone card's outline is read as its card-shaped
pieces, or its halves (:func:`~companion.vision.strips.halves`), too: two cards of a group's own deck lying side by
side, joined into one outline, may pass for one card, unsure."""
TOP_ROUNDS = 1
"""Rounds of the corner refiner for a column's top card not recognised at first (two named fewer on the tuning
tables)."""
LOOK_MARGIN = 0.1
"""How much nearer (best cosine) a card of the deck the top card read from a column's other end must look to settle
the end (:func:`by_look`). Of the 53 such columns of several on the development tables, the one read from its wrong
end looked 0.26 less like a card there; of the others, two looked less like one than their other end (by 0.01 and
0.08), and one counted wrong from either end by 0.26."""


@dataclass(frozen=True)
class SeenCard:
    """One card found in a frame: its corners (TL, TR, BR, BL of the upright card), name and confidence, and the
    labels it may be (:attr:`~companion.vision.classifier.Prediction.likely`)."""

    corners: np.ndarray
    label: str
    confidence: float
    likely: Likely = ()

    def to_json(self) -> dict[str, object]:
        return {"label": self.label, "confidence": self.confidence,
                "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners]}


def rectify(frame: np.ndarray, quads: Sequence[np.ndarray], size: tuple[int, int]) -> list[np.ndarray]:
    """Each quad's card warped upright to ``size`` = (width, height)."""
    return [warp_card(frame, quad, size) for quad in quads]


def classify(classifier: CardClassifier, crops: Sequence[np.ndarray], gallery: Gallery | None = None,
             details: Sequence[Sequence[np.ndarray]] | None = None, vouched: Sequence[bool] = ()) -> list[Prediction]:
    """Names of upright card crops, in one batch, against ``gallery`` or the shipped labels, each confidence at the
    training scale, where the scene's rules for outlines were set (:data:`DOUBTFUL`); ``details`` (per crop, the card
    at the detail size, made on first use) give an enrolled deck's close calls a second opinion; ``vouched`` (per
    crop): it tops a column of several (:class:`~companion.vision.views.CardViews`)."""
    views = [CardViews([crop], details=details[k] if details else (), vouched=bool(vouched) and vouched[k])
             for k, crop in enumerate(crops)]
    return classifier.classify_views(views, gallery, classifier.manifest.scale)


def sharpened(refiner: CornerRefiner, frame: np.ndarray, quads: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Each top card's corners after one round of the corner refiner (a column's outline is as wide as its
    cards slipped sideways, so its top card's quad takes in some of the table), in their own order."""
    return [in_order(quad, sharp) for quad, sharp in zip(quads, refiner.refine(frame, list(quads), TOP_ROUNDS))]


def in_order(quad: np.ndarray, sharp: np.ndarray) -> np.ndarray:
    """``sharp``'s corners turned to start at the one nearest ``quad``'s first (so the card stays upright)."""
    turns = [np.roll(sharp, -k, axis=0) for k in range(4)]
    return min(turns, key=lambda turn: float(np.linalg.norm(turn - quad, axis=1).sum())).astype(np.float32)


def detailed(frame: np.ndarray, quad: np.ndarray) -> Deferred:
    """The card at ``quad`` warped upright at the detail size, when first asked for."""
    return Deferred(lambda: [warp_card(frame, quad, DETAIL_SIZE)])


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
    unnamed: tuple[Stack, ...] = ()
    """The columns whose top card names nothing (a card too small or blurred to name, far off at a slant, or something
    card-shaped that is no card), bean ``unknown``: left out of the stacks, and told to the referee as fields of a
    bean it does not know where a field of the game may be one (:func:`~companion.tracker.view.seat_columns`)."""


def placed(scene: Scene, zones: TableZones) -> Scene:
    """``scene`` with each stack (named or not) given the zone (of ``zones``, as they lie in this frame) holding its
    middle."""

    def place(stack: Stack) -> Stack:
        x, y = stack.corners.mean(axis=0)
        zone = zones.zone_at((float(x), float(y)))
        return replace(stack, zone=zone.name if zone else None)

    return replace(scene, stacks=tuple(map(place, scene.stacks)), unnamed=tuple(map(place, scene.unnamed)),
                   zones=tuple(zone.name for zone in zones.zones))


class SceneReader:
    """Finds, counts and names every card and column of a frame with one session per network, made once.

    It remembers the last frame's columns by outline and look (:func:`look`), so that a column that did
    not change (a hand moves elsewhere on the table) is not counted and named again.
    """

    def __init__(self, classifier: CardClassifier | None = None, columns: ColumnReader | None = None,
                 refiner: CornerRefiner | None = None) -> None:
        self.classifier = classifier or CardClassifier()
        self.columns = columns or ColumnReader(self.classifier.manifest)
        self.refiner = refiner or CornerRefiner(self.classifier.manifest.refiner)
        self._known: dict[tuple, Looked] = {}
        self._plane: tuple[tuple[int, int], dict[int, np.ndarray], np.ndarray | None] = ((0, 0), {}, None)
        """The frame size and markers the table's plane was last found by, and that plane (:meth:`table_plane`)."""

    def read(self, frame: np.ndarray, gallery: Gallery | None = None, sighted: Sight | None = None) -> Scene:
        """The columns of ``frame``, largest first, their top cards named against ``gallery`` or the shipped
        labels; a column whose top card is not recognised is left out of the stacks, and kept apart
        (:attr:`Scene.unnamed`). The outlines are ``sighted``'s
        (:func:`~companion.vision.sight.sight` of the frame by default: printed markers cut out). An outline whose
        card is not recognised, and that holds card-shaped pieces (cards side by side that the light joined), is read
        as those pieces; one that holds none, as its two halves where both name a card
        (:func:`~companion.vision.strips.halves`: cards side by side that a glare spot over the gap between them
        joined); one read as a lone card named below :data:`DOUBTFUL`, as its pieces (or else its halves) where each
        names a card more surely than it. Each card is reported with its
        confidence at the deck's scale (:meth:`~companion.vision.classifier.CardClassifier.scale`): how often a name
        so sure is right. A column whose other end's reading of one card looked more like a card than its reading of
        several is read as several where the frame's lone cards measure it too long for one (:func:`measured`)."""
        sighted = sighted or sight(frame)
        found = sighted.outlines
        keys = [(id(gallery), *look(frame, outline)) for outline, _ in found]
        new = [k for k, key in enumerate(keys) if key not in self._known]
        read = dict(zip(new, self._hold(frame, [found[k][0] for k in new], gallery)))
        unnamed = [k for k in new if not _named(read[k][0])]
        doubtful = [k for k in new if _doubtful(read[k][0])]
        lone = [found[k][0] for k, key in enumerate(keys)
                if _lone_and_sure((read[k] if k in read else self._known[key])[0])]
        parts = {k: found[k][1] or (halves(found[k][0]) if room_for_two(found[k][0], lone) else [])
                 for k in [*unnamed, *doubtful]}
        held_in = iter(self._hold(frame, [piece for k in parts for piece in parts[k]], gallery))
        for k in parts:
            held = tuple(pair for _ in parts[k] for pair in next(held_in)[0])
            if k in doubtful:  # two cards or one: the parts only where each names a card more surely than the whole
                if (len(held) == len(parts[k]) > 1 and all(p.label != UNKNOWN for _, p in held)
                        and min(p.confidence for _, p in held) > read[k][0][0][1].confidence):  # fmt: skip
                    read[k] = (held, None)
            elif _named(held) and (found[k][1] or _both_named(held)):  # halves: taken only where both name a card
                read[k] = (held, None)
        self._known = {key: read[k] if k in read else self._known[key] for k, key in enumerate(keys)}
        plane = self.table_plane(sighted.markers, (frame.shape[1], frame.shape[0]))
        pairs = measured([self._known[key] for key in keys], plane)
        power = self.classifier.scale(gallery) / self.classifier.manifest.scale  # named at the deck's temperature
        seen = list(zip(card_sized([column for column, _ in pairs], plane), [tempered(p, power) for _, p in pairs]))
        cards = tuple(SeenCard(c.top, p.label, p.confidence, p.likely) for c, p in seen)
        stacks = [Stack(card.label, c.count, c.outline, card) for (c, _), card in zip(seen, cards)]
        return Scene(cards, tuple(s for s in stacks if s.bean != UNKNOWN),
                     unnamed=tuple(s for s in stacks if s.bean == UNKNOWN))

    def table_plane(self, markers: Mapping[int, np.ndarray], size: tuple[int, int]) -> np.ndarray | None:
        """The map of a ``size`` frame onto the table's plane by its ``markers``
        (:func:`~companion.vision.plane.rectifying`; None with too few of them), found again only where they are other
        markers or moved (:func:`~companion.vision.plane.moved`): a still camera's frames keep it."""
        was_size, was, plane = self._plane
        if size != was_size or markers.keys() != was.keys() or moved(was, markers):
            plane = rectifying(markers, size)
            self._plane = (size, dict(markers), plane)
        return plane

    def _hold(self, frame: np.ndarray, outlines: list[np.ndarray], gallery: Gallery | None) -> list[Looked]:
        """What each outline holds: its column with its top card named, or nothing (no column found, or one that
        nothing vouches for not named a bean: :attr:`~companion.vision.columns.Column.plain`); with the reading its
        look set aside, if any (:meth:`_name`)."""
        columns = self.columns.read(frame, outlines)
        named = iter(self._name(frame, [c for c in columns if c is not None], gallery))
        held = [None if c is None else next(named) for c in columns]
        return [((), None) if looked is None or (looked[0][0].plain and looked[0][1].label in (UNKNOWN, BACK))
                else ((looked[0],), looked[1]) for looked in held]

    def _name(self, frame: np.ndarray, columns: list[Column],
              gallery: Gallery | None) -> list[tuple[Pair, Pair | None]]:
        """Each column with its top card named; where its other end too was explained as cards, the end whose top
        card looks more like a card of the deck (:func:`by_look`), and, where that is the other end's reading of one
        card, the reading of several set aside; a top card not recognised is looked at again with its corners
        sharpened (:func:`sharpened`)."""
        others = [(k, c.other) for k, c in enumerate(columns) if c.other is not None]
        readings = [*columns, *(other for _, other in others)]  # named in one batch
        vouched = [c.count > 1 and not c.plain for c in readings]  # a column of several vouches for its top card
        looks = self._classify(frame, [c.top for c in readings], gallery, vouched)
        named = list(zip(columns, looks))
        aside: dict[int, Pair] = {}
        for (k, other), prediction in zip(others, looks[len(columns):]):
            first = named[k]
            named[k] = by_look(first, (other, prediction))
            if named[k][0] is other and other.count == 1 < first[0].count:
                aside[k] = first
        again = [k for k, (_, p) in enumerate(named) if p.label == UNKNOWN]
        if again:
            sharp = sharpened(self.refiner, frame, [columns[k].top for k in again])
            again_named = self._classify(frame, sharp, gallery, [vouched[k] for k in again])
            for k, top, prediction in zip(again, sharp, again_named):
                if prediction.label != UNKNOWN:
                    named[k] = (replace(columns[k], top=top), prediction)
        return [(pair, aside.get(k)) for k, pair in enumerate(named)]

    def _classify(self, frame: np.ndarray, quads: list[np.ndarray], gallery: Gallery | None,
                  vouched: list[bool]) -> list[Prediction]:
        crops = rectify(frame, quads, self.classifier.input_size)
        return classify(self.classifier, crops, gallery, [detailed(frame, quad) for quad in quads], vouched)


def by_look(read: tuple[Column, Prediction], other: tuple[Column, Prediction]) -> tuple[Column, Prediction]:
    """Of a column read from its better explained end and from its other end, each with its top card named: the
    other where its top card is named and its best cosine beats the first's by :data:`LOOK_MARGIN` (the first's top
    card is then the covered cards' bands, whose rows repeat like cards)."""
    (_, first), (_, second) = read, other
    wins = second.label != UNKNOWN and second.similarity >= first.similarity + LOOK_MARGIN
    return other if wins else read


def measured(looked: Sequence[Looked], plane: np.ndarray | None = None) -> list[Pair]:
    """Every column of a frame, from what each outline holds (its look's choice), with its top card named; but an
    outline the look read as one card, setting aside its reading of several, is read as several where the frame's
    other lone cards measure it too long for one card (:func:`~companion.vision.card_sized.too_long_for_one`, on the
    table's ``plane`` where given)."""
    pairs = [pair for held, _ in looked for pair in held]
    starts = np.cumsum([0, *(len(held) for held, _ in looked)])
    aside = {int(start): pair for start, (_, pair) in zip(starts, looked) if pair is not None}
    too_long = too_long_for_one([column for column, _ in pairs], aside.keys(), plane)
    return [aside[k] if k in too_long else pair for k, pair in enumerate(pairs)]


def _named(held: Held) -> bool:
    """Whether an outline's reading names a card."""
    return any(prediction.label != UNKNOWN for _, prediction in held)


def _lone_card(held: Held) -> Prediction | None:
    """The name of an outline read as one lone card named (not ``unknown``); None for any other reading."""
    return held[0][1] if len(held) == 1 and held[0][0].count == 1 and held[0][1].label != UNKNOWN else None


def _doubtful(held: Held) -> bool:
    """Whether an outline's reading is one lone card named below :data:`DOUBTFUL`."""
    return (name := _lone_card(held)) is not None and name.confidence < DOUBTFUL


def _lone_and_sure(held: Held) -> bool:
    """Whether an outline's reading is one lone card named at :data:`DOUBTFUL` or more: a card's size in the frame."""
    return (name := _lone_card(held)) is not None and name.confidence >= DOUBTFUL


def _both_named(held: Held) -> bool:
    """Whether an outline's two halves each name a card."""
    return len(held) == 2 and all(prediction.label != UNKNOWN for _, prediction in held)


def read_table(reader: SceneReader, frame: np.ndarray, zones: TableZones, gallery: Gallery | None = None,
               earlier: Mapping[int, np.ndarray] | None = None,
               sighted: Sight | None = None) -> tuple[Scene, TableZones, dict[int, np.ndarray]]:
    """The scene of ``frame`` placed in ``zones`` as they lie on it, those zones, and the printed markers that
    placed them: those found on the frame (by ``sighted``, its :func:`~companion.vision.sight.sight` by default:
    found once, and cut out of the cards' outlines) and those of an ``earlier`` frame that are hidden on this one
    (:func:`~companion.vision.zones.carried`)."""
    sighted = sighted or sight(frame)
    markers = carried(sighted.markers, earlier or {})
    here = zones.locate(markers)
    return placed(reader.read(frame, gallery, sighted), here), here, markers


def look(frame: np.ndarray, outline: np.ndarray) -> tuple[bytes, bytes]:
    """An outline and what lies in it, coarsely (corners to 2 px, colours of 4 x 16 patches to 16 levels): the
    same for a column that did not change, frame after frame."""
    strip, rows = to_strip(frame, outline)
    patches = cv2.resize(strip[:max(rows, 1)], (4, 16), interpolation=cv2.INTER_AREA) // 16
    return (np.round(outline / 2).astype(np.int32).tobytes(), patches.tobytes())
