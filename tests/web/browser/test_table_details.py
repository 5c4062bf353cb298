"""Issue 21, items 8 and 12: options and the number on each bean button explained, "Black-eyed" not cut off;
the end-of-game chart draws players with equal scores side by side, its lettering readable on a phone."""

from __future__ import annotations

import re
from typing import Any

import pytest
from selenium.webdriver.common.by import By

from companion.records.format import Header
from companion.records.jsonl import dumps_record
from companion.rules.moves import move_to_dict
from companion.rules.simulate import random_game, random_setup
from support.web_client import Editor

CUT_NAMES_JS = """
return [...document.querySelectorAll('#controls .pick-name')].filter((name) => {
  const box = name.getBoundingClientRect(), button = name.closest('button').getBoundingClientRect();
  return name.scrollWidth > name.clientWidth + 1 || box.left < button.left || box.right > button.right;
}).map((name) => name.textContent);
"""


def about(api: Editor, game: str, option: str, value: str) -> str:
    games = api.get("/api/rulesets").get_json()["games"]
    options = next(g for g in games if g["game"] == game)["rulesets"][0]["options"]
    return next(c["about"] for o in options if o["name"] == option for c in o["choices"] if c["value"] == value)


def test_each_option_says_what_its_value_means(page: Any, api: Editor) -> None:
    page.open("/new")
    page.tap('[data-game="bohnanza"]')
    page.tap('[data-ruleset="amigo-25"]')
    for option, value in (("protection", "lenient"), ("tie_break", "furthest-from-start")):
        assert page.text(f"#option-{option}-about") == about(api, "bohnanza", option, value)
    page.find("#option-protection").send_keys("strict")
    page.until(lambda: page.text("#option-protection-about") == about(api, "bohnanza", "protection", "strict"))
    page.tap('[data-game="dice"]')
    assert page.text("#option-harvest_cards-about") == about(api, "dice", "harvest_cards", "table")


@pytest.mark.parametrize("size", [(390, 844), (844, 390), (1024, 768)])
def test_the_number_on_each_bean_is_explained_and_no_bean_name_is_cut_off(
    page: Any, api: Editor, size: tuple[int, int]
) -> None:
    game_id = api.start(ruleset="amigo-25", players=["Ann", "Ben", "Cid"])["game_id"]
    page.viewport(*size, True)
    page.open(f"/games/{game_id}")
    page.until(page.facts, "no table drawn")
    page.unlock()
    assert "how many of its cards no one has seen yet" in page.text("#pick-help")
    assert page.find('#controls .bean-pick[data-bean="black-eyed"] .pick-name').text == "Black-eyed"
    assert page.driver.execute_script(CUT_NAMES_JS) == []


CHART_TEXT_JS = """
const svg = document.querySelector('#coin-chart svg');
const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
return Math.min(...[...svg.querySelectorAll('text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale));
"""
"""The smallest lettering of the end-of-game chart, in CSS pixels as shown."""


def finished_game(api: Editor) -> int:
    """A random game played to its end, imported; its id."""
    setup = random_setup("amigo-25", 4, 8)
    state = random_game(setup, 8)
    header = Header.from_dict({
        "format": "bohnanza-record", "version": 1, "game": "bohnanza", "ruleset": setup.ruleset,
        "players": list(setup.players), "start_player": setup.start_player, "deck": {"seed": 8},
    })  # fmt: skip
    record = dumps_record(header, [move_to_dict(m) for m in state.move_stack])
    response = api.post("/api/games/import", data=record.encode(), content_type="application/x-ndjson")
    assert response.status_code == 201, response.get_json()
    return int(response.get_json()["game_id"])


def test_players_with_equal_scores_are_drawn_side_by_side(page: Any, api: Editor) -> None:
    game_id = finished_game(api)
    scores = api.get(f"/api/games/{game_id}/progress").get_json()["scores"]
    page.open(f"/games/{game_id}")
    lines = page.until(lambda: page.driver.find_elements(By.CSS_SELECTOR, "#coin-chart polyline"), "no chart")
    points = [[tuple(map(float, p.split(","))) for p in line.get_attribute("points").split()] for line in lines]
    width = float(lines[0].get_attribute("stroke-width"))
    ties = 0
    for step, row in enumerate(scores):
        for a in range(len(row)):
            for b in range(a + 1, len(row)):
                if row[a] == row[b]:
                    ties += 1
                    assert abs(points[a][step][1] - points[b][step][1]) >= width - 0.2, (step, a, b)
    assert ties >= len(scores[0])  # at least everyone at 0 coins at the start
    assert re.match(r"^\d", page.text("#ranking li b"))


@pytest.mark.parametrize("size", [(390, 844), (844, 390), (1180, 820)])
def test_the_chart_lettering_is_at_least_14_px_on_a_phone_and_a_tablet(
    page: Any, api: Editor, size: tuple[int, int]
) -> None:
    game_id = finished_game(api)
    page.viewport(*size, size[0] < 900)
    page.open(f"/games/{game_id}")
    page.until(lambda: page.driver.find_elements(By.CSS_SELECTOR, "#coin-chart polyline"), "no chart")
    assert page.driver.execute_script(CHART_TEXT_JS) >= 13.9
