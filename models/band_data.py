"""Training and evaluation strips for the band network: columns laid on a table, seen by the camera.

Each sample is one rendered column of 1 to 12 cards (:mod:`models.fields`) on a table, degraded as
the camera degrades it, outlined by the run-time finder (:func:`~companion.vision.strips.find_outlines`)
and warped into a strip both ways round. The target of the strip read from the column's far end
marks each card's top edge (a Gaussian bump per card, in rows); the strip read from the near end,
where no card's top faces the first row, has none. So the network learns where cards start and
which end a column starts from.

Families keep training and evaluation apart: ``train`` columns use the shipped deck, the
training renderer's random designs and jumbles of random parts (:func:`jumble_face`);
``unseen`` columns use the unseen art styles only, which no training decision reads.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.cards import BACK, VISION_LABELS
from companion.vision.strips import STRIP_L, find_outlines, strip_transform, to_strip, turned
from models.fields import LaidField, degrade, lay_field
from models.render import FACE_H, FACE_W, TRAIN_FONTS, house_design, random_design, render_face
from models.tabletop import wooden_table

CARD_PX = (60.0, 150.0)
"""Card heights in frame pixels (a camera high or low above the table)."""
SIGMA = 1.0
"""Width (rows) of the bump marking a card's top edge."""
BEANS = [label for label in VISION_LABELS if label != BACK]


@dataclass(frozen=True)
class Sample:
    """One column read both ways: strips (2, L, W, 3) uint8, targets (2, L) float32, and its card count."""

    strips: np.ndarray
    targets: np.ndarray
    count: int


def _face(rng: np.random.Generator, family: str) -> np.ndarray:
    """A card face of ``family``: for ``train`` the shipped deck, the training designs or a jumble."""
    if family != "train":
        return render_face(random_design(rng, family))
    pick = rng.random()
    if pick < 0.25:
        return render_face(house_design(str(rng.choice(BEANS))))
    return render_face(random_design(rng, family)) if pick < 0.55 else jumble_face(rng)


def _ink(rng: np.random.Generator) -> tuple[int, int, int]:
    return tuple(int(v) for v in rng.integers(0, 256, 3))  # type: ignore[return-value]


def _part(img: np.ndarray, rng: np.random.Generator, kind: int) -> None:
    """Draw one random part of kind 0-6 onto a face (in place)."""
    h, w = img.shape[:2]
    x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
    if kind == 0:  # a block
        cv2.rectangle(img, (x, y), (x + int(rng.integers(10, w)), y + int(rng.integers(8, h // 2))), _ink(rng), -1)
    elif kind == 1:  # a stripe across
        cv2.rectangle(img, (0, y), (w, y + int(rng.integers(3, 40))), _ink(rng), -1)
    elif kind == 2:  # a row of dots
        dots, r, ink = int(rng.integers(3, 8)), int(rng.integers(4, 12)), _ink(rng)
        for k in range(dots):
            cv2.circle(img, (int((k + 0.5) * w / dots), y), r, ink, -1, cv2.LINE_AA)
    elif kind == 3:  # text
        text = "".join(rng.choice(list("ABCDEFGHKLMNOPRSTUVWXYZ0123456789"), size=int(rng.integers(1, 9))))
        cv2.putText(img, text, (x // 2, y), int(rng.choice(TRAIN_FONTS)), rng.uniform(0.4, 1.6), _ink(rng),
                    int(rng.integers(1, 4)), cv2.LINE_AA)
    elif kind == 4:  # a blob
        cv2.ellipse(img, (x, y), (int(rng.integers(8, 70)), int(rng.integers(8, 90))), rng.uniform(0, 180), 0, 360,
                    _ink(rng), -1, cv2.LINE_AA)
    elif kind == 5:  # a shape
        pts = rng.integers(0, (w, h), (int(rng.integers(3, 7)), 2)).astype(np.int32)
        cv2.fillPoly(img, [pts], _ink(rng), cv2.LINE_AA)
    else:  # a pattern repeated down the card: dots, bars or rings every few pixels
        step, size, ink = int(rng.integers(8, 30)), int(rng.integers(2, 8)), _ink(rng)
        top, bottom = sorted(int(v) for v in rng.integers(0, h, 2))
        for row in range(top, bottom + 1, step):
            for col in range(int(rng.integers(4, 16)), w, step):
                cv2.circle(img, (col, row), size, ink, -1 if rng.random() < 0.7 else 1, cv2.LINE_AA)


def jumble_face(rng: np.random.Generator) -> np.ndarray:
    """A card face of random parts anywhere (a background, a frame, blocks, stripes, rows of dots, text, blobs,
    patterns repeated down the card): no layout of any renderer, so the network learns where cards start from
    any art, and that art repeating down a card is not a card's edge."""
    w, h = FACE_W, FACE_H
    img = np.empty((h, w, 3), np.uint8)
    img[:] = _ink(rng)
    if rng.random() < 0.4:  # a gradient
        ramp = np.linspace(0, 1, h if rng.random() < 0.5 else w, dtype=np.float32)
        ramp = ramp[:, None, None] if len(ramp) == h else ramp[None, :, None]
        img[:] = np.clip(img * (1 - ramp) + np.array(_ink(rng), np.float32) * ramp, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        inset = int(rng.integers(0, 14))
        cv2.rectangle(img, (inset, inset), (w - 1 - inset, h - 1 - inset), _ink(rng), int(rng.integers(1, 7)))
    for _ in range(int(rng.integers(2, 8))):
        _part(img, rng, int(rng.integers(7)))
    return img if rng.random() < 0.5 else np.ascontiguousarray(img[::-1, ::-1])


def _table(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """Wood, or a plain cloth of any colour with soft noise."""
    if rng.random() < 0.5:
        return wooden_table(rng, size)
    w, h = size
    noise = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), 2) * rng.uniform(3, 12)
    return np.clip(rng.uniform(20, 235, 3).astype(np.float32) + noise[..., None], 0, 255).astype(np.uint8)


def lay_one(rng: np.random.Generator, family: str) -> tuple[np.ndarray, LaidField]:
    """A degraded frame holding one column of 1 to 12 cards of one design."""
    count = int(rng.integers(1, 13))
    height = rng.uniform(*CARD_PX)
    side = int(height * (1 + 0.25 * count) * 1.25 + 40)
    frame = _table(rng, (side, side))
    facing = rng.uniform(0, 360)
    up = np.array([np.sin(np.deg2rad(facing)), -np.cos(np.deg2rad(facing))])
    length = height * (1 + 0.185 * (count - 1))
    far = np.array([side / 2, side / 2]) + up * (length / 2 - height / 2)
    laid = lay_field(frame, _face(rng, family), "any", count, (far[0], far[1]), height, facing, rng)
    return degrade(frame, rng), laid


def tops(outline: np.ndarray, laid: LaidField) -> np.ndarray:
    """Each card's top edge (the middle of its TL-TR side) in rows of the strip of ``outline``."""
    matrix, _ = strip_transform(outline)
    middles = np.array([(card[0] + card[1]) / 2 for card in laid.cards], np.float32).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(middles, matrix).reshape(-1, 2)[:, 1]


def target(rows: np.ndarray) -> np.ndarray:
    """A Gaussian bump at each of ``rows`` (max where they meet), over the strip's length."""
    at = np.arange(STRIP_L, dtype=np.float32)[:, None]
    if len(rows) == 0:
        return np.zeros(STRIP_L, np.float32)
    return np.exp(-0.5 * ((at - rows[None, :]) / SIGMA) ** 2).max(axis=1).astype(np.float32)


def outlined_one(rng: np.random.Generator, family: str) -> tuple[np.ndarray, LaidField, np.ndarray] | None:
    """A frame of one column (:func:`lay_one`), the column, and its outline as the run-time finder found it, far end
    first; None when the finder did not outline it (the camera would miss it too)."""
    frame, laid = lay_one(rng, family)
    centre = laid.outline.mean(axis=0)
    found = [box for box in find_outlines(frame) if np.linalg.norm(box.mean(axis=0) - centre) < 0.3 *
             np.linalg.norm(laid.outline[1] - laid.outline[0])]
    if len(found) != 1:
        return None
    box = found[0]
    far_edge = (laid.outline[0] + laid.outline[1]) / 2
    far_first = box if np.linalg.norm((box[0] + box[1]) / 2 - far_edge) <= np.linalg.norm(
        (box[2] + box[3]) / 2 - far_edge) else turned(box)
    return frame, laid, far_first


def sample(rng: np.random.Generator, family: str) -> Sample | None:
    """One column, or None when the run-time finder did not outline it."""
    found = outlined_one(rng, family)
    if found is None:
        return None
    frame, laid, far_first = found
    strips = np.stack([to_strip(frame, far_first)[0], to_strip(frame, turned(far_first))[0]])
    targets = np.stack([target(tops(far_first, laid)), np.zeros(STRIP_L, np.float32)])
    return Sample(strips, targets, laid.count)


def dataset(seed: int, size: int, family: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``size`` columns of ``family``: strips (2*size, L, W, 3), targets (2*size, L) and counts (size,)."""
    rng = np.random.default_rng([seed, 31])
    strips: list[np.ndarray] = []
    targets: list[np.ndarray] = []
    counts: list[int] = []
    while len(counts) < size:
        made = sample(rng, family)
        if made is not None:
            strips.append(made.strips)
            targets.append(made.targets)
            counts.append(made.count)
    return (np.concatenate(strips), np.concatenate(targets), np.array(counts))

