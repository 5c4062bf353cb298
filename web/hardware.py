"""The ``Hardware`` extension: the optional dice bridge and camera, and their status line.

Dice rolls from the bridge go through the dice tracker (``companion.tracker.dice``) to the
dice game waiting for a roll (the most recently played one); with no dice, or dice offline,
the page keeps its manual roll entry.
Emulated dice (``--dice emulate``) are thrown from the page (:meth:`Hardware.throw_dice`).
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any, Protocol

from flask import Flask, current_app

from companion.dice.game import DiceGame
from companion.tracker.dice import DiceTracker, TableError
from firmware_bridge.bridge import DiceBridge, open_dice
from firmware_bridge.events import DiceRoll, Event, Status
from firmware_bridge.messages import Roll
from web.errors import ApiError
from web.referee import CameraReferee
from web.tables import Tables

log = logging.getLogger(__name__)


class CameraPart(Protocol):
    """What the hardware line needs from a camera."""

    def status(self) -> dict[str, Any]: ...

    def close(self) -> None: ...

    def game_started(self) -> None: ...


class Hardware:
    """Starts the hardware named in the settings and publishes its status to the ``hardware`` channel."""

    def init_app(self, app: Flask) -> None:
        self.tables: Tables = app.extensions["tables"]
        self.dice: DiceBridge | None = None
        self.camera: CameraPart | None = None
        self.last_roll: dict[str, Any] | None = None
        self._dice_tracker = DiceTracker(_TablesForDice(self.tables))
        self.referee = CameraReferee(self.tables, self.publish)
        self._dice_spec: str | None = str(app.config["DICE"]) if app.config["DICE"] else None
        self._dice_link = Status(port=self._dice_spec)
        """The bridge's latest published status (it publishes changes, not every heartbeat or roll)."""
        app.extensions["hardware"] = self
        if self._dice_spec:
            self.dice = open_dice(self._dice_spec, self._on_dice)

    def close(self) -> None:
        """Stop the dice bridge and the camera."""
        if self.dice is not None:
            self.dice.close()
        if self.camera is not None:
            self.camera.close()

    def game_started(self) -> None:
        """A card game was started at the table: the camera hears of it (the demo table starts its game over)."""
        if self.camera is not None:
            self.camera.game_started()

    def status(self) -> dict[str, Any]:
        """Dice and camera, as the page shows them inline."""
        return {"dice": self._dice_status(), "camera": self._camera_status()}

    def publish(self) -> None:
        self.tables.feed.publish("hardware", "hardware", self.status())

    def throw_dice(self) -> Roll:
        """Throw the emulated dice; the roll then comes through the bridge like a real one.

        A 409 when the dice are not emulated, or not connected to the bridge (yet).
        """
        emulator = self.dice.emulator if self.dice is not None else None
        if emulator is None:
            raise ApiError(409, "only emulated dice can be thrown from the page (start with --dice emulate); "
                                "throw the real dice, or enter the roll by hand")
        roll = emulator.roll()
        if roll is None:
            raise ApiError(409, "the emulated dice are not connected to the companion yet; try again in a moment")
        return roll

    def _dice_status(self) -> dict[str, Any]:
        if self._dice_spec is None:
            return {"state": "none", "message": "no electronic dice: enter rolls on the page", "last_roll": None,
                    "emulated": False}
        status = self._dice_link
        if self.dice is not None:  # last_seen and faces as they are now, not as they were at the last change
            live = self.dice.status
            status = dataclasses.replace(status, last_seen=live.last_seen, faces=live.faces)
        return {**status.to_json(), "message": status.message, "last_roll": self.last_roll,
                "emulated": self.dice is not None and self.dice.emulator is not None}

    def _camera_status(self) -> dict[str, Any]:
        if self.camera is None:
            return {"state": "none", "message": "no camera: enter cards on the page"}
        return {**self.camera.status(), "auto_accept": self.referee.auto, "last_seen": self.referee.last}

    def _on_dice(self, event: Event) -> None:
        """Bridge thread: a status change is published; a roll goes to the waiting dice game."""
        if isinstance(event, DiceRoll):
            self.last_roll = {"seq": event.seq, "faces": list(event.faces),
                              **self._dice_tracker.roll(event.faces).to_dict()}
        elif isinstance(event, Status):
            self._dice_link = event
        else:
            return
        self.publish()


class _TablesForDice:
    """The app's games as the dice tracker sees them: refusals as ``TableError``, rolls stored as from the dice."""

    def __init__(self, tables: Tables):
        self._tables = tables

    def dice_games(self) -> list[int]:
        """The unfinished dice games, most recently played first (no other game is opened)."""
        return self._tables.unfinished("dice")

    def dice_state(self, game_id: int) -> DiceGame:
        try:
            return self._tables.session(game_id).state
        except ApiError as exc:  # a stored game that cannot be opened
            raise TableError(exc.message) from None

    def push(self, game_id: int, event: dict[str, Any]) -> None:
        try:
            self._tables.push(game_id, event, source="dice")
        except ApiError as exc:
            raise TableError(exc.message) from None


def hardware() -> Hardware:
    """The ``Hardware`` of the current app."""
    return current_app.extensions["hardware"]
