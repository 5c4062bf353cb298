"""A column no longer than the frame's lone cards is a lone card.

Every covered card of a column shows a band beyond the top card (at least ``BAND[0]`` of its length), so a column
of several is longer than a lone card of its deck. The band explanation cannot tell that by itself where a card's
head repeats a little below its top edge (a lone card then reads as a top card and one band), and a card's length in
the frame depends on its deck's shape and on how the camera foreshortens the way it lies. So the frame's own lone
cards measure it: those lying its way, or, where fewer do and the frame's printed markers give the table's plane
(:func:`~companion.vision.plane.rectifying`), all of them, whichever way they lie, with every outline measured on the
plane. A column of several whose outline is not longer than them, by half a shortest band, is read as one card; and an
outline read as one card by the look of its other end that is longer than them by as much holds several
(:func:`too_long_for_one`). They also measure whether an outline named unsurely may be two cards side by side
(:func:`room_for_two`). Pure: columns and outlines in, columns and answers out.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace
from statistics import median

import cv2
import numpy as np

from companion.vision.bands import BAND
from companion.vision.columns import Column
from companion.vision.plane import mapped

LONGER = 1 + BAND[0] / 2
"""Least length of a column of several, as a share of the lone cards lying its way: half the shortest band beyond
them, the other half left for how much outlines of one size differ (lone cards lying one way in one frame: up to
7 %; bands drawn on the rendered tables are 13-24 % of a card)."""
SAME_WAY = 15.0
"""Most angle (degrees) between the long sides of two outlines lying the same way."""
LEAST_LONE = 2
"""Least lone cards that measure a column (those lying its way) or an outline (:func:`room_for_two`)."""
TWO_CARDS = 1.5
"""Least area of an outline that may be two cards side by side, as a share of a lone card's of the same frame
(:func:`room_for_two`): two cards side by side cover twice a card's area and more, one card once; a lone card is as
squat as two cards a third of a card's length apart (a card's sides are about 0.64 of each other), so only its size
tells it from them."""


def long_sides(outlines: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Each outline's shape (from a short side, corners in order): its length along its long sides as a multiple of
    its mean width, and the way they run (degrees from 0 to 180)."""
    p = np.asarray(outlines, np.float64).reshape(-1, 4, 2)
    width = (np.linalg.norm(p[:, 1] - p[:, 0], axis=1) + np.linalg.norm(p[:, 2] - p[:, 3], axis=1)) / 2
    along = (p[:, 3] + p[:, 2] - p[:, 0] - p[:, 1]) / 2
    way = np.degrees(np.arctan2(along[:, 1], along[:, 0])) % 180.0
    return np.hypot(along[:, 0], along[:, 1]) / np.maximum(width, 1e-6), way


def card_sized(columns: Sequence[Column], plane: np.ndarray | None = None) -> list[Column]:
    """``columns`` (every one of a frame), each of several that is not :data:`LONGER` than the median of at least
    :data:`LEAST_LONE` lone cards lying its way, or, where fewer do, of all those, measured on the table's ``plane``
    (3 x 3, from the frame's pixels; None where the markers do not tell it), is read as one card: its whole
    outline."""
    read = list(columns)
    if all(column.count == 1 for column in columns):
        return read
    lengths, measures = _lone_lengths(columns, set(), plane)
    for k, column in enumerate(columns):
        if column.count > 1 and len(measures[k]) >= LEAST_LONE and lengths[k] < LONGER * median(measures[k]):
            read[k] = replace(column, count=1, top=column.outline.copy(), other=None)
    return read


def too_long_for_one(columns: Sequence[Column], doubted: Collection[int], plane: np.ndarray | None = None) -> set[int]:
    """Of the ``doubted`` columns (read as one card, every one of a frame given), those at least :data:`LONGER` than
    the median of at least :data:`LEAST_LONE` other lone cards (the doubted left out), measured as :func:`card_sized`
    measures on ``plane``: a lone card is no longer than the lone cards beside it, so such an outline holds several."""
    if not doubted:
        return set()
    lengths, measures = _lone_lengths(columns, doubted, plane)
    return {k for k in doubted if len(measures[k]) >= LEAST_LONE and lengths[k] >= LONGER * median(measures[k])}


def _lone_lengths(columns: Sequence[Column], left_out: Collection[int],
                  plane: np.ndarray | None) -> tuple[np.ndarray, list[list[float]]]:
    """Each column's length (:func:`long_sides`) and the lengths of the lone cards that measure it (the other columns
    of one card, but those ``left_out``): those lying its way in the frame, or, where fewer than :data:`LEAST_LONE`
    do and the table's ``plane`` is given, all of them, each outline measured on the plane (a card has its deck's
    shape there whichever way it lies, but for how far the markers' corners are off)."""
    lengths, ways = long_sides([column.outline for column in columns])
    lone = np.array([column.count == 1 and k not in left_out for k, column in enumerate(columns)])
    others = lone[None, :] & ~np.eye(len(columns), dtype=bool)
    turn = np.abs(ways[:, None] - ways[None, :]) % 180.0
    same_way = others & (np.minimum(turn, 180.0 - turn) <= SAME_WAY)
    unmeasured = same_way.sum(axis=1) < LEAST_LONE
    if plane is None or not unmeasured.any():
        return lengths, [lengths[row].tolist() for row in same_way]
    on_plane, _ = long_sides([mapped(plane, column.outline) for column in columns])
    return np.where(unmeasured, on_plane, lengths), [(on_plane[every] if short else lengths[row]).tolist()
                                                     for row, every, short in zip(same_way, others, unmeasured)]


def room_for_two(outline: np.ndarray, lone: Sequence[np.ndarray]) -> bool:
    """Whether ``outline`` is large enough to be two cards side by side, against the ``lone`` cards of its frame
    (outlines each named surely as one card): at least :data:`TWO_CARDS` times the median of their areas, where there
    are at least :data:`LEAST_LONE` of them; else (nothing to measure it by) it may be."""
    if len(lone) < LEAST_LONE:
        return True
    return cv2.contourArea(np.asarray(outline, np.float32)) >= TWO_CARDS * median(
        cv2.contourArea(np.asarray(card, np.float32)) for card in lone)
