"""Zones drawn on a still frame in a real browser: a table with no printed markers, a zone drawn by tapping its
four corners and saved; the camera then gives the field inside it to that player, and the zone file is kept."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from models.fields import lay_field
from models.render import house_design, render_face
from models.tabletop import wooden_table
from support.live_server import LiveServer, live_server


@pytest.fixture(scope="module")
def instance(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("instance")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, instance: Path) -> Iterator[LiveServer]:
    frames = tmp_path_factory.mktemp("frames")
    rng = np.random.default_rng(5)
    table = wooden_table(rng, (800, 480))
    lay_field(table, render_face(house_design("chili")), "chili", 3, (200.0, 150.0), 120, 0.0, rng)
    for k in range(2):
        cv2.imwrite(str(Path(frames) / f"{k}.png"), table)
    with live_server(instance, CAMERA=str(frames), CAMERA_INTERVAL_S=0.05) as running:
        yield running


AROUND_THE_FIELD = ((20, 20), (380, 20), (380, 460), (20, 460))
"""The chili field's zone, in frame pixels."""

def saved_zone_names(instance: Path) -> list[str]:
    """The names of the zones saved in the instance folder (none before the first save)."""
    path = instance / "zones.json"
    return [zone["name"] for zone in json.loads(path.read_text())["zones"]] if path.exists() else []


def draw_zone(page: Any, corners: tuple[tuple[int, int], ...]) -> None:
    """Open a still frame and tap the zone's corners (frame pixels) on it, as a finger would."""
    page.tap("#zone-start")
    page.until(lambda: page.visible("#zone-img") is not None, "no still frame to draw on")
    image = page.find("#zone-img")
    width = page.driver.execute_script("return arguments[0].getBoundingClientRect().width;", image)
    scale = width / 800
    for x, y in corners:
        page.driver.execute_script(
            "const img = arguments[0], r = img.getBoundingClientRect();"
            "img.dispatchEvent(new MouseEvent('click', {clientX: r.left + arguments[1], clientY: r.top + arguments[2],"
            " bubbles: true}));", image, x * scale, y * scale)


def test_a_zone_drawn_by_four_taps_gives_the_field_to_its_player(page: Any, instance: Path) -> None:
    page.open("/camera")
    page.unlock()
    page.until(lambda: "outside every zone" in page.text("#seen-stacks"), "the field is not listed outside the zones")
    draw_zone(page, AROUND_THE_FIELD)
    assert "fields-0" in page.text("#zone-list")
    page.tap("#zone-save")
    page.until(lambda: "fields-0" in page.text("#seen-stacks"), "the field is not given to player 1 after saving")
    saved = json.loads((instance / "zones.json").read_text())
    assert [zone["name"] for zone in saved["zones"]] == ["fields-0"]
    assert np.allclose(saved["zones"][0]["polygon"], [[20, 20], [380, 20], [380, 460], [20, 460]], atol=2)


def test_a_zone_drawn_before_the_saved_ones_have_loaded_is_kept_and_saved(page: Any, instance: Path) -> None:
    with page.answers_held("/api/camera/zones"):
        page.open("/camera")
        page.unlock()
        page.until(lambda: page.text("#seen-stacks"), "no field listed")
        page.driver.execute_script("document.getElementById('zone-pick').value = 'fields-1';")
        draw_zone(page, AROUND_THE_FIELD)
        assert "fields-1" in page.text("#zone-list")
        page.release_answers()
        assert "fields-1" in page.text("#zone-list"), "the saved zones' late answer wiped the zone just drawn"
        page.tap("#zone-save")
        page.until(lambda: "fields-1" in saved_zone_names(instance), "the zone drawn was not saved")
