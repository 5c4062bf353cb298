"""Single-card photos to names: the locator and the classifier of one manifest together."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from companion.vision.classifier import CardClassifier, Gallery, Prediction
from companion.vision.keypoints import DETAIL_SIZE
from companion.vision.locate import CardLocator
from companion.vision.manifest import Manifest, load_manifest
from companion.vision.views import CardViews


class CardReader:
    """Finds the card in each photo, crops it upright and names it (sessions made once)."""

    def __init__(self, manifest: Manifest | None = None, threads: int = 2, directory: Path | None = None) -> None:
        """The models of ``manifest`` (default: the one in ``directory``, or the package's), their files
        from ``directory`` or the package; :class:`VisionError` if one is missing, corrupt or of the wrong shape."""
        manifest = manifest or load_manifest(directory)
        self.classifier = CardClassifier(manifest, threads, directory)
        self.locator = CardLocator.of(manifest, threads, directory)

    def crop(self, photo: np.ndarray) -> np.ndarray:
        """The photo's card, upright, at the classifier's input size."""
        return self.locator.crop(photo, self.classifier.input_size)

    def views(self, photo: np.ndarray) -> CardViews:
        """The photo's card as the classifier takes it: cropped at each stage's corners, :meth:`crop`'s
        first, and reframed where its outline is not card-shaped (:meth:`CardLocator.views`)."""
        return self.locator.views(photo, self.classifier.input_size)

    def enrollment_framings(self, photo: np.ndarray) -> tuple[list[np.ndarray], bool]:
        """The framings of a photo said to show a card, at the detail size (the classifier takes them smaller;
        the second opinion needs their detail), and whether its outline was found
        (:meth:`CardLocator.enrollment_framings`)."""
        return self.locator.enrollment_framings(photo, DETAIL_SIZE)

    def read(self, photos: Sequence[np.ndarray], gallery: Gallery | None = None) -> list[Prediction]:
        """One prediction per single-card photo, against ``gallery`` or the shipped labels; an
        unsure card gets a second look at all its :meth:`views` (:meth:`CardClassifier.classify_views`),
        a photo without a card outline is ``unknown``."""
        return self.classifier.classify_views([self.views(p) for p in photos], gallery)
