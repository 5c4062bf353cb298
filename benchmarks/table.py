"""The camera referee's cost per frame, on 2 threads: a 1280 x 720 frame (the size a webcam is asked for) of three
players' fields (8 columns of 1 to 12 cards) and two face-up beans, with printed markers.

    .venv/bin/python benchmarks/table.py

Baseline: decoding the same frame from JPEG, which every camera frame costs anyway. "A frame
read in full" is read by a reader that remembers nothing; "a hand moving over one side" is the
mean over frames of a hand in two places, the columns it leaves alone remembered from the frame
before; "a still table" is the mean over 20 frames of one that does not move (the table reader
reads one in four again). Figures are the best of interleaved rounds (the machine is shared and noisy).

"A game's frames" plays changes as the camera sees them at 1280 x 720 (41 cards): a card laid, two
frames of a hand over the table, then nine still frames, each through the table reader; it prints
the median time per frame beside the camera's 33 ms frame period, and how long after it lands a
card is named (the frame after the hand left still counts as a move; the next one is read at once, its outlines
found only where it changed since the table last lay still), and what finding those outlines costs beside finding
them on the whole frame. It is played twice: seen from straight above, and by a camera tilted 35 degrees
(:mod:`models.tilt`), whose frames are read on the table's plane (:mod:`companion.vision.plane`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import cv2
import numpy as np

from companion.vision.changes import changed_boxes, small
from companion.vision.scene import SceneReader, read_table
from companion.vision.sight import sight, sight_since
from companion.vision.sources import FRAME_SIZE
from companion.vision.strips import find_outlines
from companion.vision.table_reader import TableReader
from companion.vision.zones import TableZones
from models.game_table import SIZE, draw_table, hand_over
from models.render import house_design, render_face
from models.tilt import tilted

ROUNDS = 7
FRAME_PERIOD_MS = 1000 / 30
"""A webcam's frame period at 30 frames a second."""
LAID = [(0, 1), (1, 0), (2, 2), (0, 0)]
"""The fields (seat, slot) a card is laid on, one change after another, in "a game's frames"."""
STILL_FRAMES = 20
"""Frames of a still table read in a row (the table reader reads one in four of them again)."""
FIELDS = {0: [("blue", 12), ("chili", 3), ("soy", 1)], 1: [("green", 7), ("red", 2)],
          2: [("stink", 9), ("black-eyed", 4), ("garden", 1)]}


def best_ms(steps: dict[str, Callable[[], object]]) -> dict[str, float]:
    best = dict.fromkeys(steps, float("inf"))
    for _ in range(ROUNDS):
        for name, step in steps.items():
            start = time.perf_counter()
            step()
            best[name] = min(best[name], (time.perf_counter() - start) * 1000)
    return best


def main() -> None:
    faces = {bean: render_face(house_design(bean)) for bean in
             ("blue", "chili", "soy", "green", "red", "stink", "black-eyed", "garden")}
    frame = cv2.resize(draw_table(FIELDS, ["red", "soy"], faces, 1), FRAME_SIZE, interpolation=cv2.INTER_AREA)
    jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 90])[1]
    reader, zones = SceneReader(), TableZones()
    outlines = find_outlines(frame)
    reader.read(frame)  # warm-up
    still = TableReader(reader)
    hands = [cv2.resize(hand_over(draw_table(FIELDS, ["red", "soy"], faces, 1), np.random.default_rng(k), at),
                        FRAME_SIZE, interpolation=cv2.INTER_AREA) for k, at in enumerate(((150, 150), (250, 200)))]
    ms = best_ms({
        "decode": lambda: cv2.imdecode(jpeg, cv2.IMREAD_COLOR),
        "still": lambda: [still.read(frame) for _ in range(STILL_FRAMES)],
        "outlines": lambda: find_outlines(frame),
        "columns": lambda: reader.columns.read(frame, outlines),
        "zones": lambda: zones.for_frame(frame),
        "frame": lambda: read_table(SceneReader(reader.classifier, reader.columns, reader.refiner), frame, zones),
        "hand": lambda: [reader.read(hand) for hand in hands * 5],
    })
    base = ms["decode"]
    scene, _, _ = read_table(reader, frame, zones)
    print(f"table: a {FRAME_SIZE[0]}x{FRAME_SIZE[1]} frame, {len(scene.stacks)} stacks "
          f"({sum(s.count for s in scene.stacks)} cards), onnxruntime on 2 threads")
    print(f"  {'decode the JPEG frame':<33}: {base:.2f} ms (baseline)")
    ms["still"] /= STILL_FRAMES
    ms["hand"] /= 10
    for name, what in (("outlines", "find the outlines"), ("columns", "count the columns"),
                       ("zones", "find the markers' zones"), ("frame", "a frame read in full"),
                       ("hand", "a hand moving over one side"), ("still", "a still table, per frame")):
        print(f"  {what:<33}: {ms[name]:.2f} ms ({ms[name] / base:.1f} x)")
    game_frames(reader, faces)
    game_frames(reader, faces, TILT)


TILT = 35.0
"""Degrees from straight down of the tilted camera in "a game's frames"."""


def game_frames(reader: SceneReader, faces: dict[str, np.ndarray], tilt: float | None = None) -> None:
    """Time per frame through the table reader over changes seen as a camera sees them (tilted ``tilt`` degrees)."""
    fields = {seat: list(columns) for seat, columns in FIELDS.items()}
    table = TableReader(reader)
    slant = None if tilt is None else tilted(SIZE, tilt)

    def seen(picture: np.ndarray) -> np.ndarray:
        return picture if slant is None else cv2.warpPerspective(picture, slant, SIZE, flags=cv2.INTER_AREA)

    still = seen(draw_table(fields, ["red", "soy"], faces, 1))
    table.read(still)
    per_frame, landed, looked = [], [], []
    for k, (seat, slot) in enumerate(LAID):
        bean, count = fields[seat][slot]
        fields[seat][slot] = (bean, count + 1)
        before, still = still, seen(draw_table(fields, ["red", "soy"], faces, 1))
        looked.append(outlines_ms(before, still))
        rng = np.random.default_rng(k)
        for n, frame in enumerate([hand_over(still, rng), hand_over(still, rng)] + [still] * 9):
            start = time.perf_counter()
            reading = table.read(frame)
            per_frame.append((time.perf_counter() - start) * 1000)
            if n == 3:  # the first still frame (the one after the hand left still counts as a move)
                assert reading.fresh
                landed.append(per_frame[-1])
    cards = sum(count for columns in fields.values() for _, count in columns) + 2
    seat = "from straight above" if tilt is None else f"by a camera tilted {tilt:g} degrees"
    print(f"a game's frames, {seat}: 1280x720, {cards} cards, {len(LAID)} cards laid, {len(per_frame)} frames")
    print(f"  camera frame period              : {FRAME_PERIOD_MS:.1f} ms (baseline)")
    print(f"  median time per frame            : {np.median(per_frame):.2f} ms "
          f"({np.median(per_frame) / FRAME_PERIOD_MS:.2f} of the period); mean {np.mean(per_frame):.2f} ms")
    print(f"  a card that lands, named within  : {FRAME_PERIOD_MS + max(landed):.1f} ms (the 2nd frame it lies still "
          f"on, read in {max(landed):.1f} ms at most)")
    whole, changed = (float(np.mean([ms[name] for ms in looked])) for name in ("whole", "changed"))
    print(f"  its outlines, on the whole frame : {whole:.2f} ms (baseline)")
    print(f"  only where it changed            : {changed:.2f} ms ({changed / whole:.2f} x)")


def outlines_ms(before: np.ndarray, after: np.ndarray) -> dict[str, float]:
    """Finding the outlines of ``after``, a still frame of the table ``before`` with a card laid: on the whole frame,
    and only where it changed (``before`` compared and looked at already, as the table reader keeps them)."""
    earlier, compared = sight(before), small(before)
    return best_ms({"whole": lambda: sight(after),
                    "changed": lambda: sight_since(after, earlier, changed_boxes(compared, small(after)) or [])})


if __name__ == "__main__":
    main()
