"""Table taps that must not surprise: a refused turn-over clears its picks; a harvest paying nothing asks."""

from __future__ import annotations

from typing import Any

from selenium.webdriver.common.by import By

from companion.rules import GameState, KnownDeck, Setup


def test_a_refused_turn_over_leaves_no_half_made_selection(page: Any, api: Any) -> None:
    game_id = api.start(ruleset="amigo-25", players=["Ann", "Ben", "Cid"], deck={"seed": 3})["game_id"]
    state = api.get(f"/api/games/{game_id}").get_json()["state"]
    front = next(m for m in state["legal"][0] if m["type"] == "plant")["choose"]["bean"]["options"]
    known = GameState(Setup("amigo-25", ("Ann", "Ben", "Cid"), 0, {}, KnownDeck(3)))
    api.post(f"/api/games/{game_id}/moves", {"type": "plant", "player": 0, "bean": known.players[0].hand.front()})
    top = known.plan_take(2).cards
    wrong = next(b for b in front if b not in top)
    page.open(f"/games/{game_id}")
    page.until(page.facts, "no table drawn")
    page.unlock()
    page.tap(f'.bean-pick[data-bean="{wrong}"]')
    page.until(lambda: page.driver.find_elements(By.CSS_SELECTOR, "#turned .card"), "the first card is not shown")
    page.tap(f'.bean-pick[data-bean="{wrong}"]')  # the second card sends the turn-over
    page.until(lambda: page.visible("#refusal"), "the refusal is not shown")
    assert page.find("#refusal .rule").text == "card.wrong"
    page.until(lambda: not page.driver.find_elements(By.CSS_SELECTOR, "#turned .card"), "the refused cards stay picked")


def test_a_harvest_that_pays_nothing_asks_first(page: Any, api: Any) -> None:
    game_id = api.start(ruleset="amigo-25", players=["Ann", "Ben", "Cid"])["game_id"]
    api.post(f"/api/games/{game_id}/moves", {"type": "plant", "player": 0, "bean": "blue"})
    page.open(f"/games/{game_id}")
    page.until(page.facts, "no table drawn")
    page.unlock()
    page.tap('.harvest[data-seat="0"][data-field="0"]')
    page.until(lambda: page.text('.harvest[data-seat="0"][data-field="0"]') == "Pays 0: harvest?", "no question")
    assert api.get(f"/api/games/{game_id}").get_json()["events"] == 1
    page.tap('.harvest[data-seat="0"][data-field="0"]')
    page.until(lambda: api.get(f"/api/games/{game_id}").get_json()["events"] == 2, "the harvest was not made")


def test_pages_left_behind_give_their_live_stream_back(page: Any, api: Any) -> None:
    """A browser holds six connections to a server: streams of earlier pages must not starve the next one."""
    page.driver.set_script_timeout(10)
    for _ in range(8):
        game_id = api.start(ruleset="amigo-25", players=["Ann", "Ben", "Cid"])["game_id"]
        page.open(f"/games/{game_id}")
        page.until(page.facts, "no table drawn")
        status = page.driver.execute_async_script(
            "const done = arguments[0];"
            f"fetch('/api/games/{game_id}').then((r) => done(r.status)).catch((e) => done(String(e)));")
        assert status == 200
