"""Network inputs rendered from seeds: photos with card masks, and card crops.

The locator learns from photos and the true card outline. A classifier sample is a
face photographed by :mod:`models.camera` (maybe under the next card of its column) and
cropped by the same :class:`~companion.vision.locate.CardLocator` the runtime uses, so
training sees what the classifier will see, locator misses included.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import cast

import cv2
import numpy as np

from companion.cards import VISION_LABELS
from companion.vision.locate import CardLocator
from companion.vision.manifest import Manifest, ModelFile
from companion.vision.rectify import order_corners
from companion.vision.refine import inner_rectangle, view
from companion.vision.views import CardViews
from models.camera import PHOTO_H, PHOTO_W, photograph, photograph_with_quad, tablecloth
from models.render import FACE_H, FACE_W, house_design, render_face, style_deck

INPUT_W, INPUT_H = 64, 96
"""Classifier input size: a card crop of 64 x 96 pixels."""
SIZE = (INPUT_W, INPUT_H)
LOCATOR_W, LOCATOR_H = 96, 80
"""Locator input size: the whole photo, scaled; its mask has half this size."""
REFINER_W, REFINER_H = 80, 120
"""Refiner input size: the region around a rough card quad, upright, with a margin."""
REFINER_REACH = 0.3
"""Refiner samples whose true corners lie further than this (share of the view) from the
rough ones are left out: the locator missed the card, no refinement can mend it."""
DECK_SIZE = len(VISION_LABELS)


def house_faces() -> list[np.ndarray]:
    """The shipped deck's faces, in ``VISION_LABELS`` order."""
    return [render_face(house_design(label)) for label in VISION_LABELS]


def other_faces(seed: int, count: int, family: str = "train") -> list[np.ndarray]:
    """``count`` random card faces of ``family``, in decks of 16 sharing a style.

    Card ``k`` depends on ``(seed, k // 16)`` only. Decks teach the embedding to tell
    apart cards of one style, as an enrolled deck needs.
    """
    designs = [d for deck in range(-(-count // DECK_SIZE))
               for d in style_deck(np.random.default_rng([seed, 11, deck]), family, DECK_SIZE)]
    return [render_face(d) for d in designs[:count]]


def card_photo(face: np.ndarray, rng: np.random.Generator, covers: Sequence[np.ndarray]) -> np.ndarray:
    """One degraded photo of ``face``, maybe covered by one of ``covers``."""
    cover = covers[int(rng.integers(len(covers)))] if covers else None
    return photograph(face, rng, cover)


def training_crop(faces: Sequence[np.ndarray], c: int, rng: np.random.Generator, locator: CardLocator,
                  covered: float) -> np.ndarray:
    """A photo of ``faces[c]`` for the card network, cropped by ``locator`` to its input size.

    In ``covered`` of the photos the next card of its column lies over one end: half the
    time a card of its own deck of 16 (a field's column holds one deck's cards, often alike),
    else any face.
    """
    photo, _ = photograph_with_quad(faces[c], rng, faces[column_cover(len(faces), c, rng)], None, covered)
    return locator.crop(photo, SIZE)


def column_cover(count: int, c: int, rng: np.random.Generator) -> int:
    """Which of ``count`` faces (in decks of 16) may lie over face ``c`` in a column: half the
    time another card of its deck, else any face."""
    deck = c // DECK_SIZE * DECK_SIZE
    mates = [k for k in range(deck, min(deck + DECK_SIZE, count)) if k != c]
    own_deck = rng.random() < 0.5
    return mates[int(rng.integers(len(mates)))] if own_deck and mates else int(rng.integers(count))


def stacked(crops: Sequence[np.ndarray]) -> np.ndarray:
    """Crops as one (N, H, W, 3) array, also when there are none."""
    return np.stack(crops) if len(crops) else np.empty((0, SIZE[1], SIZE[0], 3), np.uint8)


def stacked_sequence(crops: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
    """:func:`stacked`, typed as the sequence of crops it is (an array iterates over its first axis)."""
    return cast(Sequence[np.ndarray], stacked(crops))


def card_views(face: np.ndarray, rng: np.random.Generator, covers: Sequence[np.ndarray],
               locator: CardLocator) -> CardViews:
    """:func:`card_photo` as the classifier takes it (:meth:`~companion.vision.locate.CardLocator.views`),
    framings, reframings and neighbours stacked; no framings when no card outline is found."""
    views = locator.views(card_photo(face, rng, covers), SIZE, neighbours=True)
    return CardViews(stacked_sequence(views.framings), stacked_sequence(views.reframings),
                     stacked_sequence(views.neighbours))


def enrollment_framings(face: np.ndarray, rng: np.random.Generator, locator: CardLocator) -> np.ndarray:
    """An uncovered :func:`card_photo` as enrollment takes it
    (:meth:`~companion.vision.locate.CardLocator.enrollment_framings`): (F, H, W, 3), the centre
    crop when no card outline is found."""
    return stacked(locator.enrollment_framings(card_photo(face, rng, ()), SIZE)[0])


def non_card_photo(rng: np.random.Generator) -> np.ndarray:
    """A photo with no card in it: tablecloth, maybe a cup or a plate."""
    photo = tablecloth(rng)
    for _ in range(int(rng.integers(0, 3))):
        center = (int(rng.integers(photo.shape[1])), int(rng.integers(photo.shape[0])))
        cv2.ellipse(photo, center, (int(rng.integers(15, 60)), int(rng.integers(15, 60))), float(rng.uniform(0, 180)),
                    0, 360, tuple(int(v) for v in rng.integers(0, 256, 3)), -1, cv2.LINE_AA)
    return cv2.GaussianBlur(photo, (0, 0), float(rng.uniform(0.3, 1.2)))


def non_card_views(locator: CardLocator, seed: int, count: int) -> list[CardViews]:
    """:meth:`~companion.vision.locate.CardLocator.views` of ``count`` photos without a card
    (mostly no framings: no card outline); photo ``i`` depends on ``(seed, i)`` only."""
    return [locator.views(non_card_photo(np.random.default_rng([seed, 3, i])), SIZE) for i in range(count)]


def recolour(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``face`` with its colour channels shuffled and maybe inverted: palettes no deck of
    the training family has, so the locator learns card outlines rather than card colours."""
    face = face[..., rng.permutation(3)]
    return 255 - face if rng.random() < 0.3 else np.ascontiguousarray(face)


def restyle(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``face`` with 1-3 bands of one colour along random sides and maybe a frame: card layouts
    whose inner colour edges reach the card's edge, so the locator learns to look past them."""
    face = face.copy()
    h, w = face.shape[:2]
    for _ in range(int(rng.integers(1, 4))):
        colour = tuple(int(v) for v in rng.integers(0, 256, 3))
        side, depth = int(rng.integers(4)), float(rng.uniform(0.08, 0.35))
        if side == 0:
            face[:int(depth * h)] = colour
        elif side == 1:
            face[h - int(depth * h):] = colour
        elif side == 2:
            face[:, :int(depth * w)] = colour
        else:
            face[:, w - int(depth * w):] = colour
    if rng.random() < 0.4:
        inset, thick = int(rng.integers(0, 12)), int(rng.integers(2, 9))
        cv2.rectangle(face, (inset, inset), (w - 1 - inset, h - 1 - inset),
                      tuple(int(v) for v in rng.integers(0, 256, 3)), thick)
    return face


PATTERNED = 0.15
"""Share of locator and refiner photos whose card is a tablecloth pattern: only its shape says it is a card."""
CAMOUFLAGE = 0.35
"""Share of locator and refiner photos whose tablecloth has the colour of one side of the card's rim
(:func:`rim_colour`)."""
COVERED = 0.6
"""Share of locator and refiner photos whose card is covered by the next card of its column
(twice the camera's usual share: a covered card's hidden end is the hardest corner to place)."""


def rim_colour(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """About the mean colour of one side of the face's outer rim, or of the whole rim: a
    tablecloth that the card, or that end of it, hardly stands out from."""
    sides = [face[:6], face[-6:], face[:, :6], face[:, -6:]]
    pick = int(rng.integers(len(sides) + 1))
    rim = np.concatenate([s.reshape(-1, 3) for s in sides]) if pick == len(sides) else sides[pick].reshape(-1, 3)
    return np.clip(rim.mean(axis=0) + rng.normal(0, 12, 3), 0, 255)


def _training_photo(faces: Sequence[np.ndarray], rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A photo of a random face (or a patterned card), 40 % :func:`restyle`-d, half
    :func:`recolour`-ed, some on a tablecloth of its own rim's colour and 60 % covered, and its true quad."""
    face = faces[int(rng.integers(len(faces)))]
    face = tablecloth(rng, FACE_W, FACE_H) if rng.random() < PATTERNED else face
    face = restyle(face, rng) if rng.random() < 0.4 else face
    face = recolour(face, rng) if rng.random() < 0.5 else face
    table = rim_colour(face, rng) if rng.random() < CAMOUFLAGE else None
    return photograph_with_quad(face, rng, faces[int(rng.integers(len(faces)))], table, COVERED)


def locator_sample(faces: Sequence[np.ndarray], rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A photo at locator input size and its card mask (float in [0, 1], half size); 5 % have no card,
    the others are :func:`_training_photo` s."""
    mask = np.zeros((PHOTO_H, PHOTO_W), np.float32)
    if rng.random() < 0.05:
        photo = non_card_photo(rng)
    else:
        photo, quad = _training_photo(faces, rng)
        cv2.fillPoly(mask, [np.round(quad * 8).astype(np.int32)], 1.0, cv2.LINE_AA, shift=3)
    small = cv2.resize(photo, (LOCATOR_W, LOCATOR_H), interpolation=cv2.INTER_AREA)
    return small, cv2.resize(mask, (LOCATOR_W // 2, LOCATOR_H // 2), interpolation=cv2.INTER_AREA)


def jitter(quad: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``quad`` roughly found: each corner moved (a normal spread of 0.5-6 % of the card's height),
    the whole shifted (3 %) and scaled (90-110 %)."""
    height = float(np.linalg.norm(quad[3] - quad[0]))
    centre = quad.mean(axis=0)
    moved = quad + rng.normal(0, rng.uniform(0.005, 0.06) * height, quad.shape) + rng.normal(0, 0.03 * height, 2)
    return (centre + (moved - centre) * rng.uniform(0.9, 1.1)).astype(np.float32)


def refiner_samples(faces: Sequence[np.ndarray], rng: np.random.Generator,
                    locator: CardLocator) -> list[tuple[np.ndarray, np.ndarray]]:
    """Refiner inputs from one training photo, with their true corners (8 numbers, share of the view):
    one around the quad ``locator`` finds (when it finds one) and one around the true quad :func:`jitter`-ed."""
    photo, quad = _training_photo(faces, rng)
    truth = order_corners(quad)
    found = locator.locate(photo)
    size, inner = (REFINER_W, REFINER_H), inner_rectangle((REFINER_W, REFINER_H))
    out = []
    for start in ([] if found is None else [found]) + [jitter(truth, rng)]:
        image, matrix = view(photo, order_corners(start), size)
        seen = cv2.perspectiveTransform(truth.reshape(-1, 1, 2).astype(np.float64), matrix).reshape(4, 2)
        target = min((np.roll(seen, k, axis=0) for k in range(4)), key=lambda t: np.abs(t - inner).sum())
        if np.abs((target - inner) / size).max() <= REFINER_REACH:
            out.append((image, (target / size).astype(np.float32).ravel()))
    return out


def locator_parts(manifest: Manifest) -> tuple[ModelFile, ModelFile, None]:
    """The locator argument of :func:`view_set` and the like for the package's models."""
    return manifest.locator, manifest.refiner, None


_WORKER: dict = {}


def _init_worker(faces: list[np.ndarray], covers: list[np.ndarray], task: str, locator: tuple | None,
                 covered: float = 0.0) -> None:
    cv2.setNumThreads(1)
    _WORKER.update(faces=faces, covers=covers, task=task, covered=covered)
    _WORKER["locator"] = CardLocator(locator[0], 1, locator[2], locator[1]) if locator else None


def _chunk(args: tuple[list[tuple[int, int]], int]) -> list:
    jobs, seed = args
    faces, covers, locator, task = _WORKER["faces"], _WORKER["covers"], _WORKER["locator"], _WORKER["task"]
    if task == "locator":
        return [locator_sample(faces, np.random.default_rng([seed, c, i])) for c, i in jobs]
    if task == "refiner":
        return [refiner_samples(faces, np.random.default_rng([seed, c, i]), locator) for c, i in jobs]
    if task == "views":
        return [card_views(faces[c], np.random.default_rng([seed, c, i]), covers, locator) for c, i in jobs]
    if task == "enrollment":
        return [enrollment_framings(faces[c], np.random.default_rng([seed, c, i]), locator) for c, i in jobs]
    return [training_crop(faces, c, np.random.default_rng([seed, c, i]), locator, _WORKER["covered"]) for c, i in jobs]


def _parts(chunks: list[tuple[list[tuple[int, int]], int]], init: tuple, workers: int) -> Iterator[list]:
    if workers <= 1:
        _init_worker(*init)
        yield from map(_chunk, chunks)
        return
    # spawn, not fork: forking after torch or OpenCV started threads can deadlock.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, context, initializer=_init_worker, initargs=init) as pool:
        yield from pool.map(_chunk, chunks)


def _render(jobs: list[tuple[int, int]], seed: int, init: tuple, workers: int,
            progress: Callable[[int, int], None] | None) -> list:
    chunks = [(jobs[k:k + 256], seed) for k in range(0, len(jobs), 256)]
    out: list = []
    for part in _parts(chunks, init, workers):
        out.extend(part)
        if progress:
            progress(len(out), len(jobs))
    return out


def training_set(faces: Sequence[np.ndarray], per_class: Sequence[int], seed: int, locator: tuple, covered: float,
                 workers: int = 2, progress: Callable[[int, int], None] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The card network's crops of every face (``per_class[c]`` of face ``c``, each a
    :func:`training_crop`): uint8 (N, H, W, 3) and int labels.

    ``faces`` come in decks of 16 (:func:`other_faces`). ``locator`` is ``(locator ModelFile,
    refiner ModelFile or None, directory or None)``, opened in each worker. Photo ``i`` of
    face ``c`` depends on ``(seed, c, i)`` only, whatever ``workers`` is.
    """
    jobs = [(c, i) for c, n in enumerate(per_class) for i in range(n)]
    crops = _render(jobs, seed, (list(faces), [], "train", locator, covered), workers, progress)
    return np.stack(crops), np.array([c for c, _ in jobs], np.int64)


def view_set(faces: Sequence[np.ndarray], per_class: Sequence[int], seed: int, locator: tuple,
             workers: int = 2, covers: Sequence[np.ndarray] = ()) -> tuple[list[CardViews], np.ndarray]:
    """Photos of every face (``per_class[c]`` of face ``c``), each as :func:`card_views`, and int
    labels. Photo ``i`` of face ``c`` depends on ``(seed, c, i)`` only."""
    return _photo_set("views", faces, per_class, seed, locator, workers, covers)


def enrollment_set(faces: Sequence[np.ndarray], per_class: Sequence[int], seed: int, locator: tuple,
                   workers: int = 2) -> tuple[list[Sequence[np.ndarray]], np.ndarray]:
    """Uncovered photos of every face, each as its :func:`enrollment_framings` (F, H, W, 3), and int labels."""
    return _photo_set("enrollment", faces, per_class, seed, locator, workers, ())


def _photo_set(task: str, faces: Sequence[np.ndarray], per_class: Sequence[int], seed: int, locator: tuple,
               workers: int, covers: Sequence[np.ndarray]) -> tuple[list, np.ndarray]:
    jobs = [(c, i) for c, n in enumerate(per_class) for i in range(n)]
    photos = _render(jobs, seed, (list(faces), list(covers), task, locator), workers, None)
    return photos, np.array([c for c, _ in jobs])


def locator_set(faces: Sequence[np.ndarray], count: int, seed: int, workers: int = 2,
                progress: Callable[[int, int], None] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``count`` locator samples: photos uint8 (N, h, w, 3) and masks float32 (N, h/2, w/2)."""
    pairs = _render([(0, i) for i in range(count)], seed, (list(faces), [], "locator", None), workers, progress)
    return np.stack([p for p, _ in pairs]), np.stack([m for _, m in pairs])


def refiner_set(faces: Sequence[np.ndarray], count: int, seed: int, locator: tuple, workers: int = 2,
                progress: Callable[[int, int], None] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Refiner samples from ``count`` photos: views uint8 (N, h, w, 3) and true corners float32 (N, 8).

    ``locator`` is ``(locator ModelFile, None, directory or None)``: the rough quads come
    from the locator alone.
    """
    found = _render([(1, i) for i in range(count)], seed, (list(faces), [], "refiner", locator), workers, progress)
    samples = [sample for photo in found for sample in photo]
    return np.stack([v for v, _ in samples]), np.stack([t for _, t in samples])
