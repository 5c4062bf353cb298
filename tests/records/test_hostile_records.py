"""Crafted records: ``companion replay`` and ``records import`` answer each in one line, exit 1 or 2, no traceback.

Exit 1: an event line that is malformed or illegal (the state before it is printed);
exit 2: a file that cannot be read or whose header is wrong (docs/record-format.md).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.cli import main
from companion.records import Header, RecordError, loads_record
from companion.records.checked import too_deep

HEADER = {"format": "bohnanza-record", "version": 1, "game": "bohnanza", "ruleset": "amigo-25",
          "players": ["Ann", "Ben", "Cid"]}  # fmt: skip
DICE = {"format": "bohnanza-record", "version": 1, "game": "dice", "ruleset": "dice", "players": ["Ann", "Ben"]}
CARD = ["soy", "soy", "soy", "soy", "soy"]
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "records" / "amigo-25-3p.jsonl"


def header(**fields: object) -> str:
    return json.dumps({**HEADER, **fields})


def dice(**options: object) -> str:
    return json.dumps({**DICE, "options": options})


DEEP = "[" * 5000 + "]" * 5000
CASES = {
    # (lines, exit status, words on standard error)
    "event type is a list": ([header(), '{"type": ["plant"], "player": 0}'], 1, "line 2: unknown event type ['plant']"),
    "event nested 5000 deep": ([header(), DEEP], 1, "line 2: JSON nested deeper than 32 levels"),
    "header nested 5000 deep": ([DEEP], 2, "line 1: JSON nested deeper than 32 levels"),
    "number of 5000 digits": ([header(), '{"type": "draw", "player": ' + "9" * 5000 + "}"], 1, "line 2: a number"),
    "version of 5000 digits": ([header().replace('"version": 1', '"version": ' + "1" * 5000)], 2, "out of range"),
    "seat beyond any table": ([header(), '{"type": "harvest", "player": 1001, "field": 0}'], 1, "from 0 to 1000"),
    "NaN": ([header(), '{"type": "draw", "player": NaN}'], 1, "line 2: NaN is not a JSON number"),
    "lone surrogate in a name": ([header(players=["\ud800", "Ben", "Cid"])], 2, "line 1: a lone surrogate"),
    "NUL in a name": ([header(players=["A\x00nn", "Ben", "Cid"])], 2, "control character U+0000"),
    "surrogate in the title": ([header(meta={"title": "\udfff"})], 2, "line 1: a lone surrogate in the text"),
    "dice faces of lists": ([dice(dice={"dice": [{"kind": "x", "faces": [[1]] * 6}]})], 2, "dice configuration"),
    "thirty dice": ([dice(dice={"dice": [{"kind": "d", "faces": CARD + ["blue"]}] * 30})], 2, "at most 8 dice"),
    "surrogate in a card id": ([dice(), json.dumps({"type": "draw", "player": 0,
                                                    "card": {"id": "\udc00", "orders": CARD}})],
                               1, "line 2: a lone surrogate"),  # fmt: skip
    "card asks for 10^7 dice": ([dice(), json.dumps({"type": "draw", "player": 0,
                                                     "card": {"orders": ["10000000x soy", *CARD[1:]]}})],
                                1, "asks for 10000000 dice"),  # fmt: skip
    "event is null": ([header(), "null"], 1, "line 2: an event must be a JSON object"),
    "not UTF-8": ([header(), "\udcff"], 2, "not UTF-8"),
}


def write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "crafted.jsonl"
    path.write_bytes("\n".join(lines).encode("utf-8", "surrogateescape") + b"\n")
    return path


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_replay_answers_a_crafted_record_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str):
    lines, status, words = CASES[case]
    assert main(["replay", str(write(tmp_path, lines))]) == status
    err = capsys.readouterr().err
    assert words in err and len(err.splitlines()) == 1, err


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_import_refuses_a_crafted_record_and_stores_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            case: str) -> None:  # fmt: skip
    lines, status, words = CASES[case]
    db = str(tmp_path / "games.sqlite3")
    assert main(["records", "import", str(write(tmp_path, lines)), "--db", db]) == status
    err = capsys.readouterr().err
    assert words in err and len(err.splitlines()) == 1, err
    assert main(["records", "list", "--db", db]) == 0
    assert capsys.readouterr().out == ""


def test_the_real_command_exits_2_without_a_traceback(tmp_path: Path) -> None:
    path = write(tmp_path, [DEEP])
    done = subprocess.run([sys.executable, "-m", "companion", "replay", str(path)], capture_output=True, text=True,
                          timeout=60)  # fmt: skip
    assert done.returncode == 2 and "Traceback" not in done.stderr and "nested deeper" in done.stderr


def test_the_store_commands_say_what_is_wrong_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder, db = tmp_path / "a-folder", str(tmp_path / "games.sqlite3")
    folder.mkdir()
    assert main(["records", "import", str(EXAMPLE), "--db", db]) == 0
    capsys.readouterr()
    assert main(["records", "list", "--db", str(folder)]) == 2
    assert main(["records", "export", str(2**70), "--db", db]) == 2
    assert main(["records", "export", "1", "--db", db, "-o", str(folder)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3 and "cannot list" in err[0] and "no game" in err[1] and "cannot write" in err[2], err


def test_the_reader_keeps_a_bad_event_line_and_refuses_a_bad_header() -> None:
    record = loads_record(header() + "\n" + DEEP + "\n")
    assert record.events[0][0] == 2 and "nested deeper" in record.events[0][1].message
    with pytest.raises(RecordError, match="line 3: JSON nested deeper"):
        loads_record("\n\n" + DEEP)


def test_a_raw_line_separator_inside_a_name_does_not_split_the_line() -> None:
    record = loads_record(header(players=["Ann\u2028B", "Ben", "Cid"]).replace("\\u2028", "\u2028") + "\n")
    assert record.header.players[0] == "Ann\u2028B"


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"players": ["\ud800", "Ben", "Cid"]}, "name of player 1 holds a lone surrogate"),
        ({"players": ["Ann", "B\x07en", "Cid"]}, "name of player 2 holds the control character U+0007"),
        ({"players": ["Ann", "Ben", "x" * 41]}, "name of player 3 is longer than 40 characters"),
        ({"players": ["Ann"] * 21}, "1 to 20 names"),
        ({"version": True}, "record version True is not supported"),
        ({"start_player": 1.0}, "start_player"),
        ({"ruleset": ["amigo-25"]}, '"ruleset" must be text'),
        ({"meta": {"title": "a\nb"}}, "the title holds the control character U+000A"),
        ({"meta": {"notes": "\udfff"}}, '"meta" holds a lone surrogate'),
        ({"options": {"seed": 2**60}}, '"options" holds a number out of range: 1152921504606846976'),
        ({"options": {"x": float("nan")}}, "holds a number that is not finite (nan)"),
        ({"deck": {"seed": "7"}}, "the deck's \"seed\" must be a whole number"),
        ({"deck": {"seed": 7, "order": ["blue", 3]}}, "the deck's \"order\" must be a list"),
        ({"\ud800": 1}, "unknown header field(s): '\\ud800'"),
    ],
)
def test_a_header_is_checked_field_by_field(fields: dict, words: str) -> None:
    with pytest.raises(RecordError) as refused:
        Header.from_dict({**HEADER, **fields})
    assert words in refused.value.message and refused.value.line == 1


def test_a_header_keeps_names_and_title_in_composed_form() -> None:
    header = Header.from_dict({**HEADER, "players": ["Zoe\u0308", "Ben", "Cid"], "meta": {"title": "Cafe\u0301"}})
    assert header.players[0] == "Zo\u00eb" and header.meta["title"] == "Caf\u00e9"


def test_a_failure_no_command_foresaw_is_one_line_and_exit_70(monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    def broken(record: object) -> None:
        raise RuntimeError("a bug in \udcff here")

    monkeypatch.setattr("companion.cli.records.replay", broken)
    assert main(["replay", str(EXAMPLE)]) == 70
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "RuntimeError: a bug in \\udcff here" in err and "please report" in err


def test_the_depth_scan_is_one_pass_even_over_unterminated_strings() -> None:
    started = time.perf_counter()
    for text, deep in (('"\\' * 100_000, False), ('"a' * 100_000, False), ("[" * 200_000, True),
                       ('["\\"[[[["]' * 20_000, False), ('"\\\\"' + "[" * 33, True)):  # fmt: skip
        assert too_deep(text, 32) is deep, text[:40]
    assert time.perf_counter() - started < 5  # a backtracking scan takes minutes over the first text
