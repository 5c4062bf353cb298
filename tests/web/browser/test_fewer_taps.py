"""Fewer taps (issue 21): a plain turn in at most 6 taps, a one-card-for-one-card trade in at most 4.

Every tap is counted by the page itself (a click listener on the document), and every event
is still the engine's to check: the "Last:" line says each one in the engine's words.
"""

from __future__ import annotations

from typing import Any

from support.web_client import Editor

COUNT_TAPS_JS = """
window.tapsCounted = 0;
document.addEventListener('click', (e) => { if (e.target.closest('button')) window.tapsCounted += 1; }, true);
"""


def taps(page: Any) -> int:
    return page.driver.execute_script("return window.tapsCounted")


def open_table(page: Any, game_id: int) -> None:
    page.open(f"/games/{game_id}")
    page.until(page.facts, "no table drawn")
    page.unlock()
    page.driver.execute_script(COUNT_TAPS_JS)


def last_move(page: Any, text: str) -> None:
    page.until(lambda: page.text("#last-move") == f"Last: {text}", f"the page does not say: {text}")


def events(api: Editor, game_id: int) -> list[dict[str, Any]]:
    return api.get(f"/api/games/{game_id}/events").get_json()["events"]


def test_a_plain_turn_takes_six_taps(page: Any, api: Editor) -> None:
    game_id = api.start()["game_id"]
    open_table(page, game_id)
    page.tap('#controls .bean-pick[data-bean="blue"]')  # 1: planted at once, in the fitting field
    last_move(page, "Ann planted a Blue Bean (from hand) in field 1")
    page.tap('#controls .bean-pick[data-bean="soy"]')  # 2, 3: the two cards that came up, in the same view
    page.tap('#controls .bean-pick[data-bean="chili"]')
    last_move(page, "Ann turned over Soy, Chili")
    page.tap("#end-trading")  # 4
    last_move(page, "Ann ended trading")
    assert "Ann: Soy, Ann: Chili" in page.text("#plant-all")
    page.tap("#plant-all")  # 5: both turned-over beans, each in its fitting field
    last_move(page, "Ann planted a Chili Bean (turned over) in field 3")
    page.tap("#draw")  # 6
    last_move(page, "Ann drew 3 cards")
    facts = page.until(lambda: (f := page.facts()) and f["active"] == "1" and f, "not Ben's turn")
    assert facts["fields"][:3] == ["0:0:blue:1", "0:1:soy:1", "0:2:chili:1"]
    assert [e["type"] for e in events(api, game_id)] == ["plant", "turn-over", "end-trading", "plant", "plant", "draw"]
    assert taps(page) == 6


def test_a_one_for_one_trade_takes_four_taps(page: Any, api: Editor) -> None:
    game_id = api.start()["game_id"]
    for event in ({"type": "plant", "player": 0, "bean": "blue"},
                  {"type": "turn-over", "player": 0, "beans": ["soy", "chili"]}):  # fmt: skip
        assert api.post(f"/api/games/{game_id}/moves", event).status_code == 200
    open_table(page, game_id)
    page.tap('.partner[data-seat="2"]')  # 1: with Cid
    page.tap('#controls .give-face-up[data-bean="soy"]')  # 2: a turned-over card
    page.tap('#receive-picker .bean-pick[data-bean="green"]')  # 3: Cid's card
    page.tap("#make-trade")  # 4
    last_move(page, "Ann traded Soy with Cid for Green")
    assert taps(page) == 4
    page.tap('.partner[data-seat="1"]')  # hand for hand, with Ben: again 4 taps
    page.tap('#give-picker .bean-pick[data-bean="stink"]')
    page.tap('#receive-picker .bean-pick[data-bean="red"]')
    page.tap("#make-trade")
    last_move(page, "Ann traded Stink with Ben for Red")
    assert taps(page) == 8
    assert [e["type"] for e in events(api, game_id)][2:] == ["trade", "trade"]


def test_a_field_tapped_first_takes_the_plant_from_hand(page: Any, api: Editor) -> None:
    game_id = api.start()["game_id"]
    open_table(page, game_id)
    page.tap('.field-plot[data-seat="0"][data-field="2"]')
    page.until(lambda: "field 3" in page.text("#plant-hint"), "the chosen field is not named")
    page.tap('#controls .bean-pick[data-bean="red"]')
    last_move(page, "Ann planted a Red Bean (from hand) in field 3")
    assert taps(page) == 2
