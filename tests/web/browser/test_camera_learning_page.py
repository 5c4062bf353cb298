"""The cards the camera learnt in play, on the camera page of a real browser: said with their beans, each shown under
its bean and forgotten with a tap, and all forgotten with one (the photos stay); one the camera took for another
bean flagged until a person vouches for it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import pytest
from selenium.webdriver.common.by import By

from models.render import house_design, render_face
from support.live_server import LiveServer, live_server
from web.enrollment import CROP_SIZE, Deck


def card(label: str) -> Any:
    return cv2.resize(render_face(house_design(label)), CROP_SIZE, interpolation=cv2.INTER_AREA)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose deck is enrolled from two photos each of blue and soy and learnt three cards in play."""
    with live_server(Path(tmp_path_factory.mktemp("instance"))) as running:
        deck: Deck = running.app.extensions["deck"]
        for label in ("blue", "soy"):
            for _ in range(2):
                deck.add_framings(label, [card(label)])
        deck.build()
        for label in ("blue", "blue", "soy"):
            assert deck.learn(label, card(label))
        assert deck.wait_learnt(60)
        yield running


def test_the_cards_learnt_in_play_are_shown_and_forgotten_one_or_all(page: Any) -> None:
    page.open("/camera")
    page.unlock()
    page.until(lambda: "Learnt in play: 3 cards" in page.text("#deck-state"), "the learnt cards are not said")
    assert "Blue Bean, Soy Bean" in page.text("#learnt-state")
    page.tap('.bean-tile[data-bean="blue"]')
    page.until(lambda: len(page.driver.find_elements(By.CSS_SELECTOR, "#learnt-thumbs .thumb")) == 2,
               "the blue's two learnt cards are not shown")
    page.press("#learnt-thumbs .thumb:first-child .thumb-delete")  # the step may still be scrolling into view
    page.until(lambda: len(page.driver.find_elements(By.CSS_SELECTOR, "#learnt-thumbs .thumb")) == 1,
               "the learnt card is not forgotten")
    page.until(lambda: "Learnt in play: 2 cards" in page.text("#deck-state"), "the count does not follow")
    assert page.find("#forget-learnt").size["height"] >= 44  # a touch-sized control
    page.driver.execute_script("window.confirm = () => true;")
    page.press("#forget-learnt")
    page.until(lambda: "While you play, the camera learns" in page.text("#learnt-state"),
               "the page does not say the learnt cards were forgotten")
    assert not page.driver.find_element(By.ID, "forget-learnt").is_displayed()
    assert "from 4 photos" in page.text("#deck-state")  # the photos stay


def test_a_learnt_card_the_camera_took_for_another_bean_is_flagged_and_vouched_for(
        page: Any, server: LiveServer) -> None:
    deck: Deck = server.app.extensions["deck"]
    assert deck.learn("soy", card("blue"), taken_for="blue")
    assert deck.wait_learnt(60)
    page.open("/camera")
    page.unlock()
    page.until(lambda: "1 learnt card looks like another bean (under Soy Bean)" in page.text("#deck-state"),
               "the flagged card is not said")
    page.tap('.bean-tile[data-bean="soy"]')
    flagged = '#learnt-thumbs .thumb[data-doubt="yes"]'
    page.until(lambda: "Looks like Blue Bean" in page.text(flagged), "the flagged card does not say what it looks like")
    assert page.find(f"{flagged} .thumb-vouch").size["height"] >= 44  # a touch-sized control
    page.press(f"{flagged} .thumb-vouch")
    page.until(lambda: not page.driver.find_elements(By.CSS_SELECTOR, flagged), "the flag does not go")
    assert len(page.driver.find_elements(By.CSS_SELECTOR, "#learnt-thumbs .thumb")) >= 1  # kept, as a soy
    assert not page.driver.find_elements(By.ID, "learnt-doubts")
