"""The camera screen's API: live view, detections, offline cameras and guided deck enrollment.

Cameras are real frame sources: the synthetic table (rendered house cards), a video
file written here, or a camera that cannot be opened. Most tests drive a
:class:`web.camera.Camera` one ``step`` at a time with their own clock; one runs the
real background thread of ``create_app(..., {"CAMERA": "synthetic"})``, and one
watches the MJPEG stream end on a real waitress server when the client leaves.
"""

from __future__ import annotations

import http.client
import io
import json
import shutil
from pathlib import Path
from urllib.parse import urlparse

import cv2
import numpy as np
import pytest
from flask import Flask

from companion.cards import VISION_LABELS
from companion.rules.moves import move_to_dict
from companion.vision.folder import LOPSIDED
from companion.vision.manifest import load_manifest
from companion.vision.profile import FORMAT
from companion.vision.sources import CameraOffline, OpenCVCamera, SyntheticTable, open_source
from companion.vision.zones import TableZones
from models.camera import photograph
from models.game_demo import GameDemo
from models.render import house_design, render_face
from support.doubtful_photo import card_off_the_edge
from support.live_server import live_server
from support.pictures import black_png
from support.tiny_models import models_folder, tiny_net
from support.web_client import PIN, Editor
from web import create_app
from web.camera import BACKOFF_S, HOUSE_CARDS, MAX_STREAMS, Camera, annotate, label_box
from web.enrollment import CROP_SIZE, WANTED, Deck

WAIT_S = 20.0
"""Longest wait for a frame from a camera thread (the first loads the models)."""


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Pluggable:
    """A frame source that can be unplugged and plugged back: the synthetic table behind a cable."""

    def __init__(self, table: SyntheticTable) -> None:
        self.table = table
        self.name = "test camera"
        self.live = self.house_cards = False
        self.plugged = True
        self.opens = 0

    def open(self) -> None:
        self.opens += 1
        if not self.plugged:
            raise CameraOffline("test camera is unplugged")
        self.table.open()

    def read(self) -> np.ndarray:
        if not self.plugged:
            raise CameraOffline("no picture from test camera (unplugged?)")
        return self.table.read()

    def close(self) -> None:
        self.table.close()


class Shown:
    """A camera showing whatever picture the test holds before it (``live``: a webcam's sensor)."""

    def __init__(self, frame: np.ndarray, live: bool = True) -> None:
        self.frame, self.live, self.name, self.house_cards = frame, live, "test camera", False

    def open(self) -> None:
        pass

    def read(self) -> np.ndarray:
        return self.frame.copy()

    def close(self) -> None:
        pass


def attach(app: Flask, source, clock: Clock) -> Camera:  # noqa: ANN001 - any FrameSource
    """A camera on ``app`` driven by ``step`` (no thread), publishing status changes like the real one."""
    hardware = app.extensions["hardware"]
    hardware.camera = Camera(source, app.extensions["deck"], hardware.publish, clock=clock)
    return hardware.camera


def jpeg(image: np.ndarray) -> bytes:
    return cv2.imencode(".jpg", image)[1].tobytes()


def photo_of(label: str, seed: int) -> bytes:
    """A fresh degraded photo of a house card, as a phone would upload it."""
    return jpeg(photograph(render_face(house_design(label)), np.random.default_rng([seed, VISION_LABELS.index(label)])))


def upload(editor: Editor, bean: str, *files: tuple[bytes, str]):
    data = {"photo": [(io.BytesIO(content), name) for content, name in files]}
    return editor.post(f"/api/camera/enrollment/{bean}/photos", data=data, content_type="multipart/form-data")


def counts(client) -> dict[str, int]:  # noqa: ANN001
    return {b["id"]: b["photos"] for b in client.get("/api/camera/enrollment").get_json()["beans"]}


def corner_error(found: list[list[float]], true: np.ndarray) -> float:
    return max(float(np.min(np.linalg.norm(np.array(found) - corner, axis=1))) for corner in true)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def table_camera(app: Flask, clock: Clock) -> Camera:
    """The synthetic table (5 cards) on the test app, one frame read."""
    camera = attach(app, SyntheticTable(seed=3, clock=clock), clock)
    assert camera.step() is not None
    return camera


@pytest.fixture
def synthetic_app(make_app) -> Flask:
    """A real app with ``CAMERA = "synthetic"``: its camera thread runs."""
    return make_app("cam", CAMERA="synthetic")


# --- no camera -----------------------------------------------------------------------------


def test_without_a_camera_the_live_view_says_why(client, editor):
    status = client.get("/api/camera").get_json()
    assert status["state"] == "none" and "--camera" in status["message"] and status["deck"] == "house"
    for path in ("/api/camera/frame.jpg", "/api/camera/cards", "/api/camera/stream"):
        response = client.get(path)
        assert response.status_code == 404 and "no camera" in response.get_json()["error"], path
    response = editor.post("/api/camera/enrollment/red/capture")
    assert response.status_code == 404 and "no camera" in response.get_json()["error"]
    assert client.get("/api/hardware").get_json()["camera"]["state"] == "none"


def test_the_page_offers_enrollment_with_or_without_a_camera(client):
    page = client.get("/camera").get_data(as_text=True)
    assert 'capture="environment"' in page and 'accept="image/*"' in page
    assert "Live view is off" in page and "js/camera.js" in page and "css/camera.css" in page
    for asset in ("/static/js/camera.js", "/static/css/camera.css"):
        assert client.get(asset).status_code == 200


# --- the live view -------------------------------------------------------------------------


def test_every_card_of_the_table_is_found_outlined_and_named(client, table_camera):
    truth = table_camera.source.layout.values()
    body = client.get("/api/camera/cards").get_json()
    assert (body["width"], body["height"]) == (640, 480) and body["frame"] == 1
    assert sorted(c["label"] for c in body["cards"]) == sorted(label for label, _ in truth)
    for label, quad in truth:
        card = next(c for c in body["cards"] if c["label"] == label)
        assert corner_error(card["corners"], quad) < 4.0
        assert card["name"] and 0.5 < card["confidence"] <= 1

    response = client.get("/api/camera/frame.jpg")
    assert response.status_code == 200 and response.mimetype == "image/jpeg"
    shown = cv2.imdecode(np.frombuffer(response.data, np.uint8), cv2.IMREAD_COLOR).astype(np.float32)
    snap = table_camera.latest()
    raw, drawn = snap.frame.astype(np.float32), annotate(snap.frame, snap.scene, TableZones()).astype(np.float32)
    assert np.abs(shown - drawn).mean() < np.abs(shown - raw).mean() / 2  # the outlines and labels are in it

    status = client.get("/api/camera").get_json()
    assert (status["state"], status["cards"]) == ("online", 5)
    assert status["message"] == "camera online: synthetic table"


def overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_labels_of_cards_side_by_side_do_not_cover_each_other():
    placed: list[tuple[int, int, int, int]] = []
    for x in (100, 130, 160):  # three cards whose labels would lie over each other
        placed.append(label_box((x, 200), (120, 20), placed, 480))
    assert not any(overlap(a, b) for k, a in enumerate(placed) for b in placed[k + 1:])
    assert placed[0] == (100, 180, 220, 200)  # the first where it wants to be
    near_top = [label_box((10, 15), (100, 20), [], 480)]
    near_top.append(label_box((20, 15), (100, 20), near_top, 480))  # no room above: below the first
    assert near_top == [(10, 0, 110, 20), (20, 22, 120, 42)]


def test_the_mjpeg_stream_sends_frames_and_frees_its_slot_when_closed(client, table_camera):
    response = client.get("/api/camera/stream", buffered=False)
    assert response.status_code == 200 and response.mimetype == "multipart/x-mixed-replace"
    parts = iter(response.response)
    head = next(parts)
    assert head.startswith(b"--frame\r\nContent-Type: image/jpeg\r\n")
    length = int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0])
    body = next(parts)
    assert len(body) == length + 2 and cv2.imdecode(np.frombuffer(body[:-2], np.uint8), cv2.IMREAD_COLOR) is not None
    assert table_camera.status()["streams"] == 1
    response.close()
    assert table_camera.status()["streams"] == 0


def test_live_views_are_limited_because_each_holds_a_server_thread(client, table_camera):
    open_views = [client.get("/api/camera/stream", buffered=False) for _ in range(MAX_STREAMS)]
    refused = client.get("/api/camera/stream")
    assert refused.status_code == 429 and "too many live views" in refused.get_json()["error"]
    for view in open_views:
        view.close()
    assert table_camera.status()["streams"] == 0
    follow = client.get("/api/camera/stream", buffered=False)
    assert follow.status_code == 200
    follow.close()


def test_a_stream_ends_when_the_client_leaves_a_real_server(tmp_path):
    with live_server(tmp_path / "srv", CAMERA="synthetic", CAMERA_INTERVAL_S=0.05) as server:
        camera = server.app.extensions["hardware"].camera
        assert camera.wait_frame(0, WAIT_S) is not None
        url = urlparse(server.url)
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=WAIT_S)
        connection.request("GET", "/api/camera/stream")
        response = connection.getresponse()
        assert response.status == 200
        assert response.read(2000).startswith(b"--frame")
        assert camera.status()["streams"] == 1
        response.close()
        connection.close()
        assert camera.wait_streams(0, WAIT_S), "the stream went on after its client left"


def test_create_app_with_the_synthetic_camera_detects_cards(synthetic_app):
    camera = synthetic_app.extensions["hardware"].camera
    snap = camera.wait_frame(0, WAIT_S)
    assert snap is not None and len(snap.scene.cards) == len(camera.source.layout) == 5
    client = synthetic_app.test_client()
    referee = synthetic_app.extensions["hardware"].referee
    assert client.get("/api/hardware").get_json()["camera"] == {**camera.status(), "auto_accept": referee.auto,
                                                                 "last_seen": None}
    assert camera.status()["message"] == "camera online: synthetic table"
    labels = sorted(c["label"] for c in client.get("/api/camera/cards").get_json()["cards"])
    assert labels == sorted(label for label, _ in camera.source.layout.values())
    synthetic_app.extensions["hardware"].close()
    assert camera.closed and camera.wait_frame(snap.seq, 0.1) is None


def test_the_synthetic_table_changes_now_and_then(clock):
    table = open_source("synthetic", clock)
    table.open()
    first, before = table.read(), dict(table.layout)
    clock.now += 1
    assert np.array_equal(table.read(), first) and table.layout == before
    clock.now += 6
    assert not np.array_equal(table.read(), first) and table.layout != before


# --- offline cameras -----------------------------------------------------------------------


def test_a_missing_camera_is_offline_and_the_game_goes_on(tmp_path):
    app = create_app({"TABLE_PIN": PIN, "TESTING": True, "CAMERA": str(tmp_path / "no-such-camera.mp4")},
                     instance_path=tmp_path / "inst")
    try:
        client = app.test_client()
        status = client.get("/api/camera").get_json()
        assert status["state"] == "offline" and status["message"].startswith("camera offline: ")
        assert "no-such-camera.mp4" in status["message"]
        response = client.get("/api/camera/frame.jpg")
        assert response.status_code == 409 and response.get_json()["state"] == "offline"
        assert client.get("/api/camera/cards").status_code == 409
        Editor(client).start()  # the game goes on
    finally:
        app.extensions["hardware"].close()
        app.extensions["tables"].store.close()


def test_an_unplugged_camera_is_retried_with_backoff_and_comes_back(app, clock):
    source = Pluggable(SyntheticTable(seed=5, clock=clock))
    source.plugged = False
    camera = attach(app, source, clock)
    inbox = app.extensions["tables"].feed.subscribe(["hardware"]).inbox

    assert camera.step() is None and source.opens == 1
    assert camera.status()["state"] == "offline"
    assert camera.message == f"camera offline: test camera is unplugged; trying again in {BACKOFF_S[0]:.0f} s"
    assert inbox.get_nowait().data["camera"]["state"] == "offline"  # the top bar hears of it
    assert camera.step() is None and source.opens == 1  # not before its time
    assert inbox.empty()  # published on changes only
    waits = []
    for _ in range(8):
        clock.now += 60
        camera.step()
        waits.append(float(camera.message.split("trying again in ")[1].split(" s")[0]))
    assert waits == [2, 4, 8, 16, 30, 30, 30, 30] and source.opens == 9

    source.plugged = True
    clock.now += 60
    assert camera.step() is not None and camera.state == "online"
    assert camera.message == "camera online: test camera"
    source.plugged = False  # pulled out while running
    assert camera.step() is None and camera.state == "offline" and camera.latest() is None
    assert "no picture from test camera" in camera.message and "trying again in 1 s" in camera.message
    assert app.test_client().get("/api/camera/frame.jpg").status_code == 409


def table_picture(clock: Clock) -> np.ndarray:
    table = SyntheticTable(seed=5, clock=clock)
    table.open()
    return table.read()


def test_a_black_picture_is_said_and_the_referee_hears_nothing_of_it(app, clock):
    """A covered lens: every card would seem gone, so the referee must not be told the table is bare."""
    seen = table_picture(clock)
    source = Shown(np.zeros_like(seen))
    camera = attach(app, source, clock)
    heard: list = []
    camera.on_frame = lambda scene, moved, frame, changed: heard.append(scene)

    assert camera.step() is not None  # the picture is still shown
    status = camera.status()
    assert status["state"] == "blind" and heard == []
    assert status["message"] == ("camera: the picture is black (is the lens covered, or the room too dark?); "
                                 "it referees nothing until it sees the table again")
    source.frame = seen  # the hand leaves the lens
    clock.now += 1
    assert camera.step() is not None and camera.state == "online" and len(heard) == 1


def test_a_live_camera_whose_picture_stops_changing_is_said_to_have_frozen(app, clock):
    seen = table_picture(clock)
    source = Shown(seen)
    camera = attach(app, source, clock)
    states = []
    for _ in range(7):
        camera.step()
        states.append(camera.state)
        clock.now += 1
    assert states == ["online"] * 5 + ["blind"] * 2
    assert camera.message.startswith("camera: the picture has not changed for 6 s: the camera may have frozen")
    noise = np.random.default_rng(1).integers(0, 3, seen.shape, dtype=np.uint8)
    source.frame = cv2.add(seen, noise)  # a sensor's noise again
    camera.step()
    assert camera.state == "online"

    still = attach(app, Shown(seen, live=False), clock)  # a file or a rendered table may repeat itself
    for _ in range(10):
        still.step()
        clock.now += 1
    assert still.state == "online"


def test_a_webcam_giving_a_smaller_picture_than_asked_is_said_and_still_read(app, clock):
    """OpenCV opens many webcams at 640 x 480 whatever they can do: the group is told, and the table is still read."""
    small = attach(app, Shown(table_picture(clock)), clock)  # the synthetic table is 640 x 480
    assert small.step() is not None and small.state == "online" and small.status()["cards"] == 5
    assert small.message == ("camera online: test camera; its picture is 640 x 480, and far cards are read less "
                             "surely than at 1280 x 720 (does the camera give more?)")
    table = SyntheticTable(seed=5, clock=clock, size=(1280, 720))
    table.open()
    large = attach(app, Shown(table.read()), clock)
    assert large.step() is not None and large.message == "camera online: test camera"
    video = attach(app, Shown(table_picture(clock), live=False), clock)  # a file is what it is
    assert video.step() is not None and video.message == "camera online: test camera"


def test_a_model_of_the_wrong_shape_is_one_sentence_in_the_status_not_a_failure_per_frame(
    app, client, editor, tmp_path, clock
):
    wrong = tiny_net(96, 64, {"embedding": (0, 64), "cosines": (0, 3)})  # 3 labels where the code reads 16
    models = models_folder(tmp_path / "models", classifier=wrong)
    app.extensions["deck"] = deck = Deck(tmp_path / "deck", models=models)
    hardware = app.extensions["hardware"]
    inbox = app.extensions["tables"].feed.subscribe(["hardware"]).inbox
    hardware.camera = camera = Camera(SyntheticTable(seed=3, clock=clock), deck, hardware.publish, clock=clock)
    problem = (f"{models / 'card_net.onnx'}: the model does not fit this program: "
               "output 'cosines' expected (N, 16), found (n, 3)")

    snapshot = camera.step()
    assert snapshot is not None and snapshot.scene.cards == ()  # the picture is still shown
    status = client.get("/api/camera").get_json()
    assert status["state"] == "error"
    assert status["message"].startswith(f"camera: card recognition unavailable ({problem}; ")
    assert inbox.get_nowait().data["camera"]["message"] == status["message"]

    shutil.rmtree(models)  # not loaded again on the next frames: the same sentence, not "model file missing"
    for _ in range(3):
        clock.now += 1
        assert camera.step() is not None
    assert camera.message == status["message"] and inbox.empty()
    response = upload(editor, "red", (photo_of("red", 1), "a.jpg"))
    assert response.status_code == 503 and problem in response.get_json()["error"]


def test_a_video_file_plays_in_a_loop_and_its_cards_are_read(app, client, tmp_path, clock):
    table = SyntheticTable(seed=8, clock=clock)
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, table.size)
    for _ in range(2):
        writer.write(table.read())
    writer.release()
    source = OpenCVCamera(str(path))
    source.open()
    frames = [source.read() for _ in range(5)]  # two frames in the file: it starts again
    assert all(f.shape == (480, 640, 3) for f in frames)
    source.close()
    attach(app, OpenCVCamera(str(path)), clock).step()
    assert client.get("/api/camera").get_json()["message"] == f"camera online: {path}"
    labels = sorted(c["label"] for c in client.get("/api/camera/cards").get_json()["cards"])
    assert labels == sorted(label for label, _ in table.layout.values())
    with pytest.raises(CameraOffline, match="cannot open"):
        OpenCVCamera(str(tmp_path / "missing.avi")).open()


# --- enrollment ----------------------------------------------------------------------------


def test_enrollment_starts_empty_with_a_reason(client):
    body = client.get("/api/camera/enrollment").get_json()
    assert [b["id"] for b in body["beans"]] == list(VISION_LABELS)
    assert all(b["photos"] == 0 and b["wanted"] == WANTED for b in body["beans"])
    assert body["progress"] == 0 and body["profile"] is None and "no photos yet" in body["problem"]


def test_photos_of_a_bean_are_kept_as_upright_crops(client, editor):
    response = upload(editor, "red", (photo_of("red", 1), "a.jpg"), (photo_of("red", 2), "b.jpg"))
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert body["bean"]["photos"] == 2 and body["bean"]["photo_ids"] == [1, 2]
    assert all(a["outline_found"] for a in body["added"])
    thumb = client.get("/api/camera/enrollment/red/photos/2.png")
    assert thumb.status_code == 200 and thumb.mimetype == "image/png"
    assert cv2.imdecode(np.frombuffer(thumb.data, np.uint8), cv2.IMREAD_COLOR).shape == (CROP_SIZE[1], CROP_SIZE[0], 3)
    progress = client.get("/api/camera/enrollment").get_json()
    assert progress["progress"] == pytest.approx(2 / (WANTED * len(VISION_LABELS)), abs=1e-4)
    assert "too few photos" in progress["problem"]


def test_a_photo_without_a_card_outline_is_kept_as_its_centre_and_flagged(client, editor):
    blank = jpeg(np.full((200, 240, 3), 128, np.uint8))
    response = upload(editor, "red", (photo_of("red", 1), "card.jpg"), (blank, "table.jpg"))
    assert response.status_code == 201, response.get_json()
    assert [a["outline_found"] for a in response.get_json()["added"]] == [True, False]
    assert counts(client)["red"] == 2


def test_a_photo_whose_crop_is_in_doubt_is_kept_and_flagged(client, editor):
    """A held-out card lying across the photo's edge (:mod:`support.doubtful_photo`)."""
    askew = jpeg(card_off_the_edge())
    response = upload(editor, "blue", (photo_of("blue", 1), "good.jpg"), (askew, "askew.jpg"))
    assert response.status_code == 201, response.get_json()
    assert [(a["outline_found"], a["crop_in_doubt"]) for a in response.get_json()["added"]] == [(True, False),
                                                                                                 (True, True)]
    assert counts(client)["blue"] == 2  # kept: the group decides whether to take it again


def test_bad_uploads_are_refused_and_nothing_is_kept(client, editor):
    response = upload(editor, "red", (photo_of("red", 1), "good.jpg"), (b"this is no picture", "notes.txt"))
    assert response.status_code == 400
    assert "notes.txt: not a readable image" in response.get_json()["error"]
    assert upload(editor, "red", (b"", "empty.jpg")).status_code == 400
    response = editor.post("/api/camera/enrollment/red/photos", data={}, content_type="multipart/form-data")
    assert response.status_code == 400 and '"photo"' in response.get_json()["error"]
    response = upload(editor, "purple", (photo_of("red", 1), "a.jpg"))
    assert response.status_code == 404 and 'unknown bean "purple"' in response.get_json()["error"]
    assert client.get("/api/camera/enrollment/purple/photos/1.png").status_code == 404
    assert client.get("/api/camera/enrollment/red/photos/1.png").status_code == 404
    assert sum(counts(client).values()) == 0


def test_a_picture_of_too_many_pixels_is_refused_before_decoding_and_nothing_is_kept(client, editor):
    huge = black_png(30000, 30000)  # 2.6 MB of PNG, 2.7 GB of pixels
    response = upload(editor, "red", (photo_of("red", 1), "good.jpg"), (huge, "huge.png"))
    assert response.status_code == 413
    assert response.get_json() == {"file": "huge.png", "error": (
        "huge.png: the picture is 30000 x 30000 pixels (900.0 megapixels); "
        "at most 40 megapixels are accepted: scale it down")}
    scan = cv2.imencode(".tiff", np.zeros((8, 8, 3), np.uint8))[1].tobytes()
    response = upload(editor, "red", (scan, "scan.tiff"))
    assert response.status_code == 400
    assert "scan.tiff: not a readable image (not a PNG, JPEG, BMP, GIF or WebP picture)" in response.get_json()["error"]
    assert sum(counts(client).values()) == 0


def test_changes_need_the_pin_and_csrf(app, client, editor):
    data = {"photo": [(io.BytesIO(photo_of("red", 1)), "a.jpg")]}
    refused = client.post("/api/camera/enrollment/red/photos", data=data, content_type="multipart/form-data")
    assert refused.status_code == 403 and refused.get_json()["need_csrf"]
    token = client.get("/api/session").get_json()["csrf_token"]
    data = {"photo": [(io.BytesIO(photo_of("red", 1)), "a.jpg")]}
    refused = client.post("/api/camera/enrollment/red/photos", data=data, content_type="multipart/form-data",
                          headers={"X-CSRF-Token": token})
    assert refused.status_code == 403 and refused.get_json()["need_pin"]
    assert upload(editor, "red", (photo_of("red", 1), "a.jpg")).status_code == 201
    changes = (("POST", "/api/camera/deck"), ("DELETE", "/api/camera/deck"),
               ("DELETE", "/api/camera/enrollment/red/photos"), ("DELETE", "/api/camera/enrollment/red/photos/1"),
               ("POST", "/api/camera/enrollment/red/capture"))
    for method, path in changes:
        response = client.open(path, method=method, headers={"X-CSRF-Token": token})
        assert response.status_code == 403 and response.get_json()["need_pin"], (method, path)
    assert counts(client)["red"] == 1


def test_photos_can_be_deleted_one_or_all(app, client, editor):
    upload(editor, "chili", *[(photo_of("chili", k), f"{k}.jpg") for k in range(3)])
    folder = Path(app.instance_path) / "deck" / "photos" / "chili"
    kept = sorted(p.name for p in folder.glob("*.png"))
    assert kept == sorted(f"000{n}{k}.png" for n in (1, 2, 3) for k in ("", ".2", ".3"))  # every stage's crop
    response = editor.delete("/api/camera/enrollment/chili/photos/2")
    assert response.status_code == 200 and response.get_json()["bean"]["photo_ids"] == [1, 3]
    assert not list(folder.glob("0002*"))
    assert editor.delete("/api/camera/enrollment/chili/photos/2").status_code == 404
    assert upload(editor, "chili", (photo_of("chili", 9), "n.jpg")).get_json()["bean"]["photo_ids"] == [1, 3, 4]
    response = editor.delete("/api/camera/enrollment/chili/photos")
    assert response.get_json()["deleted"] == 3 and response.get_json()["bean"]["photos"] == 0
    assert not list(folder.glob("*.png"))
    assert editor.delete("/api/camera/enrollment/nope/photos").status_code == 404


def test_a_deck_cannot_be_built_empty_thin_or_lopsided(client, editor):
    response = editor.post("/api/camera/deck")
    assert response.status_code == 409 and "no photos yet" in response.get_json()["error"]
    upload(editor, "red", *[(photo_of("red", k), f"{k}.jpg") for k in range(LOPSIDED + 1)])
    response = editor.post("/api/camera/deck")
    assert response.status_code == 409 and "too few photos" in response.get_json()["error"]
    upload(editor, "chili", (photo_of("chili", 1), "c.jpg"))
    response = editor.post("/api/camera/deck")
    error = response.get_json()["error"]
    assert response.status_code == 409 and "lopsided" in error and "Red Bean has 4" in error
    assert response.get_json()["counts"]["chili"] == 1
    assert client.get("/api/camera").get_json()["deck"] == "house"
    assert editor.delete("/api/camera/deck").status_code == 404


def test_the_camera_names_cards_against_the_built_deck(client, editor, table_camera, clock):
    on_table = {label for label, _ in table_camera.source.layout.values()}
    enrolled = [label for label in VISION_LABELS if label not in on_table][:2]
    for label in enrolled:
        assert upload(editor, label, *[(photo_of(label, k), f"{k}.jpg") for k in range(2)]).status_code == 201
    response = editor.post("/api/camera/deck")
    assert response.status_code == 201, response.get_json()
    profile = response.get_json()["profile"]
    assert profile["beans"] == 2 and profile["photos"] == 4 and not profile["outdated"]
    assert set(profile["missing"]) == set(VISION_LABELS) - set(enrolled)
    assert client.get("/api/camera").get_json()["deck"] == "enrolled"

    clock.now += 1
    table_camera.step()
    named = {c["label"] for c in client.get("/api/camera/cards").get_json()["cards"]}
    assert named <= set(enrolled) | {"unknown"}  # only enrolled cards can be named now

    upload(editor, enrolled[0], (photo_of(enrolled[0], 7), "more.jpg"))
    assert client.get("/api/camera/enrollment").get_json()["profile"]["outdated"]
    assert editor.delete("/api/camera/deck").status_code == 200
    clock.now += 1
    table_camera.step()
    named = sorted(c["label"] for c in client.get("/api/camera/cards").get_json()["cards"])
    assert named == sorted(on_table)  # the house deck again


class HouseCardsTable(SyntheticTable):
    """The synthetic table drawn by a source that shows the house deck, as the demo table does."""

    house_cards = True


def test_a_source_showing_the_house_deck_is_named_as_it_whatever_deck_is_enrolled_and_teaches_that_deck_nothing(
    make_app, client, editor, clock
):
    assert open_source("demo").house_cards and not open_source("synthetic").house_cards
    assert make_app("demo", CAMERA="demo", CAMERA_INTERVAL_S=60).extensions["hardware"].referee.learn is None
    enrolling = make_app("with-synthetic", CAMERA="synthetic", CAMERA_INTERVAL_S=60)
    assert enrolling.extensions["hardware"].referee.learn == enrolling.extensions["deck"].learn
    for label in ("black-eyed", "brandy"):
        assert upload(editor, label, *[(photo_of(label, k), f"{k}.jpg") for k in range(2)]).status_code == 201
    assert editor.post("/api/camera/deck").status_code == 201

    camera = attach(client.application, HouseCardsTable(seed=3, clock=clock), clock)
    camera.step()
    on_table = sorted(label for label, _ in camera.source.layout.values())
    assert sorted(c["label"] for c in client.get("/api/camera/cards").get_json()["cards"]) == on_table
    status = client.get("/api/camera").get_json()
    assert status["deck"] == "house"
    assert status["message"] == "camera online: synthetic table" + HOUSE_CARDS

    attach(client.application, SyntheticTable(seed=3, clock=clock), clock).step()  # a camera at the table
    assert client.get("/api/camera").get_json()["deck"] == "enrolled"
    assert {c["label"] for c in client.get("/api/camera/cards").get_json()["cards"]} <= {"black-eyed", "brandy",
                                                                                          "unknown"}


def test_the_table_camera_captures_the_one_card_in_view(app, client, editor, clock):
    camera = attach(app, SyntheticTable(seed=4, clock=clock, cards=1), clock)
    camera.step()
    (label, _), = camera.source.layout.values()
    response = editor.post(f"/api/camera/enrollment/{label}/capture")
    assert response.status_code == 201 and response.get_json()["bean"]["photos"] == 1
    thumb = client.get(f"/api/camera/enrollment/{label}/photos/1.png")
    crop = cv2.imdecode(np.frombuffer(thumb.data, np.uint8), cv2.IMREAD_COLOR)
    assert app.extensions["deck"].reader().classifier.classify([crop])[0].label == label
    assert editor.post("/api/camera/enrollment/nope/capture").status_code == 404


def test_capture_refuses_several_cards_or_an_offline_camera(app, client, editor, clock):
    source = Pluggable(SyntheticTable(seed=3, clock=clock))
    camera = attach(app, source, clock)
    camera.step()
    response = editor.post("/api/camera/enrollment/red/capture")
    assert response.status_code == 409 and "sees 5 cards" in response.get_json()["error"]
    source.plugged = False
    camera.step()
    response = editor.post("/api/camera/enrollment/red/capture")
    assert response.status_code == 409 and response.get_json()["error"].startswith("camera offline: no picture")
    assert counts(client)["red"] == 0


def profile_from_another_model(tmp_path: Path, editor) -> Path:
    """Enroll red and chili, then mark the saved profile as made by another card network."""
    for label in ("red", "chili"):
        upload(editor, label, (photo_of(label, 1), "a.jpg"))
    assert editor.post("/api/camera/deck").status_code == 201
    path = tmp_path / "instance" / "deck" / "profile.json"
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, "model_sha256": "0" * 64}))
    return path


def enrollment_after_restart(tmp_path: Path) -> tuple[dict, str]:
    """The enrollment screen's state and the deck named against, as a restarted app sees them."""
    fresh = create_app({"TABLE_PIN": PIN, "TESTING": True}, instance_path=tmp_path / "instance")
    try:
        client = fresh.test_client()
        return client.get("/api/camera/enrollment").get_json(), client.get("/api/camera").get_json()["deck"]
    finally:
        fresh.extensions["hardware"].close()
        fresh.extensions["tables"].store.close()


def test_a_profile_from_another_model_is_enrolled_again_from_the_kept_photos(tmp_path, editor):
    path = profile_from_another_model(tmp_path, editor)
    body, deck = enrollment_after_restart(tmp_path)
    assert body["profile_problem"] is None and body["profile"]["counts"] == {"red": 1, "chili": 1}
    assert deck == "enrolled"
    manifest = load_manifest()
    assert json.loads(path.read_text())["model_sha256"] == f"{manifest.classifier.sha256}+{manifest.deck.sha256}"


def test_a_profile_from_before_the_deck_network_is_enrolled_again_from_the_kept_photos(tmp_path, editor):
    path = profile_from_another_model(tmp_path, editor)
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, "format": 2, "model_sha256": load_manifest().classifier.sha256,
                                "prototypes": {k: v[:64] for k, v in data["prototypes"].items()}}))
    body, deck = enrollment_after_restart(tmp_path)
    assert body["profile_problem"] is None and deck == "enrolled"
    assert json.loads(path.read_text())["format"] == FORMAT


def test_a_profile_from_another_model_without_its_photos_is_set_aside_with_a_reason(tmp_path, editor):
    profile_from_another_model(tmp_path, editor)
    shutil.rmtree(tmp_path / "instance" / "deck" / "photos")
    body, deck = enrollment_after_restart(tmp_path)
    assert body["profile"] is None and "another model" in body["profile_problem"]
    assert "build the deck again" in body["profile_problem"]
    assert deck == "house"


def test_a_game_started_beside_the_demo_table_starts_the_demo_over(app: Flask, clock: Clock) -> None:
    """The demo table plays its record from the moment it opens; a game started later finds the table at its own
    start (the demo's players clear the table and begin again), not several changes ahead of it."""
    demo = GameDemo(clock=clock, step_s=4.0)
    camera = attach(app, demo, clock)
    camera.step()  # the demo opens
    for _ in range(3):
        clock.now += 4.0
        camera.step()
    assert len(demo.state.move_stack) >= 3  # the table has gone on
    Editor(app.test_client()).start(ruleset="amigo-25", players=["Ann", "Ben", "Cid", "Dee"])
    camera.step()
    assert demo.state.move_stack == []  # the new game's table: empty, a hand over it
    clock.now += 4.0
    camera.step()
    assert [move_to_dict(move) for move in demo.state.move_stack] == demo.events[:1]  # and its first change again
    status = app.test_client().get("/api/camera").get_json()
    assert "start a game of amigo-25: Ann, Ben, Cid, Dee, Ann first" in status["message"]  # which game to start
