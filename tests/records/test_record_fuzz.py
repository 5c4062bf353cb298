"""Fuzzing the record reader and replay with mutated example records.

Lines are dropped, duplicated, swapped, cut or replaced by hostile text (brackets nested
thousands deep, numbers of thousands of digits, NaN, lone surrogates), and values inside a
line are swapped for values of another type or hostile ones. Whatever comes out, the reader
and replay end in one of the documented ways: a clean replay, a ``RecordError`` naming a line,
or a replay stopped at an event; ``companion replay`` exits 0, 1 or 2 with one line on
standard error, never a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.games import game_kind
from companion.records import RecordError, dumps_record, loads_record, replay
from companion.records.checked import is_unicode
from support.json_parts import inject

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "records"
LINES = {path.name: path.read_text(encoding="utf-8").splitlines() for path in sorted(EXAMPLES.glob("*.jsonl"))}

ODD_TEXT = st.sampled_from(["\ud800", "Ann\udfff", "a\x00b", "\u202eevil", "\u2028", "Zoe\u0308", "", "x" * 300])
BIG = st.integers(2**53, 10**400) | st.integers(-(10**400), -(2**53))
VALUES = st.one_of(
    ODD_TEXT,
    BIG,
    st.integers(-2, 12),
    st.integers(33, 200).map(lambda depth: json.loads("[" * depth + "]" * depth)),
    st.sampled_from([None, True, 0.5, [], {}, ["plant"], {"type": "plant"}, "plant", "blue", "face-up", "draw"]),
    st.lists(ODD_TEXT | st.sampled_from(["blue", "soy", None, 0]), max_size=6),
)
RAW_LINES = st.one_of(
    st.integers(33, 5000).map(lambda depth: "[" * depth + "]" * depth),
    st.integers(17, 5000).map(lambda digits: '{"type": "draw", "player": ' + "9" * digits + "}"),
    st.sampled_from(["NaN", '{"type": "draw", "player": Infinity}', "{", "null", "[]", '"\ud800"', "\ud800", "\x00"]),
)



def mutate(lines: list[str], data: st.DataObject) -> list[str]:
    """One mutation of a record's lines."""
    lines = list(lines)
    i = data.draw(st.integers(0, len(lines) - 1))
    kind = data.draw(st.sampled_from(["drop", "duplicate", "swap", "cut", "raw", "value", "value", "value"]))
    if kind == "drop":
        del lines[i]
    elif kind == "duplicate":
        lines.insert(i, lines[i])
    elif kind == "swap":
        j = data.draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "cut":
        lines[i] = lines[i][: data.draw(st.integers(0, len(lines[i])))]
    elif kind == "raw":
        lines[i] = data.draw(RAW_LINES)
    else:
        changed = inject(_decoded(lines[i]), data.draw(VALUES), data.draw(st.integers(0, 2**16)))
        lines[i] = json.dumps(changed, ensure_ascii=data.draw(st.booleans()))
    return lines


def _decoded(line: str) -> Any:
    """The JSON value of a line, None if it has none (an earlier mutation broke it)."""
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None


def mutated_record(data: st.DataObject) -> list[str]:
    lines = LINES[data.draw(st.sampled_from(sorted(LINES)))]
    for _ in range(data.draw(st.integers(1, 3))):
        lines = mutate(lines, data) or ["{}"]
    return lines


@given(data=st.data())
@settings(max_examples=250, deadline=None, database=None, suppress_health_check=list(HealthCheck))
def test_the_reader_and_replay_end_in_a_documented_way(data: st.DataObject) -> None:
    text = "\n".join(mutated_record(data))
    try:
        record = loads_record(text)
        result = replay(record)
    except RecordError as exc:
        assert exc.line >= 1 and exc.message and is_unicode(exc.message)
        return
    if result.error is not None:
        assert result.error.line >= 2 and result.error.message and is_unicode(result.error.message)
    kind = game_kind(record.header.game)
    json.dumps(kind.summary(result.state))
    events = [kind.move_to_dict(move) for move in result.moves]
    again = replay(loads_record(dumps_record(record.header, events)))
    assert again.error is None and len(again.moves) == len(events)


@given(data=st.data())
@settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))
def test_replay_exits_0_1_or_2_with_one_line(data: st.DataObject, tmp_path_factory: pytest.TempPathFactory,
                                            capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    path = tmp_path_factory.mktemp("fuzz") / "record.jsonl"
    path.write_bytes("\n".join(mutated_record(data)).encode("utf-8", "surrogatepass"))
    capsys.readouterr()
    status = main(["replay", str(path), "--json"])
    err = capsys.readouterr().err
    assert status in (0, 1, 2), err
    assert (status == 0) == (err == "") and len(err.splitlines()) <= 1, err
    assert "please report" not in err
