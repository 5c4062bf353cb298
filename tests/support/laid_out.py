"""A deck laid out on a wooden table, one card per spot in rows, rendered as an overhead camera frame
(the enrollment-by-layout tests); some spots hold a card squashed out of shape or a patch that is no card."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from models.render import FACE_H, FACE_W, house_design, render_face
from models.tabletop import card_quad, paste_card, wooden_table

SQUAT = "squat:"
"""Prefix of a spot whose card is pasted 13 % squatter than a card (``"squat:chili"``): not card-shaped."""
NO_CARD = "no-card"
"""A spot holding a card-sized patch of coloured squares, which no model names."""
CARD_H = 170.0
"""A card's length in the frame (pixels)."""


def face(spot: str, rng: np.random.Generator) -> np.ndarray:
    if spot == NO_CARD:
        squares = rng.integers(0, 255, (FACE_H // 8, FACE_W // 8, 3)).astype(np.uint8)
        return cv2.resize(squares, (FACE_W, FACE_H), interpolation=cv2.INTER_NEAREST)
    return render_face(house_design(spot.removeprefix(SQUAT)))


def squat_quad(centre: tuple[float, float], height: float) -> np.ndarray:
    """An upright outline of a card's length but 1.36 long over short (a card is 1.55)."""
    x, y, w = centre[0], centre[1], height / 1.36
    return np.array([[x - w / 2, y - height / 2], [x + w / 2, y - height / 2], [x + w / 2, y + height / 2],
                     [x - w / 2, y + height / 2]], np.float32)


def laid_out(spots: Sequence[str], columns: int, size: tuple[int, int] = (960, 480),
             seed: int = 7) -> tuple[np.ndarray, list[np.ndarray]]:
    """A frame of ``size`` with each spot's card (a vision label, ``SQUAT`` + label, or ``NO_CARD``) in rows of
    ``columns`` from the top left, a little turned and out of line; and each spot's true corners."""
    rng = np.random.default_rng(seed)
    table = wooden_table(rng, size)
    rows = -(-len(spots) // columns)
    quads = []
    for k, spot in enumerate(spots):
        row, column = divmod(k, columns)
        centre = (size[0] * (column + 0.5) / columns + rng.uniform(-6, 6),
                  size[1] * (row + 0.5) / rows + rng.uniform(-6, 6))
        quad = squat_quad(centre, CARD_H) if spot.startswith(SQUAT) else card_quad(centre, CARD_H, rng.uniform(-6, 6))
        paste_card(table, face(spot, rng), quad)
        quads.append(quad)
    return table, quads


def write_frames(folder: Path, frame: np.ndarray, count: int = 2) -> Path:
    """``folder`` holding ``count`` copies of ``frame`` as PNG: a camera (``FrameFolder``) that sees it still."""
    folder.mkdir(parents=True, exist_ok=True)
    for k in range(count):
        cv2.imwrite(str(folder / f"{k}.png"), frame)
    return folder
