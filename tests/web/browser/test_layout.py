"""The table page at phone and tablet sizes: screenshots, no control under 44 px, no sideways scrolling."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.rules.moves import move_to_dict
from companion.rules.simulate import random_game, random_setup
from support.live_server import LiveServer
from support.web_client import Editor

pytestmark = pytest.mark.screenshots

SIZES = {
    "phone-portrait": (390, 844, True),
    "phone-landscape": (844, 390, True),
    "tablet-portrait": (820, 1180, True),
    "tablet-landscape": (1180, 820, False),
}

SMALL_TARGETS_JS = """
return [...document.querySelectorAll('button, a.button')].flatMap((node) => {
  const box = node.getBoundingClientRect();
  if (!box.width || !box.height || !node.offsetParent) return [];
  if (box.width >= 44 && box.height >= 44) return [];
  const size = `${box.width.toFixed(0)}x${box.height.toFixed(0)}`;
  return [`${node.id || node.className} "${node.textContent.trim().slice(0, 24)}" ${size}`];
});
"""


def game_in_progress(api: Editor, players: int = 4, seed: int = 11, at_least: int = 70) -> int:
    """A known-deck game played (through the API) to just after a turn-over, cards face up."""
    setup = random_setup("amigo-25", players, seed)
    events = [move_to_dict(move) for move in random_game(setup, seed).move_stack]
    count = next(n for n, event in enumerate(events, 1) if n >= at_least and event["type"] == "turn-over")
    snapshot = api.start(ruleset="amigo-25", players=list(setup.players), start_player=setup.start_player,
                         deck={"seed": seed}, meta={"title": "Screenshot table"})  # fmt: skip
    game_id = snapshot["game_id"]
    for event in events[:count]:
        response = api.post(f"/api/games/{game_id}/moves", event)
        assert response.status_code == 200, response.get_json()
    return game_id


@pytest.fixture(scope="module")
def table_game(server: LiveServer) -> int:
    return game_in_progress(Editor(server.app.test_client()))


@pytest.mark.parametrize("name", list(SIZES))
def test_table_layout_at_phone_and_tablet_sizes(page: Any, table_game: int, tmp_path: Path, name: str) -> None:
    game_id = table_game
    width, height, mobile = SIZES[name]
    page.viewport(width, height, mobile)
    page.open(f"/games/{game_id}")
    facts = page.until(page.facts, "no table drawn")
    assert facts["phase"] == "2" and len(facts["faceUp"]) == 2
    page.unlock()
    page.tap('.partner[data-seat]')  # a trade in the making, as at a real table
    page.tap('#face-up .card')
    page.tap('#receive-picker .bean-pick[data-bean="green"]')
    shot = tmp_path / f"table-{name}.png"
    page.driver.execute_script("window.scrollTo(0, 0)")
    assert page.driver.save_screenshot(str(shot))
    png = shot.read_bytes()
    assert (int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")) == (width, height)
    assert page.driver.execute_script(SMALL_TARGETS_JS) == []
    overflow = page.driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px at {name}"
