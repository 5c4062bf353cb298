"""Made for a phone as much as for a tablet (issue 21, items 4 and 5): text at least 14 px, the controls beside
the fields they act on, in both orientations; a refusal said next to what was tapped, moving nothing."""

from __future__ import annotations

from typing import Any

import pytest

from companion.rules.moves import move_to_dict
from companion.rules.simulate import random_game, random_setup
from support.live_server import LiveServer
from support.web_client import Editor

SIZES = {
    "phone-portrait": (390, 844, True),
    "phone-landscape": (844, 390, True),
    "tablet-landscape": (1024, 768, True),
    "tablet-portrait": (768, 1024, True),
}
MIN_TEXT_PX = 14

SMALLEST_TEXT_JS = """
let smallest = [1000, ''];
for (const node of document.querySelectorAll('body *')) {
  if (node.closest('svg, script, style, option, dialog:not([open])')) continue;
  const text = [...node.childNodes].filter((c) => c.nodeType === 3).map((c) => c.textContent.trim()).join('');
  const box = node.getBoundingClientRect();
  if (!text || !box.width || !box.height) continue;
  const size = parseFloat(getComputedStyle(node).fontSize);
  if (size < smallest[0]) smallest = [size, `${node.className || node.tagName} "${text.slice(0, 20)}"`];
}
return smallest;
"""

CONTROLS_GAP_JS = """
const seat = arguments[0];
const fields = document.querySelector(`.seat[data-seat="${seat}"] .fields`);
fields.scrollIntoView({block: 'center'});
const a = fields.getBoundingClientRect(), b = document.getElementById('controls').getBoundingClientRect();
return Math.max(0, b.top - a.bottom, a.top - b.bottom);
"""

POSITIONS_JS = """
return [...document.querySelectorAll('#table .seat, #controls, #table .table-head, #history, #controls .bean-pick')]
  .map((n) => n.getBoundingClientRect().top);
"""
"""Where the table's parts are on the screen (what the eye sees move)."""


def game_with_the_last_seat_trading(api: Editor, players: int = 4, seed: int = 5) -> tuple[int, int]:
    """A known-deck game (played through the API) just after the last seat turned over: its fields are at the foot."""
    setup = random_setup("amigo-25", players, seed)
    events = [move_to_dict(move) for move in random_game(setup, seed).move_stack]
    last = players - 1
    count = next(n for n, e in enumerate(events, 1) if n > 20 and e["type"] == "turn-over" and e["player"] == last)
    game_id = api.start(ruleset="amigo-25", players=list(setup.players), start_player=setup.start_player,
                        deck={"seed": seed})["game_id"]  # fmt: skip
    for event in events[:count]:
        assert api.post(f"/api/games/{game_id}/moves", event).status_code == 200
    return game_id, players - 1


@pytest.fixture(scope="module")
def trading_game(server: LiveServer) -> tuple[int, int]:
    return game_with_the_last_seat_trading(Editor(server.app.test_client()))


@pytest.mark.parametrize("name", list(SIZES))
def test_text_is_at_least_14px_and_the_controls_sit_beside_their_fields(
    page: Any, trading_game: tuple[int, int], name: str
) -> None:
    game_id, seat = trading_game
    width, height, mobile = SIZES[name]
    page.viewport(width, height, mobile)
    page.open(f"/games/{game_id}")
    assert page.until(page.facts, "no table drawn")["phase"] == "2"
    page.unlock()
    page.find("#receive-picker .bean-pick")
    size, where = page.driver.execute_script(SMALLEST_TEXT_JS)
    print(f"{name}: smallest text {size} px ({where})")
    assert size >= MIN_TEXT_PX, f"{where} is {size} px at {name}"
    gap = page.driver.execute_script(CONTROLS_GAP_JS, seat)
    print(f"{name}: the controls sit {gap:.0f} px from the fields of the seat that acts")
    assert gap <= height, f"the controls are {gap:.0f} px from the fields at {name}, more than a screen ({height} px)"
    overflow = page.driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px at {name}"


@pytest.mark.parametrize("name", ["phone-portrait", "phone-landscape", "tablet-portrait"])
def test_a_refusal_is_said_beside_the_tap_moves_nothing_and_goes_at_the_next_move(
    page: Any, api: Editor, name: str
) -> None:
    width, height, mobile = SIZES[name]
    game_id = api.start()["game_id"]
    assert api.post(f"/api/games/{game_id}/moves", {"type": "plant", "player": 0, "bean": "blue"}).status_code == 200
    page.viewport(width, height, mobile)
    page.open(f"/games/{game_id}")
    page.until(page.facts, "no table drawn")
    page.unlock()
    page.tap('[data-tab="plant"]')
    page.tap('.field-plot[data-seat="0"][data-field="0"]')  # blue grows there: red is refused
    red = page.find('#controls .bean-pick[data-bean="red"]')
    page.driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'});", red)
    before = page.driver.execute_script(POSITIONS_JS)
    red.click()  # not tap(): centring a button of a sticky panel scrolls the page again, which is no shift of ours
    refusal = page.until(lambda: page.visible("#refusal"), "the refusal is not shown")
    assert page.find("#refusal .rule").text == "field.one-kind"
    after = page.driver.execute_script(POSITIONS_JS)
    shift = max(abs(a - b) for a, b in zip(before, after))
    print(f"{name}: the refusal moved the table by {shift} px")
    assert shift == 0
    box = refusal.rect
    tapped = page.find('#controls .bean-pick[data-bean="red"]').rect
    scroll = page.driver.execute_script("return window.scrollY")
    header = page.driver.execute_script(
        "const h = document.querySelector('.topbar').getBoundingClientRect(); return Math.max(0, h.bottom);")
    top = box["y"] - scroll
    gap = max(0, box["y"] - (tapped["y"] + tapped["height"]), tapped["y"] - (box["y"] + box["height"]))
    print(f"{name}: refusal at {top:.0f} px from the top of the screen (header ends at {header:.0f} px), "
          f"{gap:.0f} px from the bean tapped")
    assert top >= header and top + box["height"] <= height, "the refusal is off screen or under the header"
    assert gap <= 12 and box["x"] < tapped["x"] + tapped["width"], "the refusal is not beside the tap"
    page.tap('.field-plot[data-seat="0"][data-field="1"]')
    assert not page.visible("#refusal")  # the next tap clears it; so does the next move (test_play)
    page.tap('#controls .bean-pick[data-bean="red"]')
    page.until(lambda: "0:1:red:1" in page.facts()["fields"], "red not planted")


def test_a_refusal_from_elsewhere_floats_and_goes_at_the_next_move(page: Any, api: Editor) -> None:
    page.viewport(390, 844, True)
    game_id = api.start()["game_id"]
    page.open(f"/games/{game_id}")
    page.until(page.facts, "no table drawn")
    before = page.driver.execute_script(POSITIONS_JS)
    refused = api.post(f"/api/games/{game_id}/moves", {"event": {"type": "draw", "player": 0}, "source": "dice"})
    assert refused.status_code == 409
    alert = page.until(lambda: page.visible("#alerts .alert"), "the refusal from elsewhere is not shown")
    assert page.driver.execute_script(POSITIONS_JS) == before
    assert alert.rect["y"] + alert.rect["height"] <= 844
    assert api.post(f"/api/games/{game_id}/moves", {"type": "plant", "player": 0, "bean": "blue"}).status_code == 200
    page.until(lambda: not page.visible("#alerts .alert"), "the refusal stays after the next move")
