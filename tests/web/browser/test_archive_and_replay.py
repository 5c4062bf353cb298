"""The archive (import, export, replay links), the end of a game, the replay slider, moves from the camera."""

from __future__ import annotations

from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from companion.records.format import Header
from companion.records.jsonl import dumps_record
from companion.rules.moves import move_to_dict
from companion.rules.simulate import random_game, random_setup
from support.live_server import LiveServer

SEED = 3


def finished_record() -> str:
    """A whole random game (known deck) as a record file."""
    setup = random_setup("amigo-25", 3, SEED)
    state = random_game(setup, SEED)
    header = Header.from_dict({
        "format": "bohnanza-record", "version": 1, "game": "bohnanza", "ruleset": setup.ruleset,
        "players": list(setup.players), "start_player": setup.start_player, "deck": {"seed": SEED},
        "meta": {"title": "Imported final"},
    })  # fmt: skip
    return dumps_record(header, [move_to_dict(m) for m in state.move_stack])


@pytest.fixture(scope="module")
def imported(module_page: Any, server: LiveServer, tmp_path_factory: pytest.TempPathFactory) -> int:
    """Import a finished game through the archive page; a bad file first shows the server's reason."""
    page = module_page
    folder = tmp_path_factory.mktemp("records")
    bad, good = folder / "bad.jsonl", folder / "game.jsonl"
    bad.write_text("this is not a record\n")
    good.write_text(finished_record())
    page.open("/")
    page.unlock()
    page.find("#import-file").send_keys(str(bad))
    page.tap("#import-submit")
    reason = page.until(lambda: page.text("#import-error"), "no reason shown for a bad record")
    assert reason.startswith("this is not a readable game record: line 1")
    assert server.app.extensions["tables"].store.games() == []
    page.find("#import-file").send_keys(str(good))
    page.tap("#import-submit")
    row = '.game-row[data-game="1"]'
    page.until(lambda: "Imported final" in page.text(row) and "finished" in page.text(row),
               "the imported game is not listed as finished")  # the list may be drawn again live meanwhile
    assert page.text("#import-error") == ""
    links = page.until(lambda: {a.text: a.get_attribute("href")
                                for a in page.find(row).find_elements(By.CSS_SELECTOR, "a")})
    assert links == {"Open": f"{server.url}/games/1", "Replay": f"{server.url}/games/1/replay",
                     "Export": f"{server.url}/api/games/1/record"}  # fmt: skip
    return 1


def test_the_archive_follows_new_games_live(page: Any, api: Any, imported: int) -> None:
    page.open("/")
    page.find(f'.game-row[data-game="{imported}"]')
    started = api.start(players=["Uma", "Vic", "Wes"], meta={"title": "Live one"})["game_id"]
    row = page.find(f'.game-row[data-game="{started}"]')
    assert "Live one" in row.text and "running" in row.text and "Resume" in row.text


def test_a_finished_game_shows_the_ranking_and_every_players_coins(page: Any, api: Any, imported: int) -> None:
    state = api.get(f"/api/games/{imported}").get_json()["state"]
    assert state["game_over"]
    page.open(f"/games/{imported}")
    page.find("#game-end")
    ranking = [li.text for li in page.driver.find_elements(By.CSS_SELECTOR, "#ranking li")]
    expected = sorted(state["scores"].items(), key=lambda item: -item[1])
    assert [line.split()[0] for line in ranking] == [name for name, _ in expected]
    assert [int(line.split()[1]) for line in ranking] == [score for _, score in expected]
    assert page.text("#result") == state["result"]
    lines = page.until(lambda: page.driver.find_elements(By.CSS_SELECTOR, "#coin-chart polyline"), "no chart")
    assert [line.get_attribute("data-player") for line in lines] == ["Ann", "Ben", "Cid"]
    progress = api.get(f"/api/games/{imported}/progress").get_json()["scores"]
    points = lines[0].get_attribute("points").split()
    assert len(points) == len(progress)
    assert not page.driver.find_elements(By.CSS_SELECTOR, "#controls")


def test_the_replay_slider_steps_through_the_events(page: Any, api: Any, imported: int) -> None:
    events = api.get(f"/api/games/{imported}").get_json()["events"]
    page.open(f"/games/{imported}/replay")
    page.until(lambda: page.text("#replay-at").startswith(f"Event {events} of {events}"), "not at the end")
    page.find("#game-end")
    page.tap("#replay-first")
    page.until(lambda: page.text("#replay-at").startswith("Start of the game"), "not at the start")
    for _ in range(3):
        page.tap("#replay-next")
    page.find("#replay-slider").send_keys(Keys.ARROW_RIGHT)
    page.until(lambda: page.text("#replay-at").startswith(f"Event 4 of {events}:"), "the slider did not move")
    expected = api.get(f"/api/games/{imported}/replay?at=4").get_json()["state"]
    shown = page.until(lambda: (f := page.facts()) and f["draw"] == str(expected["draw_pile"]) and f)
    assert shown["fields"] == [
        f"{seat}:{i}:{f['bean'] if f else ''}:{f['count'] if f else 0}"
        for seat, p in enumerate(expected["players"]) for i, f in enumerate(p["fields"])
    ]  # fmt: skip
    assert not page.driver.find_elements(By.CSS_SELECTOR, "#table button")  # read-only
    page.driver.refresh()
    page.until(lambda: page.text("#replay-at").startswith(f"Event 4 of {events}:"), "a reload lost the position")


def test_camera_moves_and_refusals_are_shown_with_their_source(page: Any, api: Any) -> None:
    game_id = api.start(ruleset="classic", players=["Ann", "Ben", "Cid", "Dee"])["game_id"]
    page.open(f"/games/{game_id}")
    page.until(page.facts, "no table drawn")
    page.unlock()
    page.dismiss_alerts()
    plant = {"type": "plant", "player": 0, "bean": "blue", "source": "hand"}
    assert api.post(f"/api/games/{game_id}/moves", {"event": plant, "source": "camera"}).status_code == 200
    seen = "Last: Ann planted a Blue Bean (from hand) in field 1 (from the camera)"
    page.until(lambda: page.text("#last-move") == seen)
    out_of_turn = {**plant, "player": 1}
    assert api.post(f"/api/games/{game_id}/moves", {"event": out_of_turn, "source": "camera"}).status_code == 409
    alert = page.find("#alerts .alert")
    assert alert.text.startswith("camera: It is Ann's turn")
    assert alert.find_element(By.CSS_SELECTOR, ".rule").text == "turn.out-of-turn"
    page.dismiss_alerts()
    page.tap('.harvest[data-seat="0"][data-field="0"]')  # classic: a single card with an empty field beside it
    page.tap('.harvest.asking[data-seat="0"][data-field="0"]')  # it would pay nothing: asked, and confirmed
    assert page.find("#refusal .rule").text == "harvest.protection"  # said beside the harvest tapped
    assert api.get(f"/api/games/{game_id}").get_json()["events"] == 1
