"""Warp a card, given its 4 corners in a photo, upright (portrait) to the network's size.

The corners come from :class:`companion.vision.locate.CardLocator` for a single-card
photo; the later table detector can reuse :func:`warp_card` for each card it finds.
"""

from __future__ import annotations

import cv2
import numpy as np

CARD_ASPECT = 56 / 87
"""Width over height of a Bohnanza card."""


def order_corners(quad: np.ndarray) -> np.ndarray:
    """The 4 corners as top-left, top-right, bottom-right, bottom-left of a portrait card.

    The long sides become the vertical ones; of the two upright readings, the one whose
    first corner is nearer the photo's top-left is chosen (the classifier is trained on
    both, so a card upside down is still named).
    """
    pts = np.asarray(quad, np.float32).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # clockwise in image coordinates
    if np.linalg.norm(pts[1] - pts[0]) > np.linalg.norm(pts[2] - pts[1]):
        pts = np.roll(pts, -1, axis=0)  # make 0->1 a short side
    if pts[2].sum() < pts[0].sum():
        pts = np.roll(pts, 2, axis=0)
    return pts


def warp_card(image: np.ndarray, quad: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The card inside ``quad`` (ordered corners) warped to ``size`` = (width, height)."""
    w, h = size
    target = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    matrix = cv2.getPerspectiveTransform(order_corners(quad), target)
    return cv2.warpPerspective(image, matrix, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def centre_crop(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """Fallback when no card outline is found: the central card-shaped region, resized."""
    h, w = image.shape[:2]
    if w > h:
        image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
        h, w = w, h
    ch = min(h, w / CARD_ASPECT)
    cw = ch * CARD_ASPECT
    y0, x0 = int((h - ch) / 2), int((w - cw) / 2)
    return cv2.resize(image[y0:y0 + int(ch), x0:x0 + int(cw)], size, interpolation=cv2.INTER_AREA)


def crop_card(image: np.ndarray, quad: np.ndarray | None, size: tuple[int, int]) -> np.ndarray:
    """The card inside ``quad`` upright at ``size`` = (width, height); the centre crop without a quad."""
    return centre_crop(image, size) if quad is None else warp_card(image, quad, size)
