"""A server started with --private: the page asks for the PIN before it shows any game, then shows them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from support.live_server import LiveServer, live_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("instance"), WATCH_NEEDS_PIN=True) as running:
        yield running


def test_the_page_asks_for_the_pin_to_watch_and_then_shows_the_games(page: Any, api: Any) -> None:
    api.start(meta={"title": "Private table"})
    page.open("/")
    page.until(lambda: page.driver.execute_script("return document.getElementById('pin-dialog').open"), "no PIN asked")
    assert "--private" in page.text("#pin-error")
    assert "Private table" not in page.text("#games")
    page.enter_pin()
    page.until(lambda: "Private table" in page.text("#games"), "the games were not shown after the PIN")
    page.until(lambda: page.text("#hw-live") == "live", "the live stream did not open once the PIN was entered",
               timeout=5)


def test_a_phone_joins_a_private_table_with_its_join_link_and_no_pin(page: Any, api: Any, browsers: Any) -> None:
    game_id = api.start(players=["Ann", "Zoltan", "Cid"])["game_id"]
    code = api.post("/api/join/code").get_json()["code"]
    (phone,) = browsers(1)
    phone.viewport(390, 844, mobile=True)
    phone.open(f"/games/{game_id}")
    assert "Zoltan" not in phone.driver.page_source  # a stranger learns nothing
    phone.open(f"/games/{game_id}?join={code}")
    phone.press('.join-seat[data-seat="1"]')  # the names come with the join link
    phone.until(lambda: phone.shows("#seat-bar") and "Zoltan's seat" in phone.text("#seat-bar"), "no seat taken")
    assert not phone.driver.execute_script("return document.getElementById('pin-dialog').open")
    phone.until(lambda: phone.text("#hw-live") == "live", "the phone's live stream did not open", timeout=5)
    assert phone.shows('#mine .seat[data-seat="1"]')
