"""A printed marker's corners at subpixel precision, from lines fitted to its black square's four sides.

ArUco's own refinement finds each corner from the few pixels around it; a far marker seen at a slant is 20-30 px a
side, and its corners come out to the pixel, not below it. The table's plane (:mod:`companion.vision.plane`) is fitted
to the markers' corners, and every column read on it moves with a pixel of a far marker. Each side of a marker is
tens of pixels long: its edge is found along it at a quarter of a pixel, a line is fitted through the edge points,
and the corners are where the lines meet. Pure: an image and corners in, corners out.
"""

from __future__ import annotations

import cv2
import numpy as np

INSET = 0.2
"""Share of each side left out at either end: near a corner the two sides' edges blur into one another."""
REACH = 3.0
"""How far (px) either way of a side its edge is looked for, across it."""
STEP = 0.25
"""Spacing (px) of the samples across a side."""
LEAST_POINTS = 3
"""Least edge points a side's line is fitted to; with fewer, the marker keeps the corners it was found with."""


def refined(gray: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """``corners`` (4 x 2, frame pixels, in order round the black square) moved onto the meeting points of lines fitted
    to the square's sides in ``gray``; as given where a side shows no edge or a corner would move beyond :data:`REACH`
    (then the square was not where the corners said)."""
    quad = np.asarray(corners, np.float64).reshape(4, 2)
    found = [_side_line(gray, quad[k], quad[(k + 1) % 4], quad.mean(axis=0)) for k in range(4)]
    lines = [line for line in found if line is not None]
    if len(lines) < 4:
        return quad.astype(np.float32)
    meets = [_meet(lines[k - 1], lines[k]) for k in range(4)]  # corner k: where the sides before and after it meet
    if any(point is None for point in meets):
        return quad.astype(np.float32)
    moved = np.array(meets, np.float64)
    return (moved if np.abs(moved - quad).max() <= REACH else quad).astype(np.float32)


Line = tuple[np.ndarray, np.ndarray]
"""A point on a line and its unit direction."""


def _side_line(gray: np.ndarray, start: np.ndarray, end: np.ndarray, centre: np.ndarray) -> Line | None:
    """The line through the edge between the marker's black square and its white margin along the side ``start`` ->
    ``end``: at each sample along the side, the steepest rise from dark to light across it, to a fraction of a
    sample."""
    length = float(np.linalg.norm(end - start))
    if length < 1e-6:
        return None
    along = np.linspace(INSET, 1 - INSET, max(LEAST_POINTS + 1, int(length * (1 - 2 * INSET))))
    base = start[None] + along[:, None] * (end - start)[None]
    normal = np.array([start[1] - end[1], end[0] - start[0]]) / length
    if np.dot(centre - (start + end) / 2, normal) > 0:
        normal = -normal  # outwards: from the black square to the white margin
    across = np.arange(-REACH, REACH + STEP / 2, STEP)
    points = (base[:, None, :] + across[None, :, None] * normal[None, None, :]).astype(np.float32)
    profile = cv2.remap(gray, points[..., 0], points[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    rise = np.gradient(profile.astype(np.float64), axis=1)
    rows = np.arange(len(base))
    steepest = np.clip(np.argmax(rise, axis=1), 1, len(across) - 2)
    before, at, after = rise[rows, steepest - 1], rise[rows, steepest], rise[rows, steepest + 1]
    bend = before - 2 * at + after
    shift = np.divide(before - after, 2 * bend, out=np.zeros_like(bend), where=np.abs(bend) > 1e-9)
    edge = base + (across[steepest] + np.clip(shift, -1, 1) * STEP)[:, None] * normal[None]
    kept = edge[at > 0]
    if len(kept) < LEAST_POINTS:
        return None
    vx, vy, x0, y0 = cv2.fitLine(kept.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)


def _meet(first: Line, second: Line) -> np.ndarray | None:
    """Where two lines meet; None where they run alongside each other."""
    (p, d), (q, e) = first, second
    matrix = np.array([d, -e]).T
    if abs(np.linalg.det(matrix)) < 1e-9:
        return None
    t = np.linalg.solve(matrix, q - p)
    return p + t[0] * d
