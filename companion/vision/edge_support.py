"""How well a quad's sides follow edges in a photo, and a card outline the photo's edges support better.

A card lies on the table as a sharp-edged rectangle: all four of its sides cross a step in colour. The
locator's mask is soft, and where the light or the table fools it, its quad takes in a band of table on one
side or cuts into the card: that side then runs over no edge. :func:`support` measures it (the share of
points along each side where the colour steps across the side), and :func:`better_outline` offers one of
the photo's own outlines (:func:`~companion.vision.strips.find_outlines`) over the same card where all its
sides follow edges clearly better. Pure functions of arrays (OpenCV only).
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.layout_check import card_shaped
from companion.vision.strips import find_outlines

EDGE = 40.0
"""Least colour step across a side (3x3 Sobel, any channel) for a point of it to lie on an edge."""
POINTS = 32
"""Points looked at along each side."""
REACH = 2
"""How far (px) either side of a side's line a point's edge may lie."""
TRIM = 0.12
"""Share of each side's length left out at both ends (a card's rounded corners)."""
BETTER = 0.1
"""How much more of its least-supported side an outline must have on edges to stand for the locator's quad."""
OVERLAP = 0.2
"""Least overlap (intersection over union) of such an outline with the locator's quad: the same card."""
SHAPE = 0.25
"""How far (as a share of a card's) an outline's side ratio may be off and still be a card's (:func:`card_shaped`)."""


def gradients(photo: np.ndarray) -> np.ndarray:
    """Per-channel Sobel gradients of a lightly blurred photo, (H, W, channels, 2) as (d/dx, d/dy)."""
    blurred = cv2.GaussianBlur(photo, (3, 3), 0).astype(np.float32)
    channels = blurred.reshape(*blurred.shape[:2], -1)
    gx = cv2.Sobel(channels, cv2.CV_32F, 1, 0, ksize=3).reshape(channels.shape)
    gy = cv2.Sobel(channels, cv2.CV_32F, 0, 1, ksize=3).reshape(channels.shape)
    return np.stack([gx, gy], axis=-1)


def side_support(grads: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    """Share of :data:`POINTS` points along side ``a``-``b`` with a colour step across it within :data:`REACH`."""
    along = b - a
    length = float(np.linalg.norm(along))
    if length < 4:
        return 0.0
    normal = np.array([-along[1], along[0]]) / length
    ts = np.linspace(TRIM, 1 - TRIM, POINTS)
    offsets = np.arange(-REACH, REACH + 1)
    points = a + ts[:, None, None] * along + offsets[None, :, None] * normal  # (POINTS, offsets, 2)
    h, w = grads.shape[:2]
    xs = np.clip(np.rint(points[..., 0]).astype(int), 0, w - 1)
    ys = np.clip(np.rint(points[..., 1]).astype(int), 0, h - 1)
    across = np.abs(grads[ys, xs] @ normal)  # (POINTS, offsets, channels)
    return float((across.max(axis=(1, 2)) > EDGE).mean())


def support(grads: np.ndarray, quad: np.ndarray) -> float:
    """The least :func:`side_support` of a quad's four sides (from :func:`gradients` of its photo)."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    return min(side_support(grads, q[i], q[(i + 1) % 4]) for i in range(4))


def overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads."""
    pa, pb = np.asarray(a, np.float32).reshape(4, 2), np.asarray(b, np.float32).reshape(4, 2)
    common, _ = cv2.intersectConvexConvex(pa, pb)
    union = cv2.contourArea(pa) + cv2.contourArea(pb) - common
    return float(common / union) if union > 0 else 0.0


def better_outline(photo: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """A card-shaped outline of the photo's edges over the card ``quad`` marks (:data:`OVERLAP`) whose sides
    follow edges clearly better (:data:`BETTER`) than ``quad``'s; the best such, or none."""
    grads = gradients(photo)
    bar = support(grads, quad) + BETTER
    best: tuple[float, np.ndarray] | None = None
    for outline in find_outlines(photo):
        if not card_shaped(outline, SHAPE) or overlap(outline, quad) < OVERLAP:
            continue
        score = support(grads, outline)
        if score > bar and (best is None or score > best[0]):
            best = (score, outline)
    return None if best is None else best[1].astype(np.float32)
