"""``companion vision scan`` and ``watch``: the JSON contract other tools rely on, and clear errors.

Frames are rendered tables with printed markers (:mod:`models.game_table`), so each stack's
zone is known; ``watch`` reads a folder of frames of a game stored in a real SQLite store.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

from companion.cli import main
from companion.records.format import Header
from companion.storage.store import GameStore
from companion.vision import enroll
from models.game_table import SIZE, draw_table, hand_over
from models.render import house_design, render_face
from models.tilt import tilted

FACES = {bean: render_face(house_design(bean)) for bean in ("blue", "chili", "soy", "red", "green")}


def _run(capsys, *argv: str) -> tuple[int, str, str]:  # noqa: ANN001
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def _frame(path: Path, fields: dict, face_up: list[str], seed: int = 1) -> str:
    cv2.imwrite(str(path), draw_table(fields, face_up, FACES, seed))
    return str(path)


def test_scan_prints_one_object_per_frame_with_cards_and_stacks_in_zones(tmp_path, capsys):
    first = _frame(tmp_path / "a.png", {0: [("blue", 3), ("chili", 1)], 1: [("soy", 6)]}, ["red", "green"])
    second = _frame(tmp_path / "b.png", {0: [], 1: []}, [])
    code, out, _ = _run(capsys, "vision", "scan", first, second, "--json")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["image"] for r in rows] == [first, second]
    assert all(set(r) == {"image", "cards", "stacks"} for r in rows)
    stacks = sorted((s["bean"], s["count"], s["zone"]) for s in rows[0]["stacks"])
    assert stacks == [("blue", 3, "fields-0"), ("chili", 1, "fields-0"), ("green", 1, "face-up"),
                      ("red", 1, "face-up"), ("soy", 6, "fields-1")]
    assert all(len(s["corners"]) == 4 and all(len(p) == 2 for p in s["corners"]) for s in rows[0]["stacks"])
    assert all(set(c) == {"label", "confidence", "corners"} for c in rows[0]["cards"])
    assert rows[1]["stacks"] == [] and rows[1]["cards"] == []


def test_scan_reads_a_photo_taken_at_a_slant_as_from_straight_above(tmp_path, capsys):
    """A phone photo of the table from a player's seat: the fields are read on the table's plane, their outlines
    given in the photo's pixels."""
    fields = {0: [("blue", 3), ("chili", 1)], 1: [("soy", 6)], 2: [("red", 2)]}
    straight = draw_table(fields, ["green"], FACES, 2)
    path = tmp_path / "slant.png"
    cv2.imwrite(str(path), cv2.warpPerspective(straight, tilted(SIZE, 40), SIZE, flags=cv2.INTER_AREA))
    code, out, _ = _run(capsys, "vision", "scan", str(path), "--json")
    assert code == 0
    stacks = json.loads(out)["stacks"]
    assert sorted((s["bean"], s["count"], s["zone"]) for s in stacks) == [
        ("blue", 3, "fields-0"), ("chili", 1, "fields-0"), ("green", 1, "face-up"), ("red", 2, "fields-2"),
        ("soy", 6, "fields-1")]
    outline = next(s["corners"] for s in stacks if s["bean"] == "soy")
    assert all(0 <= x < SIZE[0] and 0 <= y < SIZE[1] for x, y in outline)


def test_scan_in_words_and_bad_frames_exit_2(tmp_path, capsys):
    frame = _frame(tmp_path / "a.png", {0: [("blue", 2)]}, [])
    code, out, err = _run(capsys, "vision", "scan", str(tmp_path / "gone.png"), frame)
    assert code == 2 and "gone.png" in err
    assert out.strip() == f"{frame}: 2 x blue in fields-0"
    broken = tmp_path / "zones.json"
    broken.write_text("{}")
    code, _, err = _run(capsys, "vision", "scan", frame, "--zones", str(broken))
    assert code == 2 and "zone file" in err
    broken.write_text("not json")
    code, _, err = _run(capsys, "vision", "scan", frame, "--zones", str(broken))
    assert code == 2 and "not a zone file (not JSON: Expecting value at line 1, column 1); draw the zones again" in err
    broken.write_bytes(b"\xff\xfe{}")
    code, _, err = _run(capsys, "vision", "scan", frame, "--zones", str(broken))
    assert code == 2 and "not a zone file (not UTF-8 text)" in err


def test_watch_prints_the_events_a_game_s_table_shows(tmp_path, capsys):
    db = tmp_path / "games.sqlite3"
    with GameStore(db) as store:
        game = store.create_game(Header.from_dict({"format": "bohnanza-record", "version": 1, "game": "bohnanza",
                                              "ruleset": "amigo-25", "players": ["Ann", "Ben", "Cid"]}))
    frames = tmp_path / "frames"
    frames.mkdir()
    empty = draw_table({0: [], 1: [], 2: []}, [], FACES, 1)
    planted = draw_table({0: [("blue", 1)], 1: [], 2: []}, [], FACES, 1)
    sequence = [empty] * 4 + [hand_over(empty, np.random.default_rng(2))] + [planted] * 9
    for k, image in enumerate(sequence):
        cv2.imwrite(str(frames / f"{k:03d}.png"), image)
    code, out, err = _run(capsys, "vision", "watch", str(frames), "--game", str(game), "--db", str(db), "--json")
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["events"] for r in rows] == [[{"type": "plant", "player": 0, "bean": "blue", "source": "hand",
                                             "field": 0}]]
    assert rows[0]["text"] == ["Ann planted a Blue Bean (from hand) in field 1"] and rows[0]["sure"]
    code, _, err = _run(capsys, "vision", "watch", str(frames), "--game", "99", "--db", str(db))
    assert code == 2 and "game 99" in err


def test_watch_refuses_a_groups_deck_for_the_demo_table_which_shows_house_cards(tmp_path, classifier):
    profile = enroll(classifier, {bean: [[cv2.resize(FACES[bean], (64, 96))]] for bean in ("blue", "chili")})
    profile.save(tmp_path / "deck.json")
    db = tmp_path / "games.sqlite3"
    with GameStore(db) as store:
        game = store.create_game(Header.from_dict({"format": "bohnanza-record", "version": 1, "game": "bohnanza",
                                              "ruleset": "amigo-25", "players": ["Ann", "Ben", "Cid", "Dee"]}))
    done = subprocess.run([sys.executable, "-m", "companion", "vision", "watch", "demo", "--game", str(game), "--db",
                           str(db), "--deck", str(tmp_path / "deck.json")], capture_output=True, text=True,
                          timeout=120)  # the demo table plays on until stopped: a watch let through would run on
    assert done.returncode == 2 and done.stdout == ""
    assert "--deck: 'demo' shows house cards, not your deck's; give --deck with a camera, a video or a folder" in (
        done.stderr)
