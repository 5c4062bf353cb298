"""Electronic dice end to end: a pty emulator, the real bridge, and the app routing each counted
roll into the dice game waiting for one (``create_app({"DICE": "emulate"})``)."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from companion.dice.config import DEFAULT_DICE
from support.web_client import PIN, Editor
from web import create_app
from web.live import Message, Subscription

WAIT_S = 10.0


@pytest.fixture
def dice_app(make_app) -> Flask:
    return make_app(DICE="emulate")


@pytest.fixture
def dice_editor(dice_app: Flask) -> Editor:
    return Editor(dice_app.test_client())


def _wait_for(subscription: Subscription, wanted: Callable[[Message], bool], timeout: float = WAIT_S) -> list[Message]:
    """The messages on ``subscription`` up to the first ``wanted`` one; fails after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    seen: list[Message] = []
    while (left := deadline - time.monotonic()) > 0:
        try:
            seen.append(subscription.inbox.get(timeout=left))
        except queue.Empty:
            break
        if wanted(seen[-1]):
            return seen
    raise AssertionError(f"no wanted message within {timeout} s; got {[m.event for m in seen]}")


def _subscribe(app: Flask, *channels: str) -> Subscription:
    return app.extensions["tables"].feed.subscribe(channels)


def _online(app: Flask) -> None:
    """Wait until the bridge has done its handshake with the emulator."""
    hardware = app.extensions["hardware"]
    subscription = _subscribe(app, "hardware")
    try:
        if hardware.status()["dice"]["state"] != "online":
            _wait_for(subscription, lambda m: m.data["dice"]["state"] == "online")
    finally:
        subscription.close()
    assert hardware.status()["dice"]["connected"] is True


def _roll(app: Flask, subscription: Subscription) -> tuple[Any, dict[str, Any], list[Message]]:
    """Throw the emulated dice: the roll, the hardware status's report of it, and the messages up to that report."""
    roll = app.extensions["hardware"].dice.emulator.roll()
    assert roll is not None, "the emulator had no host to send the roll to"
    seen = _wait_for(subscription,
                     lambda m: m.event == "hardware" and (m.data["dice"]["last_roll"] or {}).get("seq") == roll.seq)
    return roll, seen[-1].data["dice"]["last_roll"], seen


def _ready_game(editor: Editor, players: list[str] | None = None) -> int:
    names = players or ["Ann", "Ben"]
    game_id = editor.start(game="dice", players=names, options={"harvest_cards": "sample"})["game_id"]
    for _ in range(2 * len(names)):
        assert editor.post(f"/api/dice/games/{game_id}/deal").status_code == 200
    return game_id


def test_the_emulated_dice_come_online_and_are_shown_in_the_hardware_status(
    dice_app: Flask, dice_editor: Editor
) -> None:
    _online(dice_app)
    dice = dice_editor.get("/api/hardware").get_json()["dice"]
    assert dice["state"] == "online" and dice["device"] and dice["message"].startswith("dice online")


def test_a_roll_with_no_waiting_game_is_reported_and_not_counted(dice_app: Flask, dice_editor: Editor) -> None:
    _online(dice_app)
    hidden = dice_editor.start(game="dice", players=["Ann", "Ben"])["game_id"]  # a draw is due: not waiting
    subscription = _subscribe(dice_app, "hardware")
    try:
        roll, reported, _ = _roll(dice_app, subscription)
    finally:
        subscription.close()
    assert reported == {"seq": roll.seq, "faces": list(roll.faces), "game_id": None,
                        "note": "no dice game is waiting for a roll"}  # fmt: skip
    assert dice_editor.get("/api/hardware").get_json()["dice"]["last_roll"] == reported
    assert dice_app.extensions["tables"].store.events(hidden) == []


def test_a_roll_goes_into_the_waiting_game_and_is_published_live(dice_app: Flask, dice_editor: Editor) -> None:
    _online(dice_app)
    game_id = _ready_game(dice_editor)
    subscription = _subscribe(dice_app, f"game:{game_id}", "hardware")
    try:
        roll, reported, seen = _roll(dice_app, subscription)
    finally:
        subscription.close()
    assert reported["game_id"] == game_id and reported["note"] is None
    [state] = [m for m in seen if m.event == "state"]  # published before the status that reports the roll
    beans = DEFAULT_DICE.beans(list(roll.faces))
    event = {"type": "roll", "beans": beans}
    assert state.data["change"] == {"kind": "move", "event": event, "source": "dice"}
    assert state.data["state"]["last_roll"] == beans and state.data["state"]["phase"] == "save"
    assert dice_app.extensions["tables"].store.events(game_id)[-1] == event


def test_dice_in_the_bean_field_keep_their_beans_and_a_roll_before_saving_is_not_counted(
    dice_app: Flask, dice_editor: Editor
) -> None:
    _online(dice_app)
    game_id = _ready_game(dice_editor)
    store = dice_app.extensions["tables"].store
    subscription = _subscribe(dice_app, "hardware")
    try:
        _roll(dice_app, subscription)
        events = store.events(game_id)
        _, early, _ = _roll(dice_app, subscription)  # the player has not saved a die yet
        assert early["game_id"] is None and store.events(game_id) == events

        assert dice_editor.post(f"/api/games/{game_id}/moves", {"type": "save", "dice": [0, 2]}).status_code == 200
        roll, reported, _ = _roll(dice_app, subscription)
    finally:
        subscription.close()
    assert reported["game_id"] == game_id
    last = store.events(game_id)[-1]
    rolled = DEFAULT_DICE.beans(list(roll.faces))
    assert last == {"type": "roll", "beans": [None, rolled[1], None, rolled[3], rolled[4]]}


def test_the_roll_goes_to_the_game_waiting_for_one(dice_app: Flask, dice_editor: Editor) -> None:
    _online(dice_app)
    waiting = _ready_game(dice_editor)
    busy = _ready_game(dice_editor, ["Cid", "Dee", "Eve"])
    assert dice_editor.post(f"/api/dice/games/{busy}/roll").status_code == 200  # now saving: not waiting
    subscription = _subscribe(dice_app, "hardware")
    try:
        _, reported, _ = _roll(dice_app, subscription)
    finally:
        subscription.close()
    assert reported["game_id"] == waiting
    assert dice_app.extensions["tables"].store.events(waiting)[-1]["type"] == "roll"


def test_dice_that_cannot_be_reached_are_offline_and_rolls_stay_manual(tmp_path: Path) -> None:
    app = create_app({"TABLE_PIN": PIN, "DICE": str(tmp_path / "no-such-port")}, instance_path=tmp_path / "instance")
    try:
        subscription = _subscribe(app, "hardware")
        try:
            if app.extensions["hardware"].status()["dice"]["error"] is None:  # not tried yet
                _wait_for(subscription, lambda m: m.data["dice"]["error"] is not None)
        finally:
            subscription.close()
        dice = app.test_client().get("/api/hardware").get_json()["dice"]
        assert dice["state"] == "offline" and dice["connected"] is False and dice["message"].startswith("dice offline")
    finally:
        app.extensions["hardware"].close()
        app.extensions["tables"].store.close()


# --- throwing the emulated dice from the page -------------------------------------------------


def test_the_page_throws_the_emulated_dice_into_the_waiting_game(dice_app: Flask, dice_editor: Editor) -> None:
    _online(dice_app)
    assert dice_editor.get("/api/hardware").get_json()["dice"]["emulated"] is True
    game_id = _ready_game(dice_editor)
    subscription = _subscribe(dice_app, f"game:{game_id}", "hardware")
    try:
        response = dice_editor.post("/api/hardware/dice/throw")
        assert response.status_code == 202, response.get_json()
        thrown = response.get_json()
        seen = _wait_for(subscription, lambda m: m.event == "hardware"
                         and (m.data["dice"]["last_roll"] or {}).get("seq") == thrown["seq"])
    finally:
        subscription.close()
    emulator = dice_app.extensions["hardware"].dice.emulator
    assert [(r.seq, list(r.faces)) for r in emulator.delivered] == [(thrown["seq"], thrown["faces"])]
    assert seen[-1].data["dice"]["last_roll"] == {**thrown, "game_id": game_id, "note": None}
    [state] = [m for m in seen if m.event == "state"]  # through the bridge, like real dice
    event = {"type": "roll", "beans": DEFAULT_DICE.beans(thrown["faces"])}
    assert state.data["change"] == {"kind": "move", "event": event, "source": "dice"}
    assert dice_app.extensions["tables"].store.events(game_id)[-1] == event


def test_throwing_needs_the_pin(dice_app: Flask) -> None:
    _online(dice_app)
    client = dice_app.test_client()
    token = client.get("/api/session").get_json()["csrf_token"]
    response = client.post("/api/hardware/dice/throw", headers={"X-CSRF-Token": token})
    assert response.status_code == 403 and response.get_json()["need_pin"] is True
    assert dice_app.extensions["hardware"].dice.emulator.delivered == []


def test_dice_that_are_not_emulated_cannot_be_thrown_from_the_page(make_app, tmp_path: Path) -> None:
    for settings in ({}, {"DICE": str(tmp_path / "no-such-port")}):
        editor = Editor(make_app(f"instance-{len(settings)}", **settings).test_client())
        assert editor.get("/api/hardware").get_json()["dice"]["emulated"] is False
        response = editor.post("/api/hardware/dice/throw")
        assert response.status_code == 409
        assert response.get_json()["error"].startswith("only emulated dice can be thrown from the page")


# --- the status: what the dice last showed and when they were last heard, as it is now ---------


def test_the_hardware_status_shows_the_faces_of_the_last_roll(dice_app: Flask, dice_editor: Editor) -> None:
    _online(dice_app)
    subscription = _subscribe(dice_app, "hardware")
    try:
        before = time.time()
        roll, _, seen = _roll(dice_app, subscription)
    finally:
        subscription.close()
    dice = dice_editor.get("/api/hardware").get_json()["dice"]
    assert dice["faces"] == list(roll.faces) == seen[-1].data["dice"]["faces"]
    assert dice["last_seen"] >= before


def _until(condition: Callable[[], Any], what: str, timeout: float = WAIT_S) -> Any:
    """Poll ``condition`` every 20 ms until it is true; its value. Fails after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)
    return value


@pytest.mark.slow
def test_a_heartbeat_updates_last_seen_without_a_status_being_published(dice_app: Flask, dice_editor: Editor) -> None:
    _online(dice_app)
    bridge = dice_app.extensions["hardware"].dice
    _until(lambda: bridge.status.faces is not None, "the answer to STATE?")
    subscription = _subscribe(dice_app, "hardware")
    try:
        before = time.time()  # after 3 s of quiet the bridge sends PING and the dice answer HB

        def current() -> dict[str, Any] | None:
            dice = dice_editor.get("/api/hardware").get_json()["dice"]
            return dice if dice["last_seen"] >= before else None

        dice = _until(current, "the heartbeat's last_seen in /api/hardware")
        published = list(subscription.inbox.queue)
    finally:
        subscription.close()
    assert dice["state"] == "online" and dice["faces"] == list(bridge.emulator.dice.faces)
    assert [m.data["dice"] for m in published if m.data["dice"]["last_seen"] >= before] == []  # none for it
