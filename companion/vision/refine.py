"""Sharper corners: a second small network looks closely at the card the locator found.

The locator's mask is coarse (one mask pixel is about 4 % of a card's height), and a
colour edge inside a card can pull a side inwards. :func:`view` warps the region
around a rough quad upright, with a margin on every side, to the refiner's input; the
network (ONNX) says where the card's 4 true corners lie in that view, and
:func:`to_photo` maps them back into the photo. The answer is the mean over the view and
its three mirror images; a further round starts from it (two in all by default: alone, a
second round named no more cards, but with enrollment from every stage's framing it
named 0.4 points more unseen-deck cards 1-shot, see the model card).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.vision.manifest import ModelFile
from companion.vision.mirrors import MIRRORS, mirrored
from companion.vision.onnx import open_session
from companion.vision.preprocess import to_input
from companion.vision.rectify import order_corners

MARGIN = 0.2
"""Share of the view's width (and height) on each side outside the rough quad."""
ROUNDS = 2
"""Refinements in a row, each starting from the last one's corners."""
MAX_GROWTH = 1.6
"""Largest factor by which one round may change the quad's area; beyond it the round is ignored."""


def inner_rectangle(size: tuple[int, int]) -> np.ndarray:
    """Where the rough quad's corners (top-left first, clockwise) lie in a view of ``size``."""
    w, h = size
    return np.array([[MARGIN * w, MARGIN * h], [(1 - MARGIN) * w, MARGIN * h],
                     [(1 - MARGIN) * w, (1 - MARGIN) * h], [MARGIN * w, (1 - MARGIN) * h]], np.float32)


def view_matrix(quad: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The homography from photo to view that puts ``quad`` (ordered corners) on the inner rectangle."""
    return cv2.getPerspectiveTransform(np.asarray(quad, np.float32), inner_rectangle(size))


def view(photo: np.ndarray, quad: np.ndarray, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The refiner's input around ``quad`` (ordered corners) at ``size`` = (width, height), and its matrix."""
    matrix = view_matrix(quad, size)
    return cv2.warpPerspective(photo, matrix, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE), matrix


def to_photo(points: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """View points (N, 2) back in photo coordinates."""
    return cv2.perspectiveTransform(np.asarray(points, np.float64).reshape(-1, 1, 2), np.linalg.inv(matrix)
                                    ).reshape(-1, 2).astype(np.float32)


def unmirror(corners: np.ndarray, ry: int, rx: int) -> np.ndarray:
    """Corners (N, 4, 2) found in views mirrored by row step ``ry`` and column step ``rx``
    (-1: mirrored), as they lie in the views themselves (same corner order)."""
    if rx < 0:  # left-right: TL <-> TR, BR <-> BL, x -> 1 - x
        corners = corners[:, [1, 0, 3, 2]] * (-1, 1) + (1, 0)
    if ry < 0:  # up-down: TL <-> BL, TR <-> BR, y -> 1 - y
        corners = corners[:, [3, 2, 1, 0]] * (1, -1) + (0, 1)
    return corners


def plausible(rough: np.ndarray, sharp: np.ndarray) -> bool:
    """Whether ``sharp`` is a convex quad of about ``rough``'s size (a failed round is not)."""
    if not cv2.isContourConvex(sharp.reshape(-1, 1, 2)):
        return False
    ratio = cv2.contourArea(sharp) / max(cv2.contourArea(rough), 1e-6)
    return 1 / MAX_GROWTH <= ratio <= MAX_GROWTH


class CornerRefiner:
    """The corner network in one onnxruntime session, created once and reused."""

    def __init__(self, model: ModelFile, threads: int = 2, directory: Path | None = None) -> None:
        self.model = model
        self.session = open_session(model, [(None, 8)], threads, directory)  # 4 corners (x, y)

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the views the network reads."""
        return self.model.input_width, self.model.input_height

    def corners(self, views: list[np.ndarray]) -> np.ndarray:
        """Corners (N, 4, 2) in the views, as shares of the view: the mean of the answers for
        each view and its mirror images, mapped back."""
        out = self.session.run(None, {"image": mirrored(to_input(views, self.size))})[0]
        out = out.reshape(len(MIRRORS), len(views), 4, 2)
        return np.mean([unmirror(c, ry, rx) for c, (ry, rx) in zip(out, MIRRORS)], axis=0)

    def step(self, photo: np.ndarray, quads: list[np.ndarray]) -> list[np.ndarray]:
        """One round for several rough quads of one photo: ordered corners each."""
        rough = [order_corners(q) for q in quads]
        views, matrices = zip(*(view(photo, q, self.size) for q in rough))
        w, h = self.size
        sharp = [order_corners(to_photo(c * (w, h), m)) for c, m in zip(self.corners(list(views)), matrices)]
        return [s if plausible(q, s) else q for q, s in zip(rough, sharp)]

    def refine(self, photo: np.ndarray, quads: list[np.ndarray], rounds: int = ROUNDS) -> list[np.ndarray]:
        """``quads`` (cards in ``photo``) after ``rounds`` rounds."""
        for _ in range(rounds if quads else 0):
            quads = self.step(photo, quads)
        return quads
