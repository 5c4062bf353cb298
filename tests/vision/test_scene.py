"""Every card on a table seen from above: found, outlined close to the truth, and named.

Frames are rendered fresh here: house card faces pasted at known corners onto a plain
table with a little noise, so the true corners and labels are known exactly.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.cards import VISION_LABELS
from companion.vision import scene as scene_module
from companion.vision.classifier import UNKNOWN, Prediction
from companion.vision.scene import SceneReader, classify, rectify
from companion.vision.strips import find_outlines, halves, outlined
from models.render import house_design, render_face
from models.tabletop import card_quad, paste_card

SIZE = (640, 480)
CORNER_TOLERANCE_PX = 4.0
"""Cards are about 150 px tall: 4 px is under 3 % of a card."""


def table(rng: np.random.Generator) -> np.ndarray:
    """A plain blue-grey tablecloth with soft noise."""
    w, h = SIZE
    noise = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), 2) * 10
    top = np.array([150, 120, 95], np.float32) + noise[..., None]
    return np.clip(top, 0, 255).astype(np.uint8)


def scene(seed: int, count: int = 6) -> tuple[np.ndarray, list[tuple[str, np.ndarray]]]:
    """A frame with ``count`` different house cards in a 3 x 2 grid, each at a random pose; the truth."""
    rng = np.random.default_rng(seed)
    frame = table(rng)
    truth = []
    for slot, label in enumerate(rng.choice(VISION_LABELS, count, replace=False)):
        centre = (SIZE[0] * (slot % 3 + 0.5) / 3 + rng.uniform(-15, 15),
                  SIZE[1] * (slot // 3 + 0.5) / 2 + rng.uniform(-10, 10))
        angle = rng.uniform(-30, 30) + float(rng.choice([0, 90, 180]))
        quad = card_quad(centre, rng.uniform(130, 165), angle)
        paste_card(frame, render_face(house_design(str(label))), quad)
        truth.append((str(label), quad))
    return frame, truth


def corner_error(found: np.ndarray, true: np.ndarray) -> float:
    """The largest distance from a true corner to the nearest found corner."""
    return max(float(np.min(np.linalg.norm(found - corner, axis=1))) for corner in true)


def nearest(quads: list[np.ndarray], true: np.ndarray) -> int:
    return int(np.argmin([np.linalg.norm(q.mean(axis=0) - true.mean(axis=0)) for q in quads]))


@pytest.fixture(scope="module")
def scene_reader(classifier) -> SceneReader:  # noqa: ANN001 - the session's shipped classifier
    return SceneReader(classifier)


def test_every_card_is_found_with_its_corners(kit):
    for k in range(4):
        frame, truth = scene(kit.seed + k)
        quads = find_outlines(frame)
        assert len(quads) == len(truth)
        for _, quad in truth:
            found = quads[nearest(quads, quad)]
            assert corner_error(found, quad) < CORNER_TOLERANCE_PX
            assert np.linalg.norm(found[1] - found[0]) < np.linalg.norm(found[2] - found[1])  # a short side first


def test_cards_are_named_on_clean_renders(scene_reader, kit):
    seen, right = 0, 0
    for k in range(4):
        frame, truth = scene(kit.seed + 10 + k)
        cards = scene_reader.read(frame).cards
        assert len(cards) == len(truth)
        quads = [card.corners for card in cards]
        for label, quad in truth:
            card = cards[nearest(quads, quad)]
            seen += 1
            right += card.label == label
            assert 0 <= card.confidence <= 1
    # The shipped models name ~98.8 % of degraded single photos; clean renders may miss one in 24 at most.
    assert right >= seen - 1, (right, seen)


def test_a_bare_table_and_shapes_of_other_proportions_are_no_cards(scene_reader, kit):
    frame = table(np.random.default_rng(kit.seed))
    assert find_outlines(frame) == []
    cv2.rectangle(frame, (60, 60), (220, 220), (250, 250, 250), -1)  # a square coaster
    cv2.circle(frame, (400, 330), 70, (40, 40, 200), -1)  # a plate
    assert find_outlines(frame) == []
    cv2.rectangle(frame, (300, 100), (600, 140), (30, 30, 30), -1)  # a ruler: shaped like a column, no card in it
    assert len(find_outlines(frame)) == 1
    assert scene_reader.read(frame).cards == ()


def test_stages_are_pure_and_return_values(scene_reader, kit):
    frame, truth = scene(kit.seed + 20, count=3)
    before = frame.copy()
    quads = find_outlines(frame)
    crops = rectify(frame, quads, scene_reader.classifier.input_size)
    w, h = scene_reader.classifier.input_size
    assert [c.shape for c in crops] == [(h, w, 3)] * 3
    predictions = classify(scene_reader.classifier, crops)
    assert len(predictions) == 3
    assert classify(scene_reader.classifier, []) == []
    assert np.array_equal(frame, before)
    assert find_outlines(frame)[0].tolist() == quads[0].tolist()


def test_cards_come_largest_first_and_serialise(scene_reader, kit):
    frame, _ = scene(kit.seed + 30, count=4)
    cards = scene_reader.read(frame).cards
    areas = [cv2.contourArea(card.corners) for card in cards]
    assert areas == sorted(areas, reverse=True)
    data = cards[0].to_json()
    assert set(data) == {"label", "confidence", "corners"} and len(data["corners"]) == 4


def side_by_side(kit, stink_x: int) -> tuple[np.ndarray, list[tuple[str, np.ndarray]]]:  # noqa: ANN001
    """A soy card and a stink card lying side by side, the stink's middle at ``stink_x``; the truth."""
    frame = table(np.random.default_rng(kit.seed))
    truth = []
    for label, x in (("soy", 250), ("stink", stink_x)):
        quad = card_quad((x, 240), 150, 0)
        paste_card(frame, render_face(house_design(label)), quad)
        truth.append((label, quad))
    return frame, truth


def test_cards_side_by_side_whose_edges_are_joined_are_read_apart(scene_reader, kit):
    """Two face-up cards laid side by side, a thin dark line around both (a glare rim, a tray): one card-shaped
    outline holds them, and is read as the two cards it holds."""
    frame, truth = side_by_side(kit, 356)
    cv2.rectangle(frame, (193, 158), (413, 322), (40, 40, 40), 2)
    assert len(find_outlines(frame)) == 1  # the light joined them
    scene = scene_reader.read(frame)
    assert sorted((s.bean, s.count) for s in scene.stacks) == [("soy", 1), ("stink", 1)]
    for label, quad in truth:
        stack = next(s for s in scene.stacks if s.bean == label)
        assert np.linalg.norm(stack.corners.mean(axis=0) - quad.mean(axis=0)) < CORNER_TOLERANCE_PX


def test_a_card_touched_by_a_glare_spot_is_still_outlined(kit):
    """A lamp's reflection the size of a coin against a small card's long side makes the shape no card's: the spot
    is cut off, and the card within is outlined."""
    frame = table(np.random.default_rng(kit.seed))
    quad = card_quad((320, 230), 80, 0)  # a card as far from the camera as on a whole table's frame
    paste_card(frame, render_face(house_design("soy")), quad)
    cv2.circle(frame, (int(quad[:, 0].max()) + 9, 235), 10, (255, 255, 255), -1)
    quads = find_outlines(frame)
    assert len(quads) == 1
    assert corner_error(quads[0], quad) < 0.1 * 80


def glare(frame: np.ndarray, centre: tuple[int, int], axes: tuple[int, int]) -> None:
    """A lamp's soft reflection (in place): a bright ellipse, blurred."""
    mask = np.zeros(frame.shape[:2], np.float32)
    cv2.ellipse(mask, centre, axes, 0, 0, 360, 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), 3)
    frame[:] = np.clip(frame + 220 * mask[..., None], 0, 255).astype(np.uint8)


@pytest.mark.parametrize("spot_axes", [(16, 14), (16, 60)], ids=["a spot", "a streak along the gap"])
def test_cards_side_by_side_that_a_glare_spot_bridges_are_read_apart(scene_reader, kit, monkeypatch, spot_axes):
    """Two face-up cards laid a finger apart, a lamp's reflection over the gap: their edges close one card-shaped
    outline around both, with no card-shaped piece inside it (amigo-25-3p's face-up area at event 488, which the camera
    referee missed): the outline's two halves are read as the cards."""
    frame, truth = side_by_side(kit, 362)  # a finger apart
    glare(frame, (306, 250), spot_axes)
    ((_, held),) = outlined(frame)  # the glare joined them, and no card-shaped piece shows inside
    assert held == []
    scene = SceneReader(scene_reader.classifier).read(frame)
    assert sorted((s.bean, s.count) for s in scene.stacks) == [("soy", 1), ("stink", 1)]
    for label, quad in truth:
        stack = next(s for s in scene.stacks if s.bean == label)
        assert np.linalg.norm(stack.corners.mean(axis=0) - quad.mean(axis=0)) < 0.1 * 150
    monkeypatch.setattr(scene_module, "halves", lambda outline: [])
    assert SceneReader(scene_reader.classifier).read(frame).stacks == ()  # without them, no card is seen


def test_a_card_named_unsurely_is_one_card_where_it_is_no_larger_than_the_lone_cards_beside_it(scene_reader, kit,
                                                                                                 monkeypatch):
    """A group's card named unsurely (its bean lost to a poor enrollment photo) is as squat as two cards lying a
    third of a card apart, and each of its halves, stretched to a card, may name a card more surely than it does. Beside
    cards named surely, it is no larger than they are: one card, not two (classic-4p+bean-coin's blue cards of a
    woodcut deck, each read as two black-eyed)."""
    frame, truth = scene(kit.seed + 40)
    label, quad = truth[0]
    other = next(name for name in VISION_LABELS if name != label)

    def unsure_whole_sure_halves(named):  # noqa: ANN001, ANN202 - wraps SceneReader._classify
        def classify(image, quads, gallery, vouched):  # noqa: ANN001, ANN202
            predictions = named(image, quads, gallery, vouched)
            for k, found in enumerate(quads):
                if np.linalg.norm(found.mean(axis=0) - quad.mean(axis=0)) < 0.4 * 150:  # the card, or one of its halves
                    whole = cv2.contourArea(found) > 0.7 * cv2.contourArea(quad)
                    predictions[k] = (replace(predictions[k], confidence=0.5) if whole
                                      else Prediction(other, 0.95, 0.9, ((other, 0.95),)))
            return predictions
        return classify

    def near_it() -> list[tuple[str, int]]:
        reader = SceneReader(scene_reader.classifier)
        named = reader._classify
        monkeypatch.setattr(reader, "_classify", unsure_whole_sure_halves(named))
        stacks = reader.read(frame).stacks
        return [(s.bean, s.count) for s in stacks if np.linalg.norm(s.corners.mean(axis=0) - quad.mean(axis=0)) < 75]

    assert near_it() == [(label, 1)]
    monkeypatch.setattr(scene_module, "room_for_two", lambda outline, lone: True)  # as if nothing measured it
    assert near_it() == [(other, 1), (other, 1)]  # its halves


def test_halves_of_a_card_name_no_card(scene_reader, kit):
    """A lone card the deck does not hold (a plain patterned card) is not cut in halves that name cards."""
    frame = table(np.random.default_rng(kit.seed))
    quad = card_quad((320, 240), 160, 90)
    rng = np.random.default_rng(7)
    face = cv2.resize(rng.integers(0, 255, (12, 8, 3), dtype=np.uint8), (200, 310), interpolation=cv2.INTER_NEAREST)
    paste_card(frame, face, quad)
    assert SceneReader(scene_reader.classifier).read(frame).stacks == ()


def test_an_outline_is_cut_in_halves_only_where_two_cards_side_by_side_fit_it():
    """Two cards side by side are about as wide as one is long; a column of two is much longer than it is wide."""
    squat = np.float32([[0, 0], [90, 0], [90, 130], [0, 130]])  # a short side first
    cut = halves(squat)
    assert len(cut) == 2 and sum(cv2.contourArea(half) for half in cut) == pytest.approx(cv2.contourArea(squat))
    for half in cut:
        assert np.linalg.norm(half[1] - half[0]) < np.linalg.norm(half[2] - half[1])  # a short side first
    assert halves(np.float32([[0, 0], [56, 0], [56, 100], [0, 100]])) == []



def test_a_pale_card_is_read_where_the_deck_names_it_and_a_plain_lid_is_not(scene_reader, kit):
    """A deck printed pale: a lone card's face is as plain as a box lid's and shows no card top, so only its name
    tells it from one. Against that deck enrolled (from its faces as printed), the pale card is a stack of one; the lid
    beside it, which the deck takes for its (as pale) back, is none: a plain lone card stands only as a bean."""
    from companion.vision.keypoints import DETAIL_SIZE
    from companion.vision.profile import enroll

    def pale(label: str) -> np.ndarray:
        paper = np.array([200, 228, 240], np.float32)
        return (render_face(house_design(label)).astype(np.float32) * 0.12 + paper * 0.88).astype(np.uint8)

    printed = {label: [[cv2.resize(pale(label), DETAIL_SIZE, interpolation=cv2.INTER_AREA)]] for label in VISION_LABELS}
    gallery = enroll(scene_reader.classifier, printed, kit.seed).gallery
    frame = table(np.random.default_rng(kit.seed))
    card = card_quad((200, 240), 150, 10)
    paste_card(frame, pale("chili"), card)
    paste_card(frame, np.full((310, 200, 3), (205, 215, 220), np.uint8), card_quad((450, 240), 150, -5))  # a lid
    outlines = find_outlines(frame)
    assert len(outlines) == 2 and all(column.plain for column in scene_reader.columns.read(frame, outlines))
    (stack,) = SceneReader(scene_reader.classifier).read(frame, gallery).stacks
    assert (stack.bean, stack.count) == ("chili", 1)
    assert np.linalg.norm(stack.corners.mean(axis=0) - card.mean(axis=0)) < 0.1 * 150


def test_cards_of_an_enrolled_deck_are_reported_as_sure_as_the_decks_own_temperature_says(scene_reader, kit):
    """The scene judges outlines at the training scale, where its rules were set, and reports each card's name at the
    deck's temperature: the same cards and names as before it, each as sure as a name so sure is right."""
    from companion.vision.classifier import CardClassifier, tempered
    from companion.vision.keypoints import DETAIL_SIZE
    from companion.vision.profile import enroll

    def pale(label: str) -> np.ndarray:
        paper = np.array([200, 228, 240], np.float32)
        return (render_face(house_design(label)).astype(np.float32) * 0.25 + paper * 0.75).astype(np.uint8)

    shipped = scene_reader.classifier
    printed = {label: [[cv2.resize(pale(label), DETAIL_SIZE, interpolation=cv2.INTER_AREA)]] for label in VISION_LABELS}
    gallery = enroll(shipped, printed, kit.seed).gallery
    frame = table(np.random.default_rng(kit.seed))
    for k, label in enumerate(("chili", "soy", "coffee", "stink")):
        paste_card(frame, pale(label), card_quad((130 + 125 * k, 240), 150, 8 * k - 10))
    training = CardClassifier(replace(shipped.manifest, deck_scale=shipped.manifest.scale))
    before = SceneReader(training, scene_reader.columns).read(frame, gallery).cards
    after = SceneReader(shipped, scene_reader.columns).read(frame, gallery).cards
    assert [c.label for c in after] == [c.label for c in before] and len(after) == 4
    power = shipped.manifest.deck_scale / shipped.manifest.scale
    for old, new in zip(before, after):
        raised = tempered(Prediction(old.label, old.confidence, 0.0, old.likely), power)  # of rounded odds
        assert [label for label, _ in new.likely] == [label for label, _ in raised.likely]
        assert [p for _, p in new.likely] == pytest.approx([p for _, p in raised.likely], abs=1e-3)
    assert all(new.confidence >= old.confidence for old, new in zip(before, after))
    assert any(new.confidence > old.confidence for old, new in zip(before, after))


def test_a_prediction_tempered_is_the_one_decided_at_the_hotter_scale():
    from companion.vision.classifier import decide, tempered

    cosines = np.array([[0.81, 0.78, 0.6, 0.3, 0.55], [0.7, 0.2, 0.1, 0.65, 0.68]], np.float32)
    labels = ("a", "b", "c", "d", "e")
    for cool, hot in zip(decide(cosines, labels, 0.5, 16.0), decide(cosines, labels, 0.5, 36.0)):
        warmed = tempered(cool, 36.0 / 16.0)
        assert warmed.label == hot.label and warmed.confidence == pytest.approx(hot.confidence, abs=2e-4)
        assert [label for label, _ in warmed.likely] == [label for label, _ in hot.likely]
    unknown, hot_unknown = decide(cosines, labels, 0.9, 16.0)[0], decide(cosines, labels, 0.9, 32.0)[0]
    warmed = tempered(unknown, 2.0)  # its guesses tempered, its confidence (1 - the best cosine) its own
    assert warmed.label == UNKNOWN and warmed.confidence == unknown.confidence
    assert [label for label, _ in warmed.likely] == [label for label, _ in hot_unknown.likely]


def test_a_card_that_names_no_bean_is_kept_apart_from_the_stacks(scene_reader, kit):
    """A card-shaped picture of no bean beside a chili: the chili is a stack of one; the picture is none, but the scene
    keeps it apart as a column whose top card names nothing, which the referee takes for a field of a bean it does not
    know (a far card at a slant, too small to name, is one)."""
    rng = np.random.default_rng(kit.seed)
    frame = table(rng)
    paste_card(frame, render_face(house_design("chili")), card_quad((200, 240), 150, 10))
    blobs = cv2.GaussianBlur(rng.integers(0, 256, (310, 200, 3)).astype(np.uint8), (0, 0), 9)
    picture = cv2.normalize(blobs, None, 0, 255, cv2.NORM_MINMAX)
    paste_card(frame, picture, card_quad((450, 240), 150, -5))
    read = SceneReader(scene_reader.classifier).read(frame)
    assert [(stack.bean, stack.count) for stack in read.stacks] == [("chili", 1)]
    (unnamed,) = read.unnamed
    assert (unnamed.bean, unnamed.count) == ("unknown", 1)
    assert np.linalg.norm(unnamed.corners.mean(axis=0) - np.float32([450, 240])) < 15
