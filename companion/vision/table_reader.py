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

A camera whose markers show it looking at the table at a slant (:mod:`companion.vision.plane`) has each frame it reads
warped to the table seen from straight above, and read there; what it reports is put back in the frame's pixels.
The view is found on the first still frame read, and again only where the markers move (the camera did).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from companion.vision.boxes import Box, bounds, meet
from companion.vision.changes import changed_boxes, small
from companion.vision.classifier import Gallery
from companion.vision.motion import moving, thumbnail
from companion.vision.plane import TablePlane, moved, table_plane
from companion.vision.scene import Scene, SceneReader, SeenCard, Stack, read_table
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
        self._plane: TablePlane | None = None
        """The frame's warp onto the table's plane, where the camera looks at a slant: all the above is of its view."""
        self._found: dict[int, np.ndarray] = {}
        """The printed markers found on the last frame read (none carried from an earlier one: those carried by how
        the others moved are off by pixels at the frame's sides)."""
        self._checked: dict[int, np.ndarray] = {}
        """The markers (frame pixels) the camera's slant was last found by: it is found again where they moved (the
        camera did), or, where no slant was found, where more are in sight."""

    def _found_in_frame(self) -> dict[int, np.ndarray]:
        """The markers found on the last frame read, in the frame's pixels."""
        plane = self._plane
        return {i: plane.to_frame(c) for i, c in self._found.items()} if plane else self._found

    def _restart(self, plane: TablePlane | None) -> None:
        """Read through ``plane`` from now on, as if no frame had been read (what was kept is of another view)."""
        self._plane, self._thumb, self._last, self._base, self._markers, self._found = plane, None, None, None, {}, {}
        self._still = self._since_read = 0

    def read(self, frame: np.ndarray, gallery: Gallery | None = None) -> Reading:
        """The reading of ``frame``, against ``gallery`` or the shipped labels, its stacks and zones in the frame's
        pixels. Where the markers in sight show the camera at a slant (:func:`~companion.vision.plane.table_plane`),
        the frame is read as seen from straight above, and is read again so at once where that view is new."""
        reading = self._read(frame, gallery)
        if reading.fresh and not reading.moving:
            markers = self._found_in_frame()
            more = self._plane is None and bool(markers.keys() - self._checked.keys())  # enough to tell, now?
            if more or moved(self._checked, markers):  # or the camera moved
                self._checked = markers
                plane = table_plane(markers, _size(frame))
                if plane is not None or self._plane is not None:
                    self._restart(plane)
                    reading = self._read(frame, gallery)
                    self._checked = self._found_in_frame()
        return reading

    def _read(self, camera: np.ndarray, gallery: Gallery | None) -> Reading:
        """The reading of the ``camera``'s frame, read in its view from straight above where the camera looks at a
        slant (warped only where the frame is read: whether it moved, the frame itself tells), and given in the
        frame's pixels."""
        thumb = thumbnail(camera)
        moved = moving(self._thumb, thumb)
        self._thumb = thumb
        self._still = 0 if moved else self._still + 1
        self._since_read += 1
        due = self._since_read >= self.reread if moved else self._still <= FIRST_READS or self._still % self.reread == 0
        if self._last is not None and gallery is self._gallery and self.zones is self._placed_in and not due:
            return Reading(self._last.scene, self._last.zones, moved, False)
        renamed = self._last is not None and (gallery is not self._gallery or self.zones is not self._placed_in)
        self._gallery, self._placed_in, self._since_read = gallery, self.zones, 0
        frame = self._plane.view(camera) if self._plane else camera
        compared, base = (None if moved else small(frame)), self._base
        changed = changed_boxes(base[0], compared) if compared is not None and base is not None else None
        landed = None
        if base is not None and changed is not None and self._still == 1:
            landed = sight_since(frame, base[1], changed)  # where a card landed
        seen = landed or sight(frame)
        self._found = seen.markers
        drawn = self.zones if self._plane is None else self.zones.moved(self._plane.matrix)
        scene, zones, self._markers = read_table(self.reader, frame, drawn, gallery, self._markers, seen)
        if compared is not None:
            self._base = (compared, seen)
        told = None if changed is None or renamed else touched(scene, zones, changed)
        reading = Reading(scene, zones, moved, True, told)
        self._last = reading if self._plane is None else in_frame(reading, self._plane)  # once, not on each frame
        return self._last


def in_frame(reading: Reading, plane: TablePlane) -> Reading:
    """A ``reading`` of ``plane``'s view with its cards, stacks and zones in the frame's pixels."""

    def card(seen: SeenCard) -> SeenCard:
        return replace(seen, corners=plane.to_frame(seen.corners))

    def stack(seen: Stack) -> Stack:
        return replace(seen, corners=plane.to_frame(seen.corners), top=card(seen.top))

    scene = reading.scene
    return replace(reading, scene=replace(scene, cards=tuple(card(c) for c in scene.cards),
                                          stacks=tuple(map(stack, scene.stacks)),
                                          unnamed=tuple(map(stack, scene.unnamed))),
                   zones=reading.zones.moved(plane.back))


def _size(frame: np.ndarray) -> tuple[int, int]:
    return frame.shape[1], frame.shape[0]


def touched(scene: Scene, zones: TableZones, changed: list[Box]) -> frozenset[str]:
    """The zones that parts ``changed`` of a frame meet, or meet a stack placed in: a column may run out of its zone,
    and a card laid on its end changes it there."""
    names = {stack.zone for stack in (*scene.stacks, *scene.unnamed)
             if stack.zone and any(meet(bounds(stack.corners), box) for box in changed)}
    return frozenset(names | {zone.name for zone in zones.zones if any(_meets(zone.polygon, box) for box in changed)})


def _meets(polygon: np.ndarray, box: Box) -> bool:
    """Whether ``polygon`` (frame pixels) covers any pixel of ``box``."""
    if not meet(bounds(polygon), box):
        return False
    inside = np.zeros((box[3] - box[1], box[2] - box[0]), np.uint8)
    cv2.fillPoly(inside, [np.round(polygon - np.array(box[:2], np.float32)).astype(np.int32)], 1)
    return bool(inside.any())
