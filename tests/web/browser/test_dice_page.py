"""The dice screen in a real browser: a turn played by tapping, and the manual roll entry
shown or tucked away as the electronic dice go offline or online."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.dice.config import DEFAULT_DICE
from support.live_server import LiveServer, live_server
from support.web_client import Editor

CARD = ["stink", "soy", "red", "2x green", "(soy|green) + 2x(garden|red)"]
PRINTED = ["74", "56", "42", "26", "15"]

FACTS_JS = """
const all = (sel, root = document) => [...root.querySelectorAll(sel)];
const phase = document.getElementById('phase');
if (!phase.dataset.phase) return null;
return {
  turn: document.getElementById('turn').textContent,
  phase: phase.dataset.phase,
  drawing: !document.getElementById('draw-panel').hidden,
  rolled: all('#rolled .die').map((d) => `${d.dataset.die}:${d.dataset.bean}`),
  field: all('#bean-field .die').map((d) => `${d.dataset.die}:${d.dataset.bean}`),
  done: all('.player').map((p) => all('.order.done', p).length),
  dollars: all('.player .dollars').map((d) => d.firstChild.textContent),
  completions: all('#completion-list li').map((li) => li.textContent),
  deck: document.getElementById('deck-left').textContent,
};
"""


def facts(page: Any) -> dict[str, Any] | None:
    return page.driver.execute_script(FACTS_JS)


def until_facts(page: Any, expect: Any, what: str) -> dict[str, Any]:
    return page.until(lambda: (f := facts(page)) and expect(f) and f, what)


def test_a_dice_turn_is_played_by_tapping(page: Any, api: Editor, server: LiveServer) -> None:
    game_id = api.start(game="dice", players=["Ann", "Ben"])["game_id"]  # a hidden deck, as at a real table
    page.open(f"/games/{game_id}")
    page.unlock()
    until_facts(page, lambda f: f["drawing"] and f["phase"] == "draw", "no draw panel")
    assert page.text("#draw-title") == "Ann draws a harvest card (top place)"

    # --- the opening draws: Ann's two from the (labelled) sample list, Ben's typed in
    for card, deck in (("S01", "54"), ("S02", "53")):
        page.tap(f'.card-pick[data-card="{card}"]')
        until_facts(page, lambda f, deck=deck: f["deck"] == deck, f"{card} not drawn")
    page.tap("#new-card summary")
    for index, (order, printed) in enumerate(zip(CARD, PRINTED)):
        page.type(f"#order-{index}", order)
        page.type(f"#printed-{index}", printed)
    page.until(lambda: page.text("#odds-4").startswith("(soy|green) + 2x(garden|red): 14.8 %"), "no odds shown")
    page.type("#order-3", "2x grean")
    page.until(lambda: "unknown bean 'grean'" in page.text("#odds-3"), "no syntax error shown")
    page.tap("#new-card-submit")
    assert "order 4 (from the bottom): unknown bean 'grean'" in page.until(lambda: page.visible("#alerts .alert")).text
    page.dismiss_alerts()
    page.type("#order-3", "2x green")
    page.tap("#new-card-submit")
    until_facts(page, lambda f: f["deck"] == "52", "the typed card was not drawn")
    assert page.find('.card-pick[data-card="1"]').get_attribute("disabled")  # in the group's catalogue, and in play
    assert "in play: Ben" in page.text('.card-pick[data-card="1"]')
    page.tap('.card-pick[data-card="S04"]')
    ready = until_facts(page, lambda f: f["phase"] == "roll", "the draws did not finish")
    assert ready["turn"] == "Ann's turn" and ready["deck"] == "51"
    stored = api.get("/api/dice/catalogue").get_json()["group"]["cards"]
    assert [c["orders"] for c in stored] == [CARD]
    ben_orders = page.driver.execute_script(
        "return [...document.querySelectorAll('.player[data-seat=\"1\"] .order')].map((o) => o.textContent)")
    assert ben_orders[-1].endswith("stink74.3 %") and ben_orders[0].startswith("(soy|green)")

    # --- roll by hand: one bean per die, from that die's faces only
    dark_faces = page.driver.execute_script(
        "return [...document.querySelectorAll('.manual-die[data-die=\"0\"] .face')].map((b) => b.dataset.bean)")
    assert dark_faces == sorted(set(DEFAULT_DICE.dice[0].faces), key=DEFAULT_DICE.dice[0].faces.index)
    for die, bean in enumerate(["stink", "soy", "red", "green", "green"]):
        page.tap(f'.manual-die[data-die="{die}"] .face[data-bean="{bean}"]')
    page.tap("#manual-submit")
    rolled = until_facts(page, lambda f: f["phase"] == "save", "the roll was not entered")
    assert rolled["rolled"] == ["0:stink", "1:soy", "2:red", "3:green", "4:green"]
    assert rolled["done"] == [0, 4]  # Ann rolls: only Ben checks these dice
    assert rolled["completions"][:2] == ["Ben completed order 1: stink", "Ben completed order 2: soy"]

    # --- Ben harvests while it is Ann's turn, and draws his new bottom card
    page.tap('.player[data-seat="1"] .harvest')
    harvested = until_facts(page, lambda f: f["drawing"], "no draw after the harvest")
    assert harvested["dollars"] == ["0 $", "2 $"] and harvested["deck"] == "50"
    top = api.get(f"/api/games/{game_id}").get_json()["state"]["players"][1]
    assert top["top_card"]["id"] == "S04" and harvested["done"][1] == top["completed"]  # checked at once
    page.tap('.card-pick[data-card="S03"]')
    until_facts(page, lambda f: not f["drawing"], "the harvest draw was not made")

    # --- save two dice, roll the rest with the virtual dice, save them all, end the turn
    page.tap('#rolled .die[data-die="0"]')
    page.tap('#rolled .die[data-die="1"]')
    assert page.text("#save-button") == "Save 2 dice"
    page.tap("#save-button")
    saved = until_facts(page, lambda f: f["phase"] == "roll", "the dice were not saved")
    assert saved["field"] == ["0:stink", "1:soy"] and [d.split(":")[0] for d in saved["rolled"]] == ["2", "3", "4"]
    page.tap("#virtual-roll")
    second = until_facts(page, lambda f: f["phase"] == "save", "the virtual dice did not roll")
    assert all(d.split(":")[1] in DEFAULT_DICE.dice[int(d.split(":")[0])].faces for d in second["rolled"])
    for die in (2, 3, 4):
        page.tap(f'#rolled .die[data-die="{die}"]')
    page.tap("#save-button")
    until_facts(page, lambda f: f["phase"] == "turn-end" and len(f["field"]) == 5, "not all dice saved")
    page.tap("#end-turn-button")
    after = until_facts(page, lambda f: f["turn"] == "Ben's turn", "the turn did not pass")
    assert after["phase"] == "roll" and after["field"] == [] and after["dollars"][1] == "2 $"
    page.tap("#undo-button")
    until_facts(page, lambda f: f["turn"] == "Ann's turn" and f["phase"] == "turn-end",
                "undo did not take back the end of turn")
    events = server.app.extensions["tables"].session(game_id).events
    assert [e["type"] for e in events] == ["draw"] * 4 + ["roll", "harvest", "draw", "save", "roll", "save"]


@pytest.fixture(scope="module")
def dice_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("dice-instance"), DICE="emulate") as running:
        yield running


@pytest.fixture(scope="module")
def offline_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("offline-instance")
    with live_server(folder, DICE=str(Path(folder) / "no-such-port")) as running:
        yield running


def _ready_game(app: Any) -> int:
    editor = Editor(app.test_client())
    game_id = editor.start(game="dice", players=["Ann", "Ben"], options={"harvest_cards": "sample"})["game_id"]
    for _ in range(4):
        assert editor.post(f"/api/dice/games/{game_id}/deal").status_code == 200
    return game_id


def _manual_entry_shown(page: Any) -> bool:
    return page.visible('.manual-die[data-die="0"] .face') is not None


def test_manual_entry_is_open_while_the_dice_are_offline(page: Any, offline_server: LiveServer) -> None:
    game_id = _ready_game(offline_server.app)
    page.driver.get(f"{offline_server.url}/games/{game_id}")
    page.until(lambda: page.driver.execute_script("return document.body.dataset.dice") == "offline", "no dice status")
    page.until(lambda: _manual_entry_shown(page), "the manual entry is not shown")
    assert page.visible("#dice-hint") is None
    assert page.text("#hw-dice").startswith("dice offline")


def test_with_dice_online_manual_entry_is_tucked_away_and_rolls_arrive_by_themselves(
    page: Any, dice_server: LiveServer
) -> None:
    game_id = _ready_game(dice_server.app)
    page.driver.get(f"{dice_server.url}/games/{game_id}")
    page.until(lambda: page.driver.execute_script("return document.body.dataset.dice") == "online", "dice not online")
    assert page.find("#dice-hint").text.startswith("Roll the electronic dice")
    assert not _manual_entry_shown(page)
    assert page.text("#manual-summary") == "Dice not working? Enter the roll by hand"
    assert "secondary" in page.find("#virtual-roll").get_attribute("class")

    roll = dice_server.app.extensions["hardware"].dice.emulator.roll()
    assert roll is not None
    beans = DEFAULT_DICE.beans(list(roll.faces))
    shown = until_facts(page, lambda f: f["phase"] == "save", "the electronic roll did not arrive")
    assert shown["rolled"] == [f"{i}:{b}" for i, b in enumerate(beans)]
    assert page.visible("#roll-panel") is None

    assert dice_server.app.extensions["hardware"].dice.emulator.roll() is not None  # before Ann saves a die
    note = page.until(lambda: page.visible("#alerts .alert-info"), "the uncounted roll was not reported").text
    assert "Dice roll not counted: no dice game is waiting for a roll" in note
    assert facts(page)["rolled"] == shown["rolled"]


def test_a_finished_game_shows_its_winners_and_final_dollars(page: Any, api: Editor) -> None:
    record = (Path(__file__).resolve().parents[3] / "examples" / "records" / "dice-sample.jsonl").read_bytes()
    response = api.post("/api/games/import", data=record, content_type="application/x-ndjson")
    assert response.status_code == 201, response.get_json()
    state = response.get_json()["state"]
    page.open(f"/games/{response.get_json()['game_id']}")
    shown = until_facts(page, lambda f: f["turn"] == "Game over", "the finished game is not shown as over")
    assert shown["dollars"] == [f"{state['scores'][p['name']]} $" for p in state["players"]]
    best = state["scores"][state["winners"][0]]
    assert page.text("#winners").endswith(f"{', '.join(state['winners'])} with {best} $")
    assert page.visible("#roll-panel") is None and page.visible("#final-phase") is None


def test_a_card_in_play_is_not_drawn_again_and_a_card_is_entered_by_tapping_beans(page: Any, api: Editor) -> None:
    """Issue 21, item 10: a harvest card on the table cannot be drawn again; orders entered by tapping beans."""
    game_id = api.start(game="dice", players=["Ann", "Ben"])["game_id"]
    page.open(f"/games/{game_id}")
    page.unlock()
    until_facts(page, lambda f: f["drawing"], "no draw panel")
    page.tap('.card-pick[data-card="S05"]')
    until_facts(page, lambda f: f["deck"] == "54", "S05 not drawn")
    page.until(lambda: page.find('.card-pick[data-card="S05"]').get_attribute("disabled"), "S05 still offered")
    assert "in play: Ann" in page.text('.card-pick[data-card="S05"]')
    card = api.get("/api/dice/catalogue").get_json()["sample"]["cards"][4]
    again = api.post(f"/api/games/{game_id}/moves", {"type": "draw", "player": 0, "card": card})
    assert again.status_code == 409 and again.get_json()["rule"] == "dice.card-in-play"

    page.tap("#new-card summary")
    taps = [["stink"], ["soy"], ["red"], ["green", "green"], ["soy", "or", "green"]]
    for index, beans in enumerate(taps):
        if index:
            page.tap("#key-next")
        for bean in beans:
            page.tap("#key-or" if bean == "or" else f'.bean-key[data-bean="{bean}"]')
    assert [page.find(f"#order-{i}").get_attribute("value") for i in range(5)] == [
        "stink", "soy", "red", "green + green", "soy or green"]
    page.until(lambda: page.text("#odds-3").startswith("2x green: "), "the tapped order is not read")
    page.tap("#new-card-submit")
    until_facts(page, lambda f: f["deck"] == "53", "the tapped card was not drawn")
    stored = api.get("/api/dice/catalogue").get_json()["group"]["cards"]
    assert stored[-1]["orders"] == ["stink", "soy", "red", "2x green", "soy or green"]


def test_offline_dice_keep_the_top_bar_on_one_line_and_say_why_on_the_page(
    page: Any, offline_server: LiveServer
) -> None:
    game_id = _ready_game(offline_server.app)
    page.viewport(1024, 768, True)
    page.driver.get(f"{offline_server.url}/games/{game_id}")
    page.until(lambda: page.driver.execute_script("return document.body.dataset.dice") == "offline", "no dice status")
    assert page.text("#hw-dice") == "dice offline"
    assert "no-such-port" in page.find("#hw-dice").get_attribute("title")
    assert "no-such-port" in page.text("#dice-problem")
    bar = page.driver.execute_script("return document.querySelector('.topbar').getBoundingClientRect().height")
    chip = page.find("#hw-dice").rect["height"]
    print(f"top bar {bar:.0f} px high, dice status {chip:.0f} px")
    assert bar <= 64 and chip <= 32, "the dice status wraps the top bar"


def test_on_a_phone_the_last_roll_and_who_completed_what_show_without_scrolling(page: Any, server: LiveServer) -> None:
    """Issue 21, item 10: after a roll, what it completed is in view at the top of a phone's screen."""
    game_id = _ready_game(server.app)
    rolled = Editor(server.app.test_client()).post(f"/api/dice/games/{game_id}/roll")
    assert rolled.status_code == 200, rolled.get_json()
    page.viewport(390, 844, mobile=True)
    page.open(f"/games/{game_id}")
    until_facts(page, lambda f: f["phase"] == "save", "the roll is not shown")
    box = page.driver.execute_script(
        "const b = document.getElementById('completions').getBoundingClientRect();"
        "return {top: b.top, bottom: b.bottom, height: innerHeight, scrolled: scrollY};")
    assert box["scrolled"] == 0 and 0 < box["top"] < box["bottom"] <= box["height"], box
    assert page.text("#completions").startswith("Last roll:")
