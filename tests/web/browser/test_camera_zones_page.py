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


def test_a_zone_drawn_by_four_taps_gives_the_field_to_its_player(page: Any, instance: Path) -> None:
    page.open("/camera")
    page.unlock()
    page.until(lambda: "outside every zone" in page.text("#seen-stacks"), "the field is not listed outside the zones")
    page.tap("#zone-start")
    page.until(lambda: page.visible("#zone-img") is not None, "no still frame to draw on")
    image = page.find("#zone-img")
    box = page.driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.width, r.height];",
                                     image)
    scale = box[0] / 800
    for x, y in ((20, 20), (380, 20), (380, 460), (20, 460)):  # around the chili field, in frame pixels
        page.driver.execute_script(
            "const img = arguments[0], r = img.getBoundingClientRect();"
            "img.dispatchEvent(new MouseEvent('click', {clientX: r.left + arguments[1], clientY: r.top + arguments[2],"
            " bubbles: true}));", image, x * scale, y * scale)
    assert "fields-0" in page.text("#zone-list")
    page.tap("#zone-save")
    page.until(lambda: "fields-0" in page.text("#seen-stacks"), "the field is not given to player 1 after saving")
    saved = json.loads((instance / "zones.json").read_text())
    assert [zone["name"] for zone in saved["zones"]] == ["fields-0"]
    assert np.allclose(saved["zones"][0]["polygon"], [[20, 20], [380, 20], [380, 460], [20, 460]], atol=2)
