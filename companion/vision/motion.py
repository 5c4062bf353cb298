"""Whether the table moved between two frames: a hand over it, a card being laid, the camera bumped.

Frames are compared as small grey thumbnails (:func:`thumbnail`), so noise and compression
change little and a hand changes a lot.
"""

from __future__ import annotations

import cv2
import numpy as np

THUMB = (64, 36)
"""Width and height of a thumbnail."""
MOVING = 4.0
"""Mean change of grey level (0-255) between thumbnails above which the table is moving."""


def thumbnail(frame: np.ndarray) -> np.ndarray:
    """A small, slightly blurred grey copy of ``frame`` (float32)."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    small = cv2.resize(grey, THUMB, interpolation=cv2.INTER_AREA).astype(np.float32)
    return cv2.GaussianBlur(small, (3, 3), 0)


def moving(before: np.ndarray | None, now: np.ndarray) -> bool:
    """Whether the table moved from thumbnail ``before`` to ``now`` (the first frame is still)."""
    return before is not None and float(np.abs(now - before).mean()) > MOVING
