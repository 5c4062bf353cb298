"""Enrolling a deck in an art style the network never saw, and deck profiles on disk."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from companion.cards import VISION_LABELS
from companion.vision import UNKNOWN, DeckProfile, VisionError, enroll
from companion.vision.classifier import CARD_SHARE
from companion.vision.profile import relearnt
from models.dataset import non_card_photo
from models.render import render_face, unseen_deck


@pytest.fixture(scope="module")
def deck_faces(kit) -> list[np.ndarray]:
    return [render_face(d) for d in unseen_deck(kit.seed).values()]


@pytest.fixture(scope="module")
def profile(reader, deck_faces, kit) -> DeckProfile:
    shots = kit.photos_of(deck_faces, 1, kit.seed + 5, cover=False)
    framings = [reader.enrollment_framings(s)[0] for s in shots]
    return enroll(reader.classifier, {label: [f] for label, f in zip(VISION_LABELS, framings)})


def test_one_shot_enrollment_names_fresh_photos(reader, deck_faces, profile, kit):
    photos = kit.photos_of(deck_faces, 3, kit.seed + 6)
    truth = [label for label in VISION_LABELS for _ in range(3)]
    preds = reader.read(photos, profile.gallery)
    right = sum(p.label == t for p, t in zip(preds, truth))
    assert right >= 0.9 * len(truth), [(p.label, t) for p, t in zip(preds, truth) if p.label != t]


def test_non_cards_score_below_deck_cards(reader, deck_faces, profile, kit):
    # Deck-mode rejection is about 85 % in the evaluation (tables and other-style cards):
    # assert a clear gap between enrolled cards and bare tables, and that most tables are rejected.
    tables = reader.read([non_card_photo(np.random.default_rng([kit.seed, 9, i])) for i in range(30)],
                         profile.gallery)
    cards = reader.read(kit.photos_of(deck_faces, 2, kit.seed + 7), profile.gallery)
    assert np.median([p.similarity for p in cards]) > np.median([p.similarity for p in tables]) + 0.2
    assert sum(p.label == UNKNOWN for p in tables) >= 0.6 * len(tables)


def test_a_label_without_crops_cannot_be_enrolled(classifier):
    crop = np.zeros((96, 64, 3), np.uint8)
    with pytest.raises(VisionError, match="red: no card crop to enroll"):
        enroll(classifier, {"blue": [[crop]], "red": [[]]})


def test_profile_round_trip(tmp_path, classifier, profile):
    path = tmp_path / "deck.json"
    profile.save(path)
    loaded = DeckProfile.load(path, classifier)
    assert loaded.gallery.labels == VISION_LABELS
    assert np.allclose(loaded.gallery.vectors, profile.gallery.vectors, atol=1e-5)
    assert loaded.gallery.threshold == pytest.approx(classifier.manifest.deck_threshold)
    assert loaded.photos == {label: 1 for label in VISION_LABELS}
    assert all(np.array_equal(a, b) for label in VISION_LABELS
               for a, b in zip(loaded.details[label], profile.details[label]))  # fmt: skip
    assert [len(k) for k in loaded.gallery.details] == [1] * len(VISION_LABELS)  # the second opinion's keypoints


@pytest.mark.parametrize("earlier", [1, 2, 3])
def test_a_profile_of_an_earlier_format_is_refused_with_what_to_do(tmp_path, classifier, profile, earlier):
    """Formats 1 and 2 hold the card network's embeddings alone, which the deck network's cannot stand beside;
    format 3 weighed the two networks alike."""
    path = tmp_path / "deck.json"
    profile.save(path)
    data = json.loads(path.read_text())
    dim = classifier.deck_dim if earlier == 3 else classifier.manifest.embedding_dim
    vectors = {k: v[:dim] for k, v in data["prototypes"].items()}
    path.write_text(json.dumps({**data, "format": earlier, "prototypes": vectors,
                                "model_sha256": classifier.manifest.classifier.sha256}))
    with pytest.raises(VisionError, match="earlier version, which embedded cards otherwise; enroll the deck again"):
        DeckProfile.load(path, classifier)


def test_prototypes_hold_both_networks_embeddings(classifier, profile):
    """Each prototype is the card network's and the deck network's embedding side by side: a crop's cosine to
    it is the two networks' cosines weighted by CARD_SHARE and the rest."""
    assert profile.gallery.vectors.shape == (len(profile.gallery.labels), classifier.deck_dim)
    assert classifier.deck_dim == classifier.manifest.embedding_dim + classifier.manifest.deck_embedding_dim
    assert profile.model_sha256 == f"{classifier.manifest.classifier.sha256}+{classifier.manifest.deck.sha256}"
    crops = [np.full((96, 64, 3), 60 + 40 * k, np.uint8) for k in range(3)]
    joint, card = classifier.deck_embed(crops), classifier.embed(crops)
    split = classifier.manifest.embedding_dim
    deck = joint[:, split:] / np.sqrt(1 - CARD_SHARE)
    assert np.allclose(np.linalg.norm(joint, axis=1), 1, atol=1e-5)
    assert np.allclose(np.linalg.norm(deck, axis=1), 1, atol=1e-5)
    assert np.allclose(joint[:, :split] / np.sqrt(CARD_SHARE), card, atol=1e-5)
    assert np.allclose(joint @ joint.T, CARD_SHARE * card @ card.T + (1 - CARD_SHARE) * deck @ deck.T, atol=1e-5)
    turned = classifier.deck_embed([c[::-1, ::-1].copy() for c in crops])[:, split:]
    assert np.allclose(turned / np.sqrt(1 - CARD_SHARE), deck, atol=1e-4)  # the deck network reads either way up


def test_small_crops_are_enrolled_without_details(classifier):
    crop = np.full((96, 64, 3), 90, np.uint8)
    small = enroll(classifier, {"blue": [[crop]], "red": [[crop[::-1].copy()]]})
    assert small.details == {"blue": [], "red": []} and small.gallery.details == ()


def test_a_photos_framings_may_come_as_one_array(classifier):
    """The training and evaluation tools hand each photo's framings over as one (F, H, W, 3) array."""
    crop = np.full((150, 100, 3), 90, np.uint8)
    crop[40:110, 30:70] = (200, 40, 40)
    stacked = enroll(classifier, {"blue": [np.stack([crop, crop])], "red": [np.stack([crop[::-1]])]})
    listed = enroll(classifier, {"blue": [[crop, crop]], "red": [[crop[::-1].copy()]]})
    assert len(stacked.details["blue"]) == 1 and len(stacked.details["red"]) == 1
    assert np.allclose(stacked.gallery.vectors, listed.gallery.vectors, atol=1e-5)


def test_a_profile_takes_the_models_present_deck_threshold(tmp_path, classifier, profile):
    # made before the same network was calibrated again: its cosines still hold, its threshold not
    path = tmp_path / "deck.json"
    dataclasses.replace(profile, gallery=dataclasses.replace(profile.gallery, threshold=0.1)).save(path)
    assert json.loads(path.read_text())["threshold"] == 0.1
    assert DeckProfile.load(path, classifier).gallery.threshold == classifier.manifest.deck_threshold


def test_bad_profiles_say_what_to_do(tmp_path, classifier, profile):
    with pytest.raises(VisionError, match="no such deck profile.*enroll"):
        DeckProfile.load(tmp_path / "missing.json", classifier)
    (tmp_path / "junk.json").write_text("{not json")
    with pytest.raises(VisionError, match="junk.json: not a deck profile"):
        DeckProfile.load(tmp_path / "junk.json", classifier)
    data = json.loads((profile.save(tmp_path / "ok.json"), (tmp_path / "ok.json").read_text())[1])
    (tmp_path / "bad-detail.json").write_text(json.dumps({**data, "details": {"blue": ["bm90IGEgcG5n"]}}))
    with pytest.raises(VisionError, match="bad-detail.json: not a deck profile.*not a PNG image"):
        DeckProfile.load(tmp_path / "bad-detail.json", classifier)
    dataclasses.replace(profile, model_sha256="f" * 64).save(tmp_path / "old.json")
    with pytest.raises(VisionError, match="old.json.*another model"):
        DeckProfile.load(tmp_path / "old.json", classifier)


def test_cards_learnt_in_play_join_their_labels_prototype_and_details(classifier, deck_faces, kit, reader):
    shots = kit.photos_of(deck_faces[:3], 2, kit.seed + 8, cover=False)
    framings = [reader.enrollment_framings(s)[0] for s in shots]
    photos = {label: [framings[2 * k]] for k, label in enumerate(VISION_LABELS[:3])}
    learnt = {VISION_LABELS[1]: [framings[3][0]]}
    plain, taught = enroll(classifier, photos), enroll(classifier, photos, learnt=learnt)
    assert taught.learnt == {VISION_LABELS[1]: 1} and taught.photos == plain.photos
    assert len(taught.details[VISION_LABELS[1]]) == len(plain.details[VISION_LABELS[1]]) + 1
    assert not np.allclose(taught.gallery.vectors[1], plain.gallery.vectors[1], atol=1e-3)
    assert np.allclose(taught.gallery.vectors[[0, 2]], plain.gallery.vectors[[0, 2]], atol=1e-6)  # no other moved


def test_one_label_enrolled_again_gives_the_profile_a_whole_enrollment_would(classifier, deck_faces, kit, reader):
    shots = kit.photos_of(deck_faces[:3], 2, kit.seed + 8, cover=False)
    framings = [reader.enrollment_framings(s)[0] for s in shots]
    photos = {label: [framings[2 * k]] for k, label in enumerate(VISION_LABELS[:3])}
    learnt = [framings[3][0], framings[5][0]]
    whole = enroll(classifier, photos, learnt={VISION_LABELS[1]: learnt})
    again = relearnt(enroll(classifier, photos), classifier, VISION_LABELS[1], photos[VISION_LABELS[1]], learnt)
    assert np.allclose(again.gallery.vectors, whole.gallery.vectors, atol=1e-6)
    assert again.learnt == whole.learnt == {VISION_LABELS[1]: 2} and again.photos == whole.photos
    later = relearnt(again, classifier, VISION_LABELS[0], photos[VISION_LABELS[0]], learnt[:1])
    assert list(later.learnt) == [VISION_LABELS[0], VISION_LABELS[1]]  # in the labels' order, whatever came first
    assert all(np.array_equal(a, b) for label in VISION_LABELS[:3]
               for a, b in zip(again.details[label], whole.details[label], strict=True))  # fmt: skip


def test_a_profile_keeps_its_learnt_cards_on_disk(tmp_path, classifier, profile):
    taught = dataclasses.replace(profile, learnt={"blue": 3})
    taught.save(tmp_path / "deck.json")
    assert DeckProfile.load(tmp_path / "deck.json", classifier).learnt == {"blue": 3}
    assert not list(tmp_path.glob("*.new"))  # written whole, then put in place
