"""A picture the referee must not see: black (a covered lens, a dark room) or frozen (a stalled driver)."""

from __future__ import annotations

import numpy as np

from companion.vision.picture import BLACK, PictureWatch, black
from models.tabletop import wooden_table


def test_black_is_dark_in_every_colour_and_flat():
    table = wooden_table(np.random.default_rng(0), (320, 180))
    assert black(np.zeros_like(table)) and black(np.full_like(table, 9))
    assert not black((table * 0.2).astype(np.uint8))  # a dim table still shows its grain and colour
    assert not black(np.full_like(table, 128))  # flat, but lit


def test_only_a_live_camera_freezes_and_a_new_picture_thaws_it():
    now = [0.0]
    table = wooden_table(np.random.default_rng(1), (320, 180))
    live, replay = PictureWatch(True, lambda: now[0]), PictureWatch(False, lambda: now[0])
    answers = []
    for _ in range(7):
        answers.append((live.problem(table), replay.problem(table)))
        now[0] += 1
    assert [a is None for a, _ in answers] == [True] * 5 + [False] * 2 and all(b is None for _, b in answers)
    assert live.problem(table[::-1].copy()) is None
    assert live.problem(np.zeros_like(table)) == BLACK == replay.problem(np.zeros_like(table))
