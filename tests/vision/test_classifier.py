"""The shipped ONNX network through onnxruntime, on freshly rendered photos."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from importlib import resources

import numpy as np
import pytest

from companion.cards import VISION_LABELS
from companion.vision import UNKNOWN, CardClassifier, VisionError
from companion.vision.classifier import decide
from companion.vision.manifest import load_manifest
from models.dataset import non_card_photo


def test_manifest_checksums_and_shapes(reader):
    data = json.loads(resources.files("models").joinpath("manifest.json").read_text())
    sessions = (("classifier", reader.classifier.session), ("locator", reader.locator.session),
                ("refiner", reader.locator.refiner.session))
    for key, session in sessions:
        blob = resources.files("models").joinpath(data[key]["file"]).read_bytes()
        assert hashlib.sha256(blob).hexdigest() == data[key]["sha256"]
        assert len(blob) < 5 * 1024 * 1024
        assert session.get_inputs()[0].shape[1:] == [3, data[key]["input_height"], data[key]["input_width"]]
    assert tuple(data["labels"]) == VISION_LABELS
    assert -1 < data["unknown_threshold"] < 1 and -1 < data["deck_threshold"] < 1


def test_names_fresh_photos_of_the_house_deck(reader, faces, kit):
    photos = kit.photos_of(faces, 4, kit.seed)
    truth = [label for label in VISION_LABELS for _ in range(4)]
    preds = reader.read(photos)
    right = sum(p.label == t for p, t in zip(preds, truth))
    assert right >= 0.95 * len(truth), [(p.label, t) for p, t in zip(preds, truth) if p.label != t]
    assert all(0 < p.confidence <= 1 for p in preds)


def test_batches_agree_with_single_cards(reader, classifier, faces, kit):
    crops = [reader.crop(p) for p in kit.photos_of(faces[:6], 2, kit.seed + 1)]
    batched, _ = classifier.infer(crops)
    single = np.concatenate([classifier.infer([c])[0] for c in crops])
    assert np.allclose(batched, single, atol=1e-4)
    assert np.allclose(np.linalg.norm(batched, axis=1), 1, atol=1e-4)
    assert classifier.infer([])[0].shape == (0, classifier.manifest.embedding_dim)


def test_bare_tables_are_unknown(reader, kit):
    photos = [non_card_photo(np.random.default_rng([kit.seed, i])) for i in range(40)]
    unknown = sum(p.label == UNKNOWN for p in reader.read(photos))
    assert unknown >= 0.8 * len(photos)


def test_decide_thresholds_and_confidence():
    cos = np.array([[0.9, 0.1, 0.0], [0.2, 0.3, 0.1]], np.float32)
    preds = decide(cos, ("a", "b", "c"), threshold=0.5, scale=16.0)
    assert preds[0].label == "a" and preds[0].confidence > 0.99
    assert preds[1].label == UNKNOWN and preds[1].confidence == pytest.approx(0.7)
    assert decide(cos, ("a", "b", "c"), threshold=0.25, scale=16.0)[1].label == "b"


def test_corrupt_or_missing_model_names_the_file():
    manifest = load_manifest()
    net = manifest.classifier
    with pytest.raises(VisionError, match=r"card_net\.onnx.*corrupt.*models\.train"):
        CardClassifier(dataclasses.replace(manifest, classifier=dataclasses.replace(net, sha256="0" * 64)))
    with pytest.raises(VisionError, match=r"nothing\.onnx.*missing"):
        CardClassifier(dataclasses.replace(manifest, classifier=dataclasses.replace(net, file="nothing.onnx")))
