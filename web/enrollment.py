"""A group's own deck, enrolled bean by bean from the tablet: photos, progress and the deck profile.

Every photo is kept as its upright card crop in ``<instance>/deck/photos/<bean id>/NNNN.png``
(so the page can show what will be enrolled), with its other framings (the card cropped at
other stages' corners) beside it as ``NNNN.2.png``, ``NNNN.3.png``; :meth:`Deck.build` turns them into a
:class:`~companion.vision.profile.DeckProfile` at ``<instance>/deck/profile.json``,
which the camera then names cards against. A saved profile the card network cannot use (made
with another model, or damaged) is enrolled again from the kept photos. The card networks load
once, on first use; networks that cannot load (missing, damaged, of the wrong shape) are reported
with the same sentence from then on, not loaded again for every camera frame.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.cards import BACK, CATALOGUE, VISION_LABELS
from companion.vision.classifier import Gallery
from companion.vision.errors import VisionError
from companion.vision.folder import uneven_enrollment
from companion.vision.image_size import PictureRefused, PictureTooLarge, check_picture
from companion.vision.imageio import read_image
from companion.vision.keypoints import DETAIL_SIZE
from companion.vision.profile import DeckProfile, enroll, relearnt
from companion.vision.reader import CardReader
from web.errors import ApiError
from web.learnt import LearntCards

log = logging.getLogger(__name__)

WANTED = 3
"""Photos wanted per bean (three shots name cards of a new deck far better than one)."""
CROP_SIZE = DETAIL_SIZE
"""(width, height) of a kept card crop: larger than the classifier's input, sharp enough to look at and for
the second opinion's keypoints (:mod:`companion.vision.keypoints`)."""
MAX_SIDE = 1600
"""Longer photos are scaled down before the card is found (phone photos are large)."""


def framing_file(photo: int, framing: int = 1) -> str:
    """File name of a kept photo's ``framing`` (1: the crop the page shows)."""
    return f"{photo:04d}.png" if framing == 1 else f"{photo:04d}.{framing}.png"


def label_name(label: str) -> str:
    """What the page calls a vision label: the bean's name, or "card back"."""
    return "card back" if label == BACK else CATALOGUE[label].name


def check_label(label: str) -> str:
    """``label`` if it is a bean id or ``back``; a 404 naming the choices otherwise."""
    if label not in VISION_LABELS:
        raise ApiError(404, f'unknown bean "{label}": use one of {", ".join(VISION_LABELS)}')
    return label


def decode_photo(name: str, data: bytes) -> np.ndarray:
    """An uploaded file as a BGR image (scaled to at most ``MAX_SIDE``); a 400 if it is no image, a 413 if
    it has too many pixels to decode (read from its header, before decoding)."""
    try:
        check_picture(name, data)
    except PictureTooLarge as exc:
        raise ApiError(413, str(exc), file=name) from None
    except PictureRefused as exc:
        raise ApiError(400, str(exc), file=name) from None
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ApiError(400, f"{name}: not a readable image (empty or damaged?); take the photo again as JPEG or PNG",
                       file=name)
    scale = MAX_SIDE / max(image.shape[:2])
    return image if scale >= 1 else cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)


def enrollment_problem(counts: dict[str, int]) -> str | None:
    """Why photos with these counts per label cannot become a deck profile, or ``None``."""
    enrolled = {label: n for label, n in counts.items() if n}
    if not enrolled:
        return f"no photos yet: take {WANTED} photos of each bean, then build the deck"
    problem = uneven_enrollment(enrolled, label_name)
    return f"too few photos: {problem}" if problem and len(enrolled) < 2 else problem


class Deck:
    """Enrollment photos and the deck profile of one instance folder; the card networks, made once."""

    def __init__(self, folder: Path, models: Path | None = None) -> None:
        """The deck kept in ``folder``; the card networks from ``models`` (a folder with a manifest and
        its model files) or, by default, the package's."""
        self.folder = folder
        self.models = models
        self.photos = folder / "photos"
        self.profile_path = folder / "profile.json"
        self._lock = threading.RLock()
        self._reader: CardReader | None = None
        self._reader_problem: str | None = None
        self._profile: DeckProfile | None = None
        self._profile_problem: str | None = None
        self._profile_loaded = False
        self.learnt = LearntCards(folder / "learnt")
        self._made = 0
        """How many times a profile was made or forgotten: a profile learnt in the background from the one in use is
        kept only if none was made meanwhile."""
        self._relearning: threading.Thread | None = None
        self._relearn_due: set[str] = set()
        """Labels given a learnt card since they were last enrolled."""

    def reader(self) -> CardReader:
        """The locator and classifier sessions (loaded on first use); :class:`VisionError` if they cannot load
        (the same sentence every time after the first try)."""
        with self._lock:
            if self._reader is None and self._reader_problem is None:
                try:
                    self._reader = CardReader(directory=self.models)
                except VisionError as exc:
                    self._reader_problem = str(exc)
            if self._reader is None:
                raise VisionError(self._reader_problem)
            return self._reader

    def gallery(self) -> Gallery | None:
        """The enrolled deck to name cards against, or ``None`` for the shipped house deck."""
        with self._lock:
            if not self._profile_loaded and self.profile_path.exists():
                try:
                    self._profile = DeckProfile.load(self.profile_path, self.reader().classifier)
                except VisionError as exc:
                    self._profile_problem = f"the saved deck profile cannot be used ({exc}); build the deck again"
                    self._rebuild()
            self._profile_loaded = True
            return self._profile.gallery if self._profile else None

    def _rebuild(self) -> None:
        """Enroll the kept photos again in place of a saved profile that cannot be used (made with
        another model, or damaged); where they cannot make one, the reason stays for the tablet."""
        with suppress(ApiError):
            self.build()

    # --- photos --------------------------------------------------------------------------

    def counts(self) -> dict[str, int]:
        """Photos per label, every label listed."""
        return {label: len(self.photo_ids(label)) for label in VISION_LABELS}

    def photo_ids(self, label: str) -> list[int]:
        folder = self.photos / label
        return sorted(int(p.stem) for p in folder.glob("*.png") if p.stem.isdecimal()) if folder.is_dir() else []

    def photo_path(self, label: str, photo: int) -> Path:
        path = self.photos / label / framing_file(photo)
        if not path.is_file():
            raise ApiError(404, f"{label_name(label)} has no photo {photo}")
        return path

    def add_photos(self, label: str, files: Sequence[tuple[str, bytes]]) -> list[dict[str, Any]]:
        """Find the card in each uploaded photo and keep its crop, saying whether its crop is in doubt; nothing is kept
        if one file is no image."""
        if not files:
            raise ApiError(400, 'send one or more photos as multipart/form-data field "photo"')
        images = [decode_photo(name, data) for name, data in files]
        try:
            reader = self.reader()
        except VisionError as exc:
            raise ApiError(503, f"card recognition is unavailable: {exc}") from None
        added = []
        for image in images:
            framings, found = reader.locator.enrollment_framings(image, CROP_SIZE)
            added.append({"photo": self.add_framings(label, framings), "outline_found": found,
                          "crop_in_doubt": found and reader.classifier.matcher.crop_in_doubt(framings)})
        return added

    def add_framings(self, label: str, framings: Sequence[np.ndarray]) -> int:
        """Keep one photo's upright card crops (the one to show first) as the label's next photo; its number."""
        with self._lock:
            folder = self.photos / label
            folder.mkdir(parents=True, exist_ok=True)
            photo = max(self.photo_ids(label), default=0) + 1
            for k, crop in enumerate(framings, 1):
                if crop.shape[:2] != CROP_SIZE[::-1]:
                    crop = cv2.resize(crop, CROP_SIZE, interpolation=cv2.INTER_AREA)
                cv2.imwrite(str(folder / framing_file(photo, k)), crop)
            return photo

    def framing_paths(self, label: str, photo: int) -> list[Path]:
        """A kept photo's crops, the one shown first."""
        main = self.photo_path(label, photo)
        return [main, *sorted(main.parent.glob(f"{main.stem}.*.png"))]

    def delete(self, label: str, photo: int | None = None) -> int:
        """Delete one photo of ``label`` (or all of them); how many went."""
        with self._lock:
            photos = [photo] if photo is not None else self.photo_ids(label)
            for path in [path for p in photos for path in self.framing_paths(label, p)]:
                path.unlink()
            return len(photos)

    # --- the profile -------------------------------------------------------------------------

    def _framed(self) -> dict[str, list[list[np.ndarray]]]:
        """Every kept photo as its framings, per label that has photos."""
        return {label: self._framed_of(label) for label, n in self.counts().items() if n}

    def _framed_of(self, label: str) -> list[list[np.ndarray]]:
        """The kept photos of ``label``, each as its framings."""
        return [[read_image(path) for path in self.framing_paths(label, p)] for p in self.photo_ids(label)]

    def _keep_profile(self, profile: DeckProfile | None) -> None:
        """Name cards against ``profile`` from now on, kept in the folder (``None``: the house deck)."""
        self._made += 1
        if profile is None:
            self.profile_path.unlink(missing_ok=True)
        else:
            self.folder.mkdir(parents=True, exist_ok=True)
            profile.save(self.profile_path)
        self._profile, self._profile_problem, self._profile_loaded = profile, None, True

    def build(self) -> dict[str, Any] | None:
        """Enroll every photo, and the cards learnt in play, into a deck profile, save it and name cards against it
        from now on."""
        with self._lock:
            counts = self.counts()
            problem = enrollment_problem(counts)
            if problem:
                raise ApiError(409, problem, counts=counts)
            self._enroll_now()
            return self.profile_summary()

    def _enroll_now(self) -> None:
        """Enroll every photo and learnt card into the profile in use, now; a 503 if the networks cannot."""
        try:
            profile = enroll(self.reader().classifier, self._framed(), learnt=self.learnt.crops())
        except VisionError as exc:
            raise ApiError(503, f"card recognition is unavailable: {exc}") from None
        self._keep_profile(profile)

    def forget(self) -> bool:
        """Go back to the shipped house deck; whether there was a profile. The photos and learnt cards stay."""
        with self._lock:
            existed = self.profile_path.exists()
            self._keep_profile(None)
            return existed

    # --- learning in play ----------------------------------------------------------------------

    def learn(self, label: str, crop: np.ndarray, taken_for: str | None = None) -> bool:
        """Keep ``crop``, a card the game says is ``label`` (the camera took it for ``taken_for``, another bean, if it
        did), and enroll ``label`` again with it in the background; False (nothing kept) while the camera names cards
        against the house deck, or a deck without ``label``."""
        with self._lock:
            profile = self._in_use()
            if profile is None or label not in profile.gallery.labels:
                return False
            self.learnt.keep(label, crop, taken_for)
            self._relearn_due.add(label)
            if self._relearning is None:
                self._relearning = threading.Thread(target=self._relearn, name="relearn", daemon=True)
                self._relearning.start()
            return True

    def forget_learnt(self) -> int:
        """Forget every card learnt in play, and enroll the deck in use again without them; how many there were."""
        with self._lock:
            count = self.learnt.clear()
            if count and self._in_use() is not None:
                self._enroll_now()
            return count

    def learnt_path(self, label: str, card: int) -> Path:
        """A card learnt in play; a 404 if there is no such card."""
        path = self.learnt.path(label, card)
        if not path.is_file():
            raise ApiError(404, f"{label_name(label)} has no learnt card {card}")
        return path

    def vouch_learnt_card(self, label: str, card: int) -> None:
        """Say that a learnt card the camera took for another bean is ``label`` after all; a 404 if it has no doubt."""
        if not self.learnt.vouch(label, card):
            raise ApiError(404, f"{label_name(label)} has no learnt card {card} in doubt")

    def forget_learnt_card(self, label: str, card: int) -> None:
        """Forget one card learnt in play (one the game had wrong) and enroll its bean again without it, now; a 404 if
        there is no such card."""
        with self._lock:
            if not self.learnt.delete(label, card):
                raise ApiError(404, f"{label_name(label)} has no learnt card {card}")
            profile = self._in_use()
            if profile is None or label not in profile.gallery.labels:
                return
            try:
                again = self._relearnt(profile, label)
            except VisionError as exc:
                raise ApiError(503, f"card recognition is unavailable: {exc}") from None
            if again is not None:
                self._keep_profile(again)

    def _in_use(self) -> DeckProfile | None:
        """The profile cards are named against (loaded on first use), or ``None`` for the house deck."""
        self.gallery()
        return self._profile

    def _relearnt(self, profile: DeckProfile, label: str) -> DeckProfile | None:
        """``profile`` with ``label`` enrolled again from its kept photos and learnt cards; ``None`` where its photos
        were deleted (it waits for the deck to be built again)."""
        with self._lock:
            photos, learnt = self._framed_of(label), self.learnt.crops_of(label)
        return relearnt(profile, self.reader().classifier, label, photos, learnt) if photos else None

    def _relearn(self) -> None:
        """Background thread: enroll each label given a card again, one at a time, outside the lock (the camera
        names cards meanwhile), from the profile in use; where another was made meanwhile, the label is enrolled
        again from that one."""
        while True:
            with self._lock:
                if not self._relearn_due or self._profile is None:
                    self._relearning = None
                    self._relearn_due.clear()
                    return
                label, made, profile = self._relearn_due.pop(), self._made, self._profile
            try:
                again = self._relearnt(profile, label)
            except Exception:  # photos that cannot be read now, or a bug: the profile in use stays
                log.exception("learning in play: %s could not be enrolled again", label)
                continue
            with self._lock:
                if made != self._made:  # made from a profile since replaced: made again from the one in use
                    self._relearn_due.add(label)
                elif again is not None:
                    self._keep_profile(again)

    def wait_learnt(self, timeout: float) -> bool:
        """Wait until no enrollment runs in the background; whether that happened in ``timeout`` s."""
        thread = self._relearning
        if thread is not None:
            thread.join(timeout)
        return self._relearning is None or not self._relearning.is_alive()

    def profile_summary(self) -> dict[str, Any] | None:
        """The profile in use: beans and photos per bean, beans never named, and whether photos changed since."""
        with self._lock:
            if self.gallery() is None or self._profile is None:
                return None
            enrolled = self._profile.photos
            counts = {label: n for label, n in self.counts().items() if n}
            return {"beans": len(enrolled), "photos": sum(enrolled.values()), "counts": enrolled,
                    "learnt": sum(self._profile.learnt.values()), "learnt_counts": self._profile.learnt,
                    "learnt_doubts": {label: n for label in self._profile.learnt
                                      if (n := len(self.learnt.doubts(label)))},
                    "missing": [label for label in VISION_LABELS if label not in enrolled],
                    "outdated": counts != enrolled}

    def progress(self) -> dict[str, Any]:
        """Per bean: photos taken of how many wanted; the overall share; what stops a build; the profile in use."""
        with self._lock:
            counts = self.counts()
            done = sum(min(n, WANTED) for n in counts.values())
            return {
                "wanted": WANTED,
                "beans": [{"id": label, "name": label_name(label), "photos": counts[label], "wanted": WANTED,
                           "photo_ids": self.photo_ids(label), "learnt_ids": self.learnt.ids(label),
                           "learnt_doubts": {str(card): bean for card, bean in self.learnt.doubts(label).items()}}
                          for label in VISION_LABELS],
                "progress": round(done / (WANTED * len(VISION_LABELS)), 4),
                "problem": enrollment_problem(counts),
                "profile": self.profile_summary(),
                "profile_problem": self._profile_problem,
            }
