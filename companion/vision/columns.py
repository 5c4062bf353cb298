"""Field columns: how many cards each column holds, which end it starts from, and its top card.

Pure stages, each returning values: :func:`~companion.vision.strips.to_strip` warps a
column's outline into a strip both ways round (each with its own rows: an outline's two ends may
differ in width), :meth:`BandNetwork.infer` runs the band network (one onnxruntime session, made
once) on all strips in one batch, the top checker looks again at each row where it believes in a card
top (:mod:`companion.vision.top_check`), and :func:`~companion.vision.bands.explain` explains each strip
as covered bands that start like the top card, weighed with the networks' belief in each card top.
:func:`decide` keeps the end explained best; the top card is the strip from the last top on, mapped
back into the frame. Each outline is also read a little narrower and wider, and as the rectangle along it that holds
it (:func:`squared`), and the count most readings agree on stands (:func:`voted`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from companion.vision.bands import Explained, explain
from companion.vision.manifest import Manifest, load_manifest
from companion.vision.onnx import open_session
from companion.vision.preprocess import to_input
from companion.vision.strips import CARD_ROWS, STRIP_L, STRIP_W, axis, strip_transform, to_strip, turned
from companion.vision.top_check import TopChecker

PLAIN_FACE = 0.05
"""Least spread (standard deviation of its colours in [0, 1]) of a lone card's face: a box lid or the back of
a phone, card-shaped but plain, has less."""
INSIDE = 0.15
"""Share of the face left out at each side when judging its spread (the outline may take in some table)."""
JITTER = 0.03
"""How much narrower and wider each outline is read again, as a share of its width at each long side: a count can
hang on a pixel of outline (the bands' best explanations with one card more or less score alike), so of the
readings (:data:`AGAIN`) the count most agree on stands."""
AGAIN = ((False, -JITTER), (False, JITTER), (True, 0.0), (True, -JITTER), (True, JITTER))
"""How each column is read again for its vote, after its outline as found: whether squared (:func:`squared`), and
how much wider (:func:`widened`). An outline's sides are fitted to the edges of its shape one by one, so its ends
may differ in width by some pixels where the camera sees no perspective (straight above, found outlines' ends
differ by 2.8 % in the median, one in ten by 8 % or more); the strip then runs at a slightly different scale along
its length, and the bands match the top card's first rows less well. The rectangle has no such skew, but no true
perspective either: both are read, and outvote a count either gets wrong alone. The rectangle is read only where the
first three readings disagree: where they agree, the other three cannot outvote them (a tie goes to the first)."""


@dataclass(frozen=True)
class Column:
    """One column read: ``outline`` from its far end (far-left, far-right, near-right, near-left as its player
    sees them), its card ``count`` and the ``top`` card's corners (TL, TR, BR, BL upright)."""

    outline: np.ndarray
    count: int
    top: np.ndarray
    other: Column | None = None
    """The column read from its other end, where that end's explanation also stands for cards and one of the two
    holds more than one: which end the top card lies at is then left to its look
    (:class:`~companion.vision.scene.SceneReader`)."""
    plain: bool = False
    """An outline read as cards though nothing in it vouches for them: a lone card whose face is plain and shows no
    card top (a pale card, or a box lid or a phone's back), or a column whose bands speak against its card tops more
    than for them (a column of an unseen art style whose card tops show no edge, or a phone), which only its top
    card's name tells apart (:class:`~companion.vision.scene.SceneReader` keeps it only where it is named a bean)."""


@dataclass(frozen=True)
class End:
    """A column's strip read from one end: its rows and its best explanation (None where none fits)."""

    outline: np.ndarray
    strip: np.ndarray
    rows: int
    explained: Explained | None


def believed(end: End) -> bool:
    """Whether an end's explanation stands for cards: the evidence for it outweighs that against it (leaving out
    what its card tops cost for rows running on across them, which weighs where the tops lie, not whether there are
    cards), or it is a lone card whose face is not plain."""
    found = end.explained
    if found is None:
        return False
    if found.score + found.cost > 0:
        return True
    top, margin = found.tops[-1], round(INSIDE * STRIP_W)
    inside = round(INSIDE * (end.rows - top))
    face = end.strip[top + inside:end.rows - inside, margin:STRIP_W - margin].astype(np.float32) / 255.0
    return len(found.tops) == 1 and face.size > 0 and float(face.std(axis=(0, 1)).mean()) >= PLAIN_FACE


def decide(*ends: End) -> Column | None:
    """A column from its ends (both, or one already known to be its far end): the one explained better is read
    from its far end, with the other end's reading where that too stands for cards (:attr:`Column.other`); where
    none stands for cards, the best explained as it is explained, nothing vouching for it (:attr:`Column.plain`: a
    pale lone card, or a column of two whose second card's top shows no edge); None where neither end is explained."""
    found = sorted(((end, end.explained) for end in ends if end.explained is not None and believed(end)),
                   key=lambda pair: -pair[1].score)
    columns = [_read_from(end, explained) for end, explained in found]
    if len(columns) == 2 and max(column.count for column in columns) > 1:
        return replace(columns[0], other=columns[1])
    if columns:
        return columns[0]
    told = [(end, end.explained) for end in ends if end.explained is not None]
    return replace(_read_from(*max(told, key=lambda pair: pair[1].score)), plain=True) if told else None


def _read_from(end: End, explained: Explained) -> Column:
    """The column as ``explained`` from ``end``, read from its far end."""
    start = explained.tops[-1] if len(explained.tops) > 1 else 0  # a lone card is its whole outline
    return Column(np.asarray(end.outline, np.float32), len(explained.tops), top_card(end.outline, end.rows, start))


def widened(outline: np.ndarray, share: float) -> np.ndarray:
    """``outline`` with each long side moved out by ``share`` of its width (in, where ``share`` is negative)."""
    pts = np.asarray(outline, np.float32)
    out = (pts[1] - pts[0]) * np.float32(share)
    return np.array([pts[0] - out, pts[1] + out, pts[2] + out, pts[3] - out], np.float32)


def squared(outline: np.ndarray) -> np.ndarray:
    """The rectangle that holds ``outline``, its length running from the middle of its first side to that of its
    third, its corners in the same order."""
    quad = np.asarray(outline, np.float64).reshape(4, 2)
    along = axis(quad)[2].astype(np.float64)
    across = np.array([-along[1], along[0]])
    if float((quad[1] - quad[0]) @ across) < 0:
        across = -across
    centre = quad.mean(axis=0)
    u, v = (quad - centre) @ along, (quad - centre) @ across
    corners = [(u.min(), v.min()), (u.min(), v.max()), (u.max(), v.max()), (u.max(), v.min())]
    return np.array([centre + a * along + b * across for a, b in corners], np.float32)


def voted(readings: Sequence[Column | None]) -> Column | None:
    """Of one column's readings (as found first, then as :data:`AGAIN`), the first whose count most of them agree
    on; the first reading where no two counts agree."""
    counts = Counter(column.count for column in readings if column is not None)
    count, votes = counts.most_common(1)[0] if counts else (0, 0)
    if votes < 2:
        return readings[0]
    return next(column for column in readings if column is not None and column.count == count)


def card_rows(outline: np.ndarray, share: float = 0.0) -> float:
    """Strip rows of a card as wide as ``outline`` (a column's outline as found, read from its first side), in the
    strip of that outline widened by ``share`` (:func:`widened`). The strip keeps its first side's scale, so where
    the outline widens towards its other end (a column seen in perspective from its far end), a card is as much
    longer as the column's middle is wider than its first side. Where it narrows, no shorter: that may be cards
    slipped sideways at the far end rather than perspective."""
    pts = np.asarray(outline, np.float32)
    first, last = float(np.linalg.norm(pts[1] - pts[0])), float(np.linalg.norm(pts[2] - pts[3]))
    return CARD_ROWS * max(1.0, (first + last) / (2 * max(first, 1e-6))) / (1 + 2 * share)


def top_card(outline: np.ndarray, rows: int, start: int) -> np.ndarray:
    """Corners in the frame of the card whose top edge lies at strip row ``start`` (read from ``outline``'s first
    side): from there to the column's near end, where the top card ends."""
    matrix, _ = strip_transform(outline)
    corners = np.array([[0, start], [STRIP_W, start], [STRIP_W, rows], [0, rows]], np.float32)
    return cv2.perspectiveTransform(corners.reshape(-1, 1, 2), np.linalg.inv(matrix)).reshape(4, 2)


class BandNetwork:
    """The band network in one onnxruntime session, created once and reused."""

    def __init__(self, manifest: Manifest | None = None, threads: int = 2, directory: Path | None = None) -> None:
        self.manifest = manifest or load_manifest(directory)
        self.session = open_session(self.manifest.bands, [(None, STRIP_L)], threads, directory)

    def infer(self, strips: Sequence[np.ndarray]) -> np.ndarray:
        """Per-row logits (N, L) of a card's top edge, for uint8 strips (L, W, 3)."""
        if not strips:
            return np.empty((0, STRIP_L), np.float32)
        return np.asarray(self.session.run(None, {"image": to_input(strips, (STRIP_W, STRIP_L))})[0])


class ColumnReader:
    """The band network and the top checker, each in one onnxruntime session made once, and the columns they read."""

    def __init__(self, manifest: Manifest | None = None, threads: int = 2, directory: Path | None = None) -> None:
        self.manifest = manifest or load_manifest(directory)
        self.bands = BandNetwork(self.manifest, threads, directory)
        self.checker = TopChecker(self.manifest, threads, directory)

    def read(self, frame: np.ndarray, outlines: Sequence[np.ndarray]) -> list[Column | None]:
        """Each outline's column (None where it is not explained as cards; :attr:`Column.plain` where nothing vouches
        for its cards), its count voted over the column read from its far end as found and as :data:`AGAIN`."""
        ends = self.ends(frame, [way for outline in outlines for way in (np.asarray(outline, np.float32),
                                                                          turned(outline))])
        columns = [decide(ends[2 * k], ends[2 * k + 1]) for k in range(len(outlines))]
        found = [(k, column) for k, column in enumerate(columns) if column is not None]
        readings = {k: [column, *more] for (k, column), more in zip(found, self._again(frame, found, AGAIN[:2]))}
        split = [(k, column) for k, column in found if len({None if c is None else c.count for c in readings[k]}) > 1]
        for (k, _), more in zip(split, self._again(frame, split, AGAIN[2:])):
            readings[k] += more  # where the first three agree, the rest cannot outvote them (ties go to the first)
        for k, column in found:
            settled = voted(readings[k])
            columns[k] = replace(settled, other=column.other) if settled is not None else None
        return columns

    def _again(self, frame: np.ndarray, found: Sequence[tuple[int, Column]],
               ways: Sequence[tuple[bool, float]]) -> list[list[Column | None]]:
        """Each column of ``found`` read again from its far end in each of ``ways`` (as :data:`AGAIN`)."""
        if not found:  # the networks cost a call even with nothing to read
            return []
        shapes = {square: [squared(column.outline) if square else column.outline for _, column in found]
                  for square in {square for square, _ in ways}}  # each column squared once
        outlines = [(outline, share) for square, share in ways for outline in shapes[square]]
        ends = self.ends(frame, [widened(outline, share) for outline, share in outlines],
                         [card_rows(outline, share) for outline, share in outlines])
        return [[decide(ends[r * len(found) + i]) for r in range(len(ways))] for i in range(len(found))]

    def ends(self, frame: np.ndarray, ways: Sequence[np.ndarray], cards: Sequence[float] | None = None) -> list[End]:
        """Each outline (read from its first side) warped into a strip and explained, all in one batch; ``cards``: the
        rows of a card as wide as the outline found in each strip (:func:`card_rows`; by default each way is one)."""
        warped = [to_strip(frame, way) for way in ways]
        strips, sizes = [strip for strip, _ in warped], [rows for _, rows in warped]
        logits = self.checker.checked(frame, ways, sizes, self.bands.infer(strips))
        explained = explain(strips, sizes, logits, cards or [card_rows(way) for way in ways])
        return [End(way, strip, rows, found) for way, strip, rows, found in zip(ways, strips, sizes, explained)]
