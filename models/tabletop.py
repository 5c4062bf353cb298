"""Cards drawn onto a tabletop seen from above, at known corners (the synthetic camera and the scene tests)."""

from __future__ import annotations

import cv2
import numpy as np

from models.render import FACE_H, FACE_W


def card_quad(centre: tuple[float, float], height: float, angle: float) -> np.ndarray:
    """Corners (TL, TR, BR, BL of the card face) of an upright card turned by ``angle`` degrees."""
    w = height * FACE_W / FACE_H
    corners = np.array([[-w / 2, -height / 2], [w / 2, -height / 2], [w / 2, height / 2], [-w / 2, height / 2]],
                       np.float32)
    turn = cv2.getRotationMatrix2D((0, 0), angle, 1.0)[:, :2].astype(np.float32)
    return corners @ turn.T + np.array(centre, np.float32)


def paste_card(table: np.ndarray, face: np.ndarray, quad: np.ndarray) -> None:
    """Draw ``face`` onto ``table`` (in place) with its corners at ``quad`` (warping only the window it covers)."""
    h, w = table.shape[:2]
    x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int) - 1, 0)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0)).astype(int) + 2, (w, h))
    if x0 >= x1 or y0 >= y1:
        return
    src = np.array([[0, 0], [FACE_W, 0], [FACE_W, FACE_H], [0, FACE_H]], np.float32)
    matrix = cv2.getPerspectiveTransform(src, (quad - np.array([x0, y0], np.float32)).astype(np.float32))
    size = (int(x1 - x0), int(y1 - y0))
    warped = cv2.warpPerspective(face, matrix, size, flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full(face.shape[:2], 255, np.uint8), matrix, size) > 127
    table[y0:y1, x0:x1][mask] = warped[mask]


def wooden_table(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A light wooden tabletop of ``size`` = (width, height): soft grain, a little noise."""
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    grain = 0.5 + 0.5 * np.sin(yy / rng.uniform(9, 14) + 2.5 * np.sin(xx / rng.uniform(90, 140)))
    top = np.array([95, 140, 185], np.float32) + grain[..., None] * np.array([-12, -14, -10], np.float32)
    noise = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), 2) * 8
    return np.clip(top + noise[..., None], 0, 255).astype(np.uint8)
