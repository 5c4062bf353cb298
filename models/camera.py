"""The camera's troubles: a card face becomes a photo of that card lying on a table.

:func:`photograph` places a face on a busy tablecloth with perspective, rotation and
scale, may cover part of it with the next card of a column, then adds uneven light,
shadows, glare, blur, noise and JPEG artefacts. Everything comes from the given
``numpy`` generator, so a seed fixes the photo.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from models.render import FACE_H, FACE_W

PHOTO_W, PHOTO_H = 240, 200
"""Size of a synthetic photo (a roughly framed single card with table around it)."""


def tablecloth(rng: np.random.Generator, w: int = PHOTO_W, h: int = PHOTO_H,
               colour: np.ndarray | None = None) -> np.ndarray:
    """A busy table surface: wood, checks, stripes, flowers or plain noise; one of its two
    colours is ``colour`` when given."""
    full_w, full_h = w, h
    w, h = w // 2, h // 2  # drawn at half size, then scaled up
    kind = int(rng.integers(5))
    base = rng.integers(0, 256, 3).astype(np.float32)
    base = base if colour is None else np.asarray(colour, np.float32)
    other = rng.integers(0, 256, 3).astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, np.pi)
    u = xx * np.cos(angle) + yy * np.sin(angle)
    period = rng.uniform(4, 20)
    if kind == 0:  # wood grain
        t = 0.5 + 0.5 * np.sin(u / period * 2 * np.pi + 3 * np.sin(yy / rng.uniform(20, 60)))
    elif kind == 1:  # checks
        v = -xx * np.sin(angle) + yy * np.cos(angle)
        t = ((np.floor(u / period) + np.floor(v / period)) % 2).astype(np.float32)
    elif kind == 2:  # stripes
        t = (np.sin(u / period * 2 * np.pi) > 0).astype(np.float32)
    elif kind == 3:  # flowers
        t = np.zeros((h, w), np.float32)
        for _ in range(int(rng.integers(10, 40))):
            cv2.circle(t, (int(rng.integers(w)), int(rng.integers(h))), int(rng.integers(2, 7)), 1.0, -1)
    else:  # mottled noise
        t = cv2.resize(rng.random((h // 4 + 1, w // 4 + 1), np.float32), (w, h))
    img = base * (1 - t[..., None]) + other * t[..., None]
    img = cv2.resize(img, (full_w, full_h), interpolation=cv2.INTER_LINEAR)
    return np.clip(img + rng.standard_normal(img.shape, np.float32) * 6, 0, 255).astype(np.uint8)


def _card_quad(rng: np.random.Generator, scale: float) -> np.ndarray:
    """Corners of a card in the photo: rotated, scaled, shifted and in perspective."""
    h = PHOTO_H * scale
    w = h * FACE_W / FACE_H
    corners = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]], np.float32)
    corners += rng.normal(0, 0.05 * h, corners.shape).astype(np.float32)  # perspective
    angle = rng.uniform(-35, 35) + (180 if rng.random() < 0.3 else 0) + (90 if rng.random() < 0.15 else 0)
    rot = cv2.getRotationMatrix2D((0, 0), angle, 1.0)[:, :2].astype(np.float32)
    corners = corners @ rot.T
    shift = rng.uniform([-0.1, -0.1], [0.1, 0.1]) * [PHOTO_W, PHOTO_H]
    return corners + np.array([PHOTO_W / 2, PHOTO_H / 2], np.float32) + shift.astype(np.float32)


def _paste(photo: np.ndarray, face: np.ndarray, quad: np.ndarray) -> None:
    src = np.array([[0, 0], [FACE_W, 0], [FACE_W, FACE_H], [0, FACE_H]], np.float32)
    m = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    size = (photo.shape[1], photo.shape[0])
    warped = cv2.warpPerspective(face, m, size, flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full(face.shape[:2], 255, np.uint8), m, size)
    photo[mask > 127] = warped[mask > 127]


@dataclass(frozen=True)
class Lamp:
    """One light on a picture of a given size: a warm lamp's gain per pixel and channel, maybe a shadow's shade, maybe
    a glare spot's added brightness. Shining it on many pictures draws its randomness once."""

    gain: np.ndarray
    """(h, w, 3) float64: how much of each channel's light falls on each pixel."""
    shade: np.ndarray | None
    """(h, w, 1) float32: the share of the light a shadow leaves."""
    glare: np.ndarray | None
    """(h, w, 1) float32: brightness a glare spot adds."""

    def shine(self, img: np.ndarray) -> np.ndarray:
        """``img`` under this light."""
        out = img.astype(np.float32)
        out *= self.gain
        if self.shade is not None:
            out *= self.shade
        if self.glare is not None:
            out += self.glare
        return np.clip(out, 0, 255).astype(np.uint8)


def lamp(shape: tuple[int, ...], rng: np.random.Generator, reach: tuple[int, int] | None = None,
         shadow: bool = True) -> Lamp:
    """Uneven warm lamp light, maybe a shadow, and maybe a glare spot, on a picture of ``shape``; the shadow falls
    within a random window of ``reach`` = (width, height) pixels (a hand's or a cup's on a whole table), or anywhere
    without one, and never without ``shadow``."""
    h, w = shape[:2]
    yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    dist = np.sqrt((xx - cx) ** 2 + (yy - cy) ** 2) / np.hypot(w, h)
    gain = rng.uniform(0.55, 1.15) * (1 - rng.uniform(0, 0.6) * dist)
    gain = cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR)
    tint = np.array([rng.uniform(0.7, 1.05), rng.uniform(0.9, 1.05), rng.uniform(0.95, 1.2)], np.float32)
    shade = glare = None
    if rng.random() < 0.5 and shadow:  # shadow of a hand or a cup
        mask: np.ndarray = np.zeros((h, w), np.float32)
        pts = rng.uniform([0, 0], reach or [w, h], (int(rng.integers(3, 6)), 2))
        if reach is not None:
            pts += rng.uniform([0, 0], [max(0, w - reach[0]), max(0, h - reach[1])])
        pts = pts.astype(np.int32)
        cv2.fillPoly(mask, [cv2.convexHull(pts)], 1.0)
        mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(2, 10))
        shade = 1 - rng.uniform(0.2, 0.55) * mask[..., None]
    if rng.random() < 0.35:  # glare
        mask = np.zeros((h, w), np.float32)
        cv2.ellipse(mask, (int(rng.uniform(0, w)), int(rng.uniform(0, h))),
                    (int(rng.uniform(6, 30)), int(rng.uniform(4, 18))), rng.uniform(0, 180), 0, 360, 1.0, -1)
        mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(2, 8))
        glare = rng.uniform(80, 200) * mask[..., None]
    return Lamp(gain[..., None] * tint, shade, glare)


def light(img: np.ndarray, rng: np.random.Generator, reach: tuple[int, int] | None = None,
          shadow: bool = True) -> np.ndarray:
    """``img`` under a :func:`lamp` drawn for it."""
    return lamp(img.shape, rng, reach, shadow).shine(img)


def sensor(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Blur (focus or motion), noise and JPEG compression."""
    if rng.random() < 0.5:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.5))
    elif rng.random() < 0.4:
        k = int(rng.integers(3, 7))
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2, :] = 1.0 / k
        rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1.0)
        img = cv2.filter2D(img, -1, cv2.warpAffine(kernel, rot, (k, k)))
    noisy = rng.standard_normal(img.shape, np.float32)
    noisy *= rng.uniform(1, 9)
    noisy += img
    img = np.clip(noisy, 0, 255, out=noisy).astype(np.uint8)
    _, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 90))])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    assert decoded is not None  # a JPEG just encoded here
    return decoded


def photograph(face: np.ndarray, rng: np.random.Generator, cover: np.ndarray | None = None) -> np.ndarray:
    """A degraded BGR photo of ``face`` on a table; ``cover`` is a card that may overlap it."""
    return photograph_with_quad(face, rng, cover)[0]


def photograph_with_quad(face: np.ndarray, rng: np.random.Generator, cover: np.ndarray | None = None,
                         table: np.ndarray | None = None, cover_share: float = 0.3) -> tuple[np.ndarray, np.ndarray]:
    """Like :func:`photograph`, also giving the card's true corners in the photo; ``table`` is one
    colour of the tablecloth (random when not given); ``cover`` overlaps the card in ``cover_share``
    of the photos."""
    photo = tablecloth(rng, colour=table)
    quad = _card_quad(rng, rng.uniform(0.55, 0.88))
    _paste(photo, face, quad)
    if cover is not None and rng.random() < cover_share:
        # The next card of a column: same orientation, shifted along the card's length.
        side = 2 * int(rng.integers(2))  # a short edge: columns overlap along the card's length
        edge_mid = (quad[side] + quad[(side + 1) % 4]) / 2
        reach = 2 * (edge_mid - quad.mean(axis=0)) * (1 - rng.uniform(0.12, 0.35))
        _paste(photo, cover, quad + reach.astype(np.float32))
    return sensor(light(photo, rng), rng), quad
