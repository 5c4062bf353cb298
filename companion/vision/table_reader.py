"""Frame after frame: what the table shows, placed in its zones, and whether it moved.

:class:`TableReader` is what a camera loop calls once per frame. It compares the frame with the
one before (:mod:`companion.vision.motion`). What the referee votes on are still frames: the first
two still frames after a move are read in full, and so is the first one named against another deck or placed in
zones drawn or saved anew.
Otherwise only one frame in ``REREAD`` is read: while the table stays still nothing on it
changes (the tracker's votes still see fresh readings), and while a hand moves over it the
referee counts nothing (the page still sees the table now and then). The other frames get the
last reading back at the cost of a thumbnail.

The first still frame after a move, where a card lands, is looked at again only where it changed since the table last
lay still (:func:`~companion.vision.sight.sight_since`), so that the card is named soon; the second one is read
whole, as are all the others. Each still frame read says which zones it changed in since the last one read
(:attr:`Reading.changed`): the referee need not believe a new reading of a zone where nothing changed.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.boxes import Box, bounds, meet
from companion.vision.changes import changed_boxes, small
from companion.vision.classifier import Gallery
from companion.vision.motion import moving, thumbnail
from companion.vision.scene import Scene, SceneReader, read_table
from companion.vision.sight import Sight, sight, sight_since
from companion.vision.zones import TableZones

REREAD = 4
"""Apart from the first still frames after a move, one frame in this many is read."""
FIRST_READS = 2
"""The first still frames after a move that are all read: the referee's votes get two readings of a change at once
(a count one frame misreads is outvoted within ``REREAD`` frames more, not two times ``REREAD``)."""


@dataclass(frozen=True, slots=True)
class Reading:
    """One frame's reading: the scene placed in zones, the zones as they lie on the frame, whether the table moved
    since the frame before, and whether the scene was read from this frame (not kept from an earlier one)."""

    scene: Scene
    zones: TableZones
    moving: bool
    fresh: bool
    changed: frozenset[str] | None = None
    """Of a still frame read, the zones in which it differs from the last still frame read (:func:`touched`); None
    where that is not told (no still frame read before, another deck or other zones since, most of the frame changed,
    or the table moving)."""

    @property
    def news(self) -> bool:
        """Whether the referee should hear of this frame: its scene was read from it, or the table moved (which
        clears the referee's votes)."""
        return self.fresh or self.moving


class TableReader:
    """Reads each frame of a camera: the first still one after a move in full, the others now and then."""

    def __init__(self, reader: SceneReader, zones: TableZones | None = None, reread: int = REREAD) -> None:
        self.reader = reader
        self.zones = zones or TableZones()
        """The zones drawn or saved (printed markers in sight add theirs on each frame read)."""
        self.reread = reread
        self._thumb: np.ndarray | None = None
        self._last: Reading | None = None
        self._gallery: Gallery | None = None
        self._placed_in: TableZones | None = None
        """The zones the last reading was placed in."""
        self._still = 0
        self._since_read = 0
        self._markers: dict[int, np.ndarray] = {}
        """The printed markers of the last frame read, kept for those a hand or a card hides on the next one."""
        self._base: tuple[np.ndarray, Sight] | None = None
        """The last still frame read, as compared for changes (:func:`~companion.vision.changes.small`), and what it
        showed."""

    def read(self, frame: np.ndarray, gallery: Gallery | None = None) -> Reading:
        """The reading of ``frame``, against ``gallery`` or the shipped labels."""
        thumb = thumbnail(frame)
        moved = moving(self._thumb, thumb)
        self._thumb = thumb
        self._still = 0 if moved else self._still + 1
        self._since_read += 1
        due = self._since_read >= self.reread if moved else self._still <= FIRST_READS or self._still % self.reread == 0
        if self._last is not None and gallery is self._gallery and self.zones is self._placed_in and not due:
            return Reading(self._last.scene, self._last.zones, moved, False)
        renamed = self._last is not None and (gallery is not self._gallery or self.zones is not self._placed_in)
        self._gallery, self._placed_in, self._since_read = gallery, self.zones, 0
        compared, base = (None if moved else small(frame)), self._base
        changed = changed_boxes(base[0], compared) if compared is not None and base is not None else None
        landed = None
        if base is not None and changed is not None and self._still == 1:
            landed = sight_since(frame, base[1], changed)  # where a card landed
        seen = landed or sight(frame)
        scene, zones, self._markers = read_table(self.reader, frame, self.zones, gallery, self._markers, seen)
        if compared is not None:
            self._base = (compared, seen)
        told = None if changed is None or renamed else touched(scene, zones, changed)
        self._last = Reading(scene, zones, moved, True, told)
        return self._last


def touched(scene: Scene, zones: TableZones, changed: list[Box]) -> frozenset[str]:
    """The zones that parts ``changed`` of a frame meet, or meet a stack placed in: a column may run out of its zone,
    and a card laid on its end changes it there."""
    names = {stack.zone for stack in scene.stacks
             if stack.zone and any(meet(bounds(stack.corners), box) for box in changed)}
    return frozenset(names | {zone.name for zone in zones.zones if any(_meets(zone.polygon, box) for box in changed)})


def _meets(polygon: np.ndarray, box: Box) -> bool:
    """Whether ``polygon`` (frame pixels) covers any pixel of ``box``."""
    if not meet(bounds(polygon), box):
        return False
    inside = np.zeros((box[3] - box[1], box[2] - box[0]), np.uint8)
    cv2.fillPoly(inside, [np.round(polygon - np.array(box[:2], np.float32)).astype(np.int32)], 1)
    return bool(inside.any())
