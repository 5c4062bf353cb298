"""Whether the table moved: a hand over it does, a camera setting its exposure or white balance anew does not
(companion/vision/motion.py). Pure: rendered tables, no model."""

from __future__ import annotations

import numpy as np

from companion.vision.motion import moving, thumbnail
from models.camera import light, sensor
from models.game_table import draw_table, hand_over
from models.render import house_design, render_face


def table() -> np.ndarray:
    faces = {bean: render_face(house_design(bean)) for bean in ("soy", "red", "blue")}
    return draw_table({0: [("soy", 2), ("red", 1)], 1: [("blue", 4)]}, ["red"], faces, 3)


def brighter(frame: np.ndarray, gains: tuple[float, float, float]) -> np.ndarray:
    return np.clip(frame.astype(np.float32) * np.array(gains, np.float32), 0, 255).astype(np.uint8)


def test_a_hand_over_the_table_moves_it():
    still = table()
    assert not moving(thumbnail(still), thumbnail(still))
    assert moving(thumbnail(still), thumbnail(hand_over(still, np.random.default_rng(1))))


def test_the_exposure_or_white_balance_set_anew_does_not_move_the_table():
    still = table()
    for gains in ((1.12, 1.12, 1.12), (0.88, 0.9, 0.92), (1.0, 1.05, 1.15)):
        assert not moving(thumbnail(still), thumbnail(brighter(still, gains))), gains


def test_a_hand_moves_the_table_even_as_the_exposure_changes():
    still = table()
    assert moving(thumbnail(still), thumbnail(brighter(hand_over(still, np.random.default_rng(2)), (1.1, 1.1, 1.1))))


def test_a_still_frame_the_renderer_brightens_does_not_move_the_table():
    """The renderer's motion blur (models/camera.py) leaves some frames some 10 % brighter, as an exposure step
    would: one of them made a still table seem to move twice in a recorded High Bohn game, and a harvest was missed."""
    lit = light(table(), np.random.default_rng([104, 3]), shadow=False)  # as models/evaluate_referee.py lights it
    frames = [sensor(lit, np.random.default_rng([104, k])) for k in (5, 6)]
    assert frames[1].mean() > 1.05 * frames[0].mean()
    assert not moving(thumbnail(frames[0]), thumbnail(frames[1]))
