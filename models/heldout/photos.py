"""Held-out photos as the runtime takes them, rendered in worker processes.

A :class:`Shot` names one photo: which family and deck, which card (or none: a bare
table), whether a deck-mate lies over it, and the seed of the photo. :func:`shoot` takes
each photo with the family's camera and crops it with the runtime's own locator, as
enrollment (:meth:`~companion.vision.locate.CardLocator.enrollment_framings`) or naming
(:meth:`~companion.vision.locate.CardLocator.views`) does.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.keypoints import DETAIL_SIZE
from companion.vision.locate import CardLocator
from companion.vision.manifest import Manifest, load_manifest
from companion.vision.views import CardViews
from models.heldout.camera import empty_table, photograph
from models.heldout.families import FAMILIES


@dataclass(frozen=True)
class Shot:
    """One photo to take: ``card`` is an index into the deck's faces, or -1 for a bare table;
    ``cover`` the index of the deck-mate over it, or -1."""

    family: str
    deck: int
    card: int
    cover: int
    key: tuple[int, ...]
    enrolling: bool = False


_LOCATOR: list[CardLocator] = []
_SIZE: list[tuple[int, int]] = []
_DECKS: dict[tuple[str, int], list[np.ndarray]] = {}


def _faces(family: str, deck: int) -> list[np.ndarray]:
    if (family, deck) not in _DECKS:
        _DECKS.clear()  # shots come deck after deck
        _DECKS[(family, deck)] = FAMILIES[family].deck(deck)
    return _DECKS[(family, deck)]


def photo(shot: Shot) -> np.ndarray:
    """The photo ``shot`` names (BGR uint8)."""
    family, rng = FAMILIES[shot.family], np.random.default_rng(list(shot.key))
    if shot.card < 0:
        return empty_table(rng, family.look)
    faces = _faces(shot.family, shot.deck)
    return photograph(faces[shot.card], rng, family.look, faces[shot.cover] if shot.cover >= 0 else None)


def _open(manifest: Manifest | None, threads: int) -> None:
    manifest = manifest or load_manifest()
    _LOCATOR[:] = [CardLocator.of(manifest, threads)]
    _SIZE[:] = [(manifest.classifier.input_width, manifest.classifier.input_height)]


def _init_worker(manifest: Manifest | None) -> None:
    cv2.setNumThreads(1)
    _open(manifest, 1)


def _take(shots: Sequence[Shot]) -> list[CardViews]:
    locator, size = _LOCATOR[0], _SIZE[0]
    out = []
    for shot in shots:
        image = photo(shot)
        if shot.enrolling:
            out.append(CardViews(locator.enrollment_framings(image, DETAIL_SIZE)[0]))
        else:
            views = locator.views(image, size, neighbours=True)
            out.append(CardViews(views.framings, views.reframings, views.neighbours, list(views.details)))
    return out


def shoot(shots: Sequence[Shot], manifest: Manifest | None = None, workers: int = 2) -> list[CardViews]:
    """Each shot cropped as the runtime would: an enrolling shot's framings at the detail size (the
    photo's centre when no outline is found), else its :meth:`~companion.vision.locate.CardLocator.views` with
    the neighbours made at once. ``manifest`` gives the locator (default: the package's)."""
    chunks = [list(shots[k:k + 64]) for k in range(0, len(shots), 64)]
    if workers <= 1:
        _open(manifest, 2)
        return [v for chunk in chunks for v in _take(chunk)]
    # spawn, not fork: forking after onnxruntime or OpenCV started threads can deadlock
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, context, initializer=_init_worker, initargs=(manifest,)) as pool:
        return [v for part in pool.map(_take, chunks) for v in part]
