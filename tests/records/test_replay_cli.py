"""``companion replay`` on the shipped examples and on broken records, as a user runs it."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.records import RecordError, load_record, loads_record, replay

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "records"
CARD_EXAMPLES = sorted(p for p in EXAMPLES.glob("*.jsonl") if not p.name.startswith("dice"))


def run_cli(*args: str) -> subprocess.CompletedProcess:
    """The ``companion`` command run in this process (a program's start-up costs a second a run; the command runs as a
    program in :func:`test_the_command_runs_as_a_program`): its exit status and what it wrote."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return subprocess.CompletedProcess(["companion", *args], code, out.getvalue(), err.getvalue())


def test_the_command_runs_as_a_program(tmp_path):
    done = subprocess.run([sys.executable, "-m", "companion", "replay", str(CARD_EXAMPLES[0]), "--json"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["game_over"]
    broken = subprocess.run([sys.executable, "-m", "companion", "replay", str(write(tmp_path, ['{"format": "pgn"}']))],
                            capture_output=True, text=True, timeout=60)
    assert broken.returncode == 2 and "not a game record" in broken.stderr and "Traceback" not in broken.stderr


def test_every_ruleset_player_count_and_module_has_a_complete_example():
    from companion.rules.listing import combinations

    headers = [load_record(p).header for p in CARD_EXAMPLES]
    covered = {(h.ruleset, len(h.players)) for h in headers}
    modules = {(h.ruleset, m) for h in headers for m in h.options.get("modules", [])}
    for name, players, chosen in combinations():
        assert (name, players) in covered
        assert all((name, m) in modules for m in chosen)


@pytest.mark.parametrize("path", CARD_EXAMPLES, ids=lambda p: p.name)
def test_examples_replay_to_a_finished_game(path):
    out = run_cli("replay", str(path), "--json")
    assert out.returncode == 0, out.stderr
    state = json.loads(out.stdout)
    assert state["game_over"] and state["winners"]
    assert state["passes"] == state["end_pass"]
    for player in state["players"]:
        assert set(player) >= {"name", "coins", "fields", "hand_size"}
        assert player["fields"] == [None] * len(player["fields"])
    assert {"draw_pile", "discard_pile", "passes", "game_over", "winners", "scores"} <= set(state)
    for player in state["players"]:
        parts = state["score_breakdown"][player["name"]]
        assert parts["coins"] == player["coins"] and state["scores"][player["name"]] == sum(parts.values())


def write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


HEADER = (
    '{"format": "bohnanza-record", "version": 1, "game": "bohnanza", "ruleset": "amigo-25",'
    ' "players": ["Ann", "Ben", "Cid"], "start_player": 0}'
)


@pytest.mark.parametrize(
    ("event", "words"),
    [
        ('{"type": "plant", "player": 1, "bean": "blue"}', "It is Ann's turn"),
        ('{"type": "plant", "player": 0, "bean": "pea"}', "'pea' is not a bean"),
        ('{"type": "plant", "player": 0, "bean": "coffee"}', "Coffee Beans are not in this game"),
        ('{"type": "dance", "player": 0}', "unknown event type 'dance'"),
        ('{"type": "plant", "player": 0, "bean": "blue"', "not valid JSON"),
        ('{"type": "plant", "player": "Ann", "bean": "blue"}', "'player' of a plant event must be a whole number"),
        ('{"type": "harvest", "player": 0, "field": null}', "'field' of a harvest event must be a whole number"),
    ],
)
def test_a_bad_event_names_its_line_and_the_rule_and_keeps_the_state_before_it(tmp_path, event, words):
    good = '{"type": "plant", "player": 0, "bean": "red"}'
    path = write(tmp_path, [HEADER, good, '{"type": "plant", "player": 0, "bean": "red"}', event])
    out = run_cli("replay", str(path), "--json")
    assert out.returncode != 0
    assert "line 4" in out.stderr and words in out.stderr
    assert "Traceback" not in out.stderr
    state = json.loads(out.stdout)  # the state up to the bad line
    assert state["players"][0]["fields"][0] == {"bean": "red", "count": 2}


def test_the_protection_rule_is_named(tmp_path):
    events = [
        '{"type": "plant", "player": 0, "bean": "red", "field": 0}',
        '{"type": "plant", "player": 0, "bean": "red", "field": 0}',
        '{"type": "turn-over", "player": 0, "beans": ["soy", "blue"]}',
        '{"type": "end-trading", "player": 0}',
        '{"type": "plant", "player": 0, "bean": "soy", "source": "face-up", "field": 1}',
        '{"type": "harvest", "player": 0, "field": 1}',
    ]
    out = run_cli("replay", str(write(tmp_path, [HEADER, *events])), "--json")
    assert out.returncode == 1
    assert "line 7" in out.stderr and "Bean protection rule" in out.stderr and "harvest.protection" in out.stderr
    assert json.loads(out.stdout)["players"][0]["fields"][1] == {"bean": "soy", "count": 1}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty"),
        ('{"format": "pgn"}', "not a game record"),
        ('{"format": "bohnanza-record", "version": 9}', "version 9 is not supported"),
        ('{"format": "bohnanza-record", "version": 1, "ruleset": "amigo-25", "players": ["A"], "start_player": 3}',
         "start_player"),
        ('{"format": "bohnanza-record", "version": 1, "ruleset": "amigo-25", "players": ["A", "B"]}', "3-5 players"),
    ],
)
def test_a_broken_header_is_reported_without_a_traceback(tmp_path, text, words):
    out = run_cli("replay", str(write(tmp_path, [text])))
    assert out.returncode == 2 and words in out.stderr and "Traceback" not in out.stderr


def test_a_missing_file_is_reported(tmp_path):
    out = run_cli("replay", str(tmp_path / "nope.jsonl"))
    assert out.returncode == 2 and "cannot read" in out.stderr


def test_records_round_trip_through_text():
    record = load_record(CARD_EXAMPLES[0])
    result = replay(record)
    from companion.games import CardGame
    from companion.records import dumps_record

    text = dumps_record(record.header, [CardGame().move_to_dict(m) for m in result.moves])
    again = replay(loads_record(text))
    assert again.error is None and again.moves == result.moves


def test_record_errors_carry_the_line():
    result = replay(loads_record(HEADER + "\n\n{oops\n"))
    assert result.error.line == 3 and "not valid JSON" in result.error.message
    with pytest.raises(RecordError) as err:
        loads_record("{oops\n")
    assert err.value.line == 1


def test_a_dice_game_record_replays_through_the_same_command():
    out = run_cli("replay", str(EXAMPLES / "dice-sample.jsonl"), "--json")
    assert out.returncode == 0, out.stderr
    state = json.loads(out.stdout)
    assert state["game_over"] and state["winners"]
    assert max(state["scores"].values()) >= 10
