"""Camera proposals on the table page: each waits for a tap to confirm, correct or dismiss."""

from __future__ import annotations

from typing import Any

from support.camera_scenes import table


def test_proposals_are_confirmed_corrected_or_dismissed_by_tapping(page: Any, api: Any) -> None:
    game_id = api.start(players=["Ann", "Ben", "Cid"])["game_id"]
    page.open(f"/games/{game_id}")
    page.unlock()

    def propose(event: dict) -> int:
        response = api.post(f"/api/games/{game_id}/proposals", {"event": event, "source": "camera"})
        assert response.status_code == 201
        return response.get_json()["id"]

    def fields() -> list[str]:
        return (page.facts() or {}).get("fields", [])

    seen = propose({"type": "plant", "player": 0, "bean": "blue"})
    assert "camera: Ann planted a Blue Bean" in page.text(f'.proposal[data-proposal="{seen}"]')
    page.tap(f'.proposal[data-proposal="{seen}"] .confirm')
    page.until(lambda: "0:0:blue:1" in fields(), "the confirmed plant is not on the table")
    page.until(lambda: page.visible("#proposals") is None, "the confirmed proposal is still shown")

    misread = propose({"type": "plant", "player": 0, "bean": "red"})
    page.tap(f'.proposal[data-proposal="{misread}"] .correct')
    page.tap(f'.proposal[data-proposal="{misread}"] .bean-pick[data-bean="green"]')
    page.until(lambda: "0:1:green:1" in fields(), "the corrected plant is not on the table")

    impossible = propose({"type": "draw", "player": 0})
    row = page.find(f'.proposal[data-proposal="{impossible}"]')
    assert "refused" in row.get_attribute("class")
    assert page.find(f'.proposal[data-proposal="{impossible}"] .confirm').is_enabled() is False
    assert page.text(f'.proposal[data-proposal="{impossible}"] .rule').startswith("phase")
    page.tap(f'.proposal[data-proposal="{impossible}"] .dismiss')
    page.until(lambda: page.visible("#proposals") is None, "the dismissed proposal is still shown")
    assert [e["bean"] for e in api.get(f"/api/games/{game_id}/events").get_json()["events"]] == ["blue", "green"]


def test_one_tap_on_a_harvest_also_enters_the_plant_that_waited_on_it(page: Any, api: Any, server: Any) -> None:
    """With auto-accept, the camera's plant into the field a harvest still waiting emptied goes in once the harvest
    is confirmed: the page says so beside it, and one tap enters both."""
    game_id = api.start(players=["Ann", "Ben", "Cid"])["game_id"]
    assert api.post(f"/api/games/{game_id}/moves",
                    {"type": "plant", "player": 0, "bean": "blue", "source": "hand"}).status_code == 200
    tables = server.app.extensions["tables"]
    harvest = tables.propose(game_id, {"type": "harvest", "player": 0, "field": 0}, "camera")["id"]
    plant = tables.propose(game_id, {"type": "plant", "player": 0, "bean": "soy", "source": "hand", "field": 0},
                           "camera", frozenset({harvest}))["id"]
    page.open(f"/games/{game_id}")
    page.unlock()
    page.until(lambda: "Goes in by itself" in page.text(f'.proposal[data-proposal="{plant}"]'),
               "the page does not say the plant goes in after the harvest")
    assert page.visible(f'.proposal[data-proposal="{harvest}"] .proposal-after') is None
    page.tap(f'.proposal[data-proposal="{harvest}"] .confirm')
    page.until(lambda: page.visible("#proposals") is None, "the plant that waited on the harvest is still shown")
    events = api.get(f"/api/games/{game_id}/events").get_json()["events"]
    assert [e["type"] for e in events] == ["plant", "harvest", "plant"] and events[-1]["bean"] == "soy"


def test_a_turn_over_misread_is_corrected_with_one_tap_on_the_cameras_other_reading(page: Any, api: Any) -> None:
    game_id = api.start(players=["Ann", "Ben", "Cid"])["game_id"]
    assert api.post(f"/api/games/{game_id}/moves",
                    {"type": "plant", "player": 0, "bean": "blue", "source": "hand"}).status_code == 200
    turn = {"type": "turn-over", "player": 0, "beans": ["chili", "soy"]}
    other = {**turn, "beans": ["chili", "red"]}
    made = api.post(f"/api/games/{game_id}/proposals", {"event": turn, "source": "camera", "alternatives": [other]})
    proposal = made.get_json()["id"]
    page.open(f"/games/{game_id}")
    page.unlock()
    row = f'.proposal[data-proposal="{proposal}"]'
    page.until(lambda: "Red" in page.text(f"{row} .alternative"), "the camera's other reading is not offered")
    page.tap(f"{row} .alternative")
    page.until(lambda: page.visible("#proposals") is None, "the corrected proposal is still shown")
    assert api.get(f"/api/games/{game_id}/events").get_json()["events"][-1] == other


def test_a_camera_proposal_goes_off_the_page_once_the_camera_becomes_sure_of_it(page: Any, api: Any,
                                                                              server: Any) -> None:
    """With auto-accept, a plant the camera first names at 0.6 waits on the table page; the next still frames name
    it at 0.99, and the plant goes in by itself: the page shows it on the table, and the proposal gone."""
    game_id = api.start(players=["Ann", "Ben", "Cid"])["game_id"]
    referee = server.app.extensions["hardware"].referee
    referee.auto = True
    try:
        page.open(f"/games/{game_id}")
        page.unlock()
        empty, unsure = table(pile=""), table((0, "blue", 1), pile="", confidence=0.6)
        for scene, moving in [(empty, False)] * 4 + [(empty, True)] + [(unsure, False)] * 4:
            referee.frame(scene, moving)
        page.until(lambda: "camera: Ann planted a Blue Bean" in page.text("#proposals"),
                   "the plant the camera is unsure of is not proposed")
        for _ in range(4):
            referee.frame(table((0, "blue", 1), pile=""), False)
        page.until(lambda: "0:0:blue:1" in (page.facts() or {}).get("fields", []),
                   "the plant the camera became sure of is not on the table")
        page.until(lambda: page.visible("#proposals") is None, "the proposal the camera became sure of is still shown")
        assert [e["bean"] for e in api.get(f"/api/games/{game_id}/events").get_json()["events"]] == ["blue"]
    finally:
        referee.auto = False
