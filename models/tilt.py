"""A table drawn from straight above, as a camera at a slant would see it.

The drawn table lies on the plane z = 0; a pinhole camera looks at its middle from a distance of ``DISTANCE`` table
widths, tilted ``degrees`` from straight down towards the table's near (bottom) edge, and its frame is filled by the
table. :func:`tilted` gives the homography from the drawn table's pixels to that frame's.
"""

from __future__ import annotations

import cv2
import numpy as np

DISTANCE = 1.2
"""The camera's distance from the table's middle, in table widths (a webcam on a stand about a metre off)."""


def tilted(size: tuple[int, int], degrees: float, margin: float = 0.02) -> np.ndarray:
    """The 3 x 3 map from a drawn ``size`` = (width, height) table to a frame of the same size of a camera tilted
    ``degrees`` from straight down, the table's image filling the frame but for ``margin`` of it at each side."""
    width, height = size
    corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float64)
    table = np.hstack([corners - [width / 2, height / 2], np.zeros((4, 1))])
    table[:, 1] *= -1  # the drawn table's rows run towards the near edge: y on the table runs away from it
    angle = np.radians(degrees)
    camera = DISTANCE * width * np.array([0.0, -np.sin(angle), np.cos(angle)])
    forward = -camera / np.linalg.norm(camera)
    right = np.array([1.0, 0.0, 0.0])
    down = np.cross(forward, right)
    seen = np.stack([(table - camera) @ right, (table - camera) @ down, (table - camera) @ forward], axis=1)
    image = seen[:, :2] / seen[:, 2:3]
    low, high = image.min(axis=0), image.max(axis=0)
    fit = min((1 - 2 * margin) * width / (high[0] - low[0]), (1 - 2 * margin) * height / (high[1] - low[1]))
    placed = (image - (low + high) / 2) * fit + [width / 2, height / 2]
    return cv2.getPerspectiveTransform(corners.astype(np.float32), placed.astype(np.float32))
