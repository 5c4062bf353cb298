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
from companion.vision.classifier import Gallery, decide, turned, unsure
from companion.vision.manifest import load_manifest
from companion.vision.views import CardViews
from models.dataset import non_card_photo


def test_manifest_checksums_and_shapes(reader):
    data = json.loads(resources.files("models").joinpath("manifest.json").read_text())
    matcher = reader.classifier.matcher
    sessions = (("classifier", reader.classifier.session), ("locator", reader.locator.session),
                ("refiner", reader.locator.refiner.session), ("detail_features", matcher.features_session))
    total = 0
    for key, session in sessions:
        blob = resources.files("models").joinpath(data[key]["file"]).read_bytes()
        assert hashlib.sha256(blob).hexdigest() == data[key]["sha256"]
        total += len(blob)
        assert session.get_inputs()[0].shape[1:] == [3, data[key]["input_height"], data[key]["input_width"]]
    compare = data["detail_compare"]
    blob = resources.files("models").joinpath(compare["file"]).read_bytes()
    assert hashlib.sha256(blob).hexdigest() == compare["sha256"]
    for given in matcher.compare_session.get_inputs():
        assert given.shape[1:] == [compare["channels"], compare["input_height"], compare["input_width"]]
    files = [entry["file"] for entry in data.values() if isinstance(entry, dict) and "file" in entry]
    assert {"band_net.onnx", "top_check.onnx", "deck_net.onnx"} <= set(files)
    every = sum(len(resources.files("models").joinpath(name).read_bytes()) for name in files)
    assert total + len(blob) <= every < 20 * 1024 * 1024  # the limit for every model file together
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


def test_a_card_keeps_every_label_it_may_be_most_probable_first_named_or_not():
    cos = np.array([[0.5, 0.6, 0.3], [0.9, 0.1, 0.0], [0.2, 0.3, 0.1]], np.float32)
    close, clear, unknown = decide(cos, ("a", "b", "c"), threshold=0.5, scale=16.0)
    assert [label for label, _ in close.likely] == ["b", "a", "c"]
    assert close.likely[0] == ("b", close.confidence) and sum(p for _, p in close.likely) == pytest.approx(1, abs=1e-3)
    assert [label for label, _ in clear.likely] == ["a"]  # b and c: less than LIKELY_LEAST (e^-12.8)
    assert unknown.label == UNKNOWN and [label for label, _ in unknown.likely] == ["b", "a", "c"]  # nearest, below 0.5


def test_corrupt_or_missing_model_names_the_file():
    manifest = load_manifest()
    net = manifest.classifier
    with pytest.raises(VisionError, match=r"card_net\.onnx.*corrupt.*models\.train"):
        CardClassifier(dataclasses.replace(manifest, classifier=dataclasses.replace(net, sha256="0" * 64)))
    with pytest.raises(VisionError, match=r"nothing\.onnx.*missing"):
        CardClassifier(dataclasses.replace(manifest, classifier=dataclasses.replace(net, file="nothing.onnx")))


def test_unsure_answers_are_close_runners_up_or_near_the_threshold():
    cos = np.array([[0.9, 0.1], [0.9, 0.85], [0.55, 0.1], [0.3, 0.0]], np.float32)
    assert unsure(cos, threshold=0.5).tolist() == [False, True, True, True]
    assert unsure(cos[:, :1], threshold=0.5).tolist() == [False, False, True, True]  # a one-label deck


def test_a_sure_card_is_named_by_its_first_view_alone(reader, classifier, faces, kit):
    views = [reader.views(p) for p in kit.photos_of(faces[:4], 2, kit.seed + 2, cover=False)]
    _, first = classifier.infer([v.framings[0] for v in views])
    sure = ~unsure(first, classifier.manifest.unknown_threshold)
    assert sure.sum() >= 6
    cosines = classifier.cosines(views, None, classifier.manifest.unknown_threshold)
    assert np.allclose(cosines[sure], first[sure])
    assert classifier.classify_views([]) == []
    gallery = Gallery(classifier.manifest.labels, deck_vectors(reader, faces, kit), 0.5)
    deck_embeddings, _ = classifier.infer([v.framings[0] for v in views], deck=True)
    first = deck_embeddings @ gallery.vectors.T
    sure = ~unsure(first, gallery.threshold)
    assert sure.sum() >= 4
    against_gallery = classifier.cosines(views, gallery, gallery.threshold)
    assert np.allclose(against_gallery[sure], first[sure], atol=1e-5)


def test_a_card_without_views_is_unknown_and_leaves_the_others_alone(reader, classifier, faces, kit):
    views = [reader.views(p) for p in kit.photos_of(faces[:3], 1, kit.seed + 5, cover=False)]
    threshold = classifier.manifest.unknown_threshold
    with_gap = [views[0], CardViews(), views[1], CardViews(), views[2]]
    cosines = classifier.cosines(with_gap, None, threshold)
    assert np.allclose(cosines[[0, 2, 4]], classifier.cosines(views, None, threshold), atol=1e-6)
    assert (cosines[[1, 3]] == -1).all()
    preds = classifier.classify_views(with_gap)
    assert [p.label for p in preds[1::2]] == [UNKNOWN, UNKNOWN] and preds[1].confidence == 1.0
    assert [p.label for p in preds[::2]] == list(classifier.manifest.labels[:3])


def test_a_reframing_is_a_reading_of_its_own_that_counts_where_it_is_higher(reader, classifier, faces, kit):
    coffee, wax = kit.photos_of(faces[:2], 1, kit.seed + 6, cover=False)
    coffee_crops, wax_crop = reader.views(coffee).framings, reader.crop(wax)
    threshold = classifier.manifest.unknown_threshold
    alone = classifier.cosines([CardViews(coffee_crops)], None, 2.0)[0]
    reading = classifier.cosines([CardViews([wax_crop, turned(wax_crop)])], None, 2.0)[0]
    # every card unsure: the framings' mean and the reframing's (with its turn), label by label the higher
    both = classifier.cosines([CardViews(coffee_crops, [wax_crop])], None, 2.0)[0]
    assert np.allclose(both, np.maximum(alone, reading), atol=1e-5)
    assert reading[1] > alone[1] and alone[0] > reading[0]
    # a sure card is named by its first framing alone: its reframings are not looked at
    sure = classifier.cosines([CardViews(coffee_crops, [wax_crop])], None, threshold)[0]
    assert np.allclose(sure, classifier.cosines([CardViews(coffee_crops[:1])], None, threshold)[0], atol=1e-5)


def test_a_card_still_unsure_after_its_second_look_reads_the_neighbours_it_is_given(reader, classifier, faces, kit):
    coffee, wax = kit.photos_of(faces[:2], 1, kit.seed + 6, cover=False)
    coffee_crops, wax_crop = reader.views(coffee).framings, reader.crop(wax)
    sure = classifier.manifest.unknown_threshold
    # a sure card is named as if it had none
    alone = classifier.cosines([CardViews(coffee_crops)], None, sure)[0]
    assert np.allclose(classifier.cosines([CardViews(coffee_crops, (), [wax_crop])], None, sure)[0], alone, atol=1e-5)
    # a card unsure at every look reads them as a reframing is read
    unsure_all_along = classifier.cosines([CardViews(coffee_crops, (), [wax_crop])], None, 2.0)[0]
    as_reframing = classifier.cosines([CardViews(coffee_crops, [wax_crop])], None, 2.0)[0]
    assert np.allclose(unsure_all_along, as_reframing, atol=1e-5)


def test_the_reader_asks_the_locator_for_neighbours_only_for_cards_still_unsure(reader, faces, kit, monkeypatch):
    photos = kit.photos_of(faces[:3], 1, kit.seed + 6, cover=False)
    asked = []
    refine = reader.locator.refined_neighbours
    monkeypatch.setattr(reader.locator, "refined_neighbours",
                        lambda photo, quad: asked.append(1) or refine(photo, quad))  # counted, still run
    named = reader.read(photos)
    assert asked == [] and [p.label for p in named] == list(reader.classifier.manifest.labels[:3])
    views = [reader.views(p) for p in photos]
    assert all(len(v.neighbours) == 0 for v in views)  # views come without neighbours
    vectors = reader.classifier.deck_embed([v.framings[0] for v in views])
    doubtful = Gallery(reader.classifier.manifest.labels[:3], vectors, 2.0)  # no card is ever sure against it
    assert [p.label for p in reader.read(photos, doubtful)] == [UNKNOWN] * 3
    assert asked == [1, 1, 1]  # one refiner run per card, once it was still unsure


def class_vectors(reader, faces, kit) -> np.ndarray:  # noqa: ANN001
    """The network's class vectors, solved from embeddings and cosines (cosines are linear in them)."""
    embeddings, cosines = reader.classifier.infer([reader.crop(p) for p in kit.photos_of(faces, 6, kit.seed + 3)])
    return np.linalg.lstsq(embeddings, cosines, rcond=None)[0].T.astype(np.float32)


def deck_vectors(reader, faces, kit) -> np.ndarray:  # noqa: ANN001
    """One prototype per face for naming an enrolled deck: the deck embedding of one photo of it."""
    return reader.classifier.deck_embed([reader.crop(p) for p in kit.photos_of(faces, 1, kit.seed + 3, cover=False)])


def test_an_unsure_card_gets_the_mean_of_all_its_framings_and_their_turns(reader, classifier, faces, kit):
    views = [CardViews(reader.views(p).framings) for p in kit.photos_of(faces[:2], 2, kit.seed + 4)]
    everything = [[*v.framings, *map(turned, v.framings)] for v in views]
    embeddings = [classifier.embed(crops).mean(axis=0) for crops in everything]
    means = np.array([e / np.linalg.norm(e) for e in embeddings])
    vectors = class_vectors(reader, faces, kit)
    # a threshold above every cosine leaves every card unsure: all of them get the second look
    assert np.allclose(classifier.cosines(views, None, 2.0), means @ vectors.T, atol=1e-3)
    gallery = Gallery(classifier.manifest.labels, deck_vectors(reader, faces, kit), 2.0)
    deck_means = np.array([e / np.linalg.norm(e) for e in (classifier.deck_embed(c).mean(axis=0) for c in everything)])
    assert np.allclose(classifier.cosines(views, gallery, 2.0), deck_means @ gallery.vectors.T, atol=1e-5)
    assert all(p.label == UNKNOWN for p in classifier.classify_views(views, gallery))
