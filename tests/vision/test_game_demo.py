"""The demo camera: a recorded game on a rendered table, moving on one visible change per step of its clock,
which the camera referee reads back as the record's events."""

from __future__ import annotations

from companion.rules.moves import move_from_dict
from companion.rules.state import GameState
from companion.tracker.table import TableTracker
from companion.tracker.view import view_of
from companion.vision.motion import moving, thumbnail
from companion.vision.scene import SceneReader, placed
from companion.vision.sources import open_source
from companion.vision.zones import TableZones
from models.game_demo import GameDemo


def test_the_demo_table_plays_its_record_and_the_referee_reads_it_back(classifier):  # noqa: ANN001
    now = [0.0]
    source = open_source("demo", clock=lambda: now[0])
    assert isinstance(source, GameDemo)
    assert "start a game of amigo-25 with Ann, Ben, Cid, Dee, Ann first" in source.name
    source.open()
    reader, tracker, game = SceneReader(classifier), TableTracker(), GameState(source.setup)
    before, proposed = None, []
    for step in range(3):  # plant stink; turn over chili and blue; (end the trading and) plant the blue
        now[0] = 4.0 * (step + 1)
        for _ in range(6):
            frame = source.read()
            thumb = thumbnail(frame)
            still, before = not moving(before, thumb), thumb
            scene = placed(reader.read(frame), TableZones().for_frame(frame))
            observation = tracker.observe(view_of(scene, range(4), 0.9), not still, game)
            for event in observation.events if observation else ():
                proposed.append(event)
                game.push(move_from_dict(event))
    def seen(event: dict) -> tuple:
        return event["type"], event.get("bean"), sorted(event.get("beans", []))

    assert [seen(e) for e in proposed] == [seen(e) for e in source.events[:4]]
