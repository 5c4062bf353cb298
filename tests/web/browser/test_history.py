"""The game so far on the table page (issue 21): every event in the engine's words, undone ones shown as undone,
and undo back to a chosen event after one question."""

from __future__ import annotations

from typing import Any

from selenium.webdriver.common.by import By

from support.web_client import Editor

MOVES = [
    {"type": "plant", "player": 0, "bean": "blue"},
    {"type": "plant", "player": 0, "bean": "red"},
    {"type": "turn-over", "player": 0, "beans": ["soy", "chili"]},
    {"type": "end-trading", "player": 0},
]


def rows(page: Any) -> list[str]:
    return [row.text.split("\n")[0 if "undone" in row.get_attribute("class") else 1]
            + (" [undone]" if "undone" in row.get_attribute("class") else "")
            for row in page.driver.find_elements(By.CSS_SELECTOR, "#history-list .history-row")]  # fmt: skip


def test_the_history_shows_every_event_and_undoes_back_to_a_chosen_one(page: Any, api: Editor) -> None:
    game_id = api.start()["game_id"]
    for event in MOVES[:2]:
        assert api.post(f"/api/games/{game_id}/moves", event).status_code == 200
    seq = api.get(f"/api/games/{game_id}").get_json()["seq"]
    assert api.post(f"/api/games/{game_id}/undo", {"count": 1, "after": seq}).status_code == 200  # red undone
    for event in MOVES[1:]:
        assert api.post(f"/api/games/{game_id}/moves", event).status_code == 200
    page.open(f"/games/{game_id}")
    page.until(page.facts, "no table drawn")
    page.unlock()
    page.tap("#history-toggle")
    page.until(lambda: len(rows(page)) == 5, "the history is not listed")
    assert rows(page) == [  # newest first
        "Ann ended trading",
        "Ann turned over Soy, Chili",
        "Ann planted a Red Bean (from hand) in field 2",
        "Ann planted a Red Bean (from hand) in field 2 [undone]",
        "Ann planted a Blue Bean (from hand) in field 1",
    ]
    page.tap('.history-row[data-at="2"] .undo-to')  # the red plant, and the two events after it
    assert page.text(".undo-question span") == "Undo this and the 2 events after it?"
    assert api.get(f"/api/games/{game_id}").get_json()["events"] == 4  # nothing undone before the answer
    page.tap("#undo-confirm")
    page.until(lambda: api.get(f"/api/games/{game_id}").get_json()["events"] == 1, "not undone back to event 2")
    page.until(lambda: len(rows(page)) == 5 and rows(page)[0].endswith("[undone]"), "the history did not follow")
    assert rows(page)[-1] == "Ann planted a Blue Bean (from hand) in field 1"
    assert sum(row.endswith("[undone]") for row in rows(page)) == 4
    assert page.text("#last-move").startswith("Undone: Ann planted a Red Bean")
    page.tap('.history-row[data-at="1"] .undo-to')
    page.tap("#undo-keep")  # asked, and kept
    assert api.get(f"/api/games/{game_id}").get_json()["events"] == 1
