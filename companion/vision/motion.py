"""Whether the table moved between two frames: a hand over it, a card being laid, the camera bumped.

Frames are compared as small thumbnails (:func:`thumbnail`): the share of their pixels that
changed clearly in any colour. Noise and compression change few pixels a little; a hand, however small in the
frame, changes its own pixels a lot. A camera that sets its exposure or white balance anew brightens or tints the
whole frame at once: each colour is first scaled so that the two frames' medians agree, which such a step changes
and a hand over less than half the table does not.
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
    gain = _middle(before) / np.maximum(_middle(now), np.float32(1.0))
    change = np.abs(now * gain - before)
    return float(((change.max(axis=2) if change.ndim == 3 else change) > CHANGED).mean()) > MOVING


def _middle(thumb: np.ndarray) -> np.ndarray:
    """The median of each colour of a thumbnail (the upper one of an even count)."""
    values = thumb.reshape(thumb.shape[0] * thumb.shape[1], -1)
    half = len(values) // 2
    middle: np.ndarray = np.partition(values, half, axis=0)[half]
    return middle if thumb.ndim == 3 else middle[0]
