"""``companion vision classify`` and ``enroll``: JSON output and clear messages on bad input."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from companion.cards import VISION_LABELS
from companion.cli import main
from companion.vision import reader as reader_module
from models.render import render_face, unseen_deck
from support.doubtful_photo import card_off_the_edge


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["vision", *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_classify_json_one_object_per_image(tmp_path, capsys, faces, kit):
    paths = kit.write_photos(tmp_path, kit.photos_of(faces, 1, kit.seed + 20))
    code, out, _ = _run(capsys, "classify", *paths, "--json")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["image"] for r in rows] == paths
    assert all(set(r) == {"image", "label", "confidence"} for r in rows)
    right = sum(r["label"] == label for r, label in zip(rows, VISION_LABELS))
    assert right >= len(VISION_LABELS) - 1, rows


def test_unreadable_images_are_named_and_skipped(tmp_path, capsys, faces, kit):
    good = kit.write_photos(tmp_path, kit.photos_of(faces[:1], 1, kit.seed + 21))[0]
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\xff\xd8 not really a jpeg")
    code, out, err = _run(capsys, "classify", str(broken), str(tmp_path / "gone.png"), good, "--json")
    assert code == 2
    assert f"{broken}: not a readable image" in err
    assert "gone.png: no such image file" in err
    assert [json.loads(line)["image"] for line in out.splitlines()] == [good]


def test_a_photo_without_a_card_is_unknown_with_a_note(tmp_path, capsys, faces, kit):
    photo = kit.photos_of(faces[:1], 1, kit.seed + 24)[0]
    card, blank = kit.write_photos(tmp_path, [photo, np.full_like(photo, 128)])
    code, out, err = _run(capsys, "classify", card, blank, "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [r["label"] for r in rows] == [VISION_LABELS[0], "unknown"]
    assert rows[1]["confidence"] == 1.0
    assert f"{blank}: no card outline found" in err and card not in err


def test_enroll_then_classify_with_the_deck(tmp_path, capsys, kit):
    deck = [render_face(d) for d in unseen_deck(kit.seed + 1).values()]
    for label, face in zip(VISION_LABELS, deck):
        kit.write_photos(tmp_path / "deck" / label, kit.photos_of([face], 2, kit.seed + 22, cover=False))
    profile = tmp_path / "deck.json"
    code, out, err = _run(capsys, "enroll", "--out", str(profile), str(tmp_path / "deck"))
    assert code == 0 and profile.exists() and "16 labels from 32 photos" in out and "no card outline" not in err
    paths = kit.write_photos(tmp_path / "test", kit.photos_of(deck, 1, kit.seed + 23))
    code, out, _ = _run(capsys, "classify", *paths, "--deck", str(profile), "--json")
    labels = [json.loads(line)["label"] for line in out.splitlines()]
    assert code == 0
    assert sum(a == b for a, b in zip(labels, VISION_LABELS)) >= len(VISION_LABELS) - 2, labels


def _folder(root, counts: dict[str, int], faces, kit) -> str:  # noqa: ANN001
    for (label, n), face in zip(counts.items(), faces):
        (root / label).mkdir(parents=True, exist_ok=True)
        kit.write_photos(root / label, kit.photos_of([face], n, kit.seed + 24, cover=False))
    return str(root)


@pytest.mark.parametrize(("counts", "message"), [
    ({}, "empty enrollment folder"),
    ({"blue": 1, "red": 0}, "no photos in red/"),
    ({"blue": 4, "red": 1}, "lopsided enrollment, blue/ has 4 photos but red/ only 1"),
    ({"blue": 1, "bleu": 1}, "folders bleu are no known labels"),
    ({"blue": 1}, "only blue/ has photos"),
])
def test_bad_enrollment_folders(tmp_path, capsys, faces, kit, counts, message):
    root = tmp_path / "photos"
    root.mkdir()
    code, _, err = _run(capsys, "enroll", "--out", str(tmp_path / "p.json"), _folder(root, counts, faces, kit))
    assert code == 2 and message in err and str(root) in err
    assert not (tmp_path / "p.json").exists()


def test_an_enrollment_photo_without_a_card_outline_is_noted_and_its_centre_enrolled(tmp_path, capsys, faces, kit):
    photo = kit.photos_of(faces[:1], 1, kit.seed + 26, cover=False)[0]
    kit.write_photos(tmp_path / "deck" / "blue", [photo])
    blank = kit.write_photos(tmp_path / "deck" / "red", [np.full_like(photo, 128)])[0]
    code, out, err = _run(capsys, "enroll", "--out", str(tmp_path / "p.json"), str(tmp_path / "deck"))
    assert code == 0 and "2 labels from 2 photos" in out
    assert f"note: {blank}: no card outline found, enrolled its central part" in err and "blue" not in err


def test_corrupt_model_and_profile_messages(tmp_path, capsys, faces, monkeypatch, kit):
    path = kit.write_photos(tmp_path, kit.photos_of(faces[:1], 1, kit.seed + 25))[0]
    (tmp_path / "deck.json").write_text("[]")
    code, _, err = _run(capsys, "classify", path, "--deck", str(tmp_path / "deck.json"))
    assert code == 2 and "deck.json: not a deck profile" in err
    real = reader_module.load_manifest()
    broken = dataclasses.replace(real, locator=dataclasses.replace(real.locator, sha256="0" * 64))
    monkeypatch.setattr(reader_module, "load_manifest", lambda directory=None: broken)
    code, _, err = _run(capsys, "classify", path)
    assert code == 2 and "card_locator.onnx: model file is corrupt" in err
    missing = dataclasses.replace(real, refiner=dataclasses.replace(real.refiner, file="gone.onnx"))
    monkeypatch.setattr(reader_module, "load_manifest", lambda directory=None: missing)
    code, _, err = _run(capsys, "classify", path)
    assert code == 2 and "gone.onnx: model file missing" in err


def test_an_enrollment_photo_whose_crop_is_in_doubt_is_noted(tmp_path, capsys, faces, kit):
    """A held-out card lying across the photo's edge (:mod:`support.doubtful_photo`)."""
    good = kit.photos_of(faces[:1], 1, kit.seed + 26, cover=False)[0]
    kit.write_photos(tmp_path / "deck" / "red", [good])
    askew = kit.write_photos(tmp_path / "deck" / "blue", [card_off_the_edge()])[0]
    code, out, err = _run(capsys, "enroll", "--out", str(tmp_path / "p.json"), str(tmp_path / "deck"))
    assert code == 0 and "2 labels from 2 photos" in out
    assert f"note: {askew}: the card's crop is in doubt" in err and "red" not in err
