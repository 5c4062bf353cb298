"""Table zones: each player's fields, the face-up area and the discard pile, as polygons of the camera frame.

A zone comes from a printed ArUco marker (``DICT_4X4_50``) lying on the table: ids ``10 + seat``
mark a player's fields, 20 the face-up area, 21 the discard pile. Each zone is a rectangle in
its marker's own frame (:data:`LAYOUT`), so it follows the marker when the camera or the marker
moves, and a fields marker, laid upright as its player reads it, tells which way the player faces.
Zones drawn by hand on a still frame follow the table-corner anchors (ids 0-3) instead.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Literal, cast

import cv2
import numpy as np

from companion.vision.marker_edges import refined

DICTIONARY = cv2.aruco.DICT_4X4_50
"""The printed markers' ArUco dictionary."""
CELL_PX = 8
"""Pixels a side each of a marker's cells is sampled at, its perspective removed (OpenCV's default is 4): a far marker
seen at a slant is a few pixels a cell, and its bits are read from more samples."""
CELL_MARGIN = 0.25
"""Share of each cell's side, at each of its sides, left out when reading its bit (OpenCV's default is 0.13): a small
marker's cells blur into one another."""
ANCHOR_IDS = (0, 1, 2, 3)
"""Optional table-corner anchors: hand-drawn zones follow them when the camera is bumped."""
FIELDS_ID = 10
"""A player's fields marker is ``FIELDS_ID + seat``."""
SEATS = 6
FACE_UP_ID = 20
DISCARD_ID = 21
MARKER_IDS = frozenset((*ANCHOR_IDS, *range(FIELDS_ID, FIELDS_ID + SEATS), FACE_UP_ID, DISCARD_ID))
"""The ids the companion prints: any other marker the detector finds is a card's art that happens to decode as one
(a card holding it would be cut out of the table as a marker), or not the companion's."""
FORMAT_VERSION = 1
"""Version of the zone file written by :meth:`TableZones.to_json`."""

ZoneKind = Literal["fields", "face_up", "discard"]
KINDS: tuple[ZoneKind, ...] = ("fields", "face_up", "discard")


@dataclass(frozen=True)
class Rect:
    """A rectangle in a marker's own frame, in marker sides: origin at the marker's bottom-left corner (the
    reader's near left), ``x`` to the reader's right, ``y`` away from the reader; the marker is [0, 1] x [0, 1]."""

    left: float
    near: float
    right: float
    far: float

    def corners(self) -> np.ndarray:
        return np.array([[self.left, self.near], [self.right, self.near], [self.right, self.far],
                         [self.left, self.far]], np.float32)


@dataclass(frozen=True)
class MarkerLayout:
    """Where each marker's zone lies around it, for 4 cm markers and 5.6 x 8.7 cm cards (1.4 x 2.2 sides).

    Fields (24 x 32 cm): the marker at the near left, behind it three columns of up to 12 cards each,
    overlapping 1.5 cm (8.7 + 11 x 1.5 = 25.2 cm). Face-up area (25 x 14 cm) and discard pile (15 x 12 cm):
    the marker at the left, cards to its right.
    """

    fields: Rect = Rect(0.0, 0.0, 6.0, 8.0)
    face_up: Rect = Rect(-0.25, -1.0, 6.0, 2.5)
    discard: Rect = Rect(-0.25, -1.0, 3.5, 2.0)


LAYOUT = MarkerLayout()


def zone_name(kind: ZoneKind, seat: int | None) -> str:
    """``fields-<seat>``, ``face-up`` or ``discard``."""
    return f"fields-{seat}" if kind == "fields" else kind.replace("_", "-")


@dataclass(frozen=True, eq=False)
class Zone:
    """A named area of the frame: ``polygon`` N x 2 frame pixels; ``facing`` (fields only) the direction the
    player looks across the table, degrees clockwise from frame-up (0: the player sits at the frame's bottom)."""

    name: str
    kind: ZoneKind
    seat: int | None
    polygon: np.ndarray
    facing: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "polygon", np.asarray(self.polygon, np.float32).reshape(-1, 2))

    def contains(self, point: tuple[float, float]) -> bool:
        return cv2.pointPolygonTest(self.polygon, (float(point[0]), float(point[1])), False) >= 0

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "kind": self.kind, "seat": self.seat, "facing": self.facing,
                "polygon": [[float(x), float(y)] for x, y in self.polygon]}


@cache
def _detector() -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.perspectiveRemovePixelPerCell = CELL_PX
    params.perspectiveRemoveIgnoredMarginPerCell = CELL_MARGIN
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICTIONARY), params)


def find_markers(frame: np.ndarray) -> dict[int, np.ndarray]:
    """Each visible marker of the companion's (:data:`MARKER_IDS`): its id -> its 4 corners (frame pixels, the
    marker's own TL, TR, BR, BL)."""
    gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    corners, ids, _ = _detector().detectMarkers(gray)
    if ids is None:
        return {}
    return {int(i): refined(gray, c.reshape(4, 2)) for i, c in zip(ids.ravel(), corners) if int(i) in MARKER_IDS}


_UNIT = Rect(0.0, 0.0, 1.0, 1.0).corners()[[3, 2, 1, 0]]
"""The marker's TL, TR, BR, BL in its own frame (:class:`Rect` axes)."""


def _marker_affine(corners: np.ndarray) -> np.ndarray:
    """The 3 x 2 least-squares affine map from the marker's own frame to frame pixels (rows: x, y, 1)."""
    lifted = np.hstack([_UNIT, np.ones((4, 1), np.float32)])
    return np.linalg.lstsq(lifted, corners.astype(np.float64), rcond=None)[0]


def _bearing(direction: np.ndarray) -> float:
    """Degrees clockwise from frame-up of a frame vector."""
    return math.degrees(math.atan2(float(direction[0]), -float(direction[1]))) % 360.0


_SHARED: dict[int, ZoneKind] = {FACE_UP_ID: "face_up", DISCARD_ID: "discard"}


def marker_zone(marker_id: int, corners: np.ndarray, layout: MarkerLayout = LAYOUT) -> Zone | None:
    """The zone marker ``marker_id`` marks where its corners are, or None for an anchor or unknown id."""
    kind: ZoneKind
    seat: int | None
    if FIELDS_ID <= marker_id < FIELDS_ID + SEATS:
        kind, seat = "fields", marker_id - FIELDS_ID
    elif marker_id in _SHARED:
        kind, seat = _SHARED[marker_id], None
    else:
        return None
    rect: Rect = getattr(layout, kind)
    affine = _marker_affine(corners)
    polygon = rect.corners() @ affine[:2] + affine[2]
    facing = _bearing(affine[1]) if kind == "fields" else None
    return Zone(zone_name(kind, seat), kind, seat, polygon, facing)


def _anchor_transform(drawn: Mapping[int, np.ndarray], seen: Mapping[int, np.ndarray]) -> np.ndarray | None:
    """The 3 x 3 map from the frame the anchors were recorded on to this one: a similarity from two anchors
    seen on both, a homography from three or more; None from fewer."""
    common = sorted(set(drawn) & set(seen))
    if len(common) < 2:
        return None
    src = np.concatenate([drawn[i] for i in common])
    dst = np.concatenate([seen[i] for i in common])
    if len(common) == 2:
        similarity, _ = cv2.estimateAffinePartial2D(src, dst, method=cv2.LMEDS)
        return None if similarity is None else np.vstack([similarity, [0.0, 0.0, 1.0]])
    homography, _ = cv2.findHomography(src, dst, 0)
    return homography


def carried(found: Mapping[int, np.ndarray], earlier: Mapping[int, np.ndarray]) -> dict[int, np.ndarray]:
    """The markers of a frame: those ``found`` on it, and those of an ``earlier`` frame hidden on this one (a hand
    resting on one, a glare spot, a card laid over it), carried by how the markers seen on both moved, or left
    where they were when fewer than two were."""
    transform = _anchor_transform(earlier, found)
    hidden = {i: c for i, c in earlier.items() if i not in found}
    return {**(hidden if transform is None else _markers_moved(hidden, transform)), **found}


def _markers_moved(markers: Mapping[int, np.ndarray], transform: np.ndarray) -> dict[int, np.ndarray]:
    """Each marker's corners carried by the frame-to-frame map ``transform``."""
    return {i: cv2.perspectiveTransform(c.reshape(-1, 1, 2), transform).reshape(4, 2) for i, c in markers.items()}


def _moved(zone: Zone, transform: np.ndarray) -> Zone:
    """``zone`` carried by the frame-to-frame map ``transform``, its facing turned with it."""
    polygon = cv2.perspectiveTransform(zone.polygon.reshape(-1, 1, 2), transform).reshape(-1, 2)
    facing = zone.facing
    if facing is not None:
        centre = zone.polygon.mean(axis=0)
        step = 50.0 * np.array([math.sin(math.radians(facing)), -math.cos(math.radians(facing))], np.float32)
        ends = cv2.perspectiveTransform(np.array([[centre, centre + step]], np.float32), transform)[0]
        facing = _bearing(ends[1] - ends[0])
    return Zone(zone.name, zone.kind, zone.seat, polygon, facing)


def _anchors(markers: Mapping[int, np.ndarray]) -> dict[int, np.ndarray]:
    return {i: np.asarray(c, np.float32) for i, c in markers.items() if i in ANCHOR_IDS}


@dataclass(frozen=True, eq=False)
class TableZones:
    """The table's zones on one frame, and the anchors (id -> corners) seen on that frame."""

    zones: tuple[Zone, ...] = ()
    anchors: Mapping[int, np.ndarray] = field(default_factory=dict)

    @classmethod
    def drawn_on(cls, frame: np.ndarray, zones: Iterable[Zone]) -> TableZones:
        """Zones drawn by hand on ``frame``, tied to the anchors visible on it."""
        return cls(tuple(zones), _anchors(find_markers(frame)))

    def zone_at(self, point: tuple[float, float]) -> Zone | None:
        """The smallest zone containing ``point`` (frame pixels), or None."""
        inside = [z for z in self.zones if z.contains(point)]
        return min(inside, key=lambda z: cv2.contourArea(z.polygon), default=None)

    def for_frame(self, frame: np.ndarray) -> TableZones:
        """:meth:`locate` with the markers found on ``frame``."""
        return self.locate(find_markers(frame))

    def locate(self, markers: Mapping[int, np.ndarray]) -> TableZones:
        """The zones on a new frame with these markers: each marker's zone where its marker is now; every
        other zone (drawn by hand, or its marker hidden) carried along by the anchors, or left where it
        was when fewer than two anchors are seen both now and before."""
        seen = _anchors(markers)
        transform = _anchor_transform(self.anchors, seen)
        carried = {z.name: z if transform is None else _moved(z, transform) for z in self.zones}
        for marker_id, corners in sorted(markers.items()):
            zone = marker_zone(marker_id, np.asarray(corners, np.float32))
            if zone is not None:
                carried[zone.name] = zone
        if transform is None:
            anchors = {**seen, **self.anchors}
        else:
            anchors = {**_markers_moved(self.anchors, transform), **seen}
        return TableZones(tuple(carried.values()), anchors)

    def moved(self, transform: np.ndarray) -> TableZones:
        """The zones and anchors carried by the 3 x 3 map ``transform`` (into another view of the same frame)."""
        return TableZones(tuple(_moved(zone, transform) for zone in self.zones),
                          _markers_moved(self.anchors, transform))

    def to_json(self) -> dict[str, object]:
        """The zone file's content (``json.dumps`` it)."""
        return {"version": FORMAT_VERSION, "zones": [z.to_json() for z in self.zones],
                "anchors": {str(i): [[float(x), float(y)] for x, y in c] for i, c in sorted(self.anchors.items())}}

    @classmethod
    def from_json(cls, data: object) -> TableZones:
        """Zones from a parsed zone file; :class:`ValueError` saying what is wrong with a bad one."""
        if not isinstance(data, dict):
            raise ValueError("the zone file is not a JSON object; draw the zones again")
        if data.get("version") != FORMAT_VERSION:
            raise ValueError(f"the zone file has version {data.get('version')!r}, but only version "
                             f"{FORMAT_VERSION} can be read; draw the zones again")
        items, anchors = data.get("zones"), data.get("anchors", {})
        if not isinstance(items, list):
            raise ValueError("the zone file has no list of zones")
        if not isinstance(anchors, dict):
            raise ValueError("the zone file's anchors are not an object of id -> corners")
        zones = tuple(_zone_from_json(item, n) for n, item in enumerate(items, 1))
        names = [z.name for z in zones]
        if len(set(names)) < len(names):
            raise ValueError(f"the zone file names a zone twice ({sorted({n for n in names if names.count(n) > 1})})")
        return cls(zones, {_anchor_id(key): _points(value, f"anchor {key}", 4) for key, value in anchors.items()})


def _anchor_id(key: str) -> int:
    if key not in {str(i) for i in ANCHOR_IDS}:
        raise ValueError(f"the zone file has anchor {key!r}, but anchors are the table-corner markers 0-3")
    return int(key)


def _points(value: object, what: str, count: int | None = None) -> np.ndarray:
    """``value`` as an N x 2 float32 array of finite [x, y] pairs (``count`` of them, or at least 3)."""
    try:
        points = np.array(value, np.float64)
    except (TypeError, ValueError):
        points = np.empty(0)
    shape_ok = points.ndim == 2 and points.shape[1:] == (2,) and (
        points.shape[0] == count if count else points.shape[0] >= 3)
    if not shape_ok or not np.isfinite(points).all():
        wanted = f"{count}" if count else "at least 3"
        raise ValueError(f"the zone file's {what} is not a list of {wanted} [x, y] number pairs")
    return points.astype(np.float32)


def _zone_from_json(item: object, number: int) -> Zone:
    """Zone ``number`` (from 1) of a zone file."""
    if not isinstance(item, dict):
        raise ValueError(f"the zone file's zone {number} is not a JSON object")
    kind, seat, facing = item.get("kind"), item.get("seat"), item.get("facing")
    if kind not in KINDS:
        raise ValueError(f"the zone file's zone {number} has kind {kind!r}; a zone is one of {', '.join(KINDS)}")
    kind = cast(ZoneKind, kind)
    if kind == "fields" and not (type(seat) is int and 0 <= seat < SEATS):
        raise ValueError(f"the zone file's fields zone {number} has seat {seat!r}; give a seat from 0 to {SEATS - 1}")
    if kind != "fields" and seat is not None:
        raise ValueError(f"the zone file's {kind} zone {number} has a seat; only fields belong to a seat")
    if facing is not None and (type(facing) not in (int, float) or not math.isfinite(facing)):
        raise ValueError(f"the zone file's zone {number} has facing {facing!r}; give degrees or null")
    name = zone_name(kind, seat)
    if item.get("name") != name:
        raise ValueError(f"the zone file's zone {number} is named {item.get('name')!r}, but that zone is {name!r}")
    polygon = _points(item.get("polygon"), f"zone {number} polygon")
    return Zone(name, kind, seat, polygon, None if facing is None else float(facing) % 360.0)


def read_zone_file(path: Path) -> TableZones:
    """The zones kept in a zone file; ``ValueError`` with a sentence naming the file when it cannot be read or
    used."""
    try:
        return TableZones.from_json(json.loads(path.read_text(encoding="utf-8")))
    except OSError as exc:
        raise ValueError(f"{path}: cannot read the zone file ({exc.strerror})") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not a zone file (not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}); "
                         "draw the zones again") from None
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a zone file (not UTF-8 text); draw the zones again") from None
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None


def write_zone_file(path: Path, zones: TableZones) -> None:
    """Keep ``zones`` in a zone file, whole or not at all (written beside it, then moved in place)."""
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(zones.to_json(), indent=1), encoding="utf-8")
    temporary.replace(path)
