"""Sharper card corners: straight lines fitted to the 4 sides of a card region's outline.

The polygon fit of :func:`companion.vision.locate.quad_from_mask` takes outline points
as corners, so a mask with rounded corners gives a card cut short. Fitting a line to
the middle of each side and meeting neighbouring lines puts the corners back.
"""

from __future__ import annotations

import cv2
import numpy as np

SIDE_SPAN = (0.15, 0.85)
"""Part of each side (from corner to corner) whose outline points fit its line."""


def dense(outline: np.ndarray) -> np.ndarray:
    """Points about one pixel apart along a closed polygon."""
    steps = []
    for a, b in zip(outline, np.roll(outline, -1, axis=0)):
        count = max(1, int(np.linalg.norm(b - a)))
        steps.append(a + (b - a) * (np.arange(count)[:, None] / count))
    return np.concatenate(steps).astype(np.float32)


Line = tuple[np.ndarray, np.ndarray]
"""A point on a line and its unit direction."""


def line_through(points: np.ndarray) -> Line:
    """The line fitted to ``points`` (N x 2), outliers weighed down (Huber)."""
    vx, vy, x0, y0 = cv2.fitLine(np.asarray(points, np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.array([x0, y0], np.float32), np.array([vx, vy], np.float32)


def meeting_corners(lines: list[Line]) -> np.ndarray | None:
    """The corners of a quadrilateral from its 4 sides' lines in order: corner k where side k - 1 meets side k; None
    where two neighbouring sides run alongside each other."""
    corners = []
    for k in range(4):
        (p1, d1), (p2, d2) = lines[k - 1], lines[k]
        system = np.array([d1, -d2]).T
        if abs(np.linalg.det(system)) < 1e-3:
            return None
        corners.append(p1 + np.linalg.solve(system, p2 - p1)[0] * d1)
    return np.array(corners)


def _side_line(points: np.ndarray, a: np.ndarray, b: np.ndarray) -> Line | None:
    """Point and direction of the line fitted to the outline points near side ``a -> b``."""
    length = float(np.linalg.norm(b - a))
    along = (b - a) / max(length, 1e-6)
    normal = np.array([-along[1], along[0]], np.float32)
    t, off = (points - a) @ along, (points - a) @ normal
    near = (t > SIDE_SPAN[0] * length) & (t < SIDE_SPAN[1] * length) & (np.abs(off) < 0.08 * length + 3)
    if near.sum() < 5:
        return None
    return line_through(points[near])


def fit_sides(outline: np.ndarray, quad: np.ndarray, max_move: float = 0.25) -> np.ndarray:
    """Corners of the lines fitted to the 4 sides of ``outline`` (a closed polygon, e.g. a hull).

    ``quad`` (4 corners in order) says roughly where the sides are. It comes back
    unchanged when a side has too few points or a corner would move more than
    ``max_move`` of the shortest side.
    """
    points = dense(np.asarray(outline, np.float32).reshape(-1, 2))
    found = [_side_line(points, quad[k], quad[(k + 1) % 4]) for k in range(4)]
    lines = [line for line in found if line is not None]
    if len(lines) < 4:
        return quad
    corners = meeting_corners(lines)
    if corners is None:
        return quad
    out = corners.astype(np.float32)
    shortest = min(np.linalg.norm(quad[k] - quad[(k + 1) % 4]) for k in range(4))
    return quad if np.abs(out - quad).max() > max_move * shortest else out
