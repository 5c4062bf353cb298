"""The training path still works: a tiny model, a few steps, exported and run by onnxruntime."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort
import pytest
import torch

from companion.vision.classifier import CardClassifier
from companion.vision.manifest import load_manifest
from companion.vision.matcher import DetailMatcher
from models import train, train_deck, train_detail
from models.dataset import (
    INPUT_H,
    INPUT_W,
    LOCATOR_H,
    LOCATOR_W,
    REFINER_H,
    REFINER_W,
    house_faces,
    locator_set,
    refiner_set,
)
from models.deck_net import MARGIN, SCALE, DeckNet, deck_cosines, margin_logits
from models.detail_data import detail_set
from models.detail_net import DetailNet, deck_logits, ranking_loss
from support.tiny_models import models_folder


def test_fit_lowers_the_loss():
    photos, masks = locator_set(house_faces()[:4], 24, seed=5, workers=1)
    _, locator_history = train.fit_locator(photos, masks, epochs=5, seed=0, batch=8, lr=1e-2)
    assert locator_history[-1] < locator_history[0]
    views, corners = refiner_set(house_faces()[:4], 16, seed=5, locator=(load_manifest().locator, None, None),
                                 workers=1)
    assert views.shape[1:] == (REFINER_H, REFINER_W, 3) and corners.shape == (len(views), 8)
    assert len(views) >= 16 and np.all((corners > -0.2) & (corners < 1.2))
    _, refiner_history = train.fit_refiner(views, corners, epochs=5, seed=0, batch=8, lr=1e-2)
    assert refiner_history[-1] < refiner_history[0]
    crops = np.stack([cv2.resize(p, (INPUT_W, INPUT_H)) for p in photos])
    labels = np.arange(len(crops)) % 4
    *_, history = train.fit(crops, labels, classes=4, epochs=6, seed=0, batch=8, lr=1e-2)
    assert len(history) == 6
    assert history[-1] < history[0]


def test_tiny_training_run_exports_a_working_model(tmp_path):
    code = train.main(["--others", "3", "--card-others", "5", "--house-photos", "1", "--other-photos", "2",
                       "--epochs", "1", "--locator-photos", "16", "--locator-epochs", "1", "--refiner-photos", "8",
                       "--refiner-epochs", "1", "--batch", "8", "--workers", "1",
                       "--out", str(tmp_path)])
    assert code == 0
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    sessions = {}
    for key in ("classifier", "locator", "refiner"):
        blob = (tmp_path / manifest[key]["file"]).read_bytes()
        assert hashlib.sha256(blob).hexdigest() == manifest[key]["sha256"]
        sessions[key] = ort.InferenceSession(blob, providers=["CPUExecutionProvider"])
    embedding, cosines = sessions["classifier"].run(None, {"image": np.random.rand(3, 3, INPUT_H, INPUT_W)
                                                           .astype(np.float32)})
    assert embedding.shape == (3, manifest["classifier"]["embedding_dim"])
    assert cosines.shape == (3, len(manifest["labels"]))
    assert manifest["training"]["locator"]["others"] == manifest["training"]["refiner"]["others"] == 3
    assert manifest["training"]["card"]["card_others"] == 5
    assert np.allclose(np.linalg.norm(embedding, axis=1), 1, atol=1e-4)
    mask = sessions["locator"].run(None, {"image": np.random.rand(2, 3, LOCATOR_H, LOCATOR_W).astype(np.float32)})
    assert mask[0].shape == (2, 1, LOCATOR_H // 2, LOCATOR_W // 2)
    corners = sessions["refiner"].run(None, {"image": np.random.rand(2, 3, REFINER_H, REFINER_W).astype(np.float32)})
    assert corners[0].shape == (2, 8)


def test_retraining_a_stage_keeps_how_every_other_model_was_trained():
    records = train.previous_records()
    assert {"locator", "refiner", "card", "bands", "detail", "deck"} <= set(records)
    assert records["bands"]["columns"] > 0


def test_stages_left_out_keep_the_package_models(tmp_path):
    code = train.main(["--stages", "refiner", "--others", "3", "--refiner-photos", "8", "--refiner-epochs", "1",
                       "--batch", "8", "--workers", "1", "--out", str(tmp_path)])
    assert code == 0
    written = json.loads((tmp_path / "manifest.json").read_text())
    shipped = load_manifest()
    assert written["locator"]["sha256"] == shipped.locator.sha256
    assert written["classifier"]["sha256"] == shipped.classifier.sha256
    assert written["refiner"]["sha256"] != shipped.refiner.sha256


def test_threshold_sits_in_the_middle_of_the_gap_between_cards_and_strays():
    known, strays = np.array([0.8, 0.9, 0.95]), np.array([0.2, 0.5, 0.6])
    assert train.threshold(known, strays) == pytest.approx(0.7)
    # overlapping: rejecting a known card costs ten strays, so the stray at 0.85 is let in
    assert 0.6 < train.threshold(known, np.array([0.2, 0.6, 0.85])) <= 0.8


def test_settled_threshold_follows_second_looks_until_it_stops_moving():
    known, strays = np.array([0.8, 0.9, 0.95]), np.array([0.2, 0.5, 0.6])
    asked = []

    def best(t: float) -> tuple[np.ndarray, np.ndarray]:
        asked.append(t)  # a second look lifts known cards less than 0.15 above the threshold
        return np.where(known < t + 0.15, known + 0.05, known), strays

    # no threshold: gap 0.6-0.8, middle 0.7; there the card at 0.8 is lifted to 0.85: middle 0.725, which stays
    assert train.settled_threshold(best) == pytest.approx(0.725)
    assert asked == [-1.0, pytest.approx(0.7), pytest.approx(0.725)]


def tiny_run(main, key: str, folder: Path):  # noqa: ANN001, ANN201 - a training module's main; a Manifest
    """One step of a training on whole decks into a copied models folder; its manifest, once the run's record
    (its options and log) landed in it beside the other records, unchanged."""
    code = main(["--decks", "2", "--tests", "1", "--steps", "1", "--batch-decks", "2", "--check-decks", "1",
                 "--workers", "1", "--out", str(models_folder(folder))])
    assert code == 0
    record = json.loads((folder / "manifest.json").read_text())["training"]
    assert record[key]["decks"] == 2 and any("ranked first" in line for line in record[key]["log"])
    shipped = json.loads((train.MODEL_DIR / "manifest.json").read_text())["training"]
    assert {k: v for k, v in record.items() if k != key} == {k: v for k, v in shipped.items() if k != key}
    return load_manifest(folder)


@pytest.mark.slow
def test_the_detail_matcher_trains_and_exports_what_the_runtime_loads(tmp_path):
    """The new matcher's files and checksums land in the manifest, and the runtime's matcher loads and runs them."""
    manifest, shipped = tiny_run(train_detail.main, "detail", tmp_path / "models"), load_manifest()
    assert manifest.detail_features.sha256 != shipped.detail_features.sha256
    assert manifest.detail_compare.sha256 != shipped.detail_compare.sha256
    assert manifest.classifier == shipped.classifier and manifest.bands == shipped.bands
    matcher = DetailMatcher(manifest, 1, tmp_path / "models")
    crop = np.random.default_rng(0).integers(0, 256, (144, 96, 3), np.uint8)
    maps = matcher.features([crop, crop[::-1, ::-1]])
    assert maps.shape == (2, manifest.detail_channels, 18, 12)
    assert np.isfinite(matcher.logit(maps, maps[:1]))


@pytest.mark.slow
def test_the_deck_network_trains_exports_what_the_runtime_loads_and_goes_on_from_its_weights(tmp_path):
    """The new deck network's file and checksum land in the manifest, and the runtime embeds a crop and its turn
    alike with it; a run started from the weights it wrote, taking no step, writes those weights again."""
    manifest, shipped = tiny_run(train_deck.main, "deck", tmp_path / "models"), load_manifest()
    assert manifest.deck.sha256 != shipped.deck.sha256
    assert manifest.classifier == shipped.classifier and manifest.detail_features == shipped.detail_features
    classifier = CardClassifier(manifest, 1, tmp_path / "models")
    crop = np.random.default_rng(0).integers(0, 256, (96, 64, 3), np.uint8)
    joint = classifier.deck_embed([crop, crop[::-1, ::-1]])
    assert joint.shape == (2, classifier.deck_dim) and np.allclose(joint[0, 64:], joint[1, 64:], atol=1e-4)

    first = tmp_path / "models" / "deck_net.pt"
    weights = torch.load(first)
    code = train_deck.main(["--decks", "2", "--tests", "1", "--steps", "0", "--batch-decks", "2", "--check-decks", "1",
                            "--workers", "1", "--out", str(tmp_path / "again"), "--start", str(first)])
    assert code == 0
    again = torch.load(tmp_path / "again" / "deck_net.pt")
    assert all(torch.equal(weights[k], again[k]) for k in weights)  # no step taken: the weights it started from
    assert json.loads((tmp_path / "again" / "deck_training.json").read_text())["start"].endswith("deck_net.pt")


def test_deck_training_wants_a_cards_own_photo_first_by_a_margin_over_every_photo_in_the_batch():
    net = DeckNet().eval()
    cards = torch.rand(2, 16, 3, 144, 96)  # crops at the detail size, read at the card network's
    photos = torch.rand(2, 16, 3, 144, 96)
    cosines = deck_cosines(net, cards, cards.flip(-1, -2), cards)
    assert cosines.shape == (2, 16, 16)
    assert torch.allclose(cosines.diagonal(dim1=1, dim2=2), torch.ones(2, 16), atol=1e-5)
    assert torch.allclose(margin_logits(net, cards, cards.flip(-1, -2), cards), SCALE * cosines)  # judged in-deck
    across = deck_cosines(net, cards, cards.flip(-1, -2), photos, across=True)
    assert across.shape == (2, 16, 32)  # the own deck's photos first, then the other deck's
    assert torch.allclose(across[0, :, 16:], deck_cosines(net, cards, cards.flip(-1, -2), photos.flip(0))[0])
    assert torch.allclose(across[1, :, 16:], deck_cosines(net, cards, cards.flip(-1, -2), photos.flip(0))[1])
    net.train()
    torch.manual_seed(0)  # the same dropout in both calls
    logits = margin_logits(net, cards, cards.flip(-1, -2), photos)
    torch.manual_seed(0)
    plain = deck_cosines(net, cards, cards.flip(-1, -2), photos, across=True)
    own = torch.eye(16, 32, dtype=torch.bool).expand(2, -1, -1)
    assert torch.allclose(logits[own], SCALE * (plain[own] - MARGIN), atol=1e-4)  # the own photo wins by the margin
    assert torch.allclose(logits[~own], SCALE * plain[~own], atol=1e-4)


def test_the_matcher_is_trained_on_whole_decks_cropped_as_the_runtime_crops_them():
    data = detail_set(seed=3, decks=2, tests=2, workers=1)
    assert data.enrolled.shape == (2, 16, 144, 96, 3) and data.tests.shape == (2, 16, 2, 144, 96, 3)
    assert data.found.mean() > 0.9
    again = detail_set(seed=3, decks=1, tests=2, workers=1)
    assert np.array_equal(again.enrolled[0], data.enrolled[0])  # deck d depends on (seed, d) only
    net = DetailNet()
    cards = torch.from_numpy(data.tests[:, :, 0]).permute(0, 1, 4, 2, 3).float() / 255
    photos = torch.from_numpy(data.enrolled).permute(0, 1, 4, 2, 3).float() / 255
    logits = deck_logits(net, cards, cards.flip(-1, -2), photos)
    assert logits.shape == (2, 16, 16)
    loss = ranking_loss(logits, torch.from_numpy(data.found[:, :, 0]).float())
    assert loss.item() == pytest.approx(np.log(16), rel=0.2)  # untrained: about chance among 16
