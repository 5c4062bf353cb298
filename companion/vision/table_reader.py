"""Frame after frame: what the table shows, placed in its zones, and whether it moved.

:class:`TableReader` is what a camera loop calls once per frame. It compares the frame with the
one before (:mod:`companion.vision.motion`); a frame of a table that moved is read in full, and
so is the first still frame after it, and the first one named against another deck. While the
table stays still nothing on it changes, so only every ``REREAD``-th still frame is read again
(the tracker's votes still see fresh readings); the others get the last reading back at the
cost of a thumbnail.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.vision.classifier import Gallery
from companion.vision.motion import moving, thumbnail
from companion.vision.scene import Scene, SceneReader, placed
from companion.vision.zones import TableZones

REREAD = 4
"""While the table is still, one frame in this many is read again."""


@dataclass(frozen=True, slots=True)
class Reading:
    """One frame's reading: the scene placed in zones, the zones as they lie on the frame, whether the table moved
    since the frame before, and whether the scene was read from this frame (not kept from an earlier one)."""

    scene: Scene
    zones: TableZones
    moving: bool
    fresh: bool


class TableReader:
    """Reads each frame of a camera: in full when the table moved, now and then while it is still."""

    def __init__(self, reader: SceneReader, zones: TableZones | None = None, reread: int = REREAD) -> None:
        self.reader = reader
        self.zones = zones or TableZones()
        """The zones drawn or saved (printed markers in sight add theirs on each frame read)."""
        self.reread = reread
        self._thumb: np.ndarray | None = None
        self._last: Reading | None = None
        self._gallery: Gallery | None = None
        self._still = 0

    def read(self, frame: np.ndarray, gallery: Gallery | None = None) -> Reading:
        """The reading of ``frame``, against ``gallery`` or the shipped labels."""
        thumb = thumbnail(frame)
        moved = moving(self._thumb, thumb)
        self._thumb = thumb
        self._still = 0 if moved else self._still + 1
        same_deck = gallery is self._gallery
        if self._last is not None and same_deck and not moved and 1 < self._still and self._still % self.reread:
            return Reading(self._last.scene, self._last.zones, False, False)
        self._gallery = gallery
        zones = self.zones.for_frame(frame)
        self._last = Reading(placed(self.reader.read(frame, gallery), zones), zones, moved, True)
        return self._last
