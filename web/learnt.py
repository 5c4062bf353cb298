"""Cards the camera learnt in play: top cards of fields whose bean the game knows (:mod:`companion.tracker.lessons`).

Each is kept as its upright crop in ``<instance>/deck/learnt/<bean id>/NNNN.png``, the newest
:data:`PER_BEAN` of each bean, and enrolled beside the bean's photos whenever the deck profile is made. A card the
camera took for another bean (:func:`~companion.tracker.lessons.taken_for`) has that bean beside it in ``NNNN.json``
until it is forgotten or vouched for: the field may have been entered wrong.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
from pathlib import Path

import cv2
import numpy as np

from companion.cards import VISION_LABELS
from companion.tracker.lessons import PER_BEAN
from companion.vision.errors import VisionError
from companion.vision.imageio import read_image


class LearntCards:
    """The learnt cards of one deck folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock = threading.Lock()

    def ids(self, label: str) -> list[int]:
        """The numbers of ``label``'s learnt cards, oldest first."""
        folder = self.folder / label
        return sorted(int(p.stem) for p in folder.glob("*.png") if p.stem.isdecimal()) if folder.is_dir() else []

    def path(self, label: str, card: int) -> Path:
        """Where learnt card number ``card`` of ``label`` is kept (it may not be)."""
        return self.folder / label / f"{card:04d}.png"

    def _doubt_path(self, label: str, card: int) -> Path:
        """Where the bean the camera took learnt card ``card`` of ``label`` for is kept (it may not be)."""
        return self.folder / label / f"{card:04d}.json"

    def delete(self, label: str, card: int) -> bool:
        """Forget one learnt card; whether it was there."""
        with self._lock:
            if not self.path(label, card).is_file():
                return False
            self._doubt_path(label, card).unlink(missing_ok=True)
            self.path(label, card).unlink()
            return True

    def keep(self, label: str, crop: np.ndarray, taken_for: str | None = None) -> None:
        """Keep ``crop`` as a card of ``label`` (which the camera took for ``taken_for``, another bean, if it did),
        dropping the oldest beyond :data:`PER_BEAN`."""
        with self._lock:
            folder = self.folder / label
            folder.mkdir(parents=True, exist_ok=True)
            ids = self.ids(label)
            ok, data = cv2.imencode(".png", crop)
            if not ok:
                raise VisionError("a learnt card could not be encoded as PNG")
            card = max(ids, default=0) + 1
            if taken_for is not None:  # written first: a card is never kept without its doubt
                _write(self._doubt_path(label, card), json.dumps({"taken_for": taken_for}).encode())
            _write(self.path(label, card), data.tobytes())
            for old in ids[: max(0, len(ids) + 1 - PER_BEAN)]:
                self.path(label, old).unlink(missing_ok=True)
                self._doubt_path(label, old).unlink(missing_ok=True)

    def doubts(self, label: str) -> dict[int, str]:
        """Per learnt card of ``label`` the camera took for another bean, that bean."""
        with self._lock:
            out = {}
            for card in self.ids(label):
                try:
                    out[card] = str(json.loads(self._doubt_path(label, card).read_text("utf-8"))["taken_for"])
                except (OSError, ValueError, KeyError, TypeError):  # none kept (or damaged): no doubt to show
                    continue
            return out

    def vouch(self, label: str, card: int) -> bool:
        """Drop the doubt on one learnt card (it is ``label`` after all); whether there was one."""
        with self._lock:
            if not self._doubt_path(label, card).is_file() or not self.path(label, card).is_file():
                return False
            self._doubt_path(label, card).unlink()
            return True

    def counts(self) -> dict[str, int]:
        """Learnt cards per label, only the labels that have some."""
        with self._lock:
            return {label: n for label in VISION_LABELS if (n := len(self.ids(label)))}

    def crops(self) -> dict[str, list[np.ndarray]]:
        """Every learnt card per label that has some, oldest first."""
        return {label: crops for label in VISION_LABELS if (crops := self.crops_of(label))}

    def crops_of(self, label: str) -> list[np.ndarray]:
        """The learnt cards of ``label``, oldest first (a damaged file left out)."""
        with self._lock:
            out = []
            for i in self.ids(label):
                try:
                    out.append(read_image(self.path(label, i)))
                except VisionError:
                    continue
            return out

    def clear(self) -> int:
        """Forget every learnt card; how many there were."""
        with self._lock:
            count = sum(len(self.ids(label)) for label in VISION_LABELS)
            shutil.rmtree(self.folder, ignore_errors=True)
            return count


def _write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all."""
    path.with_name(f"{path.name}.new").write_bytes(data)
    os.replace(path.with_name(f"{path.name}.new"), path)
