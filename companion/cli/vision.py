"""``companion vision ...``: classify card photos, enroll a group's own deck, scan table frames, print the markers."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from companion.cards import VISION_LABELS
from companion.cli import watch
from companion.cli.common import fail
from companion.vision.errors import VisionError
from companion.vision.folder import enrollment_photos
from companion.vision.image_size import MAX_PIXELS
from companion.vision.imageio import read_image
from companion.vision.marker_sheet import DPI_RANGE, MARKER_CM, encode_png, marker_sheet
from companion.vision.profile import DeckProfile, enroll
from companion.vision.reader import CardReader
from companion.vision.scene import SceneReader
from companion.vision.table_reader import TableReader
from companion.vision.zones import SEATS, TableZones, read_zone_file


def classify(args: argparse.Namespace) -> int:
    """Name the card in each photo (one batch); unreadable photos are reported and skipped."""
    try:
        reader = CardReader()
        gallery = DeckProfile.load(args.deck, reader.classifier).gallery if args.deck else None
    except VisionError as exc:
        return fail(str(exc))
    status, paths, images, views = 0, [], [], []
    for path in args.images:
        try:
            image = read_image(path)
            views.append(reader.views(image))
            images.append(image)
            paths.append(path)
        except VisionError as exc:
            status = fail(str(exc))
            continue
        if not views[-1].framings:
            print(f"note: {path}: no card outline found, so it is unknown; photograph the card with some table "
                  "around it", file=sys.stderr)
    for path, pred in zip(paths, reader.name(images, views, gallery)):
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
    elif reader.classifier.matcher.crop_in_doubt(framings):
        print(f"note: {path}: the card's crop is in doubt (the card runs off the photo, or cloth in the crop); "
              "for a better profile photograph the card again, flat and whole, with some table around it",
              file=sys.stderr)
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
        return fail(str(exc))
    except OSError as exc:
        return fail(f"{args.out}: cannot write the profile ({exc.strerror}); choose a writable path")
    missing = [label for label in VISION_LABELS if label not in photos]
    print(f"wrote {args.out}: {len(photos)} labels from {sum(profile.photos.values())} photos"
          + (f"; not enrolled (will never be named): {', '.join(missing)}" if missing else ""))
    return 0


def _zones(path: str | None) -> TableZones:
    """The zone file at ``path`` (without one, only the printed markers in sight give zones); ``VisionError``
    with a sentence when it cannot be used."""
    if path is None:
        return TableZones()
    try:
        return read_zone_file(Path(path))
    except ValueError as exc:
        raise VisionError(str(exc)) from None


def scan(args: argparse.Namespace) -> int:
    """Find, count and name the cards and field columns of each frame; one line (or JSON object) per frame."""
    try:
        reader = SceneReader()
        gallery = DeckProfile.load(args.deck, reader.classifier).gallery if args.deck else None
        zones = _zones(args.zones)
    except VisionError as exc:
        return fail(str(exc))
    status = 0
    for path in args.frames:
        try:
            frame = read_image(path)
        except VisionError as exc:
            status = fail(str(exc))
            continue
        scene = TableReader(reader, zones).read(frame, gallery).scene  # each frame on its own: its markers' plane
        if args.json:
            print(json.dumps({"image": path, "cards": [card.to_json() for card in scene.cards],
                              "stacks": [stack.to_json() for stack in scene.stacks]}))
            continue
        fields = ", ".join(f"{stack.count} x {stack.bean}" + (f" in {stack.zone}" if stack.zone else "")
                           for stack in scene.stacks)
        print(f"{path}: {fields or 'no cards found'}")
    return status


def print_markers(args: argparse.Namespace) -> int:
    """Write a printable A4 sheet of the table markers (PNG) to ``OUT``."""
    out = Path(args.out)
    if out.suffix.lower() != ".png":
        return fail(f"{out}: the marker sheet is a PNG image; give a path ending in .png")
    try:
        out.write_bytes(encode_png(marker_sheet(args.seats, args.dpi), args.dpi))
    except ValueError as exc:
        return fail(str(exc))
    except OSError as exc:
        return fail(f"{out}: cannot write the marker sheet ({exc.strerror}); choose a writable path")
    print(f"wrote {out}: markers for {args.seats} players, the face-up area, the discard pile and 4 table corners; "
          f"print it at 100% (each marker {MARKER_CM:g} cm wide)")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``vision`` command group: ``classify``, ``enroll``, ``scan`` and ``markers``."""
    parser = subparsers.add_parser("vision", help="name cards, enroll a deck, scan table frames, print markers")
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

    scn = commands.add_parser("scan", help="find, count and name the cards and field columns in table frames")
    scn.add_argument("frames", nargs="+", metavar="FRAME", help="PNG or JPEG frames of the table seen from above")
    scn.add_argument("--deck", metavar="PROFILE", help="a deck profile from `companion vision enroll`")
    scn.add_argument("--zones", metavar="FILE",
                     help="a zone file (default: only the printed markers in sight give zones); each stack is given "
                          "the zone it lies in")
    scn.add_argument("--json", action="store_true",
                     help='one JSON object per frame: {"image", "cards": [{"label", "confidence", "corners"}], '
                          '"stacks": [{"bean", "count", "corners", "zone"}]}')
    scn.set_defaults(func=scan)

    watch.register(commands)

    mrk = commands.add_parser("markers", help="write a printable A4 sheet of the table-zone markers")
    mrk.add_argument("out", metavar="OUT", help="where to write the sheet (PNG)")
    mrk.add_argument("--seats", type=int, default=SEATS, metavar="N",
                     help=f"players to print fields markers for (1 to {SEATS}; default {SEATS})")
    mrk.add_argument("--dpi", type=int, default=150,
                     help=f"print resolution ({DPI_RANGE[0]} to {DPI_RANGE[1]}; default 150)")
    mrk.set_defaults(func=print_markers)
