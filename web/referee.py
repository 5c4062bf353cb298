"""The camera referee on the server: each analysed frame goes to the table tracker of the card game being played.

The game watched is the most recently played unfinished card game. A settled change of the
table the rules explain becomes proposals on the tablet (source ``camera``), or is pushed at
once when the table has turned auto-accept on and the camera is sure of it (every column it read named surely,
or the rules and its guesses leaving one explanation: :func:`~companion.tracker.table.by_rules`); a proposal of
the camera's that it later becomes sure of is then confirmed by itself (:func:`~companion.tracker.table.sure_of`).
A change no legal move explains is said on the camera's status line. The camera's proposals still
waiting on the tablet count as made when the next change is explained, so none is proposed twice
(a hand rested on a field and left). Where the fields the camera settled on agree with the game's, the top card of
each is a card of the game's bean, which the enrolled deck learns (:mod:`companion.tracker.lessons`), flagged where
the camera took it for another bean. The tracker knows no Flask; this module only wires frames, trackers and the
games together.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from companion.rules.state import GameState
from companion.tracker.lessons import Teacher
from companion.tracker.table import Observation, TableTracker
from companion.tracker.view import SURE, parts_of, view_in_game
from companion.vision.rectify import warp_card
from companion.vision.scene import Scene
from web.enrollment import CROP_SIZE
from web.errors import ApiError
from web.tables import Tables

log = logging.getLogger(__name__)

class CameraReferee:
    """Frames in (scene and motion), proposals or pushed events out; ``auto`` pushes what the camera is sure of."""

    def __init__(self, tables: Tables, on_change: Callable[[], None] = lambda: None, sure: float = SURE,
                 learn: Callable[[str, np.ndarray, str | None], object] | None = None) -> None:
        self.tables = tables
        self.on_change = on_change
        """Called when ``last`` changed (the status line is published again)."""
        self.sure = sure
        self.auto = False
        self.last: dict[str, Any] | None = None
        """The latest observation, as the status line shows it."""
        self.learn = learn
        """Given each lesson's bean, card crop and the other bean the camera took it for, if any (the deck learns in
        play), where set."""
        self._trackers: dict[int, TableTracker] = {}
        self._teachers: dict[int, Teacher] = {}
        self._lock = threading.Lock()

    def watched(self) -> int | None:
        """The most recently played unfinished card game, if any."""
        return next(iter(self.tables.unfinished("bohnanza")), None)

    def frame(self, scene: Scene, moving: bool, image: np.ndarray | None = None,
              changed: frozenset[str] | None = None) -> Observation | None:
        """Camera thread: track one analysed frame (differing from the last still frame read in the zones ``changed``,
        None where untold); act on the observation it settles, if any; learn the lessons of ``image`` (the frame)
        where the deck learns."""
        with self._lock:
            if moving:  # the votes start again: no game needs loading for that, 30 times a second
                for tracker in self._trackers.values():
                    tracker.steadiness.moved()
                return None
            game_id = self.watched()
            if game_id is None:
                return None
            state = self.tables.copy_state(game_id)
            if not isinstance(state, GameState):
                return None
            view = view_in_game(scene, state, self.sure)
            tracker = self._trackers.setdefault(game_id, TableTracker())
            waiting = [p for p in self.tables.proposals.pending(game_id) if p.source == "camera"]
            observation = tracker.observe(view, moving, state, [p.event for p in waiting], parts_of(changed))
            if image is not None and self.learn is not None:
                teacher = self._teachers.setdefault(game_id, Teacher())
                for lesson in teacher.new(scene, state, tracker.steadiness.told, self.sure):
                    self.learn(lesson.bean, warp_card(image, lesson.corners, CROP_SIZE), lesson.taken_for)
            if observation is not None:
                self._act(game_id, observation, frozenset(p.id for p in waiting))
            elif tracker.agrees and self.last and self.last.get("note"):
                self.last = {"game_id": game_id, "events": [], "pushed": False, "note": None, "agrees": True}
                self.on_change()  # what no move explained (a hand resting on a field) has gone: the note goes too
            return observation

    def _act(self, game_id: int, observation: Observation, waiting: frozenset[int]) -> None:
        """Push the observation's events, or propose them: with auto-accept, those sure but for the camera's proposals
        ``waiting`` (their ids) go in by themselves once those are confirmed as they are, each after the one before,
        and those waiting are confirmed where the camera became sure of them (:meth:`_confirm`)."""
        if observation.sure_of_waiting:
            if self.auto:
                self._confirm(game_id, waiting)
            return
        pushed = self.auto and observation.sure
        after = waiting if self.auto and observation.sure_after_waiting else None
        note = observation.note
        for event, others in observation.offers():
            try:
                if pushed:
                    self.tables.push(game_id, event, source="camera")
                else:
                    proposal = self.tables.propose(game_id, event, "camera", after, others)
                    after = None if after is None else after | {proposal["id"]}
            except ApiError as exc:  # the game moved on meanwhile: the rest waits for the next settled view
                note = f"camera: {exc.message}"
                log.info("camera event not taken: %s", exc.message)
                break
        self.last = {"game_id": game_id, "events": list(observation.events), "pushed": pushed and note is None,
                     "note": note, "agrees": False}
        self.on_change()

    def _confirm(self, game_id: int, waiting: frozenset[int]) -> None:
        """Confirm the camera's proposals ``waiting`` (their ids), oldest first, now that it is sure of them all, as
        a tap would (those waiting on one go in after it); one gone meanwhile (a tap, or released by one before it) is
        passed over; one the rules refuse now waits for a tap, with those after it."""
        confirmed: list[dict[str, Any]] = []
        note = None
        for proposal_id in sorted(waiting):
            try:
                confirmed.append(self.tables.confirm(game_id, proposal_id))
            except ApiError as exc:
                if exc.status == 404:
                    continue
                note = f"camera: {exc.message}"
                log.info("camera proposal not confirmed: %s", exc.message)
                break
        self.last = {"game_id": game_id, "events": confirmed, "pushed": note is None, "note": note, "agrees": True}
        self.on_change()
