"""Synthetic card faces: the shipped deck, random other designs and unseen art styles.

Everything is drawn with OpenCV primitives into BGR ``uint8`` arrays of
``FACE_H x FACE_W`` pixels. A design is a plain value (:class:`CardDesign`), made
from a seeded ``numpy`` generator, so the same seed always gives the same card.

Style families keep training and evaluation apart: ``train`` designs use the
training layouts, fonts and picture kinds; ``unseen`` designs use other layouts,
fonts, palettes and picture kinds that training never renders.
"""

from __future__ import annotations

import string
from dataclasses import dataclass, replace

import cv2
import numpy as np

from companion.cards import BACK, CATALOGUE

FACE_W, FACE_H = 160, 248
"""Card face size in pixels (real cards are 56 x 87 mm)."""

Color = tuple[int, int, int]

TRAIN_LAYOUTS = ("classic", "banner", "framed")
UNSEEN_LAYOUTS = ("split", "poster", "sidebar")
TRAIN_FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_TRIPLEX)
UNSEEN_FONTS = (
    cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
    cv2.FONT_HERSHEY_SCRIPT_COMPLEX,
    cv2.FONT_HERSHEY_PLAIN | cv2.FONT_ITALIC,
    cv2.FONT_HERSHEY_COMPLEX_SMALL | cv2.FONT_ITALIC,
)
TRAIN_PICTURES = ("bean", "blob", "glyph", "coin")
UNSEEN_PICTURES = ("rings", "star", "mosaic")


@dataclass(frozen=True)
class Picture:
    """The drawing in the middle of a card."""

    kind: str
    body: Color
    accent: Color
    shape: tuple[float, ...]
    """Kind-specific numbers in [0, 1) (aspect, tilt, feature choices...)."""


@dataclass(frozen=True)
class CardDesign:
    """Everything needed to draw one card face."""

    layout: str
    font: int
    background: Color
    frame: Color
    ink: Color
    panel: Color
    title: str
    number: int | None
    picture: Picture
    meter: tuple[int | None, ...] | None


# --- the shipped deck -----------------------------------------------------------------

_HOUSE_BODIES: dict[str, tuple[Color, Color, tuple[float, ...]]] = {
    # bean id: (body BGR, accent BGR, (aspect, tilt, eyes, mouth, accessory, arms))
    "coffee": ((30, 60, 110), (20, 20, 20), (0.62, 0.10, 0.2, 0.1, 0.05, 0.1)),
    "wax": ((60, 210, 235), (30, 90, 200), (0.70, 0.80, 0.6, 0.5, 0.25, 0.6)),
    "brandy": ((110, 40, 130), (200, 200, 230), (0.55, 0.30, 0.9, 0.8, 0.45, 0.3)),
    "blue": ((200, 110, 40), (255, 255, 255), (0.66, 0.55, 0.4, 0.3, 0.65, 0.9)),
    "chili": ((40, 40, 210), (40, 160, 40), (0.45, 0.90, 0.1, 0.9, 0.85, 0.2)),
    "stink": ((70, 120, 110), (160, 220, 220), (0.75, 0.20, 0.7, 0.7, 0.95, 0.5)),
    "green": ((60, 170, 60), (20, 80, 20), (0.50, 0.65, 0.3, 0.2, 0.15, 0.8)),
    "soy": ((130, 190, 220), (60, 100, 140), (0.80, 0.40, 0.8, 0.4, 0.35, 0.4)),
    "black-eyed": ((235, 235, 235), (20, 20, 20), (0.68, 0.05, 0.5, 0.6, 0.55, 0.0)),
    "red": ((50, 30, 170), (230, 230, 250), (0.60, 0.75, 0.2, 0.5, 0.75, 0.7)),
    "garden": ((90, 200, 150), (40, 90, 230), (0.58, 0.45, 0.95, 0.1, 0.05, 0.95)),
    "cocoa": ((40, 40, 60), (120, 200, 240), (0.72, 0.95, 0.1, 0.3, 0.45, 0.15)),
    "field": ((170, 120, 200), (50, 130, 60), (0.52, 0.15, 0.6, 0.95, 0.65, 0.55)),
    "magpie": ((25, 25, 25), (245, 245, 245), (0.64, 0.60, 0.3, 0.6, 0.85, 0.35)),
    "cognac": ((30, 120, 210), (40, 30, 90), (0.57, 0.85, 0.75, 0.2, 0.95, 0.75)),
}


def house_design(label: str) -> CardDesign:
    """The shipped deck's card for ``label`` (a bean id or ``back``)."""
    if label == BACK:
        coin = Picture("coin", (40, 190, 230), (20, 110, 160), (0.5, 0.3, 0.8, 0.2, 0.0, 0.0))
        return CardDesign("classic", cv2.FONT_HERSHEY_TRIPLEX, (40, 60, 130), (30, 40, 90), (60, 200, 240),
                          (50, 80, 160), "BOHNANZA", None, coin, None)
    body, accent, shape = _HOUSE_BODIES[label]
    bean = CATALOGUE[label]
    picture = Picture("bean", body, accent, shape)
    return CardDesign("classic", cv2.FONT_HERSHEY_DUPLEX, (215, 235, 245), (40, 110, 60), (20, 20, 20),
                      (150, 215, 230), bean.name.upper(), bean.count, picture, bean.beanometer)


# --- random designs --------------------------------------------------------------------


def _color(rng: np.random.Generator, lo: int = 0, hi: int = 256) -> Color:
    return tuple(int(v) for v in rng.integers(lo, hi, 3))  # type: ignore[return-value]


def _title(rng: np.random.Generator) -> str:
    letters = rng.choice(list(string.ascii_uppercase), size=int(rng.integers(3, 10)))
    return "".join(letters)


def random_design(rng: np.random.Generator, family: str = "train") -> CardDesign:
    """A random card of ``family`` (``train`` or ``unseen``) drawn from ``rng``."""
    layouts: tuple[str, ...]
    fonts: tuple[int, ...]
    pictures: tuple[str, ...]
    if family == "train":
        layouts, fonts, pictures = TRAIN_LAYOUTS, TRAIN_FONTS, TRAIN_PICTURES
        background, panel = _color(rng), _color(rng)
    elif family == "unseen":
        layouts, fonts, pictures = UNSEEN_LAYOUTS, UNSEEN_FONTS, UNSEEN_PICTURES
        # Unseen palettes: darker or saturated backgrounds than training uses.
        background = _color(rng, 0, 110) if rng.random() < 0.6 else _color(rng, 0, 256)
        panel = _color(rng)
    else:
        raise ValueError(f"unknown design family {family!r}")
    kind = str(rng.choice(pictures))
    picture = Picture(kind, _color(rng), _color(rng), tuple(float(v) for v in rng.random(6)))
    meter = tuple(sorted(int(v) for v in rng.integers(1, 13, 4))) if rng.random() < 0.7 else None
    number = int(rng.integers(2, 30)) if rng.random() < 0.85 else None
    return CardDesign(str(rng.choice(layouts)), int(rng.choice(fonts)), background, _color(rng), _color(rng),
                      panel, _title(rng), number, picture, meter)


def style_deck(rng: np.random.Generator, family: str, size: int) -> list[CardDesign]:
    """``size`` cards sharing one style (layout, font, background, frame, ink), each with its own
    picture, panel, title and number: told apart only by what differs within a deck."""
    base = random_design(rng, family)
    cards = [random_design(rng, family) for _ in range(size)]
    return [CardDesign(base.layout, base.font, base.background, base.frame, base.ink, own.panel, own.title,
                       own.number, own.picture, own.meter) for own in cards]


KIN_GROUPS = (3, 6)
"""A kin deck's cards fall into 3 to 5 colour groups."""
KIN_SPREAD = 12
"""How far (per BGR channel) a kin card's colours stray from its group's."""


def kin_deck(rng: np.random.Generator, family: str, size: int) -> list[CardDesign]:
    """A style deck whose cards come in a few colour groups (panel, picture body and accent) and share
    one kind of picture, as beans of like colour do: a card is told from its group by its title,
    number, beanometer and the picture's shape only."""
    deck = style_deck(rng, family, size)
    groups = int(rng.integers(*KIN_GROUPS))
    palettes = [(_color(rng), _color(rng), _color(rng)) for _ in range(groups)]
    kind = deck[0].picture.kind

    def near(color: Color) -> Color:
        moved = np.clip(np.add(color, rng.integers(-KIN_SPREAD, KIN_SPREAD + 1, 3)), 0, 255)
        return tuple(int(v) for v in moved)  # type: ignore[return-value]

    cards = []
    for card in deck:
        panel, body, accent = palettes[int(rng.integers(groups))]
        picture = Picture(kind, near(body), near(accent), card.picture.shape)
        cards.append(replace(card, panel=near(panel), picture=picture))
    return cards


def unseen_deck(seed: int, kin: bool = False) -> dict[str, CardDesign]:
    """A whole deck (every vision label) in one unseen art style, the same for a seed; with ``kin``, a kin
    deck (:func:`kin_deck`)."""
    from companion.cards import VISION_LABELS

    designs = (kin_deck if kin else style_deck)(np.random.default_rng([seed, 7001]), "unseen", len(VISION_LABELS))
    deck = dict(zip(VISION_LABELS, designs))
    back = deck[BACK]
    deck[BACK] = CardDesign(back.layout, back.font, back.background, back.frame, back.ink, back.panel,
                            back.title, None, back.picture, None)
    return deck


# --- drawing ---------------------------------------------------------------------------


def _text(img: np.ndarray, text: str, center: tuple[int, int], width: int, font: int, color: Color,
          thickness: int = 1) -> None:
    """Draw ``text`` centred at ``center``, scaled to fit ``width`` pixels."""
    (w, h), _ = cv2.getTextSize(text, font, 1.0, thickness)
    scale = min(width / max(w, 1), 1.6)
    (w, h), _ = cv2.getTextSize(text, font, scale, thickness)
    org = (int(center[0] - w / 2), int(center[1] + h / 2))
    cv2.putText(img, text, org, font, scale, color, thickness, cv2.LINE_AA)


def _draw_picture(img: np.ndarray, pic: Picture, box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    cx, cy, w, h = (x0 + x1) // 2, (y0 + y1) // 2, x1 - x0, y1 - y0
    s = pic.shape
    if pic.kind == "bean":
        axes = (int(w * (0.22 + 0.18 * s[0])), int(h * 0.38))
        angle = -40 + 80 * s[1]
        if s[5] > 0.3:  # arms and legs
            for dx in (-1, 1):
                cv2.line(img, (cx + dx * axes[0] // 2, cy), (cx + dx * (axes[0] + 14), cy - int(18 * s[5])),
                         pic.accent, 3, cv2.LINE_AA)
                cv2.line(img, (cx + dx * axes[0] // 3, cy + axes[1] - 4), (cx + dx * axes[0] // 2, y1 - 2),
                         pic.accent, 3, cv2.LINE_AA)
        cv2.ellipse(img, (cx, cy), axes, angle, 0, 360, pic.body, -1, cv2.LINE_AA)
        cv2.ellipse(img, (cx, cy), axes, angle, 0, 360, (20, 20, 20), 2, cv2.LINE_AA)
        ey = cy - int(axes[1] * (0.15 + 0.3 * s[2]))
        eye_gap = int(axes[0] * (0.3 + 0.3 * s[2]))
        for dx in (-eye_gap, eye_gap):
            cv2.circle(img, (cx + dx, ey), 7, (255, 255, 255), -1, cv2.LINE_AA)
            cv2.circle(img, (cx + dx + int(4 * s[1] - 2), ey + 1), 3, (0, 0, 0), -1, cv2.LINE_AA)
        my = cy + int(axes[1] * 0.35)
        smile = s[3] > 0.5
        cv2.ellipse(img, (cx, my - (0 if smile else 8)), (int(axes[0] * 0.5), 8), 0,
                    0 if smile else 180, 180 if smile else 360, (10, 10, 10), 2, cv2.LINE_AA)
        accessory = int(s[4] * 5)
        top = cy - axes[1]
        if accessory == 1:  # hat
            cv2.rectangle(img, (cx - 18, top - 16), (cx + 18, top + 6), pic.accent, -1)
            cv2.rectangle(img, (cx - 30, top + 2), (cx + 30, top + 8), pic.accent, -1)
        elif accessory == 2:  # glasses
            for dx in (-eye_gap, eye_gap):
                cv2.circle(img, (cx + dx, ey), 11, pic.accent, 2, cv2.LINE_AA)
        elif accessory == 3:  # moustache
            cv2.ellipse(img, (cx, my - 10), (22, 6), 0, 0, 360, pic.accent, -1, cv2.LINE_AA)
        elif accessory == 4:  # bow tie / spot
            pts = np.array([[cx - 16, my + 12], [cx, my + 20], [cx - 16, my + 28], [cx + 16, my + 12],
                            [cx, my + 20], [cx + 16, my + 28]], np.int32)
            cv2.fillPoly(img, [pts[:3], pts[3:]], pic.accent, cv2.LINE_AA)
    elif pic.kind == "blob":
        n = 3 + int(s[0] * 5)
        for i in range(n):
            a = 2 * np.pi * (i / n + s[1])
            r = int(min(w, h) * (0.12 + 0.15 * s[(i + 2) % 6]))
            p = (int(cx + np.cos(a) * w * 0.22), int(cy + np.sin(a) * h * 0.22))
            cv2.circle(img, p, r, pic.body if i % 2 else pic.accent, -1, cv2.LINE_AA)
    elif pic.kind == "glyph":
        ch = string.ascii_uppercase[int(s[0] * 26)] + string.digits[int(s[1] * 10)]
        cv2.rectangle(img, (x0 + 6, y0 + 6), (x1 - 6, y1 - 6), pic.accent, -1)
        _text(img, ch, (cx, cy), int(w * 0.8), cv2.FONT_HERSHEY_DUPLEX, pic.body, 4)
    elif pic.kind == "coin":
        r = int(min(w, h) * (0.30 + 0.15 * s[0]))
        cv2.circle(img, (cx, cy), r, pic.body, -1, cv2.LINE_AA)
        cv2.circle(img, (cx, cy), int(r * (0.65 + 0.2 * s[1])), pic.accent, 3, cv2.LINE_AA)
        for i in range(int(6 + s[2] * 10)):
            a = 2 * np.pi * i / int(6 + s[2] * 10)
            cv2.circle(img, (int(cx + np.cos(a) * r * 0.85), int(cy + np.sin(a) * r * 0.85)), 3, pic.accent, -1)
    elif pic.kind == "rings":
        for i in range(int(3 + s[0] * 5), 0, -1):
            color = pic.body if i % 2 else pic.accent
            cv2.ellipse(img, (cx, cy), (int(w * 0.08 * i * (0.6 + s[1] * 0.4)), int(h * 0.07 * i)),
                        90 * s[2], 0, 360, color, -1, cv2.LINE_AA)
    elif pic.kind == "star":
        spikes = 4 + int(s[0] * 6)
        r_out, r_in = min(w, h) * 0.45, min(w, h) * (0.12 + 0.2 * s[1])
        star = [(cx + np.cos(np.pi * k / spikes + s[2]) * (r_out if k % 2 == 0 else r_in),
                 cy + np.sin(np.pi * k / spikes + s[2]) * (r_out if k % 2 == 0 else r_in)) for k in range(2 * spikes)]
        cv2.fillPoly(img, [np.array(star, np.int32)], pic.body, cv2.LINE_AA)
        cv2.circle(img, (cx, cy), int(r_in * 0.6), pic.accent, -1, cv2.LINE_AA)
    elif pic.kind == "mosaic":
        n = 3 + int(s[0] * 3)
        tile = np.random.default_rng(int(s[1] * 1e6)).random((n, n)) < 0.5
        for i in range(n):
            for j in range(n):
                color = pic.body if tile[i, j] else pic.accent
                cv2.rectangle(img, (x0 + j * w // n + 2, y0 + i * h // n + 2),
                              (x0 + (j + 1) * w // n - 2, y0 + (i + 1) * h // n - 2), color, -1)
    else:
        raise ValueError(f"unknown picture kind {pic.kind!r}")


def _draw_meter(img: np.ndarray, design: CardDesign, y: int, x0: int, x1: int) -> None:
    if design.meter is None:
        return
    step = (x1 - x0) / 4
    for i, cards in enumerate(design.meter):
        cx = int(x0 + step * (i + 0.5))
        cv2.circle(img, (cx, y), int(step * 0.35), design.frame, -1, cv2.LINE_AA)
        if cards is not None:
            _text(img, str(cards), (cx, y), int(step * 0.4), design.font, design.ink)


def render_face(design: CardDesign) -> np.ndarray:
    """Draw ``design`` into a new ``FACE_H x FACE_W`` BGR image."""
    img = np.empty((FACE_H, FACE_W, 3), np.uint8)
    img[:] = design.background
    w, h, d = FACE_W, FACE_H, design
    if d.layout == "classic":
        cv2.rectangle(img, (3, 3), (w - 4, h - 4), d.frame, 5)
        if d.number is not None:
            _text(img, str(d.number), (w - 28, 26), 34, d.font, d.ink, 2)
        _text(img, d.title, (w // 2 - 10 if d.number is not None else w // 2, 28), w - 70, d.font, d.ink)
        cv2.rectangle(img, (14, 50), (w - 15, h - 52), d.panel, -1)
        _draw_picture(img, d.picture, (14, 50, w - 15, h - 52))
        _draw_meter(img, d, h - 26, 10, w - 10)
    elif d.layout == "banner":
        cv2.rectangle(img, (0, 0), (w, 44), d.frame, -1)
        _text(img, d.title, (w // 2, 22), w - 20, d.font, d.ink)
        cv2.circle(img, (w // 2, h // 2 + 10), 62, d.panel, -1, cv2.LINE_AA)
        _draw_picture(img, d.picture, (20, 60, w - 20, h - 60))
        if d.number is not None:
            _text(img, str(d.number), (24, h - 30), 30, d.font, d.frame, 2)
        _draw_meter(img, d, h - 30, 50, w - 6)
    elif d.layout == "framed":
        cv2.rectangle(img, (10, 10), (w - 11, h - 11), d.frame, 3)
        cv2.rectangle(img, (22, 22), (w - 23, 160), d.panel, -1)
        _draw_picture(img, d.picture, (22, 22, w - 23, 160))
        _text(img, d.title, (w // 2, 178), w - 40, d.font, d.ink)
        if d.number is not None:
            _text(img, str(d.number), (w // 2, 204), 40, d.font, d.ink, 2)
        _draw_meter(img, d, h - 24, 16, w - 16)
    elif d.layout == "split":  # unseen: picture on a diagonal half, text low-left
        pts = np.array([[0, 0], [w, 0], [w, int(h * 0.55)], [0, int(h * 0.75)]], np.int32)
        cv2.fillPoly(img, [pts], d.panel)
        _draw_picture(img, d.picture, (10, 14, w - 10, int(h * 0.6)))
        _text(img, d.title, (w // 2 - 10, int(h * 0.82)), w - 50, d.font, d.ink, 2)
        if d.number is not None:
            cv2.circle(img, (w - 22, h - 22), 18, d.frame, -1, cv2.LINE_AA)
            _text(img, str(d.number), (w - 22, h - 22), 22, d.font, d.ink)
        _draw_meter(img, d, h - 14, 6, w - 50)
    elif d.layout == "poster":  # unseen: huge number as background, picture in a rounded frame
        if d.number is not None:
            _text(img, str(d.number), (w // 2, h // 2), w - 10, d.font, d.frame, 6)
        cv2.ellipse(img, (w // 2, int(h * 0.45)), (58, 70), 0, 0, 360, d.panel, -1, cv2.LINE_AA)
        _draw_picture(img, d.picture, (w // 2 - 50, int(h * 0.45) - 60, w // 2 + 50, int(h * 0.45) + 60))
        cv2.rectangle(img, (0, h - 40), (w, h), d.frame, -1)
        _text(img, d.title, (w // 2, h - 20), w - 20, d.font, d.ink, 2)
        _draw_meter(img, d, 18, 6, w - 6)
    elif d.layout == "sidebar":  # unseen: vertical stripe with meter, picture to the right
        cv2.rectangle(img, (0, 0), (36, h), d.frame, -1)
        if d.meter is not None:
            for i, cards in enumerate(d.meter):
                _text(img, str(cards), (18, 40 + i * 50), 26, d.font, d.ink)
        cv2.rectangle(img, (44, 30), (w - 6, h - 60), d.panel, -1)
        _draw_picture(img, d.picture, (44, 30, w - 6, h - 60))
        _text(img, d.title, ((w + 36) // 2, 16), w - 50, d.font, d.ink)
        if d.number is not None:
            _text(img, str(d.number), ((w + 36) // 2, h - 30), 50, d.font, d.ink, 3)
    else:
        raise ValueError(f"unknown layout {d.layout!r}")
    return img
