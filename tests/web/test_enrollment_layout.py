"""Enrolling a group's deck from the whole deck laid out under the table camera, read from one frame.

The camera is a real frame source (a folder of rendered frames: house cards on a wooden table,
one squashed out of card shape, one patch that is no card) driven one ``step`` at a time; the
cards are found, cropped and named by the shipped networks, kept as photos of the beans the
group confirms, and built into a deck profile.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from flask import Flask

from companion.cards import VISION_LABELS
from companion.vision.layout_check import NOT_CARD_SHAPED, SAME_BEAN, UNSURE
from companion.vision.sources import FrameFolder
from models.tabletop import wooden_table
from support.laid_out import NO_CARD, SQUAT, laid_out, write_frames
from support.web_client import PIN, Editor
from web import create_app
from web.camera import Camera
from web.enrollment import CROP_SIZE

SPOTS = ["red", "red", f"{SQUAT}chili", NO_CARD, "coffee", "back", "wax", "blue"]
"""The deck on the table, two rows of four: two reds, a chili squashed out of shape, a patch that is no card."""
GUESSES = ["red", "red", "chili", "unknown", "coffee", "back", "wax", "blue"]
FLAGS = [[SAME_BEAN], [SAME_BEAN], [NOT_CARD_SHAPED], [UNSURE], [], [], [], []]
LAYOUT = "/api/camera/enrollment/layout"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def watch(app: Flask, folder: Path, loop: bool = True) -> Camera:
    """A camera on ``app`` reading the frames of ``folder``, driven by ``step`` (no thread); one frame read."""
    hardware = app.extensions["hardware"]
    hardware.camera = Camera(FrameFolder(folder, loop), app.extensions["deck"], hardware.publish, clock=Clock())
    hardware.camera.step()
    return hardware.camera


def counts(client) -> dict[str, int]:  # noqa: ANN001
    return {b["id"]: b["photos"] for b in client.get("/api/camera/enrollment").get_json()["beans"]}


def files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` and its bytes (to see that nothing changed)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def png(data: bytes) -> np.ndarray:
    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)


@pytest.fixture(scope="module")
def deck_frame() -> tuple[np.ndarray, list[np.ndarray]]:
    return laid_out(SPOTS, columns=4)


@pytest.fixture
def laid_camera(app: Flask, tmp_path: Path, deck_frame) -> Camera:  # noqa: ANN001
    """The laid-out deck under the app's camera."""
    return watch(app, write_frames(tmp_path / "frames", deck_frame[0]))


def test_every_card_of_the_laid_out_deck_is_found_cropped_and_flagged(app, client, editor, laid_camera, deck_frame):
    response = editor.post(LAYOUT)
    assert response.status_code == 201
    layout = response.get_json()
    assert (layout["width"], layout["height"], layout["frame"]) == (960, 480, 1)
    cards = layout["cards"]
    assert [c["index"] for c in cards] == list(range(1, 9))  # in reading order: rows from the top, from the left
    assert [c["label"] for c in cards] == GUESSES
    assert [c["flags"] for c in cards] == FLAGS
    assert [c["name"] for c in cards][:4] == ["Red Bean", "Red Bean", "Chili Bean", "not recognised"]
    assert all(c["confidence"] > 0.9 for c in cards if c["label"] != "unknown")
    for card, quad in zip(cards, deck_frame[1]):
        assert max(np.min(np.linalg.norm(np.array(card["corners"]) - corner, axis=1)) for corner in quad) < 5.0

    classifier = app.extensions["deck"].reader().classifier
    for card in cards:
        crop = client.get(card["crop"])
        assert crop.status_code == 200 and crop.mimetype == "image/png"
        image = png(crop.data)
        assert image.shape == (CROP_SIZE[1], CROP_SIZE[0], 3)
        assert classifier.classify([image])[0].label == card["label"]

    assert client.get(LAYOUT).get_json() == layout
    assert client.get(f"{LAYOUT}/9.png").status_code == 404
    assert client.get(f"{LAYOUT}/0.png").status_code == 404


def test_keeping_the_layout_adds_a_photo_of_each_bean_given_and_the_deck_builds(app, client, editor, laid_camera):
    layout = editor.post(LAYOUT).get_json()
    crops = {c["index"]: png(client.get(c["crop"]).data) for c in layout["cards"]}
    beans = {"1": "red", "2": "soy", "3": "chili", "4": None, "5": "coffee", "6": "back", "7": None}  # 8 left out
    response = editor.post(f"{LAYOUT}/confirm", {"beans": beans, "layout": layout["layout"]})
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    kept = {"red": 1, "soy": 1, "chili": 1, "coffee": 1, "back": 1}
    assert {b["id"]: b["photos"] for b in body["beans"] if b["photos"]} == kept
    assert body["progress"] == pytest.approx(5 / (3 * len(VISION_LABELS)), abs=1e-4)
    assert sorted((a["index"], a["bean"], a["photo"]) for a in body["added"]) == [
        (1, "red", 1), (2, "soy", 1), (3, "chili", 1), (5, "coffee", 1), (6, "back", 1)]
    assert counts(client) == {label: kept.get(label, 0) for label in VISION_LABELS}
    for index, bean in ((1, "red"), (2, "soy"), (6, "back")):  # the very crop shown is the photo kept
        photo = client.get(f"/api/camera/enrollment/{bean}/photos/1.png")
        assert np.array_equal(png(photo.data), crops[index])

    assert client.get(LAYOUT).status_code == 404  # kept: nothing waits any more
    assert client.get(f"{LAYOUT}/1.png").status_code == 404
    again = editor.post(f"{LAYOUT}/confirm", {"beans": beans})
    assert again.status_code == 404 and "no laid-out deck" in again.get_json()["error"]
    assert counts(client)["red"] == 1

    built = editor.post("/api/camera/deck")
    assert built.status_code == 201, built.get_json()
    assert built.get_json()["profile"]["counts"] == kept


def test_a_second_reading_adds_a_second_photo_of_each_bean(client, editor, laid_camera):
    for _ in range(2):
        editor.post(LAYOUT)
        response = editor.post(f"{LAYOUT}/confirm", {"beans": {"5": "coffee", "7": "wax"}})
        assert response.status_code == 200
    assert {k: v for k, v in counts(client).items() if v} == {"coffee": 2, "wax": 2}


BAD = [
    ({"beans": ["red"]}, 400, "send {"),
    ({"beans": {"9": "red"}}, 400, "no card '9'"),
    ({"beans": {"one": "red"}}, 400, "no card 'one'"),
    ({"beans": {"01": "red"}}, 400, "no card '01'"),
    ({"beans": {"1": "nope"}}, 400, "unknown bean 'nope'"),
    ({"beans": {"1": 5}}, 400, "unknown bean 5"),
    ({"beans": {"1": "unknown"}}, 400, "unknown bean"),
    ({"beans": {"5": "coffee", "1": "red", "2": "red"}}, 400, "cards 1 and 2 are both given Red Bean"),
    ({"beans": {"1": "red"}, "layout": "00000000"}, 409, "read again"),
    ({"beans": {"1": "red"}, "extra": True}, 400, "unknown field"),
    ({}, 400, "send {"),
    ("not an object", 400, "JSON object"),
]


def test_bad_confirmations_are_refused_with_a_reason_and_change_nothing(app, client, editor, laid_camera):
    layout = editor.post(LAYOUT).get_json()
    deck = Path(app.instance_path) / "deck"
    before = files(deck)
    for body, status, reason in BAD:
        response = editor.post(f"{LAYOUT}/confirm", body)
        assert response.status_code == status, (body, response.get_json())
        assert reason in response.get_json()["error"], (body, response.get_json())
        assert files(deck) == before, body
    raw = editor.post(f"{LAYOUT}/confirm", data=b"{not json", content_type="application/json")
    assert raw.status_code == 400
    assert files(deck) == before and client.get(LAYOUT).get_json() == layout
    assert counts(client) == dict.fromkeys(VISION_LABELS, 0)


def test_confirming_without_a_layout_waiting_is_refused(client, editor):
    response = editor.post(f"{LAYOUT}/confirm", {"beans": {"1": "red"}})
    assert response.status_code == 404 and "no laid-out deck" in response.get_json()["error"]
    response = client.get(LAYOUT)
    assert response.status_code == 404 and "read it first" in response.get_json()["error"]


def test_a_new_reading_replaces_the_waiting_one_and_a_refused_reading_keeps_it(app, client, editor, laid_camera,
                                                                               tmp_path):
    first = editor.post(LAYOUT).get_json()
    second = editor.post(LAYOUT).get_json()
    assert second["layout"] != first["layout"] and second["cards"][0]["crop"] != first["cards"][0]["crop"]
    stale = editor.post(f"{LAYOUT}/confirm", {"beans": {"1": "red"}, "layout": first["layout"]})
    assert stale.status_code == 409

    empty = wooden_table(np.random.default_rng(2), (960, 480))
    watch(app, write_frames(tmp_path / "empty", empty))
    refused = editor.post(LAYOUT)
    assert refused.status_code == 409 and "sees no card" in refused.get_json()["error"]
    assert client.get(LAYOUT).get_json() == second

    gone = watch(app, write_frames(tmp_path / "once", empty, count=1), loop=False)
    gone.step()  # no more frames: the camera is offline
    refused = editor.post(LAYOUT)
    assert refused.status_code == 409 and refused.get_json()["error"].startswith("camera offline")

    app.extensions["hardware"].camera = None
    refused = editor.post(LAYOUT)
    assert refused.status_code == 404 and "no camera" in refused.get_json()["error"]
    assert client.get(LAYOUT).get_json() == second
    assert counts(client) == dict.fromkeys(VISION_LABELS, 0)


def test_the_waiting_layout_survives_a_restart(app, editor, laid_camera, tmp_path):
    layout = editor.post(LAYOUT).get_json()
    fresh = create_app({"TABLE_PIN": PIN, "TESTING": True}, instance_path=tmp_path / "instance")
    try:
        again = Editor(fresh.test_client())
        assert again.get(LAYOUT).get_json() == layout
        assert again.get(layout["cards"][0]["crop"]).status_code == 200
        response = again.post(f"{LAYOUT}/confirm", {"beans": {"1": "red"}})
        assert response.status_code == 200 and response.get_json()["added"] == [{"index": 1, "bean": "red", "photo": 1}]
    finally:
        fresh.extensions["hardware"].close()
        fresh.extensions["tables"].store.close()


def test_a_damaged_layout_file_is_no_layout(app, client, editor, laid_camera):
    editor.post(LAYOUT)
    saved = Path(app.instance_path) / "deck" / "layout" / "layout.json"
    for damaged in ("{not json", '{"layout": "x", "cards": [{"index": "1"}]}', "[]"):
        saved.write_text(damaged)
        assert client.get(LAYOUT).status_code == 404
        assert editor.post(f"{LAYOUT}/confirm", {"beans": {"1": "red"}}).status_code == 404
    assert counts(client)["red"] == 0


def test_reading_and_keeping_need_the_pin_and_csrf(app, client, laid_camera):
    token = client.get("/api/session").get_json()["csrf_token"]
    for path in (LAYOUT, f"{LAYOUT}/confirm"):
        assert client.post(path, json={"beans": {}}).status_code == 403
        refused = client.post(path, json={"beans": {}}, headers={"X-CSRF-Token": token})
        assert refused.status_code == 403 and refused.get_json().get("need_pin"), path
    assert not (Path(app.instance_path) / "deck" / "layout").exists()
    assert client.get(LAYOUT).status_code == 404
