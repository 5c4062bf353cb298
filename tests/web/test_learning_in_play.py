"""Learning in play: the enrolled deck learns the top cards of fields whose bean the game knows.

The deck is built once, from photos of house cards with the shipped networks, and each test runs on a copy of its
instance folder; the camera referee is fed scenes with the frame they were read from, as the camera thread feeds it.
"""

from __future__ import annotations

import io
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest
from flask import Flask

from companion.cards import VISION_LABELS
from companion.tracker.lessons import PER_BEAN
from companion.vision.classifier import UNKNOWN
from companion.vision.rectify import warp_card
from companion.vision.scene import Scene, SeenCard, Stack
from models.camera import photograph
from models.render import house_design, render_face
from support.web_client import PIN, Editor
from web import create_app
from web.enrollment import CROP_SIZE, Deck

WAIT_S = 60.0
"""Longest wait for the deck to be enrolled again in the background."""
ENROLLED = ("blue", "soy")
CORNERS = np.array([[200, 100], [300, 100], [300, 250], [200, 250]], np.float32)


def photo_of(label: str, seed: int) -> bytes:
    image = photograph(render_face(house_design(label)), np.random.default_rng([seed, VISION_LABELS.index(label)]))
    return cv2.imencode(".jpg", image)[1].tobytes()


def build(editor: Editor) -> None:
    """Enroll two photos of each of :data:`ENROLLED` and build the deck."""
    for label in ENROLLED:
        data = {"photo": [(io.BytesIO(photo_of(label, k)), f"{k}.jpg") for k in range(2)]}
        assert editor.post(f"/api/camera/enrollment/{label}/photos", data=data,
                           content_type="multipart/form-data").status_code == 201
    assert editor.post("/api/camera/deck").status_code == 201


def card(label: str) -> np.ndarray:
    """An upright crop of a house card, as a lesson gives it."""
    return cv2.resize(render_face(house_design(label)), CROP_SIZE, interpolation=cv2.INTER_AREA)


def profile(editor: Editor) -> dict:
    return editor.get("/api/camera/enrollment").get_json()["profile"]


def learnt_files(deck: Deck, label: str) -> list[str]:
    return sorted(p.name for p in (deck.learnt.folder / label).glob("*.png"))


@pytest.fixture(scope="module")
def enrolled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An instance folder whose deck was built from the photos :func:`build` enrolls: made once for the module."""
    folder = tmp_path_factory.mktemp("enrolled") / "instance"
    app = create_app({"TABLE_PIN": PIN, "TESTING": True}, instance_path=folder)
    try:
        build(Editor(app.test_client()))
    finally:
        app.extensions["hardware"].close()
        app.extensions["tables"].store.close()
    return folder


@pytest.fixture
def app(make_app: Callable[..., Flask], enrolled: Path, tmp_path: Path) -> Flask:
    """An app on a copy of the :func:`enrolled` instance folder: its deck built."""
    shutil.copytree(enrolled, tmp_path / "built")
    return make_app("built")


@pytest.fixture
def deck(app: Flask) -> Deck:
    return app.extensions["deck"]


def test_a_card_learnt_in_play_is_enrolled_beside_the_photos_and_kept(app, editor, deck):
    before = deck.gallery()
    assert before is not None
    assert profile(editor)["learnt"] == 0

    assert deck.learn("blue", card("blue"))
    assert deck.wait_learnt(WAIT_S)
    summary = profile(editor)
    assert summary["learnt"] == 1 and summary["learnt_counts"] == {"blue": 1}
    assert summary["counts"] == {"blue": 2, "soy": 2} and not summary["outdated"]  # the photos did not change
    after = deck.gallery()
    assert after is not None and after is not before
    blue, soy = after.labels.index("blue"), after.labels.index("soy")
    assert not np.allclose(after.vectors[blue], before.vectors[blue])  # blue's prototype took the card in
    assert np.allclose(after.vectors[soy], before.vectors[soy], atol=1e-6)

    saved = json.loads(deck.profile_path.read_text())
    assert saved["learnt"] == {"blue": 1}
    again = Deck(deck.folder)  # after a restart
    assert again.gallery() is not None and again.profile_summary()["learnt_counts"] == {"blue": 1}


def test_only_the_newest_cards_of_a_bean_are_kept(editor, deck):
    for _ in range(PER_BEAN + 2):
        assert deck.learn("soy", card("soy"))
    assert deck.wait_learnt(WAIT_S)
    assert learnt_files(deck, "soy") == [f"{k:04d}.png" for k in range(3, PER_BEAN + 3)]
    assert profile(editor)["learnt_counts"] == {"soy": PER_BEAN}


def test_the_learnt_cards_can_be_forgotten(editor, deck):
    deck.learn("blue", card("blue"))
    deck.learn("soy", card("soy"))
    assert deck.wait_learnt(WAIT_S)
    response = editor.delete("/api/camera/deck/learnt")
    assert response.status_code == 200 and response.get_json()["forgotten"] == 2
    assert deck.wait_learnt(WAIT_S)
    assert profile(editor)["learnt"] == 0 and not deck.learnt.folder.exists()
    assert profile(editor)["counts"] == {"blue": 2, "soy": 2}  # the photos stay
    refused = editor.delete("/api/camera/deck/learnt")
    assert refused.status_code == 404 and "no cards" in refused.get_json()["error"]


def test_one_learnt_card_is_shown_and_forgotten_on_its_own(client, editor, deck):
    """A card the game had wrong (a soy entered as a blue) is taken back out of the blue's enrollment."""
    deck.learn("blue", card("blue"))
    deck.learn("blue", card("soy"))
    assert deck.wait_learnt(WAIT_S)
    blue = next(b for b in editor.get("/api/camera/enrollment").get_json()["beans"] if b["id"] == "blue")
    assert blue["learnt_ids"] == [1, 2]
    shown = client.get("/api/camera/enrollment/blue/learnt/2.png")
    assert shown.status_code == 200 and shown.mimetype == "image/png"
    assert np.array_equal(cv2.imdecode(np.frombuffer(shown.data, np.uint8), cv2.IMREAD_COLOR), card("soy"))
    before = deck.gallery()

    response = editor.delete("/api/camera/enrollment/blue/learnt/2")
    assert response.status_code == 200 and response.get_json()["bean"]["learnt_ids"] == [1]
    assert profile(editor)["learnt_counts"] == {"blue": 1}
    after = deck.gallery()
    assert after is not None and before is not None
    k = after.labels.index("blue")
    assert not np.allclose(after.vectors[k], before.vectors[k])  # enrolled again without it, at once
    for path in ("/api/camera/enrollment/blue/learnt/2", "/api/camera/enrollment/nope/learnt/1"):
        assert editor.delete(path).status_code == 404
    assert client.get("/api/camera/enrollment/blue/learnt/2.png").status_code == 404
    assert client.delete("/api/camera/enrollment/blue/learnt/1").status_code == 403
    assert deck.learnt.ids("blue") == [1]


def bean_of(editor: Editor, label: str) -> dict:
    return next(b for b in editor.get("/api/camera/enrollment").get_json()["beans"] if b["id"] == label)


@pytest.mark.slow
def test_a_learnt_card_the_camera_took_for_another_bean_is_flagged_until_forgotten_or_vouched_for(
        client, editor, deck):
    """A soy entered as a blue, which the camera took for a soy: it is learnt as a blue (the camera may not know this
    deck's blues yet) and flagged, until it is forgotten or a person says it is a blue after all."""
    deck.learn("blue", card("blue"))
    deck.learn("blue", card("soy"), taken_for="soy")
    deck.learn("blue", card("soy"), taken_for="soy")
    assert deck.wait_learnt(WAIT_S)
    assert bean_of(editor, "blue")["learnt_doubts"] == {"2": "soy", "3": "soy"}
    assert profile(editor)["learnt_doubts"] == {"blue": 2} and profile(editor)["learnt_counts"] == {"blue": 3}

    assert editor.delete("/api/camera/enrollment/blue/learnt/2").status_code == 200
    assert not (deck.learnt.folder / "blue" / "0002.json").exists()
    assert client.post("/api/camera/enrollment/blue/learnt/3/vouch").status_code == 403  # the table's PIN first
    vouched = editor.post("/api/camera/enrollment/blue/learnt/3/vouch")
    assert vouched.status_code == 200 and vouched.get_json()["bean"]["learnt_doubts"] == {}
    assert vouched.get_json()["bean"]["learnt_ids"] == [1, 3]  # kept, as a blue
    assert profile(editor)["learnt_doubts"] == {}
    for path in ("/api/camera/enrollment/blue/learnt/3/vouch", "/api/camera/enrollment/blue/learnt/1/vouch",
                 "/api/camera/enrollment/blue/learnt/9/vouch"):
        refused = editor.post(path)
        assert refused.status_code == 404 and "in doubt" in refused.get_json()["error"]


def test_a_flag_goes_with_its_card_when_the_oldest_are_dropped(editor, deck):
    deck.learn("soy", card("blue"), taken_for="blue")
    for _ in range(PER_BEAN):
        deck.learn("soy", card("soy"))
    assert deck.wait_learnt(WAIT_S)
    assert bean_of(editor, "soy")["learnt_doubts"] == {}
    assert sorted(p.name for p in (deck.learnt.folder / "soy").iterdir()) == learnt_files(deck, "soy")


def test_a_rebuild_keeps_the_learnt_cards(editor, deck):
    deck.learn("blue", card("blue"))
    assert deck.wait_learnt(WAIT_S)
    assert editor.post("/api/camera/deck").get_json()["profile"]["learnt_counts"] == {"blue": 1}


def test_nothing_is_learnt_while_the_camera_names_the_house_deck(make_app):
    deck = make_app().extensions["deck"]  # no deck built
    assert not deck.learn("blue", card("blue"))
    assert not deck.learnt.folder.exists()


def test_a_bean_the_deck_was_not_enrolled_with_is_not_learnt(editor, deck):
    """Its cards are not named against the deck at all: it needs photos first."""
    assert not deck.learn("red", card("red"))
    assert deck.learnt.counts() == {}


def test_forgetting_needs_the_pin_and_csrf(client):
    assert client.delete("/api/camera/deck/learnt").status_code == 403


def frame_with(label: str) -> np.ndarray:
    """A table frame with one house card of ``label`` lying at :data:`CORNERS`."""
    face = render_face(house_design(label))
    h, w = face.shape[:2]
    warp = cv2.getPerspectiveTransform(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32), CORNERS)
    frame = np.full((480, 640, 3), (40, 90, 40), np.uint8)
    cv2.warpPerspective(face, warp, (640, 480), frame, borderMode=cv2.BORDER_TRANSPARENT)
    return frame


def a_field(label: str, count: int, confidence: float) -> Scene:
    """The camera's scene of Ann's one field: ``count`` cards topped by one named ``label`` with ``confidence``."""
    return Scene((), (Stack(label, count, CORNERS, SeenCard(CORNERS, label, confidence), "fields-0"),),
                 ("fields-0", "fields-1", "fields-2", "face-up"))


def a_blue_planted(editor: Editor) -> None:
    """A new game in which Ann planted a blue from her hand."""
    game_id = editor.start()["game_id"]
    assert editor.post(f"/api/games/{game_id}/moves",
                       {"type": "plant", "player": 0, "bean": "blue", "source": "hand"}).status_code == 200


def test_the_camera_referee_teaches_the_deck_a_card_of_a_field_the_game_knows(app, editor, deck):
    """Ann's blue lies on her field; the camera cannot name it (a blue of this deck it has not seen so), but the game
    knows the field is blue: the card is learnt as a blue, once."""
    a_blue_planted(editor)
    referee, image = app.extensions["hardware"].referee, frame_with("blue")
    for _ in range(8):
        referee.frame(a_field(UNKNOWN, 1, 0.3), False, image)
    assert deck.wait_learnt(WAIT_S)
    assert profile(editor)["learnt_counts"] == {"blue": 1} and profile(editor)["learnt_doubts"] == {}
    kept = cv2.imread(str(deck.learnt.folder / "blue" / "0001.png"))
    assert np.array_equal(kept, warp_card(image, CORNERS, CROP_SIZE))


def test_the_camera_referee_flags_a_card_it_took_for_another_bean(app, editor, deck):
    """Ann's field is a blue in the game, and the camera, unsure, took its top card for a soy: learnt, and flagged."""
    a_blue_planted(editor)
    referee, image = app.extensions["hardware"].referee, frame_with("soy")
    for _ in range(8):
        referee.frame(a_field("soy", 1, 0.6), False, image)
    assert deck.wait_learnt(WAIT_S)
    assert profile(editor)["learnt_doubts"] == {"blue": 1}
    assert bean_of(editor, "blue")["learnt_doubts"] == {"1": "soy"}


def test_a_field_the_camera_sees_otherwise_than_the_game_teaches_nothing(app, editor, deck):
    a_blue_planted(editor)
    referee, image = app.extensions["hardware"].referee, frame_with("blue")
    for _ in range(8):
        referee.frame(a_field("soy", 1, 0.97), False, image)  # the camera is sure of a soy: one of them is wrong
    for _ in range(8):
        referee.frame(a_field(UNKNOWN, 2, 0.3), False, image)  # a card more than the game has
    assert deck.wait_learnt(WAIT_S)
    assert profile(editor)["learnt"] == 0 and not deck.learnt.folder.exists()
