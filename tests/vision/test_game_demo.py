"""The demo camera: a recorded game on a rendered table, moving on one visible change per step of its clock,
which the camera referee reads back as the record's events."""

from __future__ import annotations

import numpy as np

from companion.rules.moves import move_from_dict, move_to_dict
from companion.rules.state import GameState
from companion.tracker.table import TableTracker
from companion.tracker.view import view_of
from companion.vision.changes import changed_boxes, small
from companion.vision.scene import SceneReader
from companion.vision.sources import open_source
from companion.vision.table_reader import TableReader
from models.game_demo import GameDemo


def test_the_demo_table_plays_its_record_and_the_referee_reads_it_back(classifier):  # noqa: ANN001
    now = [0.0]
    source = open_source("demo", clock=lambda: now[0])
    assert isinstance(source, GameDemo)
    assert source.game == "amigo-25: Ann, Ben, Cid, Dee, Ann first"  # the game to start beside it
    source.open()
    table, tracker, game = TableReader(SceneReader(classifier)), TableTracker(), GameState(source.setup)
    proposed = []
    for step in range(3):  # plant stink; turn over chili and blue; (end the trading and) plant the blue
        now[0] = 4.0 * (step + 1)
        for _ in range(12):  # at 5 frames a second, 2.4 s of a step's 4
            reading = table.read(source.read())
            if not reading.news:
                continue
            observation = tracker.observe(view_of(reading.scene, range(4), 0.9), reading.moving, game)
            for event in observation.events if observation else ():
                proposed.append(event)
                game.push(move_from_dict(event))
    def seen(event: dict) -> tuple:
        return event["type"], event.get("bean"), sorted(event.get("beans", []))

    assert [seen(e) for e in proposed] == [seen(e) for e in source.events[:4]]


def test_the_demo_table_starts_its_record_over_when_told_a_game_began():
    now = [0.0]
    demo = GameDemo(clock=lambda: now[0], step_s=4.0)
    demo.open()
    empty = demo.read()
    for step in range(1, 4):
        now[0] = 4.0 * step
        demo.read()
    assert len(demo.state.move_stack) >= 3
    demo.restart()
    assert len(demo.state.move_stack) >= 3  # taken up at the next frame, on the camera's own thread
    hand = demo.read()
    assert demo.state.move_stack == [] and not np.array_equal(hand, empty)  # cleared, a hand over the table
    for _ in range(2):  # past the hand
        demo.read()
    assert np.array_equal(demo.read(), empty)  # the hand gone: the empty table, as when the demo opened
    now[0] += 4.0
    demo.read()
    assert [move_to_dict(move) for move in demo.state.move_stack] == demo.events[:1]


def test_the_demo_table_stays_as_it_lay_between_changes():
    """The same wood, and each field's cards where they lay: a change alters only the cards it moves."""
    now = [0.0]
    demo = GameDemo(clock=lambda: now[0], step_s=4.0)
    demo.open()
    frames = []
    for step in range(1, 4):
        now[0] = 4.0 * step
        frames.append([demo.read() for _ in range(4)][-1])  # past the hand
    for before, after in zip(frames, frames[1:]):
        boxes = changed_boxes(small(before), small(after))
        assert boxes and sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes) < 0.05 * before.size / 3
