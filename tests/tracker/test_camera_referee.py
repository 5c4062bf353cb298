"""The camera referee end to end: a recorded game drawn frame by frame, hands passing over the table, read by
the real pipeline (markers, columns, band network, classifier, zones, motion, votes, the rules).

What the camera can see (plants, turned-over beans, harvests) must come back as the record's
events in order; what it cannot (trades, ending the trading, draws) is entered as a tap would
enter it. The target is every visible event and nothing else; the test holds the figures
measured today (``SHARE_FOUND``, ``SPURIOUS``), so that any step back fails. A plant into an
empty field may name another empty field than the record (the table shows which field only by
where a player lays it), so events are compared by who, what and which bean.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.records.jsonl import load_record
from companion.rules.moves import move_from_dict
from companion.rules.setup import Setup
from companion.rules.state import GameState
from companion.tracker.explain import game_view
from companion.tracker.table import TableTracker
from companion.tracker.view import view_of
from companion.vision.scene import SceneReader
from companion.vision.table_reader import TableReader
from models.camera import light, sensor
from models.game_table import draw_table, hand_over
from models.render import house_design, render_face

RECORD = Path(__file__).resolve().parents[2] / "examples" / "records" / "amigo-25-3p.jsonl"
EVENTS = 40
"""Events of the record played: about four turns."""
STILL = 9
"""Still frames after each change: the table reader reads the 1st, 4th and 8th of them, three votes."""
TAPS = {"trade", "end-trading", "draw"}
"""What the camera cannot see: entered by a tap."""
SHARE_FOUND = 0.96
"""Measured on this record (see the closing note of issue 20): all 29 visible events come back, in order, with
none extra (26 and one extra before each part of the table was voted on apart, cards side by side whose edges
the light joins were read apart and a coin-sized glare spot was cut off a card). The test allows one event
fewer and one extra, for the last bits of another machine's arithmetic."""
SPURIOUS = 1
"""Extra events allowed (measured: none)."""


def substance(event: dict[str, Any], state: GameState) -> tuple:
    """What the table shows of an event: who did what with which bean (a harvest: the field's bean)."""
    if event["type"] == "harvest":
        return ("harvest", event["player"], state.players[event["player"]].fields[event["field"]].bean)
    return (event["type"], event["player"], event.get("bean"), tuple(sorted(event.get("beans", ()))))


def after(state: GameState, move: Any) -> GameState:
    """A copy of ``state`` with ``move`` made."""
    moved = copy.deepcopy(state)
    moved.push(move)
    return moved


def table_frames(state: GameState, faces: dict[str, np.ndarray], seed: int, rng: np.random.Generator) -> list:
    """The table as it stands, under the same light, each frame with its own sensor noise, blur and compression:
    two frames with a hand reaching in and out, then still ones.

    A shadow cast across the cards for good is left out: it joins the cards' outlines (see the model card)."""
    fields = {seat: [(f.bean, f.count) for f in player.fields if f.count] for seat, player in enumerate(state.players)}
    table = draw_table(fields, list(state.face_up), faces, seed)
    frames = [hand_over(table, rng), hand_over(table, rng)] + [table] * STILL
    return [sensor(light(frame, np.random.default_rng([seed, 3]), shadow=False), np.random.default_rng([seed, k]))
            for k, frame in enumerate(frames)]


@pytest.mark.slow
def test_a_recorded_game_seen_by_the_camera_gives_back_its_visible_events():
    record = load_record(RECORD)
    header = record.header
    setup = Setup(header.ruleset, tuple(header.players), header.start_player, dict(header.options))
    truth, ours = GameState(setup), GameState(setup)
    faces = {bean: render_face(house_design(bean)) for bean in truth.deck_counts}
    table, tracker = TableReader(SceneReader()), TableTracker()
    rng = np.random.default_rng(8)
    expected, proposed = [], []
    for number, (_, event) in enumerate(record.events[:EVENTS]):
        move = move_from_dict(event)
        if event["type"] in TAPS or game_view(truth, (0, 1, 2)) == game_view(after(truth, move), (0, 1, 2)):
            truth.push(move)
            ours.push(move)
            continue
        expected.append(substance(event, truth))
        truth.push(move)
        for frame in table_frames(truth, faces, number, rng):
            reading = table.read(frame)
            if not reading.news:
                continue
            observation = tracker.observe(view_of(reading.scene, range(3), 0.9), reading.moving, ours)
            if observation is not None:
                assert observation.note is None, (number, event, tracker.steadiness.settled, game_view(ours, (0, 1, 2)))
                proposed += [substance(e, ours) for e in observation.events]
        ours.push(move)  # the group confirms the record's own event
    assert len(expected) >= 20
    found = common(expected, proposed)
    assert found >= SHARE_FOUND * len(expected), (found, len(expected), proposed)
    assert len(proposed) - found <= SPURIOUS, proposed


def common(wanted: list, found: list) -> int:
    """How many of ``wanted`` come back in ``found`` in the same order (the longest common subsequence)."""
    table = [[0] * (len(found) + 1) for _ in range(len(wanted) + 1)]
    for i, a in enumerate(wanted):
        for j, b in enumerate(found):
            table[i + 1][j + 1] = table[i][j] + 1 if a == b else max(table[i][j + 1], table[i + 1][j])
    return table[-1][-1]
