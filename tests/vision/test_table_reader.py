"""The table reader: which camera frames are read, and which the referee hears of.

The referee votes on still frames only, so a hand moving over the table is not read (one frame
in ``REREAD`` is, so that the page still shows the table), and the first still frame after it
is read at once: a card that lands is named on the first frame that shows it lying still.
"""

from __future__ import annotations

import numpy as np

from companion.vision.scene import SceneReader
from companion.vision.table_reader import REREAD, TableReader
from models.game_table import draw_table, hand_over
from models.render import house_design, render_face


def test_a_moving_hand_is_not_read_and_the_first_still_frame_after_it_is(classifier):
    faces = {bean: render_face(house_design(bean)) for bean in ("soy", "red")}
    before = draw_table({0: [("soy", 2)]}, [], faces, 3)
    after = draw_table({0: [("soy", 2), ("red", 1)]}, [], faces, 3)
    hands = [hand_over(after, np.random.default_rng(k)) for k in range(5)]
    table = TableReader(SceneReader(classifier))
    readings = [table.read(frame) for frame in [before] * 6 + hands + [after] * 6]

    assert REREAD == 4
    assert [r.moving for r in readings] == [False] * 6 + [True] * 6 + [False] * 5  # the hand leaving is a move too
    assert [r.fresh for r in readings] == [True, False, False, True, False, False,  # still: the 1st, 4th, 8th ...
                                           False, True, False, False, False, True,  # moving: one in four, for the page
                                           True, False, False, True, False]  # the first still frame at once
    assert [r.news for r in readings] == [r.fresh or r.moving for r in readings]
    stacks = [sorted((s.bean, s.count) for s in r.scene.stacks) for r in readings]
    assert stacks[0] == stacks[5] == [("soy", 2)]
    assert stacks[12] == stacks[-1] == [("red", 1), ("soy", 2)]  # read on the first still frame
    assert all(stacks[k] == stacks[k - 1] for k, r in enumerate(readings) if not r.fresh)  # kept, not read
