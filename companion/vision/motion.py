"""Whether the table moved between two frames: a hand over it, a card being laid, the camera bumped.

Frames are compared as small thumbnails (:func:`thumbnail`): the share of their pixels that
changed clearly in any colour. Noise and compression change few pixels a little; a hand, however small in the
frame, changes its own pixels a lot.
"""

from __future__ import annotations

import cv2
import numpy as np

THUMB = (64, 36)
"""Width and height of a thumbnail."""
CHANGED = 20.0
"""Change of a colour level (0-255) of a thumbnail pixel that counts (noise and compression stay below it)."""
MOVING = 0.004
"""Share of the thumbnail's pixels changed above which the table is moving (a hand is several times more)."""


def thumbnail(frame: np.ndarray) -> np.ndarray:
    """A small, slightly blurred copy of ``frame`` (float32, its colours kept: skin on a wooden table differs
    from it more in colour than in brightness)."""
    small = cv2.resize(frame, THUMB, interpolation=cv2.INTER_AREA).astype(np.float32)
    return cv2.GaussianBlur(small, (3, 3), 0)


def moving(before: np.ndarray | None, now: np.ndarray) -> bool:
    """Whether the table moved from thumbnail ``before`` to ``now`` (the first frame is still)."""
    if before is None:
        return False
    change = np.abs(now - before)
    return float(((change.max(axis=2) if change.ndim == 3 else change) > CHANGED).mean()) > MOVING
