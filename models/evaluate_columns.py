"""How well the camera reads bean fields: exact bean and count of each column, on fresh rendered tables.

    .venv/bin/python -m models.evaluate_columns --tables 50

Each table (1280 x 720) holds 8 columns of 1 to 12 cards (cards 85 to 120 px tall, smaller where
a long column needs the room), facing any of the four table edges (give or take 12 degrees), in
one deck: the shipped deck on even tables and, on odd ones, an unseen art style
(:func:`models.render.unseen_deck`) that no model was trained on, enrolled from ``--photos``
photos per bean as a group would; with ``--family``, a deck of that held-out family (:mod:`models.heldout`, drawn
apart from the training renderer) enrolled from one photo per bean, as the camera referee's evaluation enrolls it.
With ``--tilt``, the camera looks at the table at a slant (the four anchor markers lie in its corners, so the reader
can see the table's plane). Frames get the camera's degradations. Seeds start at
``--seed`` (default 50000), which no training or tuning used. Prints the share of columns read
exactly (bean and count), by deck, the count errors, and stacks reported where there is none.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Mapping, Sequence

import cv2
import numpy as np

from companion.cards import BACK, VISION_LABELS
from companion.vision.classifier import Gallery
from companion.vision.keypoints import DETAIL_SIZE
from companion.vision.profile import enroll
from companion.vision.scene import SceneReader, Stack
from companion.vision.table_reader import TableReader
from companion.vision.zones import ANCHOR_IDS
from models.camera import photograph
from models.evaluate_referee import GroupDeck
from models.fields import BAND, LaidField, degrade, lay_field
from models.game_table import paste_marker
from models.heldout.families import FAMILIES
from models.render import CardDesign, house_design, render_face, unseen_deck
from models.tabletop import wooden_table
from models.tilt import tilted

SIZE = (1280, 720)
SLOTS = [(160 + 320 * (i % 4), 180 + 360 * (i // 4)) for i in range(8)]
"""Column centres: a 4 x 2 grid."""
SLOT_ROOM = (330.0, 290.0)
"""Longest column (px) a slot holds running up and down the frame, and across it."""
BEANS = [label for label in VISION_LABELS if label != BACK]
MARGIN = 70
"""Table (px) added at each side of a tilted table (:func:`tilted_table`), the anchor markers lying in it."""
ANCHOR = 45
"""A printed marker's side (px) on the table before it is tilted: 4 cm, against cards 85 to 120 px (8.7 cm) tall."""


def render_table(seed: int, designs: dict[str, CardDesign] | None, faces: Mapping[str, np.ndarray] | None = None,
                 tilt: float | None = None) -> tuple[np.ndarray, list[LaidField]]:
    """A degraded frame of 8 columns of random beans and sizes, of ``faces`` (a face image per bean) where given,
    else of ``designs`` (the house deck's without), seen from straight above or, given a ``tilt``, as
    :func:`tilted_table`; the truth."""
    rng = np.random.default_rng([seed, 5])
    frame = wooden_table(rng, SIZE)
    fields = []
    for centre in SLOTS:
        turn = int(rng.integers(4))
        facing = 90 * turn + rng.uniform(-12, 12)
        count = int(rng.integers(1, 13))
        room = SLOT_ROOM[turn % 2] / (1 + BAND[1] * (count - 1))  # the longest such column fits its slot
        height = min(rng.uniform(85, 120), room)
        up = np.array([np.sin(np.deg2rad(facing)), -np.cos(np.deg2rad(facing))])
        far = np.array(centre) + up * (height * (1 + (count - 1) * 0.185) / 2 - height / 2)
        bean = BEANS[int(rng.integers(len(BEANS)))]
        face = faces[bean] if faces else render_face(designs[bean] if designs else house_design(bean))
        fields.append(lay_field(frame, face, bean, count, (far[0], far[1]), height, facing, rng))
    if tilt is not None:
        frame, fields = tilted_table(frame, fields, tilt)
    return degrade(frame, rng), fields


def tilted_table(frame: np.ndarray, fields: Sequence[LaidField], degrees: float) -> tuple[np.ndarray, list[LaidField]]:
    """The table with :data:`MARGIN` more of it at each side, the four anchor markers lying in its corners, seen by a
    camera tilted ``degrees`` from straight down (:func:`models.tilt.tilted`) in a frame of the same size; the
    fields where that camera sees them."""
    big = cv2.copyMakeBorder(frame, MARGIN, MARGIN, MARGIN, MARGIN, cv2.BORDER_REFLECT)
    height, width = big.shape[:2]
    inset = (MARGIN - ANCHOR) / 2
    for marker_id, (x, y) in zip(ANCHOR_IDS, [(inset, inset + ANCHOR), (width - inset - ANCHOR, inset + ANCHOR),
                                              (width - inset - ANCHOR, height - inset), (inset, height - inset)]):
        paste_marker(big, marker_id, (x, y), 0.0, ANCHOR)
    shrink = np.diag([SIZE[0] / width, SIZE[1] / height, 1.0])
    matrix = tilted(SIZE, degrees) @ shrink @ np.array([[1, 0, MARGIN], [0, 1, MARGIN], [0, 0, 1]], np.float64)
    seen = cv2.warpPerspective(big, tilted(SIZE, degrees) @ shrink, SIZE, flags=cv2.INTER_AREA)

    def moved(points: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(np.asarray(points, np.float32).reshape(-1, 1, 2), matrix).reshape(-1, 2)

    return seen, [LaidField(f.bean, moved(f.outline), tuple(moved(card) for card in f.cards)) for f in fields]


def enrolled(reader: SceneReader, designs: dict[str, CardDesign], photos: int, seed: int) -> Gallery:
    """The unseen deck enrolled from ``photos`` degraded photos per bean, cropped as the runtime enrolls them
    (at the detail size: the second opinion's keypoints come with the profile)."""
    from companion.vision.locate import CardLocator

    locator = CardLocator.of(reader.classifier.manifest)
    shots = {bean: [locator.enrollment_framings(photograph(render_face(designs[bean]),
                                                           np.random.default_rng([seed, k, i])), DETAIL_SIZE)[0]
                    for i in range(photos)] for k, bean in enumerate(BEANS)}
    return enroll(reader.classifier, shots, seed).gallery


def matched(stacks: Sequence[Stack], laid: LaidField) -> Stack | None:
    """The stack whose outline's centre lies nearest the column's, if within half a card width."""
    centre = laid.outline.mean(axis=0)
    near = [(float(np.linalg.norm(s.corners.mean(axis=0) - centre)), s) for s in stacks]
    width = float(np.linalg.norm(laid.outline[1] - laid.outline[0]))
    best = min(near, key=lambda pair: pair[0], default=None)
    return best[1] if best is not None and best[0] < width / 2 else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seed", type=int, default=50000)
    parser.add_argument("--photos", type=int, default=3, help="enrollment photos per bean of the unseen decks")
    parser.add_argument("--family", choices=sorted(FAMILIES), help="odd tables in a deck of this held-out family")
    parser.add_argument("--tilt", type=float, help="degrees the camera looks from straight down (anchor markers "
                        "lie in the table's corners); straight down, without markers, by default")
    args = parser.parse_args(argv)
    reader = SceneReader()
    right: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    confused: Counter[str] = Counter()
    extra = 0
    for k in range(args.tables):
        seed = args.seed + k
        gallery: Gallery | None
        if k % 2 and args.family:
            group = GroupDeck(args.family, seed, reader.classifier, False)
            deck, gallery = f"held-out {args.family}", group.profile.gallery
            frame, fields = render_table(seed, None, group.faces, args.tilt)
        else:
            designs = unseen_deck(seed) if k % 2 else None
            gallery = enrolled(reader, designs, args.photos, seed) if designs else None
            deck = "unseen style" if designs else "shipped deck"
            frame, fields = render_table(seed, designs, tilt=args.tilt)
        stacks = TableReader(reader).read(frame, gallery).scene.stacks
        used = set()
        for laid in fields:
            seen[deck] += 1
            stack = matched(stacks, laid)
            if stack is None:
                errors["missed"] += 1
                continue
            used.add(id(stack))
            if stack.count != laid.count:
                errors[f"count {stack.count - laid.count:+d}"] += 1
            if stack.bean != laid.bean:
                errors["bean"] += 1
                confused[f"{laid.bean} -> {stack.bean}"] += 1
            right[deck] += stack.count == laid.count and stack.bean == laid.bean
        extra += sum(id(s) not in used for s in stacks)
    for deck in sorted(seen):
        print(f"{deck}: {right[deck]}/{seen[deck]} columns exact ({right[deck] / seen[deck]:.2%})")
    print(f"errors: {dict(errors)}; stacks where there is none: {extra}")
    if confused:
        print("beans read wrong (truth -> read): " + ", ".join(f"{pair}: {n}" for pair, n in confused.most_common()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
