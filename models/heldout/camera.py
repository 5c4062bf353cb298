"""A held-out camera: a card lying on a real-looking table, photographed as a phone or a webcam would.

Written apart from :mod:`models.camera`: its own table surfaces (woven cloth, planks,
felt, speckled laminate), a card with rounded corners that casts a soft shadow, a camera
tilted over the table (true perspective of a tilted plane), white balance, vignetting,
glare on the glossy card, defocus or motion blur, a soft webcam sensor, noise and JPEG.
A :class:`Look` says how one family's decks are photographed; a seed fixes the photo.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

SURFACES = ("cloth", "planks", "felt", "laminate")


@dataclass(frozen=True)
class Look:
    """How one family's photos are taken."""

    size: tuple[int, int]
    """(width, height) of a photo."""
    tilt: tuple[float, float]
    """Least and most tilt of the camera away from straight down, in degrees."""
    length: tuple[float, float]
    """Least and most share of the photo's height the card's long side spans, seen from straight above."""
    warmth: float
    """Spread of the white balance: 0 neutral; 0.2 from cool daylight to warm lamp light."""
    motion: float
    """Share of photos shaken (motion blur); the others may be out of focus."""
    surfaces: tuple[str, ...] = SURFACES


def surface(rng: np.random.Generator, size: tuple[int, int], kinds: Sequence[str] = SURFACES) -> np.ndarray:
    """A table top of one of ``kinds`` (BGR uint8, ``size`` = (width, height))."""
    w, h = size
    kind = kinds[int(rng.integers(len(kinds)))]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, np.pi)
    u, v = xx * np.cos(a) + yy * np.sin(a), -xx * np.sin(a) + yy * np.cos(a)
    base = rng.uniform(40, 230, 3).astype(np.float32)
    if kind == "cloth":  # warp and weft threads, gently creased
        period = rng.uniform(2.5, 6)
        weave = np.sin(u * 2 * np.pi / period) * np.sin(v * 2 * np.pi / period)
        crease = cv2.resize(rng.normal(0, 1, (4, 5)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
        other = rng.uniform(40, 230, 3).astype(np.float32)
        mix = (np.sin(u * 2 * np.pi / rng.uniform(20, 60)) > 0).astype(np.float32) if rng.random() < 0.5 else 0.0
        img = base * (1 - np.asarray(mix)[..., None]) + other * np.asarray(mix)[..., None]
        img = img * (1 + 0.12 * weave[..., None] + 0.06 * crease[..., None])
    elif kind == "planks":  # boards with seams, grain drawn along each
        base = np.array([rng.uniform(40, 120), rng.uniform(70, 150), rng.uniform(110, 200)], np.float32)
        width = rng.uniform(35, 80)
        board = np.floor(v / width)
        streaks = cv2.resize(rng.normal(0, 1, (h, 6)).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
        grain = np.sin(v * 0.9 + board * 7 + 2.5 * np.sin(u / rng.uniform(25, 70) + board))
        tone = 1 + 0.1 * np.sin(board * 12.9898) + 0.05 * grain + 0.04 * streaks
        seam = np.abs(v / width - np.round(v / width)) * width < 1.2
        img = base * tone[..., None]
        img[seam] *= 0.45
    elif kind == "felt":  # one colour, fuzzy mottling
        fuzz = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 2.0)
        img = base * (1 + 0.08 * fuzz[..., None])
    else:  # laminate: speckles of two other colours
        img = np.broadcast_to(base, (h, w, 3)).copy()
        for _ in range(2):
            dots = rng.random((h, w)) < rng.uniform(0.02, 0.08)
            img[dots] = rng.uniform(20, 240, 3)
        img = cv2.GaussianBlur(img, (0, 0), 0.7)
    return np.clip(img, 0, 255).astype(np.uint8)


def rounded_mask(h: int, w: int) -> np.ndarray:
    """A card's shape: 255 inside, corners rounded by 6 % of its width."""
    r = max(2, int(0.06 * w))
    mask = np.zeros((h, w), np.uint8)
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return mask


def tilted(points: np.ndarray, size: tuple[int, int], pitch: float, roll: float) -> np.ndarray:
    """``points`` of the table as seen from straight above, seen by a camera pitched ``pitch``
    degrees and rolled ``roll`` degrees (a pinhole with a field of view of about 60°)."""
    w, h = size
    f = w / (2 * np.tan(np.radians(30)))
    p = points - (w / 2, h / 2)
    t = np.radians(pitch)
    depth = f + p[:, 1] * np.sin(t)
    seen = np.stack([p[:, 0] * f / depth, p[:, 1] * np.cos(t) * f / depth], axis=1)
    r = np.radians(roll)
    turn = np.array([[np.cos(r), -np.sin(r)], [np.sin(r), np.cos(r)]])
    return (seen @ turn.T + (w / 2, h / 2)).astype(np.float32)


def card_corners(rng: np.random.Generator, look: Look, aspect: float) -> np.ndarray:
    """Where a card lies on the table seen from above: turned, either way up, off-centre (4, 2)."""
    w, h = look.size
    length = h * rng.uniform(*look.length)
    half = np.array([[-length * aspect, -length], [length * aspect, -length], [length * aspect, length],
                     [-length * aspect, length]], np.float32) / 2
    angle = np.radians(rng.uniform(-40, 40) + 180 * (rng.random() < 0.5) + 90 * (rng.random() < 0.1))
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]], np.float32)
    quad = half @ turn.T
    span = quad.max(axis=0) - quad.min(axis=0)
    quad *= min(1.0, 0.96 * w / span[0], 0.96 * h / span[1])
    room = np.maximum(0, (np.array([w, h]) - (quad.max(axis=0) - quad.min(axis=0))) / 2 - 2)
    off = np.clip(rng.uniform(-1, 1, 2) * (0.12 * w, 0.1 * h), -room, room)
    return quad + (w / 2, h / 2) + off.astype(np.float32)


def lay(photo: np.ndarray, face: np.ndarray, quad: np.ndarray, shadow: np.ndarray) -> None:
    """Put ``face`` (rounded corners) on ``photo`` at ``quad``, its soft shadow cast by ``shadow`` (dx, dy)."""
    fh, fw = face.shape[:2]
    size = (photo.shape[1], photo.shape[0])
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    m = cv2.getPerspectiveTransform(src, quad)
    mask = cv2.warpPerspective(rounded_mask(fh, fw), m, size, flags=cv2.INTER_AREA).astype(np.float32) / 255
    dark = cv2.warpPerspective(rounded_mask(fh, fw), cv2.getPerspectiveTransform(src, quad + shadow), size)
    dark = cv2.GaussianBlur(dark.astype(np.float32) / 255, (0, 0), 2 + float(np.abs(shadow).sum()) / 2)
    out = photo.astype(np.float32) * (1 - 0.45 * dark[..., None])
    warped = cv2.warpPerspective(face, m, size, flags=cv2.INTER_AREA).astype(np.float32)
    photo[:] = np.clip(out * (1 - mask[..., None]) + warped * mask[..., None], 0, 255).astype(np.uint8)


def column_neighbour(quad: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Where the next card of a field's column lies over ``quad``: along its length, covering
    15-40 % of it, turned a little."""
    end = 2 * int(rng.integers(2))
    centre = quad.mean(axis=0)
    mid = (quad[end] + quad[(end + 1) % 4]) / 2
    moved = quad + 2 * (mid - centre) * (1 - rng.uniform(0.15, 0.4))
    turn = cv2.getRotationMatrix2D(tuple(float(c) for c in moved.mean(axis=0)), rng.uniform(-8, 8), 1.0)
    return (np.hstack([moved, np.ones((4, 1), np.float32)]) @ turn.T).astype(np.float32)


def lighting(img: np.ndarray, rng: np.random.Generator, look: Look, card: np.ndarray | None) -> np.ndarray:
    """White balance, a light falling off across the table, vignetting, and glare on the card."""
    h, w = img.shape[:2]
    warm = rng.uniform(-look.warmth, look.warmth)
    gains = np.array([1 - warm, 1.0, 1 + warm], np.float32) * rng.uniform(0.75, 1.15)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, 2 * np.pi)
    slope = 1 + rng.uniform(0, 0.35) * ((xx / w - 0.5) * np.cos(a) + (yy / h - 0.5) * np.sin(a))
    vignette = 1 - rng.uniform(0, 0.35) * (((xx - w / 2) / w) ** 2 + ((yy - h / 2) / h) ** 2) * 2
    out = img.astype(np.float32) * gains * (slope * vignette)[..., None]
    if card is not None and rng.random() < 0.3:  # the lamp mirrored in a glossy card
        glare = np.zeros((h, w), np.float32)
        spot = card.mean(axis=0) + rng.uniform(-0.3, 0.3, 2) * (card.max(axis=0) - card.min(axis=0))
        cv2.ellipse(glare, (int(spot[0]), int(spot[1])), (int(rng.uniform(8, 30)), int(rng.uniform(3, 10))),
                    rng.uniform(0, 180), 0, 360, 1.0, -1)
        inside = np.zeros((h, w), np.float32)
        cv2.fillConvexPoly(inside, card.astype(np.int32), 1.0)
        out += rng.uniform(60, 160) * (cv2.GaussianBlur(glare, (0, 0), 5) * inside)[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def sensor(img: np.ndarray, rng: np.random.Generator, look: Look) -> np.ndarray:
    """Shake or defocus, a soft small sensor, noise that grows with the light, and JPEG."""
    if rng.random() < look.motion:
        k = int(rng.integers(3, 10))
        streak = np.zeros((k, k), np.float32)
        cv2.line(streak, (0, k // 2), (k - 1, k // 2), 1.0, 1)
        turn = cv2.getRotationMatrix2D(((k - 1) / 2, (k - 1) / 2), rng.uniform(0, 180), 1)
        kernel = cv2.warpAffine(streak, turn, (k, k))
        img = cv2.filter2D(img, -1, np.asarray(kernel, np.float32) / max(float(kernel.sum()), 1e-6))
    elif rng.random() < 0.5:
        r = int(rng.integers(1, 3))
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)).astype(np.float32)
        img = cv2.filter2D(img, -1, disc / disc.sum())
    h, w = img.shape[:2]
    shrink = rng.uniform(0.55, 1.0)
    small = cv2.resize(img, (max(8, int(w * shrink)), max(8, int(h * shrink))), interpolation=cv2.INTER_AREA)
    img = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    level = img.astype(np.float32)
    noisy = level + rng.normal(0, 1, img.shape).astype(np.float32) * np.sqrt(level + 4) * rng.uniform(0.2, 0.7)
    _, buf = cv2.imencode(".jpg", np.clip(noisy, 0, 255).astype(np.uint8),
                          [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 93))])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    assert decoded is not None  # a JPEG just encoded here
    return decoded


def photograph(face: np.ndarray, rng: np.random.Generator, look: Look, cover: np.ndarray | None = None) -> np.ndarray:
    """A photo of ``face`` lying on a table, the whole card in view; ``cover`` lies over one end
    as the next card of a field's column."""
    photo = surface(rng, look.size, look.surfaces)
    flat = card_corners(rng, look, face.shape[1] / face.shape[0])
    pitch, roll = rng.uniform(*look.tilt), rng.uniform(-6, 6)
    quad = tilted(flat, look.size, pitch, roll)
    shadow = rng.uniform(-1, 1, 2).astype(np.float32) * rng.uniform(1, 6)
    lay(photo, face, quad, shadow)
    if cover is not None:
        lay(photo, cover, tilted(column_neighbour(flat, rng), look.size, pitch, roll), shadow)
    return sensor(lighting(photo, rng, look, quad), rng, look)


def clutter(photo: np.ndarray, rng: np.random.Generator) -> None:
    """What else lies on a game table: coins, a die, a cup from above, a pencil."""
    h, w = photo.shape[:2]
    for _ in range(int(rng.integers(0, 4))):
        x, y = int(rng.uniform(0, w)), int(rng.uniform(0, h))
        kind = int(rng.integers(4))
        if kind == 0:
            r = int(rng.uniform(8, 18))
            cv2.circle(photo, (x, y), r, (40, 150, 200), -1, cv2.LINE_AA)
            cv2.circle(photo, (x, y), r, (30, 100, 150), 2, cv2.LINE_AA)
        elif kind == 1:
            s = rng.uniform(12, 24)
            box = cv2.boxPoints(((x, y), (s, s), rng.uniform(0, 90))).astype(np.int32)
            cv2.fillConvexPoly(photo, box, (235, 235, 235), cv2.LINE_AA)
            for _ in range(int(rng.integers(1, 7))):
                cv2.circle(photo, (x + int(rng.uniform(-s / 3, s / 3)), y + int(rng.uniform(-s / 3, s / 3))), 2,
                           (20, 20, 20), -1)
        elif kind == 2:
            r = int(rng.uniform(30, 55))
            colour = tuple(float(v) for v in rng.uniform(30, 240, 3))
            cv2.circle(photo, (x, y), r, colour, -1, cv2.LINE_AA)
            cv2.circle(photo, (x, y), int(r * 0.8), (40, 60, 90), -1, cv2.LINE_AA)
        else:
            a = rng.uniform(0, np.pi)
            tip = (int(x + 90 * np.cos(a)), int(y + 90 * np.sin(a)))
            cv2.line(photo, (x, y), tip, (40, 190, 230), 7, cv2.LINE_AA)


def empty_table(rng: np.random.Generator, look: Look) -> np.ndarray:
    """A photo of the table with no card on it, maybe with a few other things."""
    photo = surface(rng, look.size, look.surfaces)
    clutter(photo, rng)
    return sensor(lighting(photo, rng, look, None), rng, look)
