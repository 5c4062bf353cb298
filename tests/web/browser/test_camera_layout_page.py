"""The whole deck laid out under the camera, enrolled in a real browser: one tap reads every card, the
group corrects one guess in its picker, one tap keeps them, and the photo counts per bean go up; a photo
uploaded with its crop in doubt is kept and flagged."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from support.doubtful_photo import card_off_the_edge
from support.laid_out import NO_CARD, SQUAT, laid_out, write_frames
from support.live_server import LiveServer, live_server

SPOTS = ["red", "red", f"{SQUAT}chili", NO_CARD, "coffee"]
"""Two cards the house model takes for red (the group's second is a soy), a squashed chili, a patch of no card."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    frame, _ = laid_out(SPOTS, columns=5, size=(960, 260))
    frames = write_frames(Path(tmp_path_factory.mktemp("frames")), frame)
    with live_server(tmp_path_factory.mktemp("instance"), CAMERA=str(frames), CAMERA_INTERVAL_S=0.05) as running:
        yield running


def tile_count(page: Any, bean: str) -> str:
    return page.driver.find_element(By.CSS_SELECTOR, f'.bean-tile[data-bean="{bean}"] .tile-count').text


def test_the_laid_out_deck_is_read_corrected_and_kept(page: Any) -> None:
    page.open("/camera")
    page.unlock()
    page.until(lambda: page.visible('.bean-tile[data-bean="red"]'), "the enrollment is not shown")
    assert tile_count(page, "red") == "0/3"
    page.tap("#layout-btn")
    page.until(lambda: len(page.driver.find_elements(By.CSS_SELECTOR, "#layout-tiles .layout-tile")) == 5,
               "the five cards are not shown")
    tiles = page.driver.find_elements(By.CSS_SELECTOR, "#layout-tiles .layout-tile")
    assert "not card-shaped" in tiles[2].text and "unsure" in tiles[3].text and "same bean" in tiles[0].text
    picks = [Select(tile.find_element(By.CSS_SELECTOR, "select")) for tile in tiles]
    assert [p.first_selected_option.get_attribute("value") for p in picks] == ["red", "red", "chili", "", "coffee"]
    for css in ("#layout-btn", "#layout-keep", ".layout-pick"):  # touch-sized controls
        assert page.find(css).size["height"] >= 44, css
    assert "picked for cards 1 and 2" in page.text("#layout-problem")
    assert not page.find("#layout-keep").is_enabled()  # one card of each bean: the two reds must be told apart

    picks[1].select_by_value("soy")
    page.until(lambda: page.find("#layout-keep").is_enabled(), "Keep these stays disabled after the fix")
    assert page.driver.find_element(By.ID, "layout-problem").text == ""
    page.tap("#layout-keep")
    page.until(lambda: tile_count(page, "soy") == "1/3", "the soy photo is not counted")
    assert [tile_count(page, bean) for bean in ("red", "chili", "coffee", "blue")] == ["1/3", "1/3", "1/3", "0/3"]
    assert page.driver.find_elements(By.CSS_SELECTOR, "#layout-tiles .layout-tile") == []
    assert "Kept 4 photo(s)" in page.text("#alerts")


def test_an_uploaded_photo_whose_crop_is_in_doubt_is_kept_and_flagged(page: Any, tmp_path: Path) -> None:
    """A held-out card lying across the photo's edge (:mod:`support.doubtful_photo`)."""
    askew = tmp_path / "askew-blue.png"
    cv2.imwrite(str(askew), card_off_the_edge())
    page.open("/camera")
    page.unlock()
    page.until(lambda: page.visible('.bean-tile[data-bean="blue"]'), "the enrollment is not shown")
    page.tap('.bean-tile[data-bean="blue"]')
    page.driver.find_element(By.ID, "photo-input").send_keys(str(askew))
    page.until(lambda: "askew-blue.png: the card's crop is in doubt" in page.text("#alerts"),
               "the page does not flag the photo")
    page.until(lambda: tile_count(page, "blue") == "1/3", "the photo is not kept")
