"""Single-card photos to names: the locator and the classifier of one manifest together."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from companion.vision.classifier import CardClassifier, Gallery, Prediction, decide, unsure
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

    def views(self, photo: np.ndarray, neighbours: bool = False) -> CardViews:
        """The photo's card as the classifier takes it: cropped at each stage's corners, :meth:`crop`'s
        first, reframed where its outline is not card-shaped, and with its neighbours when asked
        (:meth:`CardLocator.views`)."""
        return self.locator.views(photo, self.classifier.input_size, neighbours)

    def enrollment_framings(self, photo: np.ndarray) -> tuple[list[np.ndarray], bool]:
        """The framings of a photo said to show a card, at the detail size (the classifier takes them smaller;
        the second opinion needs their detail), and whether its outline was found
        (:meth:`CardLocator.enrollment_framings`)."""
        return self.locator.enrollment_framings(photo, DETAIL_SIZE)

    def read(self, photos: Sequence[np.ndarray], gallery: Gallery | None = None) -> list[Prediction]:
        """One prediction per single-card photo, against ``gallery`` or the shipped labels
        (:meth:`name` of its :meth:`views`); a photo without a card outline is ``unknown``."""
        return self.name(photos, [self.views(p) for p in photos], gallery)

    def name(self, photos: Sequence[np.ndarray], views: Sequence[CardViews],
             gallery: Gallery | None = None) -> list[Prediction]:
        """Predictions for ``photos`` from their ``views`` (without neighbours), in three steps: the
        classifier's looks at the views (:meth:`CardClassifier.cosines`); for each card still unsure,
        its views again with its neighbours, the one place the locator is asked for more; then the
        decision (:func:`~companion.vision.classifier.decide`)."""
        threshold = self.classifier.threshold(gallery)
        cosines = self.classifier.cosines(views, gallery, threshold)
        again = [int(i) for i in np.flatnonzero(unsure(cosines, threshold)) if len(views[int(i)].framings)]
        if again:
            fuller = [self.views(photos[i], neighbours=True) for i in again]
            cosines[again] = self.classifier.cosines(fuller, gallery, threshold)
        return decide(cosines, self.classifier.labels(gallery), threshold, self.classifier.scale(gallery))
