"""The detail matcher's training data: whole decks of the training renderer, photographed to enroll and to name.

Each deck is 16 cards sharing a style (:func:`~models.render.style_deck`), most of them kin decks
(:func:`~models.render.kin_deck`: colour groups, so cards are told apart by their printed detail).
Every card gets one uncovered enrollment photo and a few test photos (some under a deck-mate), each
cropped at the detail size as the runtime crops them: enrollment as
:meth:`~companion.vision.locate.CardLocator.enrollment_framings` (the first framing), a test photo at
the locator's first outline (:meth:`~companion.vision.locate.CardLocator.views`' detail crop).
Deck ``d`` depends on ``(seed, d)`` only.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.keypoints import DETAIL_SIZE
from companion.vision.locate import CardLocator
from companion.vision.manifest import load_manifest
from companion.vision.rectify import crop_card
from models.camera import photograph_with_quad
from models.dataset import DECK_SIZE, column_cover
from models.render import kin_deck, render_face, style_deck

KIN_SHARE = 0.6
"""Share of training decks drawn as kin decks."""
COVERED = 0.4
"""Share of test photos with a deck-mate over one end."""


@dataclass(frozen=True)
class DetailSet:
    """Crops at the detail size, BGR uint8: ``enrolled`` (D, 16, H, W, 3), ``tests`` (D, 16, T, H, W, 3), and
    which test photos had a card outline found (D, 16, T); a test photo without one is a blank crop."""

    enrolled: np.ndarray
    tests: np.ndarray
    found: np.ndarray


def deck_faces(seed: int, deck: int, family: str = "train", kin_share: float = KIN_SHARE) -> list[np.ndarray]:
    """The 16 faces of deck ``deck`` of ``family`` (a kin deck in ``kin_share`` of decks)."""
    rng = np.random.default_rng([seed, 23, deck])
    draw = kin_deck if rng.random() < kin_share else style_deck
    return [render_face(d) for d in draw(rng, family, DECK_SIZE)]


def deck_crops(seed: int, deck: int, tests: int, locator: CardLocator, family: str = "train",
               kin_share: float = KIN_SHARE) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One deck's enrolled crops (16, H, W, 3), test crops (16, T, H, W, 3) and outline found (16, T)."""
    faces = deck_faces(seed, deck, family, kin_share)
    w, h = DETAIL_SIZE
    enrolled = np.zeros((DECK_SIZE, h, w, 3), np.uint8)
    shots = np.zeros((DECK_SIZE, tests, h, w, 3), np.uint8)
    found = np.zeros((DECK_SIZE, tests), bool)
    for c, face in enumerate(faces):
        rng = np.random.default_rng([seed, 29, deck, c])
        photo, _ = photograph_with_quad(face, rng)
        enrolled[c] = locator.enrollment_framings(photo, DETAIL_SIZE)[0][0]
        for t in range(tests):
            cover = faces[column_cover(DECK_SIZE, c, rng)]
            photo, _ = photograph_with_quad(face, rng, cover, None, COVERED)
            quads = locator.quads(photo)
            if quads:
                shots[c, t], found[c, t] = crop_card(photo, quads[0], DETAIL_SIZE), True
    return enrolled, shots, found


_LOCATOR: list[CardLocator] = []


def _init_worker() -> None:
    cv2.setNumThreads(1)
    _LOCATOR[:] = [CardLocator.of(load_manifest(), 1)]


def _deck(args: tuple[int, int, int, str, float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    seed, deck, tests, family, kin_share = args
    return deck_crops(seed, deck, tests, _LOCATOR[0], family, kin_share)


def detail_set(seed: int, decks: int, tests: int, workers: int = 2, family: str = "train",
               kin_share: float = KIN_SHARE, progress: Callable[[int, int], None] | None = None) -> DetailSet:
    """``decks`` decks of :func:`deck_crops`, rendered in ``workers`` processes."""
    jobs = [(seed, d, tests, family, kin_share) for d in range(decks)]
    parts = []
    if workers <= 1:
        _init_worker()
        parts = list(map(_deck, jobs))
    else:
        # spawn, not fork: forking after onnxruntime or OpenCV started threads can deadlock
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(workers, context, initializer=_init_worker) as pool:
            for part in pool.map(_deck, jobs, chunksize=4):
                parts.append(part)
                if progress and len(parts) % 50 == 0:
                    progress(len(parts), decks)
    return DetailSet(*(np.stack([p[k] for p in parts]) for k in range(3)))
