"""Held-out family "watercolour": cards painted in soft washes on textured paper.

Rough cold-pressed paper; a pale wash of the bean's colour behind it (a halo, a sky or
splashes) with the darker rim pigment leaves where a wash dries; the beans themselves a
small heap of painted ellipses with a shadowed side, a hilum and a white highlight; the name
in small pen lettering at the bottom (title case or lower case, Hershey plain, complex-small
or triplex italic: fonts training never renders); the beanometer as a row of painted coins;
the bean count in pencil in a top corner. The back is one wash with a ring and the game's name.
Everything about the deck comes from its seed.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.cards import BACK, VISION_LABELS
from models.heldout.beans import CARD_H, CARD_W, Colour, bean_colour, beanometer, count, shifted, title

TAG = 202
"""Mixed into every seed of this family, so two families never share a random stream."""
FONTS = (cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_COMPLEX_SMALL, cv2.FONT_HERSHEY_TRIPLEX | cv2.FONT_ITALIC)
GOLD: Colour = (70, 170, 215)


@dataclass(frozen=True)
class Studio:
    """What one painted deck shares: paper, lettering, where things go and how the wash lies."""

    paper: Colour
    pen: Colour
    font: int
    lower_case: bool
    wash: str
    """"halo", "sky" or "splash"."""
    meter_top: bool
    count_left: bool
    pencil_border: bool
    back_paint: Colour


def studio(rng: np.random.Generator) -> Studio:
    """A deck's shared style."""
    paper = (int(rng.integers(222, 240)), int(rng.integers(236, 248)), int(rng.integers(240, 252)))
    pen = ((40, 50, 70), (70, 60, 50), (50, 50, 50))[int(rng.integers(3))]
    back_paint = ((60, 110, 190), (150, 110, 60), (80, 140, 90), (120, 80, 150))[int(rng.integers(4))]
    return Studio(paper, pen, FONTS[int(rng.integers(len(FONTS)))], bool(rng.random() < 0.4),
                  ("halo", "sky", "splash")[int(rng.integers(3))], bool(rng.random() < 0.5),
                  bool(rng.random() < 0.5), bool(rng.random() < 0.5), back_paint)


def paper(deck: Studio, rng: np.random.Generator) -> np.ndarray:
    """Cold-pressed paper: the deck's white with a soft grain and faint blotches (float32)."""
    grain = cv2.GaussianBlur(rng.normal(0, 1, (CARD_H, CARD_W)).astype(np.float32), (0, 0), 1.2) * 9
    blotch = cv2.resize(rng.normal(0, 1, (8, 6)).astype(np.float32), (CARD_W, CARD_H),
                        interpolation=cv2.INTER_CUBIC) * 4
    return np.asarray(deck.paper, np.float32) + (grain + blotch)[..., None]


def paint(img: np.ndarray, mask: np.ndarray, colour: Colour, strength: float, rng: np.random.Generator,
          soft: float = 3.0) -> None:
    """Lay ``colour`` over ``img`` (float32) where ``mask`` (uint8) is set: blurred edges, pigment
    pooled darker at the rim, granulated. Only the part of the card the paint can reach is worked on."""
    x, y, w, h = cv2.boundingRect(mask)
    reach = int(14 * soft) + 2  # both blurs' kernels reach 4 sigma
    x0, y0 = max(0, x - reach), max(0, y - reach)
    x1, y1 = min(mask.shape[1], x + w + reach), min(mask.shape[0], y + h + reach)
    part = mask[y0:y1, x0:x1]
    alpha = cv2.GaussianBlur(part.astype(np.float32) / 255, (0, 0), soft)
    rim = np.clip(alpha - cv2.GaussianBlur(alpha, (0, 0), soft * 2.5), 0, 1)
    granules = 0.85 + 0.3 * cv2.GaussianBlur(rng.random(part.shape, np.float32), (0, 0), 1.0)
    a = np.clip((alpha * strength + rim * 0.8) * granules, 0, 1)[..., None]
    region = img[y0:y1, x0:x1]
    region[:] = region * (1 - a) + np.asarray(colour, np.float32) * a


def blob(shape: tuple[int, int], centre: tuple[float, float], radius: float, rng: np.random.Generator) -> np.ndarray:
    """A wobbly round patch (uint8 mask)."""
    t = np.linspace(0, 2 * np.pi, 40, endpoint=False)
    r = radius * (1 + 0.18 * np.sin(3 * t + rng.uniform(0, 6)) + rng.normal(0, 0.05, t.size))
    pts = np.stack([centre[0] + r * np.cos(t), centre[1] + r * np.sin(t)], axis=1).astype(np.int32)
    mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(mask, [pts], 255)
    return mask


def wash(img: np.ndarray, tint: Colour, deck: Studio, centre: tuple[float, float], rng: np.random.Generator) -> None:
    """The pale background wash behind the picture."""
    shape = img.shape[:2]
    if deck.wash == "halo":
        paint(img, blob(shape, centre, CARD_W * rng.uniform(0.36, 0.44), rng), tint, 0.75, rng, 8.0)
    elif deck.wash == "sky":
        mask = np.zeros(shape, np.uint8)
        mask[:int(CARD_H * rng.uniform(0.55, 0.7))] = 255
        paint(img, mask, tint, 0.6, rng, 14.0)
    else:
        for _ in range(int(rng.integers(3, 6))):
            spot = (centre[0] + rng.normal(0, 50), centre[1] + rng.normal(0, 60))
            paint(img, blob(shape, spot, rng.uniform(30, 70), rng), tint, 0.55, rng, 5.0)


def painted_bean(img: np.ndarray, label: str, body: Colour, centre: tuple[float, float], axes: tuple[float, float],
                 angle: float, rng: np.random.Generator) -> None:
    """One bean: body, shadowed side, hilum, the black-eyed bean's eye or the magpie's white, a highlight."""
    shape = img.shape[:2]
    c, ax = (int(centre[0]), int(centre[1])), (int(axes[0]), int(axes[1]))
    mask = np.zeros(shape, np.uint8)
    cv2.ellipse(mask, c, ax, angle, 0, 360, 255, -1)
    paint(img, mask, body, 0.95, rng, 1.5)
    shade = np.zeros(shape, np.uint8)
    cv2.ellipse(shade, c, ax, angle, 10, 170, 255, -1)
    paint(img, cv2.bitwise_and(shade, mask), shifted(body, (20, 20, 30), 0.45), 0.6, rng, 2.5)
    if label == "magpie":
        half = np.zeros(shape, np.uint8)
        cv2.ellipse(half, c, ax, angle, 180, 320, 255, -1)
        paint(img, cv2.bitwise_and(half, mask), (238, 240, 242), 0.9, rng, 1.5)
    rad = np.radians(angle)
    along = np.array([np.cos(rad), np.sin(rad)])
    across = np.array([-np.sin(rad), np.cos(rad)])
    hilum = np.array(centre) - across * axes[1] * 0.55
    eye = np.zeros(shape, np.uint8)
    black = label == "black-eyed"
    size = (int(axes[0] * (0.32 if black else 0.2)), int(axes[1] * (0.28 if black else 0.08)))
    cv2.ellipse(eye, (int(hilum[0]), int(hilum[1])), size, angle, 0, 360, 255, -1)
    paint(img, eye, (25, 25, 30) if black else shifted(body, (10, 10, 10), 0.6), 0.9, rng, 1.0)
    glint = np.zeros(shape, np.uint8)
    spot = np.array(centre) - along * axes[0] * 0.35 - across * axes[1] * 0.3
    cv2.ellipse(glint, (int(spot[0]), int(spot[1])), (max(2, int(axes[0] * 0.25)), max(1, int(axes[1] * 0.12))),
                angle, 0, 360, 255, -1)
    paint(img, glint, (252, 252, 252), 0.85, rng, 1.5)


def heap(img: np.ndarray, label: str, box: tuple[int, int, int, int], rng: np.random.Generator) -> None:
    """A small heap of one to four beans of ``label`` in ``box``, back ones first."""
    x0, y0, x1, y1 = box
    body = bean_colour(label, rng, 12.0)
    n = int(rng.integers(1, 5))
    size = (x1 - x0) * (0.34 if n == 1 else 0.22) * rng.uniform(0.9, 1.1)
    spots = [((x0 + x1) / 2 + rng.normal(0, 0.16) * (x1 - x0) * (n > 1),
              (y0 + y1) / 2 + rng.normal(0, 0.14) * (y1 - y0) * (n > 1)) for _ in range(n)]
    for spot in sorted(spots, key=lambda s: s[1]):
        painted_bean(img, label, body, spot, (size, size * rng.uniform(0.55, 0.7)), float(rng.uniform(-40, 40)), rng)


def pen(img: np.ndarray, text: str, centre: tuple[int, int], width: int, deck: Studio, colour: Colour,
        thickness: int = 2) -> None:
    """``text`` in the deck's font, centred on ``centre``, scaled to at most ``width`` pixels."""
    (w, h), _ = cv2.getTextSize(text, deck.font, 1.0, thickness)
    scale = min(width / max(w, 1), 2.2)
    (w, h), _ = cv2.getTextSize(text, deck.font, scale, thickness)
    cv2.putText(img, text, (centre[0] - w // 2, centre[1] + h // 2), deck.font, scale, colour, thickness, cv2.LINE_AA)


def front(label: str, deck: Studio, rng: np.random.Generator) -> np.ndarray:
    """One bean's face."""
    img = paper(deck, rng)
    tint = shifted(bean_colour(label, rng, 12.0), deck.paper, float(rng.uniform(0.5, 0.65)))
    picture = (40, 120 if deck.meter_top else 60, CARD_W - 40, CARD_H - 150 if deck.meter_top else CARD_H - 190)
    wash(img, tint, deck, ((picture[0] + picture[2]) / 2, (picture[1] + picture[3]) / 2), rng)
    heap(img, label, picture, rng)
    meter_y = 70 if deck.meter_top else CARD_H - 140
    steps = [(int(CARD_W * (0.2 + 0.2 * k)), k + 1, need) for k, need in enumerate(beanometer(label)) if need]
    for x, _, _ in steps:
        paint(img, blob(img.shape[:2], (x, meter_y), 17, rng), GOLD, 0.8, rng, 1.5)
    out = np.clip(img, 0, 255).astype(np.uint8)
    for x, coins, need in steps:
        pen(out, str(coins), (x, meter_y), 14, deck, deck.pen, 1)
        pen(out, need, (x, meter_y + 32), 26, deck, deck.pen, 1)
    corner = (34 if deck.count_left else CARD_W - 34, 28)
    pen(out, count(label), corner, 30, deck, (110, 110, 110), 1)
    name = title(label)
    pen(out, name.lower() if deck.lower_case else name, (CARD_W // 2, CARD_H - 52), CARD_W - 60, deck, deck.pen)
    if deck.pencil_border:
        cv2.rectangle(out, (14, 14), (CARD_W - 15, CARD_H - 15), (150, 150, 150), 1, cv2.LINE_AA)
    return out


def back(deck: Studio, rng: np.random.Generator) -> np.ndarray:
    """The deck's back: one wash all over, a darker ring and the game's name."""
    img = paper(deck, rng)
    paint(img, np.full(img.shape[:2], 255, np.uint8), deck.back_paint, 0.8, rng, 20.0)
    ring = np.zeros(img.shape[:2], np.uint8)
    cv2.circle(ring, (CARD_W // 2, CARD_H // 2), 110, 255, 22)
    paint(img, ring, shifted(deck.back_paint, (0, 0, 0), 0.5), 0.8, rng, 3.0)
    out = np.clip(img, 0, 255).astype(np.uint8)
    pen(out, "Bohnanza", (CARD_W // 2, CARD_H // 2), 170, deck, deck.paper)
    return out


def deck(seed: int) -> list[np.ndarray]:
    """The faces of watercolour deck ``seed``, in ``VISION_LABELS`` order (BGR, ``CARD_H`` x ``CARD_W``)."""
    style = studio(np.random.default_rng([seed, TAG]))
    faces = []
    for i, label in enumerate(VISION_LABELS):
        rng = np.random.default_rng([seed, TAG, i])
        faces.append(back(style, rng) if label == BACK else front(label, style, rng))
    return faces
