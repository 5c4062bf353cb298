"""``companion dice ...`` commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.dice.catalogue import load_catalogue

ORDERS = ["stink", "soy", "red", "2x green", "(soy|green) + 2x(garden|red)"]


def test_odds_prints_six_decimals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice", "odds", "stink+soy+red"]) == 0
    assert capsys.readouterr().out == "0.139918  (34/243, stink + soy + red)\n"


def test_odds_checks_a_printed_percentage(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice", "odds", "2x green or 2x soy", "--printed", "34"]) == 0
    assert "agrees" in capsys.readouterr().out
    assert main(["dice", "odds", "2x green or 2x soy", "--printed", "30"]) == 1
    assert "DISAGREES, computed 34 %" in capsys.readouterr().out


def test_odds_use_the_given_dice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "dice.json"
    plain = {"kind": "plain", "faces": ["blue", "green", "red", "soy", "stink", "garden"]}
    path.write_text(json.dumps({"dice": [plain] * 2}), encoding="utf-8")
    assert main(["dice", "odds", "2x garden", "--dice", str(path)]) == 0
    assert capsys.readouterr().out.startswith("0.027778  (1/36,")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["dice", "odds", "3x garden"], "'3x garden' can never be met by these 5 dice"),
        (["dice", "parse", "soy + + red"], "expected a bean at position 7:\nsoy + + red\n      ^"),
        (["dice", "odds", "soy", "--dice", "/nonexistent/dice.json"], "/nonexistent/dice.json"),
    ],
)
def test_bad_input_exits_2_with_the_reason(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_parse_prints_canonically(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice", "parse", "soy+soy OR (green|red)"]) == 0
    assert capsys.readouterr().out == "2x soy or (green|red)\n"


def test_faces_prints_an_editable_configuration(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice", "faces"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [d["kind"] for d in data["dice"]] == ["dark", "dark", "light", "light", "light"]


def test_cards_are_entered_once_and_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "cards.json"
    assert main(["dice", "cards", "add", str(path), *ORDERS, "--printed", "74", "56", "42", "26", "15"]) == 0
    assert main(["dice", "cards", "add", str(path), *ORDERS]) == 0
    assert capsys.readouterr().out == "card 1 added\ncard 1 was already entered\n"
    assert main(["dice", "cards", "add", str(path), *ORDERS[::-1], "--printed", "15", "26", "42", "56", "80"]) == 2
    assert "'stink' is printed 80 % but computes to 74 %" in capsys.readouterr().err
    assert len(load_catalogue(path).cards) == 1
    assert main(["dice", "cards", "check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "  5. (soy|green) + 2x(garden|red)  0.147891  printed 15" in out and "MISMATCH" not in out


def test_cards_check_flags_a_wrong_printed_percentage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "cards.json"
    card = {"id": "X", "orders": ORDERS, "printed": ["74", "56", "42", "26", "20"]}
    path.write_text(json.dumps({"format": "bohnanza-dice-harvest-cards", "version": 1, "cards": [card]}), "utf-8")
    assert main(["dice", "cards", "check", str(path)]) == 1
    assert "printed 20  MISMATCH (15)" in capsys.readouterr().out


def test_cards_check_defaults_to_the_labelled_sample(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice", "cards", "check"]) == 0
    assert "(SAMPLE): 55 cards" in capsys.readouterr().out.splitlines()[0]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["dice", "odds", "soy", "--printed", "1e-30"], "'1e-30' is not a percentage"),
        (["dice", "odds", "10000000x soy"], "asks for 10000000 dice"),
        (["dice", "odds", "soy + " * 40 + "soy"], "at most 200 characters"),
    ],
)
def test_hostile_arguments_exit_2_with_one_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.splitlines()) == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"dice": [{"kind": "x", "faces": [[1], 2, 3, 4, 5, 6]}]}', "a dice configuration is"),
        ("[" * 3000 + "]" * 3000, "nested deeper than 32 levels"),
        ('{"dice": [{"kind": "x", "faces": ["\\ud800"]}]}', "lone surrogate"),
        (json.dumps({"dice": [{"kind": "d", "faces": ["soy"] * 6}] * 9}), "at most 8 dice, not 9"),
    ],
)
def test_a_hostile_dice_file_exits_2_with_one_line(tmp_path: Path, content: str, message: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    path = tmp_path / "dice.json"
    path.write_text(content, encoding="utf-8")
    assert main(["dice", "odds", "soy", "--dice", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and str(path) in err and len(err.splitlines()) == 1


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        (5, 'it needs a "cards" list'),
        ([{"orders": ["10000000x soy", *ORDERS[1:]]}], "card 1: '10000000x soy' asks for 10000000 dice"),
        ([{"orders": ORDERS, "printed": ["1e-30", None, None, None, None]}], "card 1: '1e-30' is not a percentage"),
        ([{"orders": ORDERS, "printed": 5}], 'card 1: a card has "orders"'),
    ],
)
def test_a_hostile_catalogue_exits_2_with_one_line(tmp_path: Path, cards: object, message: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    path = tmp_path / "cards.json"
    path.write_text(json.dumps({"format": "bohnanza-dice-harvest-cards", "version": 1, "name": "x", "cards": cards}))
    assert main(["dice", "cards", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.splitlines()) == 1
