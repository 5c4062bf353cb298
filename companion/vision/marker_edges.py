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

from companion.vision.corners import line_through, meeting_corners

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
    (then the square was not where the corners said). The four sides are sampled in one batch."""
    quad = np.asarray(corners, np.float64).reshape(4, 2)
    sampled = _along_sides(quad)
    if sampled is None:
        return quad.astype(np.float32)
    base, normal, side = sampled
    across = np.arange(-REACH, REACH + STEP / 2, STEP)
    points = (base[:, None, :] + across[None, :, None] * normal[:, None, :]).astype(np.float32)
    profile = cv2.remap(gray, points[..., 0], points[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    rise = np.gradient(profile.astype(np.float64), axis=1)
    rows = np.arange(len(base))
    steepest = np.clip(np.argmax(rise, axis=1), 1, len(across) - 2)
    before, at, after = rise[rows, steepest - 1], rise[rows, steepest], rise[rows, steepest + 1]
    bend = before - 2 * at + after
    shift = np.divide(before - after, 2 * bend, out=np.zeros_like(bend), where=np.abs(bend) > 1e-9)
    edge = base + (across[steepest] + np.clip(shift, -1, 1) * STEP)[:, None] * normal
    kept = [edge[(side == k) & (at > 0)] for k in range(4)]  # the steepest rise from dark to light, at each sample
    if min(len(found) for found in kept) < LEAST_POINTS:
        return quad.astype(np.float32)
    moved = meeting_corners([line_through(found) for found in kept])
    return (moved if moved is not None and np.abs(moved - quad).max() <= REACH else quad).astype(np.float32)


def _along_sides(quad: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Samples along the middle of each side of ``quad`` (about one a pixel, :data:`INSET` left out at either end):
    their points, the side's outward normal at each (from the black square to the white margin), and their side's
    index; None for a side of no length."""
    centre = quad.mean(axis=0)
    bases, normals, sides = [], [], []
    for k in range(4):
        start, end = quad[k], quad[(k + 1) % 4]
        length = float(np.linalg.norm(end - start))
        if length < 1e-6:
            return None
        along = np.linspace(INSET, 1 - INSET, max(LEAST_POINTS + 1, int(length * (1 - 2 * INSET))))
        normal = np.array([start[1] - end[1], end[0] - start[0]]) / length
        if np.dot(centre - (start + end) / 2, normal) > 0:
            normal = -normal
        bases.append(start[None] + along[:, None] * (end - start)[None])
        normals.append(np.broadcast_to(normal, (len(along), 2)))
        sides.append(np.full(len(along), k))
    return np.concatenate(bases), np.concatenate(normals), np.concatenate(sides)
