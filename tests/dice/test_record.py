"""The shipped example record replays to a finished game through the public API."""

from __future__ import annotations

import json
from pathlib import Path

from companion.dice.game import DiceGame
from companion.dice.moves import move_from_dict, move_to_dict

RECORD = Path(__file__).resolve().parents[2] / "examples" / "records" / "dice-sample.jsonl"


def test_the_example_record_replays_to_a_finished_game() -> None:
    header, *events = [json.loads(line) for line in RECORD.read_text(encoding="utf-8").splitlines()]
    assert (header["format"], header["version"], header["game"]) == ("bohnanza-record", 1, "dice")
    game = DiceGame.new(header["players"], header["start_player"], header["options"])
    completions = 0
    for number, event in enumerate(events, start=1):
        move = move_from_dict(event)
        assert game.check(move) is None, f"event {number}: {game.check(move)}"
        game.push(move)
        completions += len(game.last_completions)
        assert move_to_dict(move) == event
    summary = game.summary()
    assert summary["game_over"] is True
    assert completions > 0
    assert max(summary["scores"].values()) >= summary["target_dollars"]
    assert summary["winners"] and set(summary["winners"]) <= set(header["players"])
    assert game.log == [move_from_dict(e) for e in events]


def test_the_example_record_is_also_valid_with_its_full_information_deck() -> None:
    header, *events = [json.loads(line) for line in RECORD.read_text(encoding="utf-8").splitlines()]
    game = DiceGame.new(header["players"], header["start_player"], {"harvest_cards": "sample", "seed": 5})
    for event in events:
        game.push(move_from_dict(event))
    assert game.game_over
