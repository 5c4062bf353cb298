"""The camera referee in a real browser: the server's camera (a folder of rendered frames of a table with printed
markers) sees Ann plant a Blue Bean; the table page offers it as a camera proposal, the camera page lists the
field it sees, and its auto-accept switch reaches the server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import pytest

from models.game_table import draw_table
from models.render import house_design, render_face
from support.live_server import LiveServer, live_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    frames = tmp_path_factory.mktemp("frames")
    table = draw_table({0: [("blue", 1)], 1: [], 2: []}, [], {"blue": render_face(house_design("blue"))}, 1)
    for k in range(3):
        cv2.imwrite(str(Path(frames) / f"{k}.png"), table)
    with live_server(tmp_path_factory.mktemp("instance"), CAMERA=str(frames), CAMERA_INTERVAL_S=0.05) as running:
        yield running


def test_what_the_camera_sees_is_proposed_and_auto_accept_is_a_switch(page: Any, api: Any, server: Any) -> None:
    game_id = api.start(players=["Ann", "Ben", "Cid"])["game_id"]
    page.open(f"/games/{game_id}")
    page.unlock()
    page.until(lambda: "camera: Ann planted a Blue Bean" in page.text("#proposals"),
               "the camera's plant is not proposed on the table page")
    assert api.get(f"/api/games/{game_id}/events").get_json()["events"] == []  # a proposal, not an event

    page.open("/camera")
    page.until(lambda: "1 × Blue Bean" in page.text("#seen-stacks") and "fields-0" in page.text("#seen-stacks"),
               "the camera page does not list the field it sees")
    assert "proposed on the table page" in page.text("#last-seen")
    page.tap("#auto-accept")
    page.until(lambda: server.app.extensions["hardware"].referee.auto, "auto-accept did not reach the server")


def test_the_camera_page_says_when_the_table_agrees_with_the_game_again(page: Any, server: Any) -> None:
    """What no move explained (a hand resting on a field) is said, and unsaid once the table agrees again."""
    referee = server.app.extensions["hardware"].referee  # no new game: the camera's settled table stays quiet
    note = "the camera sees a table that no move the rules allow now explains; check the fields"
    referee.last = {"game_id": 1, "events": [], "pushed": False, "note": note, "agrees": False}
    page.open("/camera")
    page.until(lambda: note in page.text("#last-seen"), "the camera page does not say what it cannot explain")
    referee.last = {"game_id": 1, "events": [], "pushed": False, "note": None, "agrees": True}
    page.open("/camera")
    page.until(lambda: page.text("#last-seen") == "The table agrees with the game again.",
               "the camera page keeps a note the table no longer gives")


def test_a_camera_status_answered_late_does_not_undo_a_newer_one_from_the_live_stream(page: Any, server: Any) -> None:
    """The page asks for the camera's status as its live stream opens; the stream may tell a newer one first."""
    hardware = server.app.extensions["hardware"]
    hardware.referee.auto = False
    try:
        with page.answers_held("/api/camera"):
            page.open("/camera")
            page.answer_served()
            hardware.referee.auto = True  # after the answer held in the page was written
            hardware.publish()
            page.until(lambda: page.find("#auto-accept").is_selected(), "the live stream's status is not shown")
            page.release_answers()
            assert page.find("#auto-accept").is_selected(), "the late answer put back the camera's older status"
            assert page.find("#layout-btn").is_enabled()
    finally:
        hardware.referee.auto = False
