"""Finding the card in a photo: a tiny segmentation network (ONNX) and mask -> corners.

:class:`CardLocator` marks card pixels; :func:`quad_from_mask` turns the most central
card region into 4 ordered corners, with straight sides fitted by
:mod:`companion.vision.corners`, which :class:`~companion.vision.refine.CornerRefiner`
then sharpens. The later table detector can take every region of the same mask instead
of the central one.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.vision.corners import fit_sides
from companion.vision.edge_support import better_outline
from companion.vision.keypoints import DETAIL_SIZE
from companion.vision.manifest import Manifest, ModelFile
from companion.vision.mirrors import MIRRORS, mirrored
from companion.vision.onnx import open_session
from companion.vision.preprocess import to_input
from companion.vision.rectify import centre_crop, crop_card, order_corners
from companion.vision.refine import CornerRefiner
from companion.vision.reframe import neighbours, reframings
from companion.vision.views import CardViews, Deferred


def quad_from_mask(prob: np.ndarray, size: tuple[int, int], min_share: float = 0.05) -> np.ndarray | None:
    """Ordered corners, in a ``size`` = (width, height) photo, of the most central card region."""
    w, h = size
    mask = (cv2.resize(prob, (w, h), interpolation=cv2.INTER_LINEAR) > 0.5).astype(np.uint8)
    count, labels, stats, centres = cv2.connectedComponentsWithStats(mask)
    best, best_score = 0, 0.0
    for i in range(1, count):
        area = stats[i, cv2.CC_STAT_AREA]
        off_centre = np.hypot(centres[i][0] - w / 2, centres[i][1] - h / 2) / np.hypot(w, h)
        score = area * max(0.05, 1 - 2 * off_centre)
        if area >= min_share * w * h and score > best_score:
            best, best_score = i, score
    if not best:
        return None
    hull = cv2.convexHull(cv2.findNonZero((labels == best).astype(np.uint8)))
    approx = cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True)
    quad = approx.reshape(4, 2) if len(approx) == 4 else cv2.boxPoints(cv2.minAreaRect(hull))
    return order_corners(fit_sides(hull, order_corners(quad.astype(np.float32))))


class CardLocator:
    """The card-mask network and the corner refiner, each in one onnxruntime session made once.

    Without ``refiner`` (only while the refiner itself is trained) the mask's corners are final.
    """

    def __init__(self, model: ModelFile, threads: int = 2, directory: Path | None = None,
                 refiner: ModelFile | None = None) -> None:
        self.model = model
        mask = (None, 1, model.input_height // 2, model.input_width // 2)
        self.session = open_session(model, [mask], threads, directory)
        self.refiner = CornerRefiner(refiner, threads, directory) if refiner else None

    @classmethod
    def of(cls, manifest: Manifest, threads: int = 2, directory: Path | None = None) -> CardLocator:
        """The manifest's locator with its refiner (files from ``directory``, or the package)."""
        return cls(manifest.locator, threads, directory, refiner=manifest.refiner)

    def probabilities(self, photos: list[np.ndarray]) -> np.ndarray:
        """Card probability maps (N, h, w) at half the network's input size.

        Each map is the mean over the photo and its three mirror images (left-right,
        up-down, both), mirrored back: steadier card outlines, so sharper corners.
        """
        size = (self.model.input_width, self.model.input_height)
        x = to_input(photos, size)
        logits = self.session.run(None, {"image": mirrored(x)})[0][:, 0]
        prob = 1 / (1 + np.exp(-logits.reshape(len(MIRRORS), len(photos), *logits.shape[1:])))
        return np.mean([p[..., ::ry, ::rx] for p, (ry, rx) in zip(prob, MIRRORS)], axis=0)

    def rough(self, photo: np.ndarray) -> np.ndarray | None:
        """Ordered corners of the card by the mask alone, or ``None``."""
        return quad_from_mask(self.probabilities([photo])[0], (photo.shape[1], photo.shape[0]))

    def locate(self, photo: np.ndarray) -> np.ndarray | None:
        """Ordered corners of the card in ``photo`` (its pixel coordinates), or ``None``."""
        quad = self.rough(photo)
        if quad is None or self.refiner is None:
            return quad
        return self.refiner.refine(photo, [quad])[0]

    def crop(self, photo: np.ndarray, size: tuple[int, int]) -> np.ndarray:
        """The card of a single-card photo, upright, at ``size`` = (width, height)."""
        return crop_card(photo, self.locate(photo), size)

    def quads(self, photo: np.ndarray) -> list[np.ndarray]:
        """The card's corners at each stage, the best first: refined (:data:`~companion.vision.refine.ROUNDS`
        rounds), refined one round more, and the mask's own; none when no card outline is found."""
        rough = self.rough(photo)
        if rough is None:
            return []
        if self.refiner is None:
            return [rough]
        refined = self.refiner.refine(photo, [rough])[0]
        return [refined, self.refiner.step(photo, [refined])[0], rough]

    def framings(self, photo: np.ndarray, size: tuple[int, int]) -> list[np.ndarray]:
        """The card of a single-card photo cropped at each of its :meth:`quads`, :meth:`crop`'s first;
        none when no card outline is found (a photo without a card).

        Enrollment embeds them all: where one stage misses the card's edge, the others
        keep the prototype near the card.
        """
        return [crop_card(photo, quad, size) for quad in self.quads(photo)]

    def views(self, photo: np.ndarray, size: tuple[int, int], neighbours: bool = False) -> CardViews:
        """The :meth:`framings` of a single-card photo; where the outline is not card-shaped, its
        :func:`~companion.vision.reframe.reframings` cropped too; its :meth:`refined_neighbours`
        cropped when ``neighbours`` is asked for (a refiner run: only for cards still unsure); and
        its detail crop for the second opinion, warped when first read."""
        quads = self.quads(photo)
        if not quads:
            return CardViews()

        def cropped(at: list[np.ndarray]) -> list[np.ndarray]:
            return [crop_card(photo, quad, size) for quad in at]

        centre = (photo.shape[1] / 2, photo.shape[0] / 2)
        return CardViews(cropped(quads), cropped(reframings(quads[0], centre)),
                         cropped(self.refined_neighbours(photo, quads[0])) if neighbours else (),
                         Deferred(lambda: [crop_card(photo, quads[0], DETAIL_SIZE)]))

    def refined_neighbours(self, photo: np.ndarray, quad: np.ndarray) -> list[np.ndarray]:
        """The :func:`~companion.vision.reframe.neighbours` of the outline ``quad``, refined one round:
        where else a card-shaped outline's card may lie."""
        near = neighbours(quad)
        return self.refiner.step(photo, near) if self.refiner else near

    def enrollment_quads(self, photo: np.ndarray) -> list[np.ndarray]:
        """:meth:`quads` of a photo said to show one uncovered card, looked at more closely: where one of the
        photo's own outlines follows the card's edges clearly better than the refined quad
        (:func:`~companion.vision.edge_support.better_outline`: the mask took in a band of table, or cut into the
        card), that outline and one refiner round of it instead. A naming photo may have a deck-mate over
        the card, whose own outline is the sharper one, so only enrollment takes this look."""
        quads = self.quads(photo)
        if not quads or self.refiner is None:
            return quads
        better = better_outline(photo, quads[0])
        return quads if better is None else [better, self.refiner.step(photo, [better])[0]]

    def enrollment_framings(self, photo: np.ndarray, size: tuple[int, int]) -> tuple[list[np.ndarray], bool]:
        """The card of a photo said to show one, cropped at each of its :meth:`enrollment_quads`, and whether its
        outline was found; without one, the photo's central card-shaped part stands for the card."""
        framings = [crop_card(photo, quad, size) for quad in self.enrollment_quads(photo)]
        return (framings, True) if framings else ([centre_crop(photo, size)], False)
