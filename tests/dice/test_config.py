"""Dice as data: the default faces and configuration files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cards import CATALOGUE
from companion.dice.config import DEFAULT_DICE, dice_from_data, dice_to_data, load_dice


def test_the_default_dice_follow_the_player_aid() -> None:
    assert [d.kind for d in DEFAULT_DICE.dice] == ["dark", "dark", "light", "light", "light"]
    assert DEFAULT_DICE.dice[0].faces == ("blue", "garden", "stink", "stink", "soy", "soy")
    assert DEFAULT_DICE.dice[2].faces == ("stink", "red", "blue", "blue", "green", "green")
    assert all(f in CATALOGUE for d in DEFAULT_DICE.dice for f in d.faces)
    assert DEFAULT_DICE.beans([2, 5, 1, 2, 6]) == ["garden", "soy", "stink", "red", "green"]


def test_a_face_a_die_does_not_have_is_refused() -> None:
    with pytest.raises(ValueError, match="faces 1-6, not 7"):
        DEFAULT_DICE.beans([1, 1, 1, 1, 7])
    with pytest.raises(ValueError, match="5 dice, got 6"):
        DEFAULT_DICE.beans([1, 1, 1, 1, 1, 1])


def test_a_configuration_file_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "dice.json"
    path.write_text(json.dumps(dice_to_data(DEFAULT_DICE)), encoding="utf-8")
    assert load_dice(path) == DEFAULT_DICE


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"dice": [{"kind": "dark", "faces": ["soy"] * 5}]}, "needs 6 faces, has 5"),
        ({"dice": [{"kind": "dark", "faces": ["soy"] * 5 + ["tofu"]}]}, "unknown bean"),
        ({"dice": []}, "at least one die"),
        ({"faces": []}, "not a dice configuration"),
    ],
)
def test_bad_configurations_are_refused(data: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        dice_from_data(data)


def test_a_bad_file_names_itself(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="missing.json"):
        load_dice(tmp_path / "missing.json")
