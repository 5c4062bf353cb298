"""The camera part of the hardware: frame source, card detection and the annotated live view.

A background thread reads the source, finds, counts and names the cards and field columns of each
frame (:class:`~companion.vision.scene.SceneReader`, against the enrolled deck if any) and
keeps the latest :class:`Snapshot`, JPEG included, for every viewer. A camera that
cannot be opened or stops giving pictures is reported offline and retried with
backoff; the games go on. ``step`` does one round, so tests drive it with their own clock.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from flask import Flask, current_app

from companion.vision.classifier import UNKNOWN, Gallery
from companion.vision.errors import VisionError
from companion.vision.picture import PictureWatch
from companion.vision.scene import Scene, SceneReader, SeenCard, Stack
from companion.vision.sources import CameraOffline, FrameSource, PlaysAGame, open_source, smaller_than_asked
from companion.vision.table_reader import Reading, TableReader
from companion.vision.zones import TableZones, read_zone_file, write_zone_file
from web.enrollment import Deck, label_name
from web.layout_enrollment import PendingLayout

log = logging.getLogger(__name__)

INTERVAL_S = 1 / 30
"""Shortest time from one frame to the next (a webcam's 30 frames a second: a card that lands is named on the
next frame, and a frame of a table moving or lying still costs a thumbnail, see
companion/vision/table_reader.py)."""
MIN_PAUSE_S = 0.01
"""Least pause after a frame, however long it took: on a slow machine the pages' threads still get their turn."""
BACKOFF_S = (1.0, 30.0)
"""First and longest wait before opening an offline camera again (doubling in between)."""
JPEG_QUALITY = 80
ZONES_FILE = "zones.json"
HOUSE_CARDS = "; house cards, named as such (your enrolled deck learns nothing from them)"
"""Said after "camera online: ..." of a source showing the house deck (the demo table) where a deck is enrolled."""
MAX_STREAMS = 4
"""Live views open at once: each holds a server thread."""

KNOWN = (60, 200, 60)
UNSURE = (0, 140, 255)
ZONE = (230, 160, 40)


@dataclass(frozen=True)
class Snapshot:
    """One analysed frame: its number, time, the raw frame, what it shows (in its zones) and, made when a viewer
    first asks for it, the annotated JPEG."""

    seq: int
    time: float
    frame: np.ndarray = field(repr=False)
    scene: Scene
    zones: TableZones = field(repr=False, default_factory=TableZones)
    moving: bool = False
    """Whether the table moved since the frame before (a hand over it): such a frame counts for nothing."""

    @cached_property
    def jpeg(self) -> bytes:
        """The frame with every card and zone drawn and labelled, as JPEG."""
        _, encoded = cv2.imencode(".jpg", annotate(self.frame, self.scene, self.zones),
                                  [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        return encoded.tobytes()

    def to_json(self) -> dict[str, Any]:
        h, w = self.frame.shape[:2]
        return {"frame": self.seq, "time": round(self.time, 3), "width": w, "height": h, "moving": self.moving,
                "cards": [{**card.to_json(), "name": _caption(card.label)} for card in self.scene.cards],
                "stacks": [{**stack.to_json(), "name": _caption(stack.bean)} for stack in self.scene.stacks]}


def _caption(label: str) -> str:
    return "not recognised" if label == UNKNOWN else label_name(label)


def _caption_of(card: SeenCard, stacks: dict[int, Stack]) -> str:
    """A card's label on the live view: its name, how many cards its column holds, and the confidence."""
    if card.label == UNKNOWN:
        return _caption(card.label)
    stack = stacks.get(id(card))
    count = f"{stack.count} x " if stack is not None and stack.count > 1 else ""
    return f"{count}{_caption(card.label)} {card.confidence:.0%}"


def annotate(frame: np.ndarray, scene: Scene, zones: TableZones) -> np.ndarray:
    """A copy of ``frame`` with each table zone outlined and named, and each column and card outlined and
    labelled with its count, name and confidence."""
    out = frame.copy()
    scale = max(0.45, frame.shape[1] / 1100)
    for zone in zones.zones:
        corner = np.round(zone.polygon).astype(np.int32)
        cv2.polylines(out, [corner], True, ZONE, 2, cv2.LINE_AA)
        x, y = corner.min(axis=0)
        cv2.putText(out, zone.name, (int(x) + 4, int(y) + 18), cv2.FONT_HERSHEY_SIMPLEX, scale * 0.8, ZONE, 2,
                    cv2.LINE_AA)
    stacks = {id(stack.top): stack for stack in scene.stacks}
    for stack in scene.stacks:
        if stack.count > 1:
            cv2.polylines(out, [np.round(stack.corners).astype(np.int32)], True, KNOWN, 2, cv2.LINE_AA)
    placed: list[tuple[int, int, int, int]] = []
    for card in scene.cards:
        colour = UNSURE if card.label == UNKNOWN else KNOWN
        cv2.polylines(out, [np.round(card.corners).astype(np.int32)], True, colour, 3, cv2.LINE_AA)
        text = _caption_of(card, stacks)
        (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
        top = card.corners[np.argmin(card.corners[:, 1])]
        x = int(np.clip(top[0] - tw / 2, 0, max(0, out.shape[1] - tw - 6)))
        x0, y0, x1, y1 = label_box((x, int(top[1] - 8)), (tw + 6, th + base + 6), placed, out.shape[0])
        placed.append((x0, y0, x1, y1))
        cv2.rectangle(out, (x0, y0), (x1, y1), colour, -1)
        cv2.putText(out, text, (x0 + 3, y1 - 2 - base), cv2.FONT_HERSHEY_SIMPLEX, scale, (20, 20, 20), 1, cv2.LINE_AA)
    return out


def label_box(at: tuple[int, int], size: tuple[int, int], placed: list[tuple[int, int, int, int]],
              height: int) -> tuple[int, int, int, int]:
    """Where a label of ``size`` goes whose bottom-left corner would be ``at``: moved up past the labels already
    ``placed`` that it would cover (below them once the frame's top is reached), inside a frame ``height`` tall."""
    (x, bottom), (w, h) = at, size

    def clash(top: int) -> tuple[int, int, int, int] | None:
        return next((box for box in placed if x < box[2] and box[0] < x + w and top < box[3] and box[1] < top + h),
                    None)

    top = int(np.clip(bottom - h, 0, max(0, height - h)))
    while (box := clash(top)) is not None and box[1] - h - 2 >= 0:
        top = box[1] - h - 2
    while (box := clash(top)) is not None and box[3] + 2 + h <= height:
        top = box[3] + 2
    return x, top, x + w, top + h


class Camera:
    """A frame source watched by a background thread; status, latest snapshot and live-view waiters."""

    def __init__(self, source: FrameSource, deck: Deck, on_change: Callable[[], None] = lambda: None,
                 clock: Callable[[], float] = time.monotonic, interval_s: float = INTERVAL_S,
                 zones: TableZones | None = None,
                 on_frame: Callable[[Scene, bool, np.ndarray, frozenset[str] | None], object] | None = None) -> None:
        self.source = source
        self.deck = deck
        self.on_change = on_change
        self.zones = zones or TableZones()
        """The table's zones as drawn or saved (markers in sight add theirs on each frame)."""
        self.on_frame = on_frame or (lambda scene, moved, frame, changed: None)
        """Called with each analysed frame's scene, whether the table moved, the frame, and the zones it differs in
        from the last still frame read (the camera referee)."""
        self.clock = clock
        self.interval_s = interval_s
        self.state, self.message = "offline", f"camera offline: {source.name} not opened yet"
        self._open = False
        self._retry_at = 0.0
        self._backoff = BACKOFF_S[0]
        self._latest: Snapshot | None = None
        self._table: TableReader | None = None
        self._picture = PictureWatch(source.live, clock)
        self._seq = 0
        self._streams = 0
        self._closed = False
        self._new_frame = threading.Condition()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> Camera:
        """Run :meth:`step` every ``interval_s`` in a daemon thread until :meth:`close`."""
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                started = time.monotonic()
                try:
                    self.step()
                except Exception as exc:  # a driver fault or a bug must not stop the camera for good
                    log.exception("camera: frame failed")
                    self._set("error", f"camera error: {type(exc).__name__}: {exc}")
                self._stop.wait(max(MIN_PAUSE_S, self.interval_s - (time.monotonic() - started)))
        finally:
            self.source.close()  # here, so a camera is never released while this thread reads it

    def step(self) -> Snapshot | None:
        """One round: open the camera if it is due, read a frame, find its cards; the new snapshot or ``None``."""
        if not self._open:
            if self.clock() < self._retry_at:
                return None
            try:
                self.source.open()
            except CameraOffline as exc:
                self._offline(str(exc))
                return None
            self._open, self._backoff = True, BACKOFF_S[0]
        try:
            frame = self.source.read()
        except CameraOffline as exc:
            self.source.close()
            self._open = False
            self._offline(str(exc))
            return None
        problem = self._picture.problem(frame)
        if problem is not None:  # the referee hears nothing of it: a black table has lost no cards
            self._set("blind", f"camera: {problem}; it referees nothing until it sees the table again")
            return self._keep(frame, Scene((), ()), TableZones(), False)
        try:
            if self._table is None:
                self._table = TableReader(SceneReader(self.deck.reader().classifier))
            self._table.zones = self.zones
            reading = self._table.read(frame, self.gallery())
            small = smaller_than_asked(frame) if self.source.live else None
            self._set("online", f"camera online: {self.source.name}"
                      + (HOUSE_CARDS if self.source.house_cards and self.deck.gallery() is not None else "")
                      + (f"; {small}" if small else ""))
        except VisionError as exc:
            reading = Reading(Scene((), ()), TableZones(), False, False)
            self._set("error", f"camera: card recognition unavailable ({exc})")
        snapshot = self._keep(frame, reading.scene, reading.zones, reading.moving)
        if reading.news:  # the referee votes on fresh readings; a move clears its votes
            self.on_frame(reading.scene, reading.moving, frame, reading.changed)
        return snapshot

    def gallery(self) -> Gallery | None:
        """The enrolled deck this camera names cards against: none (the house deck) for a source showing house
        cards, whatever deck is enrolled."""
        return None if self.source.house_cards else self.deck.gallery()

    def _offline(self, reason: str) -> None:
        """Say the camera is offline and when it is tried again (each time later, up to the longest wait)."""
        self._retry_at = self.clock() + self._backoff
        self._set("offline", f"camera offline: {reason}; trying again in {self._backoff:.0f} s")
        self._backoff = min(self._backoff * 2, BACKOFF_S[1])

    def _set(self, state: str, message: str) -> None:
        if (state, message) != (self.state, self.message):
            self.state, self.message = state, message
            self.on_change()

    def _keep(self, frame: np.ndarray, scene: Scene, zones: TableZones, moved: bool) -> Snapshot:
        with self._new_frame:
            self._seq += 1
            self._latest = Snapshot(self._seq, time.time(), frame, scene, zones, moved)
            self._new_frame.notify_all()
            return self._latest

    def game_started(self) -> None:
        """A game was started at the table: a source that replays a recorded game (the demo table) starts it over."""
        if isinstance(self.source, PlaysAGame):
            self.source.restart()

    def status(self) -> dict[str, Any]:
        """State ("online", "blind": a picture that cannot be refereed, "offline", "error"), a sentence, the source,
        cards seen and the deck in use."""
        latest = self._latest
        return {"state": self.state, "message": self.message, "source": self.source.name,
                "cards": len(latest.scene.cards) if latest and self.state == "online" else 0,
                "frame": latest.seq if latest else 0, "streams": self._streams}

    def latest(self) -> Snapshot | None:
        """The newest snapshot while the camera is online (an old frame of an offline camera would mislead)."""
        return self._latest if self.state != "offline" else None

    def wait_frame(self, after: int, timeout: float) -> Snapshot | None:
        """The first snapshot newer than number ``after``, waiting up to ``timeout`` s; ``None`` if none came."""
        with self._new_frame:
            self._new_frame.wait_for(lambda: self._closed or (self._latest is not None and self._latest.seq > after),
                                     timeout)
            if self._closed or self._latest is None or self._latest.seq <= after:
                return None
            return self._latest

    def open_stream(self) -> bool:
        """Count a new live view in; ``False`` when ``MAX_STREAMS`` are open already."""
        with self._new_frame:
            if self._streams >= MAX_STREAMS:
                return False
            self._streams += 1
            return True

    def close_stream(self) -> None:
        with self._new_frame:
            self._streams -= 1
            self._new_frame.notify_all()

    def wait_streams(self, count: int, timeout: float) -> bool:
        """Wait until at most ``count`` live views are open; whether that happened in ``timeout`` s."""
        with self._new_frame:
            return self._new_frame.wait_for(lambda: self._streams <= count, timeout)

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Stop the thread, release the camera and end every live view."""
        self._stop.set()
        with self._new_frame:
            self._closed = True
            self._new_frame.notify_all()
        if self._thread is None:
            self.source.close()
        else:
            self._thread.join(5)


def init_app(app: Flask) -> None:
    """Attach the camera named in ``app.config["CAMERA"]`` to the hardware extension, and the deck (which the camera
    referee teaches in play)."""
    deck = Deck(Path(app.instance_path) / "deck")
    app.extensions["deck"] = deck
    app.extensions["layout"] = PendingLayout(deck.folder / "layout")
    hardware = app.extensions["hardware"]
    spec = app.config.get("CAMERA")
    source = open_source(str(spec)) if spec else None
    hardware.referee.learn = None if source is not None and source.house_cards else deck.learn
    if source is None:
        return
    interval = float(app.config.get("CAMERA_INTERVAL_S", INTERVAL_S))
    hardware.camera = Camera(source, deck, hardware.publish, interval_s=interval, zones=saved_zones(app),
                             on_frame=hardware.referee.frame).start()


def save_zones_file(app: Flask, zones: TableZones | None) -> None:
    """Keep ``zones`` in the instance folder for the next start (None: remove the file)."""
    path = Path(app.instance_path) / ZONES_FILE
    if zones is None:
        path.unlink(missing_ok=True)
    else:
        write_zone_file(path, zones)


def saved_zones(app: Flask) -> TableZones:
    """The zones saved in the instance folder (``zones.json``), or none (markers in sight give theirs)."""
    path = Path(app.instance_path) / ZONES_FILE
    if not path.exists():
        return TableZones()
    try:
        return read_zone_file(path)
    except ValueError as exc:
        log.warning("%s; zones come from the markers in sight", exc)
        return TableZones()


def deck() -> Deck:
    """The enrolled deck of the current app."""
    return current_app.extensions["deck"]


def pending_layout() -> PendingLayout:
    """The current app's laid-out deck waiting to be confirmed (if any)."""
    return current_app.extensions["layout"]


def camera() -> Camera | None:
    """The current app's camera, or ``None`` when none is configured."""
    return current_app.extensions["hardware"].camera
