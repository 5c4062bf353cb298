"""A page the server refuses a live stream (all taken) still follows the game, by polling it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from support.live_server import LiveServer, live_server
from support.web_client import Editor


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server that admits no live stream at all, as if every place were taken."""
    with live_server(tmp_path_factory.mktemp("instance"), LIVE_STREAMS_MAX=0) as running:
        yield running


def test_a_page_refused_a_stream_still_shows_a_move_made_elsewhere(page: Any, api: Editor) -> None:
    game_id = api.start()["game_id"]
    page.open(f"/games/{game_id}")
    page.until(lambda: page.find("#hw-live").get_attribute("data-state") == "polling", "the page did not fall back")
    page.until(lambda: (facts := page.facts()) and facts["active"] == "0", "the polled state was not drawn")
    assert not any(f.startswith("0:0:blue") for f in page.facts()["fields"])
    reply = api.post(f"/api/games/{game_id}/moves", {"type": "plant", "player": 0, "bean": "blue"})
    assert reply.status_code == 200, reply.get_json()
    page.until(lambda: "0:0:blue:1" in page.facts()["fields"], "the move made elsewhere did not show")


def test_the_archive_refused_a_stream_still_lists_a_game_started_elsewhere(page: Any, api: Editor) -> None:
    page.open("/")
    page.until(lambda: page.find("#hw-live").get_attribute("data-state") == "polling", "the archive did not fall back")
    game_id = api.start(meta={"title": "Started on another tablet"})["game_id"]
    page.until(lambda: page.driver.find_elements("css selector", f'.game-row[data-game="{game_id}"]'),
               "the game started elsewhere was not listed")
