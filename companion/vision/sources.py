"""Where camera frames come from: a real camera or video (OpenCV), a folder of frames, or an emulated table.

A source is named as the ``CAMERA`` setting and ``companion vision watch`` name it: a device index
("0"), a video URL or file opens :class:`OpenCVCamera`; a folder opens :class:`FrameFolder`
(its PNG and JPEG frames in name order); "synthetic" opens :class:`SyntheticTable`, a rendered
tabletop with house cards that changes now and then, so the camera screen works with no webcam;
"demo" (or "demo:RECORD") opens :class:`models.game_demo.GameDemo`, a recorded game played on a
rendered table with printed markers, so the camera referee works with no webcam.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, runtime_checkable

import cv2
import numpy as np

from companion.cards import VISION_LABELS
from models.render import house_design, render_face
from models.tabletop import card_quad, paste_card, wooden_table

SYNTHETIC = "synthetic"
DEMO = "demo"
FRAME_SIZE = (1280, 720)
"""Frame size (width, height) the camera referee is measured at (the recorded games, the column tables, the
benchmark): a webcam is asked for it, and a wider picture is scaled down to its width. A smaller one costs the far
cards their pixels: a development game seen at a slant was refereed 45 of 54 events right at this size, 36 at 960 x
540 and 7 at 640 x 360; seen from straight above with a group's own deck, 53 of 55 and 48 at 960 x 540."""


class CameraOffline(Exception):
    """The camera gave no picture: a sentence for the status line."""


class FrameSource(Protocol):
    """A camera: opened, read frame by frame (BGR ``uint8``), closed. ``live``: its pictures come from a sensor
    now (a webcam or a stream), so they are never twice the same (a file or a rendered table may be).
    ``house_cards``: its cards are the house deck's, drawn by itself for a game it plays (the demo table), so they are
    named as the house deck's whatever deck the group enrolled, and that deck learns nothing from them."""

    name: str
    live: bool
    house_cards: bool

    def open(self) -> None: ...

    def read(self) -> np.ndarray: ...

    def close(self) -> None: ...


@runtime_checkable
class PlaysAGame(Protocol):
    """A frame source that plays a recorded game (the demo table): told a game was started beside it, it starts that
    game over."""

    def restart(self) -> None: ...


def open_source(spec: str, clock: Callable[[], float] = time.monotonic, loop: bool = True) -> FrameSource:
    """The frame source named by ``spec`` (not yet opened); a file or folder plays again from the start when
    ``loop``, else ends (``CameraOffline``) after its last frame."""
    spec = spec.strip()
    if spec.lower() == SYNTHETIC:
        return SyntheticTable(clock=clock)
    if spec.lower() == DEMO or spec.lower().startswith(f"{DEMO}:"):
        from models.game_demo import RECORD, GameDemo  # the demo plays a game: only it needs the rules

        record = Path(spec[len(DEMO) + 1:]) if ":" in spec else RECORD
        return GameDemo(record, clock)
    if Path(spec).is_dir():
        return FrameFolder(Path(spec), loop)
    return OpenCVCamera(spec, loop)


def _fit_width(frame: np.ndarray) -> np.ndarray:
    h, w = frame.shape[:2]
    width = FRAME_SIZE[0]
    if w <= width:
        return frame
    return cv2.resize(frame, (width, round(h * width / w)), interpolation=cv2.INTER_AREA)


def ask_for_size(capture: cv2.VideoCapture, size: tuple[int, int] = FRAME_SIZE) -> None:
    """Ask a webcam for ``size`` frames, compressed (MJPG): OpenCV opens most webcams at 640 x 480 otherwise, and
    over USB 2 an uncompressed 1280 x 720 picture comes a few times a second. A camera that cannot give that size
    gives another, which is read as it is (the status line says so: :func:`smaller_than_asked`)."""
    capture.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG"))
    capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
    capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])


def smaller_than_asked(frame: np.ndarray) -> str | None:
    """A sentence where a webcam's ``frame`` is narrower than :data:`FRAME_SIZE`; else None."""
    h, w = frame.shape[:2]
    if w >= FRAME_SIZE[0]:
        return None
    return (f"its picture is {w} x {h}, and far cards are read less surely than at {FRAME_SIZE[0]} x "
            f"{FRAME_SIZE[1]} (does the camera give more?)")


SETTLE_FRAMES = 30
"""Frames a webcam's automatic exposure, white balance and focus get to settle before they are locked."""
MANUAL_EXPOSURE = (0.25, 1.0)
"""``CAP_PROP_AUTO_EXPOSURE`` values meaning "manual" (DirectShow and the V4L2 legacy scale, then V4L2's own)."""
KEPT_AS_SETTLED = (("white balance", cv2.CAP_PROP_AUTO_WB), ("focus", cv2.CAP_PROP_AUTOFOCUS))
"""What else a webcam decides by itself, and the switch (0: off) that makes it keep what it settled on: its setting is
not set again, since what a driver reads back while the camera decides may be its last manual value."""


def lock_exposure(capture: cv2.VideoCapture) -> bool:
    """Keep the exposure the camera settled on, so a hand or a white card does not change the whole picture;
    whether the camera allowed it (many let their driver decide, and then nothing changes)."""
    exposure = capture.get(cv2.CAP_PROP_EXPOSURE)
    for manual in MANUAL_EXPOSURE:
        if capture.set(cv2.CAP_PROP_AUTO_EXPOSURE, manual):
            return bool(capture.set(cv2.CAP_PROP_EXPOSURE, exposure))
    return False


def lock_settings(capture: cv2.VideoCapture) -> tuple[str, ...]:
    """Keep the exposure (:func:`lock_exposure`), the white balance and the focus the camera settled on, so that a
    hand or a heap of cards of one colour passing under it changes neither the picture's colours (the beans' names)
    nor its sharpness (the still frames after a hand are the ones read, while a camera would focus again); those the
    camera allowed, by name."""
    locked = ("exposure",) if lock_exposure(capture) else ()
    return locked + tuple(name for name, switch in KEPT_AS_SETTLED if capture.set(switch, 0.0))


class OpenCVCamera:
    """A webcam by index, or a video stream or file by URL or path; a file plays in a loop when ``loop``. A
    webcam is asked for :data:`FRAME_SIZE` frames (:func:`ask_for_size`), and its exposure, white balance and focus are
    locked once they have settled (:func:`lock_settings`), where the camera allows it."""

    def __init__(self, spec: str, loop: bool = True) -> None:
        self.spec = spec
        self.loop = loop
        self.name = f"camera {spec}" if spec.isdecimal() else spec
        self.live = not self._is_file()
        self.house_cards = False
        self._capture: cv2.VideoCapture | None = None
        self._frames = 0
        self.locked: tuple[str, ...] | None = None
        """What of the webcam's own settings was locked after it settled (None: not yet tried, or not a webcam)."""

    def open(self) -> None:
        capture = cv2.VideoCapture(int(self.spec) if self.spec.isdecimal() else self.spec)
        if not capture.isOpened():
            capture.release()
            raise CameraOffline(f"cannot open {self.name} (unplugged or in use?)")
        if self.spec.isdecimal():
            ask_for_size(capture)
        self._capture, self._frames, self.locked = capture, 0, None

    def read(self) -> np.ndarray:
        if self._capture is None:
            raise CameraOffline(f"{self.name} is not open")
        ok, frame = self._capture.read()
        if not ok and self.loop and self._is_file():
            self._capture.set(cv2.CAP_PROP_POS_FRAMES, 0)  # a video file: play it again
            ok, frame = self._capture.read()
        if not ok or frame is None:
            raise CameraOffline(f"no picture from {self.name} (unplugged?)")
        self._frames += 1
        if self._frames == SETTLE_FRAMES and self.spec.isdecimal():
            self.locked = lock_settings(self._capture)
        return _fit_width(frame)

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None

    def _is_file(self) -> bool:
        return not self.spec.isdecimal() and "://" not in self.spec


class FrameFolder:
    """The PNG and JPEG frames of a folder, in name order; again from the first when ``loop``."""

    SUFFIXES = (".png", ".jpg", ".jpeg")

    def __init__(self, folder: Path, loop: bool = True) -> None:
        self.folder = folder
        self.loop = loop
        self.name = str(folder)
        self.live = False
        self.house_cards = False
        self._frames: list[Path] = []
        self._next = 0

    def open(self) -> None:
        try:
            self._frames = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in self.SUFFIXES)
        except OSError as exc:
            raise CameraOffline(f"cannot open the folder {self.name} ({exc.strerror})") from None
        if not self._frames:
            raise CameraOffline(f"the folder {self.name} holds no PNG or JPEG frames")
        self._next = 0

    def read(self) -> np.ndarray:
        if self._next >= len(self._frames):
            if not self.loop or not self._frames:
                raise CameraOffline(f"no more frames in {self.name}")
            self._next = 0
        path = self._frames[self._next]
        self._next += 1
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            raise CameraOffline(f"{path} is not a readable image")
        return _fit_width(frame)

    def close(self) -> None:
        self._frames = []


class SyntheticTable:
    """An emulated overhead camera: house cards on a wooden table; one card changes every ``change_s``."""

    name = "synthetic table"
    live = False
    house_cards = False
    """It stands for a camera at the table: its cards are named against the enrolled deck, so that enrolling can be
    tried on it."""

    def __init__(self, seed: int = 0, clock: Callable[[], float] = time.monotonic, change_s: float = 6.0,
                 size: tuple[int, int] = (640, 480), cards: int = 5) -> None:
        self.clock = clock
        self.change_s = change_s
        self.size = size
        self._rng = np.random.default_rng(seed)
        self._table = wooden_table(self._rng, size)
        self._slots = [(size[0] * (c + 0.5) / 3, size[1] * (r + 0.5) / 2) for r in range(2) for c in range(3)]
        self._faces: dict[str, np.ndarray] = {}
        self.layout: dict[int, tuple[str, np.ndarray]] = {}
        """Slot -> (label, true corners) of every card on the table now."""
        for slot in self._rng.choice(len(self._slots), cards, replace=False):
            self._place(int(slot))
        self._frame: np.ndarray | None = None
        self._next_change = 0.0

    def open(self) -> None:
        self._next_change = self.clock() + self.change_s

    def read(self) -> np.ndarray:
        """The table now (a copy); past the change time one card is swapped, moved or taken away."""
        if self.clock() >= self._next_change:
            self._change()
            self._next_change = self.clock() + self.change_s
        if self._frame is None:
            self._frame = self._table.copy()
            for label, quad in self.layout.values():
                paste_card(self._frame, self._face(label), quad)
        return self._frame.copy()

    def close(self) -> None:
        """Nothing to release."""

    def _face(self, label: str) -> np.ndarray:
        if label not in self._faces:
            self._faces[label] = render_face(house_design(label))
        return self._faces[label]

    def _place(self, slot: int) -> None:
        """A new card, not yet on the table, lying in ``slot`` at a random pose."""
        used = {label for label, _ in self.layout.values()}
        label = str(self._rng.choice([lb for lb in VISION_LABELS if lb not in used]))
        cx, cy = self._slots[slot]
        height = self.size[1] * self._rng.uniform(0.28, 0.34)
        angle = self._rng.uniform(-25, 25) + (180 if self._rng.random() < 0.25 else 0)
        jitter = self._rng.uniform(-0.04, 0.04, 2) * self.size
        self.layout[slot] = (label, card_quad((cx + jitter[0], cy + jitter[1]), height, angle))

    def _change(self) -> None:
        free = [s for s in range(len(self._slots)) if s not in self.layout]
        occupied = sorted(self.layout)
        if len(occupied) > 2 and self._rng.random() < 0.3:
            del self.layout[int(self._rng.choice(occupied))]
        else:
            if occupied and (not free or self._rng.random() < 0.6):
                del self.layout[int(self._rng.choice(occupied))]
                free = [s for s in range(len(self._slots)) if s not in self.layout]
            self._place(int(self._rng.choice(free)))
        self._frame = None
