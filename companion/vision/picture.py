"""Whether a camera's picture can be refereed: not black, and not frozen.

A covered lens or a dark room gives a black picture, in which every card seems gone; a stalled
driver gives the same picture again and again, in which nothing ever happens. Neither must
reach the referee. :class:`PictureWatch` says which, in a sentence for the tablet, with an
injected clock (a live camera's sensor never gives the same picture twice, so one unchanged
for ``FROZEN_S`` seconds has stalled; a file or a rendered table may repeat itself).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable

import numpy as np

from companion.vision.motion import thumbnail

DARK = 18.0
"""Brightest colour mean (0-255) of a black picture."""
FLAT = 6.0
"""Largest spread (standard deviation of its grey levels) of a black picture: a dim table still shows some."""
FROZEN_S = 5.0
"""Seconds a live camera's picture may stay exactly the same before it counts as frozen."""
BLACK = "the picture is black (is the lens covered, or the room too dark?)"


def black(frame: np.ndarray) -> bool:
    """Whether ``frame`` (BGR) shows nothing: dark in every colour, and flat."""
    small = thumbnail(frame)
    return float(small.mean(axis=(0, 1)).max()) < DARK and float(small.mean(axis=2).std()) < FLAT


class PictureWatch:
    """Says what is wrong with each picture of one camera, if anything."""

    def __init__(self, live: bool, clock: Callable[[], float] = time.monotonic, frozen_s: float = FROZEN_S) -> None:
        self.live = live
        self.clock = clock
        self.frozen_s = frozen_s
        self._last: bytes | None = None
        self._since = 0.0

    def problem(self, frame: np.ndarray) -> str | None:
        """A sentence saying why ``frame`` cannot be refereed, or None."""
        now = self.clock()
        digest = hashlib.blake2b(np.ascontiguousarray(frame[::7, ::7]).tobytes(), digest_size=16).digest()
        if digest != self._last:
            self._last, self._since = digest, now
        if black(frame):
            return BLACK
        still_for = now - self._since
        if self.live and still_for >= self.frozen_s:
            return (f"the picture has not changed for {still_for:.0f} s: the camera may have frozen "
                    "(plug it in again)")
        return None
