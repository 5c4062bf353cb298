"""Held-out family "woodcut": cards printed from carved blocks in two or three flat inks.

A thick ink frame; the name carved in block capitals (:mod:`models.heldout.letters`) on a
ribbon at the top or the bottom; the beanometer as a column of coins down one side, each
with the cards it needs; the bean count in a seal in a corner; the bean itself a flat
kidney-shaped silhouette (a polygon) in the bean's real colour, shaded by carved hatching,
with a face and maybe a hat or a sprout, on plain paper, rays or hatching. The back is the
ink with a carved sun-coin. Everything about the deck comes from its seed.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.cards import BACK, VISION_LABELS
from models.heldout.beans import CARD_H, CARD_W, Colour, bean_colour, beanometer, count, shifted, title
from models.heldout.letters import carve

TAG = 101
"""Mixed into every seed of this family, so two families never share a random stream."""
OCHRE: Colour = (40, 150, 205)


@dataclass(frozen=True)
class Press:
    """What one woodcut deck shares: paper, ink, frame and where things go."""

    paper: Colour
    ink: Colour
    frame: int
    banner_top: bool
    coins_left: bool
    short_names: bool
    backdrop: str
    """"plain", "rays" or "hatch": what the picture stands on."""
    faces: bool


def press(rng: np.random.Generator) -> Press:
    """A deck's shared style."""
    paper = (int(rng.integers(196, 232)), int(rng.integers(218, 242)), int(rng.integers(228, 250)))
    inks = [(20, 18, 16), (60, 30, 20), (30, 30, 70), (40, 50, 30)]
    ink = inks[int(rng.integers(len(inks)))]
    return Press(paper, ink, int(rng.integers(10, 20)), bool(rng.random() < 0.5), bool(rng.random() < 0.5),
                 bool(rng.random() < 0.4), ("plain", "rays", "hatch")[int(rng.integers(3))], bool(rng.random() < 0.7))


def kidney(centre: tuple[float, float], size: tuple[float, float], tilt: float, dent: float) -> np.ndarray:
    """A bean's outline: an ellipse of half-axes ``size`` pushed in on one long side by ``dent``,
    turned by ``tilt`` radians; (N, 2) int32 points."""
    t = np.linspace(0, 2 * np.pi, 72, endpoint=False)
    r = 1 - dent * np.exp(-((t - 1.5 * np.pi) ** 2) / 0.35)
    x, y = size[0] * np.cos(t) * r, size[1] * np.sin(t) * r
    c, s = np.cos(tilt), np.sin(tilt)
    return np.stack([centre[0] + c * x - s * y, centre[1] + s * x + c * y], axis=1).astype(np.int32)


def hatch(img: np.ndarray, mask: np.ndarray, colour: Colour, spacing: int, angle: float, width: int) -> None:
    """Parallel lines ``spacing`` apart at ``angle`` degrees, inked where ``mask`` is set."""
    h, w = mask.shape
    layer = np.zeros((h, w), np.uint8)
    c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    reach = int(np.hypot(w, h))
    for k in range(-reach, reach, spacing):
        p0 = (int(w / 2 + k * -s - reach * c), int(h / 2 + k * c - reach * s))
        p1 = (int(w / 2 + k * -s + reach * c), int(h / 2 + k * c + reach * s))
        cv2.line(layer, p0, p1, 255, width)
    img[(layer > 0) & (mask > 0)] = colour


def bean_figure(img: np.ndarray, label: str, box: tuple[int, int, int, int], deck: Press,
                rng: np.random.Generator) -> None:
    """One or two carved beans of ``label`` in ``box``, with faces when the deck has them."""
    x0, y0, x1, y1 = box
    body = bean_colour(label, rng, 8.0)
    shade = shifted(body, deck.ink, 0.55)
    two = rng.random() < 0.4
    dent, tilt = float(rng.uniform(0.12, 0.3)), float(rng.uniform(-0.5, 0.5))
    accessory = int(rng.integers(3))
    for k in range(2 if two else 1):
        bw = (x1 - x0) * (0.3 if two else 0.4) * rng.uniform(0.85, 1.05)
        bh = bw * rng.uniform(0.55, 0.75)
        cx = x0 + (x1 - x0) * ((0.33 + 0.36 * k) if two else 0.5)
        cy = y0 + (y1 - y0) * ((0.4 + 0.22 * k) if two else 0.55)
        outline = kidney((cx, cy), (bw, bh), tilt + (0.5 * k if two else 0.0), dent)
        mask = np.zeros(img.shape[:2], np.uint8)
        cv2.fillPoly(mask, [outline], 255)
        img[mask > 0] = body
        lit = np.zeros_like(mask)
        cv2.fillPoly(lit, [outline - np.array([int(bw * 0.22), int(bh * 0.3)], np.int32)], 255)
        hatch(img, cv2.subtract(mask, lit), shade, int(rng.integers(6, 10)), float(rng.uniform(20, 70)), 2)
        marks(img, label, (cx, cy), (bw, bh), deck, rng)
        cv2.polylines(img, [outline], True, deck.ink, int(rng.integers(4, 7)))
        if deck.faces:
            face(img, (cx, cy), bw, deck, rng)
        if k == 0 and accessory:
            topper(img, accessory, (cx, cy - bh * 0.8), bw, deck, rng)


def marks(img: np.ndarray, label: str, centre: tuple[float, float], size: tuple[float, float], deck: Press,
          rng: np.random.Generator) -> None:
    """What sets a real bean apart beyond its colour: the black-eyed bean's eye, the magpie's white patch."""
    cx, cy = centre
    if label == "black-eyed":
        cv2.ellipse(img, (int(cx + size[0] * 0.35), int(cy - size[1] * 0.1)),
                    (int(size[0] * 0.22), int(size[1] * 0.3)), float(rng.uniform(-20, 20)), 0, 360, deck.ink, -1)
    elif label == "magpie":
        cv2.ellipse(img, (int(cx - size[0] * 0.35), int(cy + size[1] * 0.15)),
                    (int(size[0] * 0.45), int(size[1] * 0.55)), float(rng.uniform(-30, 30)), 0, 360, deck.paper, -1)


def face(img: np.ndarray, centre: tuple[float, float], width: float, deck: Press, rng: np.random.Generator) -> None:
    """Diamond eyes and a cut mouth."""
    cx, cy = centre
    eye = max(4, int(width * rng.uniform(0.1, 0.15)))
    for side in (-1, 1):
        ex, ey = int(cx + side * width * 0.28), int(cy - width * 0.12)
        diamond = np.array([[ex, ey - eye], [ex + eye, ey], [ex, ey + eye], [ex - eye, ey]], np.int32)
        cv2.fillPoly(img, [diamond], deck.paper)
        cv2.polylines(img, [diamond], True, deck.ink, 2)
        cv2.circle(img, (ex + int(rng.integers(-2, 3)), ey), max(2, eye // 2), deck.ink, -1)
    smile = float(rng.uniform(-0.6, 1.0))
    xs = np.linspace(-0.25, 0.25, 9) * width
    ys = cy + width * 0.18 + smile * (1 - (xs / (0.25 * width)) ** 2) * width * 0.08
    cv2.polylines(img, [np.stack([cx + xs, ys], axis=1).astype(np.int32)], False, deck.ink, 3)


def topper(img: np.ndarray, kind: int, base: tuple[float, float], width: float, deck: Press,
           rng: np.random.Generator) -> None:
    """A carved hat (``kind`` 1) or a sprout of two leaves (``kind`` 2) standing on ``base``."""
    bx, by = base
    if kind == 1:
        hw, hh = width * rng.uniform(0.35, 0.5), width * rng.uniform(0.3, 0.5)
        crown = np.array([[bx - hw * 0.7, by], [bx + hw * 0.7, by], [bx + hw * 0.55, by - hh],
                          [bx - hw * 0.55, by - hh]], np.int32)
        cv2.fillPoly(img, [crown], deck.ink)
        cv2.rectangle(img, (int(bx - hw), int(by - 4)), (int(bx + hw), int(by + 4)), deck.ink, -1)
    else:
        leaf = (int(rng.integers(40, 80)), int(rng.integers(120, 170)), int(rng.integers(40, 90)))
        for side in (-1, 1):
            tip = (bx + side * width * 0.45, by - width * 0.35)
            shape = np.array([[bx, by], [(bx + tip[0]) / 2 + side * 6, tip[1] + 4], tip,
                              [(bx + tip[0]) / 2 - side * 2, by - 6]], np.int32)
            cv2.fillPoly(img, [shape], leaf)
            cv2.polylines(img, [shape], True, deck.ink, 3)


def backdrop(img: np.ndarray, box: tuple[int, int, int, int], deck: Press, rng: np.random.Generator) -> None:
    """What the picture stands on: plain paper, rays from its middle, or light hatching."""
    x0, y0, x1, y1 = box
    mask = np.zeros(img.shape[:2], np.uint8)
    mask[y0:y1, x0:x1] = 255
    tone = shifted(deck.paper, deck.ink, 0.25)
    if deck.backdrop == "rays":
        cx, cy, reach = (x0 + x1) // 2, (y0 + y1) // 2, x1 - x0 + y1 - y0
        layer = np.zeros_like(mask)
        for a in np.arange(0, 2 * np.pi, 2 * np.pi / 24) + rng.uniform(0, 0.2):
            wedge = np.array([[cx, cy], [cx + reach * np.cos(a), cy + reach * np.sin(a)],
                              [cx + reach * np.cos(a + 0.12), cy + reach * np.sin(a + 0.12)]], np.int32)
            cv2.fillPoly(layer, [wedge], 255)
        img[(layer > 0) & (mask > 0)] = tone
    elif deck.backdrop == "hatch":
        hatch(img, mask, tone, 9, -35.0, 2)


def coin(img: np.ndarray, centre: tuple[int, int], radius: int, coins: int, deck: Press) -> None:
    """A coin with ``coins`` pips cut into it."""
    cv2.circle(img, centre, radius, OCHRE, -1)
    cv2.circle(img, centre, radius, deck.ink, 3)
    for k in range(coins):
        a = 2 * np.pi * k / max(1, coins) - np.pi / 2
        r = 0 if coins == 1 else radius * 0.45
        cv2.circle(img, (int(centre[0] + r * np.cos(a)), int(centre[1] + r * np.sin(a))), max(2, radius // 6),
                   deck.ink, -1)


def front(label: str, deck: Press, rng: np.random.Generator) -> np.ndarray:
    """One bean's face."""
    img = np.full((CARD_H, CARD_W, 3), deck.paper, np.uint8)
    f = deck.frame
    banner_h = 64
    top = f + 8 if deck.banner_top else CARD_H - f - 8 - banner_h
    column = (f + 6, f + 70) if deck.coins_left else (CARD_W - f - 70, CARD_W - f - 6)
    pic_y0 = f + 8 + (banner_h + 8 if deck.banner_top else 0)
    pic_y1 = CARD_H - f - 8 - (0 if deck.banner_top else banner_h + 8)
    pic_x0, pic_x1 = (column[1] + 4, CARD_W - f - 6) if deck.coins_left else (f + 6, column[0] - 4)
    backdrop(img, (pic_x0, pic_y0, pic_x1, pic_y1), deck, rng)
    bean_figure(img, label, (pic_x0, pic_y0 + 40, pic_x1, pic_y1), deck, rng)
    seal = (pic_x1 - 30, pic_y0 + 30) if deck.coins_left else (pic_x0 + 30, pic_y0 + 30)
    cv2.circle(img, seal, 26, deck.ink, -1)
    carve(img, count(label), (seal[0] - 18, seal[1] - 12, seal[0] + 18, seal[1] + 12), deck.paper, rng)
    step_h = (pic_y1 - pic_y0) // 4
    for k, need in enumerate(beanometer(label)):
        cy = pic_y0 + step_h * k + step_h // 2
        if need:
            coin(img, ((column[0] + column[1]) // 2, cy - 16), 17, k + 1, deck)
            carve(img, need, (column[0], cy + 6, column[1], cy + 30), deck.ink, rng)
    ribbon = np.array([[f, top], [CARD_W - f, top], [CARD_W - f - 18, top + banner_h // 2],
                       [CARD_W - f, top + banner_h], [f, top + banner_h], [f + 18, top + banner_h // 2]], np.int32)
    cv2.fillPoly(img, [ribbon], deck.ink)
    name = title(label).upper()
    carve(img, name.removesuffix(" BEAN") if deck.short_names else name,
          (f + 26, top + 12, CARD_W - f - 26, top + banner_h - 12), deck.paper, rng)
    return img


def back(deck: Press, rng: np.random.Generator) -> np.ndarray:
    """The deck's back: ink all over, a carved sun-coin and the game's name."""
    img = np.full((CARD_H, CARD_W, 3), deck.ink, np.uint8)
    centre = (CARD_W // 2, CARD_H // 2)
    for a in np.arange(0, 2 * np.pi, 2 * np.pi / 18):
        tip = (int(centre[0] + 150 * np.cos(a)), int(centre[1] + 150 * np.sin(a)))
        cv2.line(img, centre, tip, OCHRE, 7)
    cv2.circle(img, centre, 95, deck.paper, -1)
    cv2.circle(img, centre, 80, OCHRE, -1)
    carve(img, "BOHNANZA", (centre[0] - 72, centre[1] - 14, centre[0] + 72, centre[1] + 14), deck.ink, rng)
    return img


def paper_grain(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Fibres and uneven ink: fine noise and a sprinkling of specks."""
    out = img.astype(np.float32) + rng.normal(0, 5, img.shape).astype(np.float32)
    specks = rng.random(img.shape[:2]) < 0.002
    out[specks] *= 0.5
    return np.clip(out, 0, 255).astype(np.uint8)


def deck(seed: int) -> list[np.ndarray]:
    """The faces of woodcut deck ``seed``, in ``VISION_LABELS`` order (BGR, ``CARD_H`` x ``CARD_W``)."""
    style = press(np.random.default_rng([seed, TAG]))
    faces = []
    for i, label in enumerate(VISION_LABELS):
        rng = np.random.default_rng([seed, TAG, i])
        img = back(style, rng) if label == BACK else front(label, style, rng)
        cv2.rectangle(img, (0, 0), (CARD_W - 1, CARD_H - 1), style.ink, style.frame)
        faces.append(paper_grain(img, rng))
    return faces
