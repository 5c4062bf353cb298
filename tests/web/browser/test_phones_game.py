"""Every player's phone (issue 21): a complete 4-player game played from four phone-sized windows (390 x 844),
each joined to its seat through the tablet's QR link, while the tablet shows the whole table; every window follows
every move live. At the end the host renews the join code and every phone is told it now watches."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from companion.rules.moves import move_to_dict
from companion.rules.simulate import random_game, random_setup
from support.live_server import LiveServer
from support.web_client import Editor
from web.seats import REVOKED

SEED = 131
"""The shortest complete random game of 4 players among the first seeds tried (333 events, 22 trades)."""
PHONE = (390, 844)
WAIT_S = 10
MIN_TEXT_PX = 14

FACTS_JS = """
const view = document.querySelector('#table .table-view');
if (!view) return null;
const all = (sel) => [...document.querySelectorAll(sel)];
const bySeat = (sel, read) => Object.fromEntries(all('.seat').map((s) => [s.dataset.seat, read(s.querySelector(sel))]));
return {
  events: view.dataset.events, phase: view.dataset.phase, active: view.dataset.active, over: view.dataset.over,
  fields: all('.field-plot').map((f) => ['seat', 'field', 'bean', 'count'].map((k) => f.dataset[k]).join(':')).sort(),
  faceUp: all('#face-up .card').map((c) => c.dataset.bean),
  coins: bySeat('.coins b', (b) => b.textContent), hands: bySeat('.hand b', (b) => b.textContent),
  draw: document.querySelector('#draw-pile b').textContent,
};
"""
"""What a window shows of the table, whatever the order it draws the seats in."""

SMALLEST_TEXT_JS = """
let smallest = 1000;
for (const node of document.querySelectorAll('body *')) {
  if (node.closest('svg, script, style, option, dialog:not([open])')) continue;
  const text = [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
  const box = node.getBoundingClientRect();
  if (text && box.width && box.height) smallest = Math.min(smallest, parseFloat(getComputedStyle(node).fontSize));
}
return smallest;
"""


def events(window: Any) -> int:
    """How many moves a window shows the game after (-1: no table drawn yet)."""
    count = window.driver.execute_script("return document.querySelector('#table .table-view')?.dataset.events;")
    return int(count or -1)


def recorded_game() -> tuple[Any, list[dict[str, Any]]]:
    setup = random_setup("amigo-25", 4, SEED)
    return setup, [move_to_dict(move) for move in random_game(setup, SEED).move_stack]


@pytest.mark.slow
def test_a_whole_game_played_from_four_phones_and_a_tablet_every_window_live(
    page: Any, browsers: Callable[[int], list[Any]], server: LiveServer
) -> None:
    setup, record = recorded_game()
    api = Editor(server.app.test_client())
    game_id = api.start(ruleset="amigo-25", players=list(setup.players), start_player=setup.start_player,
                        deck={"seed": SEED})["game_id"]  # fmt: skip
    tablet, phones = page, browsers(4)
    for phone in phones:
        phone.viewport(*PHONE, mobile=True)
    windows = [tablet, *phones]

    # --- the host hands out a join code; its QR code holds the link each phone opens
    tablet.open(f"/games/{game_id}")
    tablet.unlock()
    tablet.press("#phones-toggle")
    tablet.press("#join-renew")
    link = tablet.until(lambda: tablet.shows("#join-link") and tablet.find("#join-link").get_attribute("href"))
    assert tablet.until(lambda: tablet.driver.execute_script("return document.getElementById('join-qr').naturalWidth"))
    for seat, phone in enumerate(phones):
        phone.driver.get(link)
        phone.press(f'.join-seat[data-seat="{seat}"]')
        bar = phone.until(lambda p=phone: p.shows("#seat-bar") and p.find("#seat-bar").text)
        assert f"plays {setup.players[seat]}'s seat" in bar
        assert "join=" not in phone.driver.current_url  # the code does not stay in the address bar
    held = "Phones now: Ann, Ben, Cid, Dee"
    tablet.until(lambda: tablet.find("#seats-held").text == held, "the tablet did not hear of every phone joining")

    # --- a phone shows its own seat first, below the header, its text at least 14 px
    for seat, phone in enumerate(phones):
        top = phone.driver.execute_script(
            "window.scrollTo(0, 0); const mine = document.querySelector('#mine .seat');"
            "return [mine.dataset.seat, mine.getBoundingClientRect().top,"
            " document.querySelector('.topbar').getBoundingClientRect().bottom,"
            " document.querySelector('.table-head').getBoundingClientRect().top];")  # fmt: skip
        assert top[0] == str(seat) and top[2] <= top[1] < top[3], f"phone {seat}: its seat is not first"
        assert phone.driver.execute_script(SMALLEST_TEXT_JS) >= MIN_TEXT_PX

    # --- the whole game, each move tapped on the phone of the seat that makes it
    started = time.monotonic()
    for number, event in enumerate(record, 1):
        play(phones, event)
        behind = list(windows)
        deadline = time.monotonic() + WAIT_S
        while behind := [w for w in behind if events(w) != number]:  # every window, live: no reload, no poll of ours
            assert time.monotonic() < deadline, f"{len(behind)} window(s) missed move {number}: {event}"
            time.sleep(0.005)
        if event["type"] in ("draw", "trade"):  # at the end of each turn, and after each trade: all show the same
            facts = tablet.driver.execute_script(FACTS_JS)
            shown = [window.driver.execute_script(FACTS_JS) for window in phones]
            assert all(facts == seen for seen in shown), f"a phone differs from the tablet after {event}"
    print(f"{len(record)} moves from the phones in {time.monotonic() - started:.1f} s")

    # --- the end: every window shows the game over and the same ranking
    state = api.get(f"/api/games/{game_id}").get_json()["state"]
    assert state["game_over"] is True
    rankings = [window.until(lambda w=window: w.shows("#ranking") and w.find("#ranking").text) for window in windows]
    assert len(set(rankings)) == 1 and state["winners"][0] in rankings[0]
    stored = api.get(f"/api/games/{game_id}/events").get_json()["events"]
    assert [without_count(e) for e in stored] == record  # each move as recorded (a draw names its count on the page)

    # --- the host renews the join code: every phone is told at once that it watches
    tablet.press("#join-renew")
    for phone in phones:
        assert phone.until(lambda p=phone: p.shows("#seat-ended") and p.find("#seat-ended").text) == REVOKED
        assert phone.driver.execute_script("return document.querySelector('.table-view').dataset.mode") == "watch"
    errors = [entry["message"] for phone in phones for entry in phone.driver.get_log("browser")
              if entry["level"] == "SEVERE" and "Failed to load resource" not in entry["message"]]  # fmt: skip
    assert errors == [], "a phone's scripts failed"


def without_count(event: dict[str, Any]) -> dict[str, Any]:
    """A stored event as the record has it: the page's draw says how many cards, as the rules offer it."""
    return {k: v for k, v in event.items() if not (event["type"] == "draw" and k == "count")}


def play(phones: list[Any], event: dict[str, Any]) -> None:
    """Tap ``event`` on the phone of the seat that makes it (a trade: offered there, accepted on the partner's)."""
    phone = phones[event["player"]]
    seat = event["player"]
    kind = event["type"]
    field = f'#mine .field-plot[data-seat="{seat}"][data-field="{event.get("field")}"]'
    if kind == "plant" and event["source"] == "hand":
        if phone.shows('[data-tab="plant"][aria-selected="false"]'):
            phone.press('[data-tab="plant"]')
        if not phone.shows(field.replace(".field-plot", ".field-plot.target")):
            phone.press(field)
        phone.press(f'#controls .bean-pick[data-bean="{event["bean"]}"]')
    elif kind == "plant":
        card = "#face-up button.card" if event["source"] == "face-up" else f'.received-card[data-seat="{seat}"]'
        phone.press(f'{card}[data-bean="{event["bean"]}"]')
        phone.press(field)
    elif kind == "turn-over":
        if phone.shows('[data-tab="turn"][aria-selected="false"]'):
            phone.press('[data-tab="turn"]')
        for bean in event["beans"]:
            phone.press(f'#controls .bean-pick[data-bean="{bean}"]')
    elif kind == "trade":
        offer(phone, event)
        phones[event["partner"]].press('#offers .offer-row[data-mine="no"] .accept')
    elif kind == "harvest":
        button = f'#mine .harvest[data-seat="{seat}"][data-field="{event["field"]}"]'
        asking = button.replace(".harvest", ".harvest.asking")
        phone.press(button)
        phone.until(lambda: phone.shows(asking) or not phone.shows(button), "the harvest was neither made nor asked")
        if phone.shows(asking):  # it pays nothing: the phone asks first
            phone.press(asking)
    elif kind == "end-trading":
        phone.press("#end-trading")
    elif kind == "draw":
        phone.press("#draw")
    else:
        raise AssertionError(f"no taps for {event}")


def offer(phone: Any, event: dict[str, Any]) -> None:
    """Put a trade together on the active player's phone and offer it to the partner."""
    partner = f'.partner[data-seat="{event["partner"]}"]'
    if not phone.shows(f'{partner}[aria-pressed="true"]'):
        phone.press(partner)
    for bean in event.get("give_face_up", []):
        phone.press(f'#controls .give-face-up[data-bean="{bean}"][aria-pressed="false"]')
    for bean in event.get("give_hand", []):
        phone.press(f'#give-picker .bean-pick[data-bean="{bean}"]')
    for bean in event.get("receive", []):
        phone.press(f'#receive-picker .bean-pick[data-bean="{bean}"]')
    phone.press("#make-trade")
