"""Emulated dice (``--dice emulate``) in a real browser: the dice page throws them with a button,
and the roll arrives through the bridge like a roll of real dice."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from companion.dice.config import DEFAULT_DICE
from support.live_server import LiveServer, live_server
from support.web_client import Editor

ROLLED_JS = "return [...document.querySelectorAll('#rolled .die')].map((d) => d.dataset.bean)"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """This module's server runs with emulated dice."""
    with live_server(tmp_path_factory.mktemp("emulated-dice"), DICE="emulate") as running:
        yield running


def test_the_throw_button_throws_the_emulated_dice(page: Any, api: Editor, server: LiveServer) -> None:
    game_id = api.start(game="dice", players=["Ann", "Ben"], options={"harvest_cards": "sample"})["game_id"]
    for _ in range(4):
        assert api.post(f"/api/dice/games/{game_id}/deal").status_code == 200
    page.open(f"/games/{game_id}")
    page.unlock()
    page.until(lambda: page.driver.execute_script("return document.body.dataset.dice") == "online", "dice not online")
    assert page.text("#throw-dice") == "Throw the emulated dice"
    page.tap("#throw-dice")
    page.until(lambda: page.driver.execute_script("return document.getElementById('phase').dataset.phase") == "save",
               "the thrown roll did not arrive")
    [thrown] = server.app.extensions["hardware"].dice.emulator.delivered
    assert page.driver.execute_script(ROLLED_JS) == DEFAULT_DICE.beans(list(thrown.faces))
    assert page.visible("#throw-dice") is None  # the roll panel is gone until a roll is due again
    assert server.app.extensions["tables"].session(game_id).events[-1]["type"] == "roll"
