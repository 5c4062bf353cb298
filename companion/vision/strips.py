"""Card-shaped and column-shaped outlines of a frame, and each one warped into an upright strip.

A bean field is a column of overlapping cards: its outline is a rectangle one card wide and
one card plus the visible bands long. :func:`find_outlines` finds every such rectangle (a
lone card is a column of one); :func:`to_strip` warps one into a strip of fixed width whose
rows run along the column, as the band network reads it (:mod:`companion.vision.columns`).
Both are pure: frames in, values out.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import cv2
import numpy as np

from companion.vision.corners import dense, fit_sides
from companion.vision.rectify import CARD_ASPECT

STRIP_W, STRIP_L = 32, 256
"""Width and length (rows) of a strip; a card is ``STRIP_W / CARD_ASPECT`` (about 50) rows long."""
CARD_ROWS = STRIP_W / CARD_ASPECT
LONGEST = (STRIP_L - 2) / CARD_ROWS
"""Longest column (in card lengths) a strip holds at full scale; longer ones are shrunk to fit."""
MIN_AREA_SHARE = 0.002
"""Least area of a card, as a share of the frame."""
MIN_FILL = 0.85
"""Least share of its rectangle that an outline must fill."""
WIDEST = 1.2
"""Widest outline, as a multiple of a card's short/long side ratio (a card seen in perspective)."""
CUTS = (13, 25)
"""Widest joins (px) between a card and something touching it that are cut to free the card: a thin one (a
shadow), and a glare spot the size of a coin."""
CLOSE = 3
"""Gaps (px) in an outline's edges that are closed (wider would join cards lying a centimetre apart)."""
PIECE_SHARE = (0.3, 0.6)
"""Least and most area of a card-shaped piece of an outline, as a share of the outline's: two cards side by side
are each about 45 % of the outline joining them (a larger shape inside is the outline's own inner rim)."""
TIGHTER = 0.75
"""Least share of an outer shape's area that a shape freed of thin joins inside it (:func:`_cut_free`) must keep to
stand for it: the same card or column without a stray edge stuck to its rim, which would widen its outline."""
SUPPORT = 0.7
"""Least share of a straightened rectangle's rim (:func:`_straight_box`) that must lie on its shape's."""
RIM_PX = 2.0
"""How near (px) a rectangle's rim must lie to its shape's to count as on it."""
MARKER_MARGIN = 0.35
"""White margin around a printed marker's black square, as a share of its side, cut out with it."""
EDGE_THRESHOLDS = (30, 80)
"""Canny's low and high gradient thresholds, per colour channel."""
FAINT_EDGE_THRESHOLDS = (15, 40)
"""Canny's thresholds of a second look (:func:`outlined`): a column's side can be too faint to close its outline
where its cards differ little from the table (olive on tan wood) or in dim light."""
OVERLAP = 0.2
"""Most share of the smaller one's area that an outline of the second look may share with one of the first, and be
taken beside it."""
PART_ANGLE = 8.0
"""Most angle (degrees) between an outline and a longer one of the second look that it is a part of."""
PART_WIDTH = (0.85, 1.15)
"""Least and most width of an outline, as a share of the longer one of the second look that it is a part of."""
PART_LONGER = 1.25
"""Least length of an outline of the second look, as a multiple of each outline of the first that it stands for."""
SIDE_BY_SIDE = 0.6
"""Least ratio of an outline's short side to its long one where it may be two cards side by side (:func:`halves`):
two cards touching give 0.78, two cards a third of a card's length apart (more than half a card's width) 0.6; a
column of two cards at most 0.58."""


Shape = tuple[float, np.ndarray, np.ndarray]
"""A card-shaped contour as :func:`_outline` gives it: its area, rectangle and hull."""

Found = tuple[np.ndarray, np.ndarray, list[tuple[np.ndarray, np.ndarray]]]
"""A kept shape as :func:`_shapes_in` gives it: its rectangle, hull, and its pieces' rectangles and hulls."""


def edges(frame: np.ndarray, *thresholds: tuple[int, int]) -> list[np.ndarray]:
    """Closed card outlines, one map per pair of ``thresholds``: Canny edges of each colour channel (a card may differ
    from the table in colour more than in brightness), gaps closed."""
    channels = cv2.split(cv2.GaussianBlur(frame, (5, 5), 0))
    close = cv2.getStructuringElement(cv2.MORPH_RECT, (CLOSE, CLOSE))
    maps = []
    for low, high in thresholds:
        found: np.ndarray = np.zeros(frame.shape[:2], np.uint8)
        for channel in channels:
            found |= cv2.Canny(channel, low, high)
        maps.append(cv2.morphologyEx(found, cv2.MORPH_CLOSE, close))
    return maps


def _short_side_first(box: np.ndarray) -> np.ndarray:
    """The 4 corners turned so that corners 0 -> 1 are a short side."""
    pts = np.asarray(box, np.float32).reshape(4, 2)
    if np.linalg.norm(pts[1] - pts[0]) > np.linalg.norm(pts[2] - pts[1]):
        pts = np.roll(pts, -1, axis=0)
    return pts


def _outline(contour: np.ndarray, least_area: float) -> Shape | None:
    """A contour's area, rectangle and hull if it is shaped like a card or a column of cards, else None."""
    _, _, width, height = cv2.boundingRect(contour)
    if width * height < least_area:  # most contours are letters and pictures inside cards: skip them cheaply
        return None
    hull = cv2.convexHull(contour)
    area = cv2.contourArea(hull)
    if area < least_area:
        return None
    rect = cv2.minAreaRect(hull)
    short, long = sorted(rect[1])
    if area < MIN_FILL * short * long or short > WIDEST * CARD_ASPECT * long:
        return None
    if long > (LONGEST + 1) * short / CARD_ASPECT:
        return None
    return area, _short_side_first(cv2.boxPoints(rect)), hull


def _cut_free(edge_map: np.ndarray, least_area: float, markers: Sequence[np.ndarray] = ()) -> list[Shape]:
    """The card-shaped outer shapes of an edge map, filled, with printed ``markers`` cut out and thin joins to
    other things cut (a shadow touching a card); a shape still not card-shaped has wider joins cut too (a glare
    spot), or is outlined by its straight sides."""
    filled = np.zeros_like(edge_map)
    contours, _ = cv2.findContours(edge_map, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(filled, contours, -1, 255, -1)
    for marker in markers:
        cv2.fillConvexPoly(filled, np.round(with_margin(marker)).astype(np.int32), 0)
    thin, wide = (cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (cut, cut)) for cut in CUTS)
    opened = cv2.findContours(cv2.morphologyEx(filled, cv2.MORPH_OPEN, thin), cv2.RETR_EXTERNAL,
                              cv2.CHAIN_APPROX_SIMPLE)[0]
    judged = [(contour, _outline(contour, least_area)) for contour in opened]
    shapes = [shape for _, shape in judged if shape is not None]
    for contour, shape in judged:
        x, y, w, h = cv2.boundingRect(contour)
        if shape is not None or w * h < least_area:
            continue
        pad = CUTS[1]  # room around the shape, so that it is opened from every side
        alone = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
        cv2.drawContours(alone, [contour], -1, 255, -1, offset=(pad - x, pad - y))
        widely, _ = cv2.findContours(cv2.morphologyEx(alone, cv2.MORPH_OPEN, wide), cv2.RETR_EXTERNAL,
                                     cv2.CHAIN_APPROX_SIMPLE)
        moved = [c + np.array([x - pad, y - pad], np.int32) for c in widely]
        freed = [(c, _outline(c, least_area)) for c in moved]
        shapes += [freed_shape for _, freed_shape in freed if freed_shape is not None]
        for still in [contour] + [c for c, freed_shape in freed if freed_shape is None]:
            # still no card's: its straight sides may say where the card is
            if (box := _straight_box(still)) is not None and (boxed := _outline(box, least_area)) is not None:
                shapes.append(boxed)
    return shapes


def _straight_box(contour: np.ndarray) -> np.ndarray | None:
    """The rectangle that a shape's straight sides outline, as a contour: a glare spot too wide to cut off bulges
    out of one side of a card or a column, and leaves the rest of its sides straight. The sides run along the
    shape's longest straight edge and across it, each where most of the shape's points lie; None unless
    :data:`SUPPORT` of the rectangle's rim lies on the shape's."""
    corners = contour.reshape(-1, 2).astype(np.float32)
    points = dense(corners)
    polygon = cv2.approxPolyDP(contour, 0.01 * cv2.arcLength(contour, True), True).reshape(-1, 2).astype(np.float32)
    if len(polygon) < 3:
        return None
    steps = np.roll(polygon, -1, axis=0) - polygon
    longest = steps[int(np.argmax(np.linalg.norm(steps, axis=1)))]
    along = longest / np.linalg.norm(longest)
    across = np.array([-along[1], along[0]], np.float32)
    lengthwise, crosswise = _two_sides(points @ along), _two_sides(points @ across)
    if lengthwise is None or crosswise is None:
        return None
    corner_of = [u * along + v * across for u, v in itertools.product(lengthwise, crosswise)]
    box = np.array(corner_of, np.float32)[[0, 2, 3, 1]]  # around the rim
    rim = dense(box)
    x, y, w, h = cv2.boundingRect(np.concatenate([points, rim]).astype(np.int32))
    drawn = np.full((h + 3, w + 3), 255, np.uint8)
    cv2.polylines(drawn, [np.round(corners - [x - 1, y - 1]).astype(np.int32)], True, 0, 1)
    away = cv2.distanceTransform(drawn, cv2.DIST_L2, 3)
    at = np.clip(np.round(rim - [x - 1, y - 1]).astype(np.int32), 0, [w + 2, h + 2])
    on_rim = float(np.mean(away[at[:, 1], at[:, 0]] <= RIM_PX))
    return np.round(box).astype(np.int32).reshape(-1, 1, 2) if on_rim >= SUPPORT else None


def _two_sides(values: np.ndarray) -> tuple[float, float] | None:
    """Where two opposite sides lie along one direction: the most crowded positions of the shape's points (1 px
    apart, smoothed over 3), at least 30 % of its extent apart; None for a shape too thin to have two."""
    low, high = float(values.min()), float(values.max())
    if high - low < 8:
        return None
    counts, bounds = np.histogram(values, bins=np.arange(np.floor(low) - 0.5, np.ceil(high) + 1.5))
    crowd = np.convolve(counts, [1, 1, 1], "same")
    centres = (bounds[:-1] + bounds[1:]) / 2
    first = int(np.argmax(crowd))
    apart = np.abs(centres - centres[first]) >= 0.3 * (high - low)
    if not apart.any():
        return None
    second = int(np.argmax(np.where(apart, crowd, -1)))
    low_side, high_side = sorted((float(centres[first]), float(centres[second])))
    return low_side, high_side


def with_margin(marker: np.ndarray) -> np.ndarray:
    """A printed marker's corners grown by its white margin (:data:`MARKER_MARGIN` of its side each way)."""
    corners = np.asarray(marker, np.float32).reshape(4, 2)
    centre = corners.mean(axis=0)
    return centre + (corners - centre) * (1 + 2 * MARKER_MARGIN)


def inside(point: np.ndarray, outlines: list[np.ndarray]) -> bool:
    """Whether ``point`` lies in any of ``outlines`` (each a polygon's corners)."""
    return any(cv2.pointPolygonTest(o.reshape(-1, 1, 2), (float(point[0]), float(point[1])), False) >= 0
               for o in outlines)


def find_outlines(frame: np.ndarray, markers: Sequence[np.ndarray] = ()) -> list[np.ndarray]:
    """The outline (4 corners, a short side first) of every card or column of cards, largest first: the
    smallest rectangle around its shape, its sides then fitted to the shape's edges (a card in perspective).

    Outer shapes come first; where one is not card-shaped (a card touching a glare spot or another
    thing on the table), a shape inside it that is (the card within) stands for it, and so does the shape freed
    of thin joins where it keeps most of the outer one (:data:`TIGHTER`: a stray edge stuck to a column's rim
    widened its outline, and the strip took in table on one side). A shape holding a printed marker
    (``markers``: each one's 4 corners) is not a card's: the card touching the marker is found with the marker
    cut out.
    """
    return [outline for outline, _ in outlined(frame, markers)]


def outlined(frame: np.ndarray, markers: Sequence[np.ndarray] = (),
             least_area: float | None = None) -> list[tuple[np.ndarray, list[np.ndarray]]]:
    """Each outline of :func:`find_outlines`, with its pieces: card-shaped shapes inside it, apart from each
    other, each a share of it within :data:`PIECE_SHARE`, where there are two or more (cards lying side by side whose
    edges the light joined into one card-shaped outline); else none. ``least_area`` (px): a card's least area, where
    ``frame`` is a part of the camera's frame (:data:`MIN_AREA_SHARE` of the frame's own area otherwise).

    Fainter edges (:data:`FAINT_EDGE_THRESHOLDS`) are looked at again: an outline they close where none lies is
    taken (a column whose cards differ little from the table), and so is one that runs on over outlines of its width
    and direction (:func:`_part_of`): the column whose edges broke in two, which it stands for."""
    least = MIN_AREA_SHARE * frame.shape[0] * frame.shape[1] if least_area is None else least_area
    usual, faint = edges(frame, EDGE_THRESHOLDS, FAINT_EDGE_THRESHOLDS)
    found = _shapes_in(usual, markers, least)
    boxes = [box for box, _, _ in found]
    taken, parts = _second_look(_shapes_in(faint, markers, least, freed=False), boxes)
    if taken:  # looked at again with shapes freed of thin joins, whose outlines are tighter
        taken, parts = _second_look(_shapes_in(faint, markers, least), boxes)
    kept = [shape for k, shape in enumerate(found) if k not in parts] + taken
    return sorted(((fit_sides(hull, box), [fit_sides(h, b) for b, h in pieces] if len(pieces) > 1 else [])
                   for box, hull, pieces in kept), key=lambda item: -cv2.contourArea(item[0]))


def _second_look(shapes: list[Found], boxes: list[np.ndarray]) -> tuple[list[Found], set[int]]:
    """Of the second look's ``shapes``, those taken beside the first look's outlines (``boxes``), and the outlines
    they stand for (by index): see :func:`outlined`."""
    taken: list[Found] = []
    parts: set[int] = set()
    for box, hull, pieces in shapes:
        held = [k for k, b in enumerate(boxes) if inside(b.mean(axis=0), [box])]
        if not held and not inside(box.mean(axis=0), boxes) and not any(_overlap(box, b) for b in boxes):
            taken.append((box, hull, pieces))
        elif held and all(_part_of(boxes[k], box) for k in held) and not parts.intersection(held):
            parts.update(held)
            taken.append((box, hull, []))
    return taken, parts


def _part_of(box: np.ndarray, outline: np.ndarray) -> bool:
    """Whether ``box`` is a part of the longer ``outline`` along its length: the same width (within
    :data:`PART_WIDTH`) and direction (within :data:`PART_ANGLE` degrees), and ``outline`` :data:`PART_LONGER` times as
    long at least."""
    (box_width, box_length, box_axis), (width, length, along) = axis(box), axis(outline)
    return (abs(float(box_axis @ along)) >= np.cos(np.deg2rad(PART_ANGLE))
            and PART_WIDTH[0] <= box_width / max(width, 1e-6) <= PART_WIDTH[1] and length >= PART_LONGER * box_length)


def axis(quad: np.ndarray) -> tuple[float, float, np.ndarray]:
    """A quad's width (its first side), length and unit direction along its length."""
    corners = np.asarray(quad, np.float32).reshape(4, 2)
    middle = (corners[2] + corners[3]) / 2 - (corners[0] + corners[1]) / 2
    length = float(np.linalg.norm(middle))
    return float(np.linalg.norm(corners[1] - corners[0])), length, middle / max(length, 1e-6)


def _overlap(quad: np.ndarray, other: np.ndarray) -> bool:
    """Whether two convex quads share more than :data:`OVERLAP` of the smaller one's area."""
    a, b = (np.asarray(q, np.float32).reshape(-1, 1, 2) for q in (quad, other))
    shared, _ = cv2.intersectConvexConvex(a, b)
    return shared > OVERLAP * min(cv2.contourArea(a), cv2.contourArea(b))


def _shapes_in(edge_map: np.ndarray, markers: Sequence[np.ndarray], least: float, freed: bool = True) -> list[Found]:
    """The card- and column-shaped shapes of one edge map of at least ``least`` px, largest first, each with its
    pieces, its sides not yet fitted (:func:`outlined`); with ``freed``, shapes freed of thin joins too
    (:func:`_cut_free`: the second look goes without them first, at half the cost, as it takes nothing on most
    frames)."""
    contours, _ = cv2.findContours(edge_map, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    shapes = [(found, False) for c in contours if (found := _outline(c, least)) is not None]
    if freed:
        shapes += [(found, True) for found in _cut_free(edge_map, least, markers)]
    centres = [np.asarray(m, np.float32).reshape(4, 2).mean(axis=0) for m in markers]
    kept: list[tuple[Shape, bool]] = []
    held: list[list[tuple[np.ndarray, np.ndarray]]] = []  # per kept shape, the card-shaped pieces inside it
    for (area, box, hull), cut in sorted(shapes, key=lambda item: -item[0][0]):
        if any(inside(c, [box]) for c in centres):
            continue
        holder = next((k for k, ((_, outer, _), _) in enumerate(kept) if inside(box.mean(axis=0), [outer])), None)
        if holder is None:
            kept.append(((area, box, hull), cut))
            held.append([])
            continue
        (outer_area, _, _), outer_cut = kept[holder]
        if cut and not outer_cut and area >= TIGHTER * outer_area:
            kept[holder] = ((area, box, hull), cut)
        elif (PIECE_SHARE[0] <= area / outer_area <= PIECE_SHARE[1]
              and not inside(box.mean(axis=0), [b for b, _ in held[holder]])):
            held[holder].append((box, hull))
    return [(box, hull, pieces) for ((_, box, hull), _), pieces in zip(kept, held)]


def strip_transform(outline: np.ndarray) -> tuple[np.ndarray, int]:
    """The perspective matrix taking ``outline`` (corner 0 -> 1 a short side, the strip's first row)
    to strip pixels, and how many rows the outline fills."""
    pts = np.asarray(outline, np.float32)
    width = float(np.linalg.norm(pts[1] - pts[0]))
    length = float(np.linalg.norm(pts[2] - pts[1]))
    rows = min(STRIP_L, max(2, round(STRIP_W * length / max(width, 1e-6))))
    target = np.array([[0, 0], [STRIP_W, 0], [STRIP_W, rows], [0, rows]], np.float32)
    return cv2.getPerspectiveTransform(np.asarray(pts, np.float32), target), rows


def to_strip(frame: np.ndarray, outline: np.ndarray) -> tuple[np.ndarray, int]:
    """The outline warped upright into a ``STRIP_L x STRIP_W`` strip (black below its rows), and its rows."""
    matrix, rows = strip_transform(outline)
    strip = cv2.warpPerspective(frame, matrix, (STRIP_W, STRIP_L), flags=cv2.INTER_AREA,
                                borderMode=cv2.BORDER_CONSTANT)
    strip[rows:] = 0
    return strip, rows


def turned(outline: np.ndarray) -> np.ndarray:
    """The same outline read from its other end (the strip turned 180 degrees)."""
    return np.roll(np.asarray(outline, np.float32), 2, axis=0)


def halves(outline: np.ndarray) -> list[np.ndarray]:
    """``outline`` (a short side first) cut in two across its long sides, each half a short side first, where it is
    squat enough (:data:`SIDE_BY_SIDE`); else none: two cards lying side by side, each about as long as the outline is
    wide, that a glare spot over the gap between them joined into one card-shaped outline (two cards side by side are
    about as wide as one is long)."""
    p0, p1, p2, p3 = np.asarray(outline, np.float32)
    if np.linalg.norm(p1 - p0) < SIDE_BY_SIDE * np.linalg.norm(p2 - p1):
        return []
    across, back = (p1 + p2) / 2, (p3 + p0) / 2
    return [np.array([p1, across, back, p0], np.float32), np.array([across, p2, p3, back], np.float32)]
