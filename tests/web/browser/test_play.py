"""A game set up and a whole turn played by tapping, watched live from a second page."""

from __future__ import annotations

from typing import Any

import pytest
from selenium.webdriver.common.by import By

from support.live_server import LiveServer


@pytest.mark.slow
def test_set_up_and_play_a_turn_by_tapping_while_a_second_page_watches(page: Any, server: LiveServer) -> None:
    # --- New game: names, seating order, start player, an option; the PIN dialog on start
    page.open("/new")
    page.tap('[data-game="bohnanza"]')
    page.tap('[data-ruleset="amigo-25"]')
    for index, name in enumerate(["Ben", "Ann", "Cid"]):
        page.type(f'.player-row[data-seat="{index}"] .player-name', name)
    page.tap('.player-row[data-seat="0"] .move-down')  # Ann, Ben, Cid
    page.tap('#add-player')
    page.type('.player-row[data-seat="3"] .player-name', "Dee")
    page.tap('.player-row[data-seat="3"] .remove-player')
    page.tap('.player-row[data-seat="1"] .start-player')  # Ben starts
    page.find("#option-protection").send_keys("strict")
    page.tap("#start-game")
    page.enter_pin()
    page.until(lambda: "/games/" in page.driver.current_url, "the table did not open")
    game_id = int(page.driver.current_url.rstrip("/").rsplit("/", 1)[1])
    header = server.app.extensions["tables"].session(game_id).header
    assert (header.ruleset, header.players, header.start_player) == ("amigo-25", ("Ann", "Ben", "Cid"), 1)
    assert header.options["protection"] == "strict"

    # --- the watcher: a second window on the same game
    tablet = page.driver.current_window_handle
    page.driver.switch_to.new_window("window")
    watcher = page.driver.current_window_handle
    page.open(f"/games/{game_id}")
    page.until(page.facts, "the watcher drew no table")
    page.driver.switch_to.window(tablet)
    page.until(page.facts, "the table drew nothing")
    assert page.text("#active-name") == "Ben"

    def step(expect: Any, what: str) -> dict[str, Any]:
        """Wait until the tablet shows ``expect(facts)``, then until the watcher shows the same."""
        facts = page.until(lambda: (f := page.facts()) and expect(f) and f, what)
        page.driver.switch_to.window(watcher)
        page.until(lambda: page.facts() == facts, f"the watcher did not follow: {what}")
        page.driver.switch_to.window(tablet)
        return facts

    def field(facts: dict[str, Any], seat: int, index: int) -> str:
        return next(f for f in facts["fields"] if f.startswith(f"{seat}:{index}:")).split(":", 2)[2]

    def plant(seat: int, bean: str, field_index: int, card: str) -> None:
        """Choose the card (unless still chosen after a refusal), then tap the field."""
        if page.find(card).get_attribute("aria-pressed") != "true":
            page.tap(card)
        page.tap(f'.field-plot[data-seat="{seat}"][data-field="{field_index}"]')

    def plant_from_hand(bean: str, field_index: int) -> None:
        """Tap the field (it takes the next plant from hand), then the bean: planted at once."""
        if page.visible('[data-tab="plant"][aria-selected="false"]'):
            page.tap('[data-tab="plant"]')
        if not page.visible(f'.field-plot.target[data-seat="1"][data-field="{field_index}"]'):
            page.tap(f'.field-plot[data-seat="1"][data-field="{field_index}"]')
        page.tap(f'#controls .bean-pick[data-bean="{bean}"]')

    # --- phase 1: plant two from hand (Ben is seat 1); an illegal plant is refused with its rule
    plant_from_hand("blue", 0)
    step(lambda f: field(f, 1, 0) == "blue:1", "blue planted")
    plant_from_hand("red", 0)  # field 1 holds blue
    assert page.until(lambda: page.visible("#refusal .rule")).text == "field.one-kind"  # beside the bean tapped
    page.driver.switch_to.window(watcher)
    assert page.until(lambda: page.visible("#alerts .alert .rule")).text == "field.one-kind"
    page.dismiss_alerts()
    page.driver.switch_to.window(tablet)
    assert page.driver.find_elements(By.CSS_SELECTOR, "#alerts .alert") == []  # not twice: its live echo is known
    plant_from_hand("red", 1)
    step(lambda f: field(f, 1, 1) == "red:1", "red planted")
    assert not page.driver.find_elements(By.CSS_SELECTOR, "#refusal")  # gone at the next move
    page.tap("#undo")
    step(lambda f: field(f, 1, 1) == ":0", "the plant undone")
    plant_from_hand("red", 1)
    step(lambda f: field(f, 1, 1) == "red:1", "red planted again")

    # --- turn over two cards: the second tap sends them
    page.tap('#controls .bean-pick[data-bean="soy"]')
    page.tap('#controls .bean-pick[data-bean="chili"]')
    step(lambda f: f["phase"] == "2" and f["faceUp"] == ["soy", "chili"], "cards turned over")

    # --- phase 2: a trade (a turned-over soy for Cid's green) and a gift (Ann gives Ben a stink)
    page.tap('.partner[data-seat="2"]')
    page.tap('#face-up .card[data-bean="soy"]')
    page.tap('#receive-picker .bean-pick[data-bean="green"]')
    assert page.text("#make-trade") == "Trade"
    page.tap("#make-trade")
    step(lambda f: f["faceUp"] == ["chili"] and f["received"] == [[], ["green"], ["soy"]], "the trade")
    page.tap('.partner[data-seat="0"]')
    page.tap('#receive-picker .bean-pick[data-bean="stink"]')
    assert page.text("#make-trade") == "Give"
    page.tap("#make-trade")
    step(lambda f: f["received"] == [[], ["green", "stink"], ["soy"]], "the gift")
    page.tap("#end-trading")
    step(lambda f: f["phase"] == "3", "trading ended")

    # --- phase 3: plant the turned-over and received cards, harvesting a field to make room
    plant(1, "chili", 2, card='#face-up .card[data-bean="chili"]')
    step(lambda f: field(f, 1, 2) == "chili:1" and f["faceUp"] == [], "chili planted")
    page.tap('.harvest[data-seat="1"][data-field="0"]')
    page.tap('.harvest.asking[data-seat="1"][data-field="0"]')  # it pays nothing: the page asks first
    step(lambda f: field(f, 1, 0) == ":0", "blue harvested")
    plant(1, "green", 0, card='.received-card[data-seat="1"][data-bean="green"]')
    step(lambda f: field(f, 1, 0) == "green:1", "green planted")
    page.tap('.harvest[data-seat="1"][data-field="1"]')
    page.tap('.harvest.asking[data-seat="1"][data-field="1"]')
    step(lambda f: field(f, 1, 1) == ":0", "red harvested")
    plant(1, "stink", 1, card='.received-card[data-seat="1"][data-bean="stink"]')
    step(lambda f: field(f, 1, 1) == "stink:1", "stink planted")
    plant(2, "soy", 0, card='.received-card[data-seat="2"][data-bean="soy"]')
    step(lambda f: field(f, 2, 0) == "soy:1" and f["received"] == [[], [], []], "Cid planted soy")

    # --- draw: Cid's turn
    page.tap("#draw")
    facts = step(lambda f: f["phase"] == "1" and f["active"] == "2", "drawn: the next turn")
    assert facts["hands"] == ["4", "6", "4"]  # Ben: 5 - 2 planted + 3 drawn; Ann and Cid gave one each
    assert page.text("#active-name") == "Cid"
    session = server.app.extensions["tables"].session(game_id)
    assert [e["type"] for e in session.events] == [
        "plant", "plant", "turn-over", "trade", "trade", "end-trading",
        "plant", "harvest", "plant", "harvest", "plant", "plant", "draw",
    ]  # fmt: skip
    page.driver.switch_to.window(watcher)
    assert page.text("#last-move") == "Last: Ben drew 3 cards"
    page.driver.close()
    page.driver.switch_to.window(tablet)
    assert page.driver.find_elements(By.CSS_SELECTOR, ".seat.active .seat-name")[0].text.endswith("Cid")
