"""Bean fields drawn onto a tabletop as players lay them: columns of overlapping cards.

A field is a column of cards of one bean. The first card lies furthest from its player,
upright as the player reads it; each later card is laid nearer the player, shifted along
the column so the previous card's top band stays visible. Players sit around the table,
so a column may run in any direction (``facing``: the angle, in degrees, of the player's
"up"; 0 = a player at the bottom edge of the frame). Hands lay cards imperfectly: each
band and each card's sideways shift and turn vary a little. Everything comes from the
given ``numpy`` generator, so a seed fixes the table.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from models.camera import light, sensor
from models.render import FACE_H, FACE_W
from models.tabletop import paste_card

BAND = (0.13, 0.24)
"""Visible top band of a covered card, as a share of the card's height (one per card)."""
SIDEWAYS = 0.025
"""Largest sideways slip of a card against the one below, as a share of its width."""
TURN = 1.5
"""Largest turn of a card against the column, in degrees."""


@dataclass(frozen=True)
class LaidField:
    """A column on the rendered table: its bean, outline and cards.

    ``outline``: the column's 4 corners, far edge first (far-left, far-right, near-right, near-left
    as its player sees them); ``cards``: each card's TL, TR, BR, BL in the order laid (the last
    one fully visible).
    """

    bean: str
    outline: np.ndarray
    cards: tuple[np.ndarray, ...]

    @property
    def count(self) -> int:
        return len(self.cards)

    @property
    def top(self) -> np.ndarray:
        """The fully visible card's corners."""
        return self.cards[-1]


def _turn(angle: float) -> np.ndarray:
    rad = np.deg2rad(angle)
    return np.array([[np.cos(rad), -np.sin(rad)], [np.sin(rad), np.cos(rad)]], np.float32)


def card_corners(centre: np.ndarray, height: float, angle: float = 0.0) -> np.ndarray:
    """TL, TR, BR, BL of an upright card turned by ``angle`` degrees (clockwise on screen) about ``centre``."""
    w = height * FACE_W / FACE_H
    corners = np.array([[-w / 2, -height / 2], [w / 2, -height / 2], [w / 2, height / 2], [-w / 2, height / 2]],
                       np.float32)
    return corners @ _turn(angle).T + centre.astype(np.float32)


def _shadow(table: np.ndarray, edge: np.ndarray, depth: float, strength: float) -> None:
    """Darken (in place) a soft strip of ``depth`` px just beyond a card's top ``edge`` (2 points)."""
    along = edge[1] - edge[0]
    out = np.array([along[1], -along[0]], np.float32) / max(float(np.linalg.norm(along)), 1e-6)
    strip = np.array([edge[0], edge[1], edge[1] + out * depth, edge[0] + out * depth], np.float32)
    pad = int(depth) + 4
    h, w = table.shape[:2]
    x0, y0 = np.maximum(np.floor(strip.min(axis=0)).astype(int) - pad, 0)
    x1, y1 = np.minimum(np.ceil(strip.max(axis=0)).astype(int) + pad, (w, h))
    if x0 >= x1 or y0 >= y1:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillConvexPoly(mask, np.round(strip - (x0, y0)).astype(np.int32), 1.0, cv2.LINE_AA)
    mask = cv2.GaussianBlur(mask, (0, 0), max(depth / 2, 0.5))
    window = table[y0:y1, x0:x1]
    window[:] = np.clip(window * (1 - strength * mask[..., None]), 0, 255).astype(np.uint8)


def lay_field(table: np.ndarray, face: np.ndarray, bean: str, count: int, far: tuple[float, float],
              height: float, facing: float, rng: np.random.Generator) -> LaidField:
    """Lay ``count`` cards of ``face`` as one field (in place): the first card's centre at ``far``."""
    up = _turn(facing) @ np.array([0, -1], np.float32)
    side = np.array([-up[1], up[0]], np.float32)
    width = height * FACE_W / FACE_H
    centre = np.array(far, np.float32)
    cards = []
    for k in range(count):
        if k:
            centre = (centre - up * height * rng.uniform(*BAND)).astype(np.float32)
        slip = side * width * rng.uniform(-SIDEWAYS, SIDEWAYS)
        quad = card_corners(centre + slip, height, facing + rng.uniform(-TURN, TURN))
        if k:  # a card is thick enough to shade the one below along its top edge
            _shadow(table, quad[:2], rng.uniform(1.0, 3.0), rng.uniform(0.1, 0.4))
        paste_card(table, face, quad)
        cards.append(quad)
    points = np.concatenate(cards)
    rel = (points - centre) @ np.stack([side, up]).T
    (s0, u0), (s1, u1) = rel.min(axis=0), rel.max(axis=0)
    corner = [(s0, u1), (s1, u1), (s1, u0), (s0, u0)]
    outline = np.array([centre + s * side + u * up for s, u in corner], np.float32)
    return LaidField(bean, outline, tuple(cards))


SHADOW_REACH = (320, 320)
"""Area (px) a shadow of a hand or a cup may cover on a whole table's frame."""


def degrade(frame: np.ndarray, rng: np.random.Generator, shadow: bool = True) -> np.ndarray:
    """The camera's troubles of the models' photos on a whole frame: uneven light, maybe a shadow (a hand's or a
    cup's; never without ``shadow``), glare, blur, noise and JPEG artefacts."""
    return sensor(light(frame, rng, SHADOW_REACH, shadow), rng)
