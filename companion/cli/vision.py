"""``companion vision ...``: classify card photos and enroll a group's own deck."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from companion.cards import VISION_LABELS
from companion.vision.errors import VisionError
from companion.vision.folder import enrollment_photos
from companion.vision.image_size import MAX_PIXELS
from companion.vision.imageio import read_image
from companion.vision.profile import DeckProfile, enroll
from companion.vision.reader import CardReader


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def classify(args: argparse.Namespace) -> int:
    """Name the card in each photo (one batch); unreadable photos are reported and skipped."""
    try:
        reader = CardReader()
        gallery = DeckProfile.load(args.deck, reader.classifier).gallery if args.deck else None
    except VisionError as exc:
        return _fail(str(exc))
    status, paths, views = 0, [], []
    for path in args.images:
        try:
            views.append(reader.views(read_image(path)))
            paths.append(path)
        except VisionError as exc:
            status = _fail(str(exc))
            continue
        if not views[-1].framings:
            print(f"note: {path}: no card outline found, so it is unknown; photograph the card with some table "
                  "around it", file=sys.stderr)
    for path, pred in zip(paths, reader.classifier.classify_views(views, gallery)):
        if args.json:
            print(json.dumps({"image": path, "label": pred.label, "confidence": pred.confidence}))
        else:
            print(f"{path}: {pred.label} ({pred.confidence:.3f})")
    return status


def _enrollment_framings(reader: CardReader, path: Path) -> list[np.ndarray]:
    """One enrollment photo's framings; a note when no card outline was found in it."""
    framings, found = reader.enrollment_framings(read_image(path))
    if not found:
        print(f"note: {path}: no card outline found, enrolled its central part; for a better profile "
              "photograph the card with some table around it", file=sys.stderr)
    return framings


def enroll_deck(args: argparse.Namespace) -> int:
    """Build a deck profile from ``DIR/<label>/*.png|jpg`` and write it to ``--out``."""
    try:
        photos = enrollment_photos(args.dir)
        reader = CardReader()
        framed = {label: [_enrollment_framings(reader, p) for p in paths] for label, paths in photos.items()}
        profile = enroll(reader.classifier, framed)
        profile.save(args.out)
    except VisionError as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"{args.out}: cannot write the profile ({exc.strerror}); choose a writable path")
    missing = [label for label in VISION_LABELS if label not in photos]
    print(f"wrote {args.out}: {len(photos)} labels from {sum(profile.photos.values())} photos"
          + (f"; not enrolled (will never be named): {', '.join(missing)}" if missing else ""))
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``vision`` command group: ``classify`` and ``enroll``."""
    parser = subparsers.add_parser("vision", help="name cards from photos, enroll a deck")
    parser.set_defaults(func=lambda args: parser.print_help() or 2)
    commands = parser.add_subparsers(dest="vision_command", metavar="COMMAND")

    cls = commands.add_parser("classify", help="name the card in each photo of a single card")
    cls.add_argument("images", nargs="+", metavar="IMAGE",
                     help=f"PNG or JPEG photos (at most {MAX_PIXELS // 1_000_000} megapixels), one card each with "
                          "some table around it (no card outline: unknown)")
    cls.add_argument("--deck", metavar="PROFILE", help="a deck profile from `companion vision enroll`")
    cls.add_argument("--json", action="store_true", help='one JSON object per image: {"image", "label", "confidence"}')
    cls.set_defaults(func=classify)

    enr = commands.add_parser("enroll", help="build a deck profile from a few photos per bean")
    enr.add_argument("dir", metavar="DIR", help="folder with DIR/<bean id>/*.png|jpg")
    enr.add_argument("--out", required=True, metavar="PROFILE", help="where to write the profile (JSON)")
    enr.set_defaults(func=enroll_deck)
