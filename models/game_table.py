"""A game's table drawn as the overhead camera sees it: printed markers, each player's fields, the face-up beans.

Up to four players sit around a 1280 x 720 table (seat 0 at the bottom edge, then the left,
the right and the top edge). Each lays the fields marker (id ``10 + seat``) at the near left
of their fields, upright as they read it, and their fields as columns behind it, as
:mod:`companion.vision.zones` expects; the face-up beans lie beside the face-up marker (id 20),
and the discard pile (its top card) beside the discard marker (id 21), when the table has one.
A hand may pass over the table (:func:`hand_over`). Drawing is seeded, so a seed fixes the
table; the same seed keeps each card where it lay, frame after frame.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import cv2
import numpy as np

from companion.vision.zones import DICTIONARY, DISCARD_ID, FACE_UP_ID, FIELDS_ID, LAYOUT
from models.fields import card_corners, lay_field
from models.tabletop import paste_card, wooden_table

SIZE = (1280, 720)
MARKER = 34
"""Marker side in pixels (4 cm): a card is 2.2 sides tall."""
CARD = MARKER * 87 / 40
SEATS_AT = {0: ((600.0, 690.0), 0.0), 1: ((30.0, 150.0), 90.0), 2: ((1250.0, 570.0), 270.0),
            3: ((680.0, 30.0), 180.0)}
"""Per seat: where the near-left corner of its fields marker lies, and which way the player faces."""
FACE_UP_AT = (340.0, 600.0)
"""The face-up marker's near-left corner (it is read from the bottom edge)."""
DISCARD_AT = (850.0, 250.0)
"""The discard marker's near-left corner (read from the bottom edge), between the top and the right seat."""
LANDING = (8.0, 10.0)
"""How far (pixels, each way) from its spot beside the discard marker, and how much turned (degrees), a card thrown
on the pile lands: each lies a little elsewhere, and the pile's top stays put until the next one lands."""
Fields = Sequence[tuple[str, int]]
"""A seat's non-empty fields: (bean, count) each, in field order."""


def _up(facing: float) -> np.ndarray:
    rad = np.deg2rad(facing)
    return np.array([np.sin(rad), -np.cos(rad)], np.float32)


def paste_marker(table: np.ndarray, marker_id: int, near_left: tuple[float, float], facing: float,
                 side: float = MARKER) -> None:
    """Paste marker ``marker_id`` (``side`` pixels) with a white margin, its near-left corner at ``near_left``, upright
    for ``facing``."""
    size = 120
    image = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(DICTIONARY), marker_id, size)
    face = cv2.copyMakeBorder(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), 20, 20, 20, 20, cv2.BORDER_CONSTANT,
                              value=(255, 255, 255))
    up, right = _up(facing), _up(facing + 90)
    margin = side * 20 / size
    origin = np.array(near_left, np.float32)
    far, wide = up * (side + margin), right * (side + margin)
    corners = [origin + far - right * margin, origin + far + wide, origin - up * margin + wide,
               origin - up * margin - right * margin]
    src = np.array([[0, 0], [face.shape[1], 0], [face.shape[1], face.shape[0]], [0, face.shape[0]]], np.float32)
    matrix = cv2.getPerspectiveTransform(src, np.array(corners, np.float32))
    warped = cv2.warpPerspective(face, matrix, (table.shape[1], table.shape[0]), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full(face.shape[:2], 255, np.uint8), matrix, (table.shape[1], table.shape[0]))
    table[mask > 127] = warped[mask > 127]


def draw_table(fields: Mapping[int, Fields], face_up: Sequence[str], faces: Mapping[str, np.ndarray],
               seed: int, discard: Sequence[str] | None = None,
               bumped: tuple[float, float, float] = (0.0, 0.0, 0.0)) -> np.ndarray:
    """The table with each seat's fields, the face-up beans and, given ``discard`` (the pile, bottom first), the
    discard marker and the pile's top card, where it landed (:data:`LANDING`: the same for a pile of the same
    size) and then was ``bumped`` (pixels right and down, degrees turned); cards lie the same for the same seed."""
    rng = np.random.default_rng([seed, 77])
    table = wooden_table(rng, SIZE)
    for seat, (near_left, facing) in SEATS_AT.items():
        if seat not in fields:
            continue
        paste_marker(table, FIELDS_ID + seat, near_left, facing)
        up, right = _up(facing), _up(facing + 90)
        far_edge = np.array(near_left, np.float32) + up * MARKER * (LAYOUT.fields.far - 0.1)
        for slot, (bean, count) in enumerate(fields[seat]):
            far = far_edge + right * MARKER * 2.0 * (slot + 0.5) - up * CARD / 2
            place = np.random.default_rng([seed, seat, slot])
            lay_field(table, faces[bean], bean, count, (float(far[0]), float(far[1])), CARD,
                      facing + place.uniform(-3, 3), place)
    paste_marker(table, FACE_UP_ID, FACE_UP_AT, 0.0)
    for k, bean in enumerate(face_up):
        centre = np.array(FACE_UP_AT, np.float32) + np.array([MARKER * (2.6 + 1.7 * k), -CARD / 2 - 4], np.float32)
        paste_card(table, faces[bean], card_corners(centre, CARD))
    if discard is not None:
        paste_marker(table, DISCARD_ID, DISCARD_AT, 0.0)
        if discard:
            landing = np.random.default_rng([DISCARD_ID, len(discard)])
            centre = (np.array(DISCARD_AT, np.float32) + np.array([MARKER * 2.3, -CARD / 2 - 4], np.float32)
                      + landing.uniform(-LANDING[0], LANDING[0], 2).astype(np.float32)
                      + np.array(bumped[:2], np.float32))
            turn = float(landing.uniform(-LANDING[1], LANDING[1])) + bumped[2]
            paste_card(table, faces[discard[-1]], card_corners(centre, CARD, turn))
    return table


def hand_over(frame: np.ndarray, rng: np.random.Generator, at: tuple[float, float] | None = None) -> np.ndarray:
    """``frame`` with an arm (a sleeve of any colour) and a hand (palm and fingers, skin-coloured) reaching in over
    the table, casting a soft shadow."""
    h, w = frame.shape[:2]
    x, y = at if at is not None else (rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h)
    skin = tuple(int(v) for v in np.array([120, 160, 215]) * rng.uniform(0.5, 1.05))
    sleeve = tuple(int(v) for v in rng.integers(0, 256, 3))
    start = [(x, h + 50), (-50, y), (w + 50, y), (x, -50)][int(rng.integers(4))]
    wrist = (int(x + (start[0] - x) * 0.25), int(y + (start[1] - y) * 0.25))
    fingers = [(int(x + 85 * np.cos(a)), int(y + 85 * np.sin(a))) for a in rng.uniform(0, 2 * np.pi, 4)]

    def draw(image: np.ndarray, arm: tuple, hand: tuple, shift: tuple[int, int] = (0, 0)) -> None:
        dx, dy = shift
        cv2.line(image, (int(start[0]) + dx, int(start[1]) + dy), (wrist[0] + dx, wrist[1] + dy), arm,
                 int(rng.uniform(70, 95)), cv2.LINE_AA)
        cv2.line(image, (wrist[0] + dx, wrist[1] + dy), (int(x) + dx, int(y) + dy), hand, 55, cv2.LINE_AA)
        cv2.ellipse(image, (int(x) + dx, int(y) + dy), (45, 55), 0, 0, 360, hand, -1, cv2.LINE_AA)
        for tip in fingers:
            cv2.line(image, (int(x) + dx, int(y) + dy), (tip[0] + dx, tip[1] + dy), hand, 16, cv2.LINE_AA)

    shade = np.zeros((h, w), np.float32)
    draw(shade, (1.0,), (1.0,), (int(rng.integers(15, 40)), int(rng.integers(15, 40))))
    out = (frame * (1 - 0.35 * cv2.GaussianBlur(shade, (0, 0), 12)[..., None])).astype(np.uint8)
    draw(out, sleeve, skin)
    return out
