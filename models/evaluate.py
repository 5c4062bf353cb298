"""Evaluate the shipped ONNX network through the runtime, on photos rendered with a fresh seed.

    .venv/bin/python -m models.evaluate [--seed N] [--families woodcut,watercolour] [--heldout-only] [--card]

Prints top-1 accuracy and the confusion matrix on the house deck, unknown rejection,
1-shot and 3-shot accuracy on decks in art styles never seen in training (and on kin decks
of those styles, whose beans come in a few colour groups as real beans do), and timing;
then, per held-out family (:mod:`models.heldout`: decks drawn apart from the training
renderer and photographed by another camera), 1-shot and 3-shot accuracy, the wrong
answers as "truth -> predicted: count", and bare tables rejected.
Each run draws a fresh seed and prints it; ``--seed`` reproduces a run. Training uses
seeds 1 (and 2 for calibration); a drawn seed is never below 10**6.
``--card`` also rewrites ``models/MODEL_CARD.md`` with these figures.
"""

from __future__ import annotations

import argparse
import json
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from companion.cards import VISION_LABELS
from companion.vision.classifier import UNKNOWN, CardClassifier, Gallery, decide, unsure
from companion.vision.locate import CardLocator
from companion.vision.profile import enroll
from companion.vision.views import CardViews
from models import dataset
from models.dataset import locator_parts
from models.heldout import learning, measure
from models.heldout.families import FAMILIES
from models.render import render_face, unseen_deck

MODEL_DIR = Path(__file__).resolve().parent
STRANGERS = 100
"""Bare tables, and as many cards of no deck, an unseen deck's unknown rejection is measured on."""


@dataclass
class Report:
    """Every measured figure of one evaluation run."""

    seed: int
    figures: dict[str, float] = field(default_factory=dict)
    confusion: list[list[int]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)

    def say(self, line: str) -> None:
        print(line, flush=True)
        self.lines.append(line)


def accuracy(predicted: list[str], truth: list[str]) -> float:
    """Share of predictions equal to the truth (``unknown`` counts as wrong)."""
    return float(np.mean([p == t for p, t in zip(predicted, truth)]))


def confusion_matrix(predicted: list[str], truth: list[str], labels: tuple[str, ...]) -> np.ndarray:
    """Counts (truth row, predicted column); the last column is ``unknown``."""
    cols = labels + (UNKNOWN,)
    matrix = np.zeros((len(labels), len(cols)), np.int64)
    for p, t in zip(predicted, truth):
        matrix[labels.index(t), cols.index(p)] += 1
    return matrix


def outline_found(views: list[CardViews]) -> float:
    """Share of photos in which the locator found a card outline (the others are ``unknown`` at once)."""
    return float(np.mean([len(v.framings) > 0 for v in views]))


def unknown_views(clf: CardClassifier, seed: int, family: str, count: int, workers: int) -> list[CardViews]:
    """Framings of things that are no card of the deck: ``count`` bare tables, then ``count``
    random designs of ``family``."""
    tables = dataset.non_card_views(CardLocator.of(clf.manifest), seed, count)
    strangers = dataset.other_faces(seed + 1, count, family)
    return tables + dataset.view_set(strangers, [1] * count, seed + 1, locator_parts(clf.manifest), workers)[0]


def shipped(clf: CardClassifier, rep: Report, per_label: int, workers: int) -> list[CardViews]:
    """House deck accuracy with all degradations, confusion matrix, unknown rejection; the photos' framings."""
    covers = dataset.other_faces(rep.seed, 100)
    views, idx = dataset.view_set(dataset.house_faces(), [per_label] * len(VISION_LABELS), rep.seed,
                                     locator_parts(clf.manifest), workers, covers)
    truth = [VISION_LABELS[i] for i in idx]
    m = clf.manifest
    cosines = clf.cosines(views, None, m.unknown_threshold)
    preds = [p.label for p in decide(cosines, m.labels, m.unknown_threshold, m.scale)]
    argmax = [VISION_LABELS[i] for i in cosines.argmax(axis=1)]
    rep.figures["shipped_top1"] = accuracy(preds, truth)
    rep.figures["shipped_top1_no_reject"] = accuracy(argmax, truth)
    rep.figures["shipped_images"] = len(truth)
    rep.figures["shipped_outline_found"] = outline_found(views)
    matrix = confusion_matrix(preds, truth, VISION_LABELS)
    rep.confusion = matrix.tolist()
    rep.say(f"house deck, {len(truth)} photos: top-1 {rep.figures['shipped_top1']:.4f} "
            f"(argmax without unknown threshold {rep.figures['shipped_top1_no_reject']:.4f}), "
            f"card outline found in {rep.figures['shipped_outline_found']:.4f}")
    rep.say("confusion (row = truth; off-diagonal counts only):")
    cols = VISION_LABELS + (UNKNOWN,)
    for r, label in enumerate(VISION_LABELS):
        errors = {cols[c]: int(n) for c, n in enumerate(matrix[r]) if n and cols[c] != label}
        rep.say(f"  {label:>11}: {matrix[r, r]}/{matrix[r].sum()} right" + (f", wrong: {errors}" if errors else ""))
    count = 150
    for family in ("train", "unseen"):
        strange = unknown_views(clf, rep.seed + 10, family, count, workers)
        rejected = np.mean([p.label == UNKNOWN for p in clf.classify_views(strange)])
        rep.figures[f"shipped_unknown_rejection_{family}"] = float(rejected)
        rep.say(f"unknown rejection (tables + other {family}-style cards), {len(strange)} photos: {rejected:.4f}; "
                f"card outline found in {outline_found(strange[:count]):.4f} of the tables")
    return views


def decks(clf: CardClassifier, rep: Report, count: int, per_label: int, workers: int,
          kin: bool = False, strangers: int = STRANGERS) -> tuple[list, Gallery]:
    """Decks in unseen art styles, enrolled from 1 and 3 photos per label (each photo cropped at
    every stage's corners, as ``companion vision enroll`` does); the last deck's test framings
    and 1-shot gallery. With ``kin``, kin decks (beans in a few colour groups, told apart by name,
    numbers and picture), whose figures are named ``kin_deck_...``. Each gallery's unknown rejection is measured on
    ``strangers`` bare tables and as many cards of no deck (:func:`unknown_views`)."""
    name, key = ("unseen kin deck", "kin_deck") if kin else ("unseen deck", "deck")
    covers = dataset.other_faces(rep.seed + 20, 50, "unseen")
    strange = unknown_views(clf, rep.seed + 30, "unseen", strangers, workers)
    locator = locator_parts(clf.manifest)
    results: dict[int, list[float]] = {1: [], 3: []}
    argmax_results: dict[int, list[float]] = {1: [], 3: []}
    rejections: dict[int, list[float]] = {1: [], 3: []}
    galleries: dict[int, Gallery] = {}
    found: list[float] = []
    for d in range(count):
        faces = [render_face(f) for f in unseen_deck(rep.seed * 100 + d, kin).values()]
        shots, shot_idx = dataset.enrollment_set(faces, [3] * len(faces), rep.seed + 40 + d, locator, workers)
        views, idx = dataset.view_set(faces, [per_label] * len(faces), rep.seed + 60 + d, locator, workers, covers)
        truth = [VISION_LABELS[i] for i in idx]
        found.append(outline_found(views))
        for k in (1, 3):
            chosen = {lab: [shots[j] for j in np.flatnonzero(shot_idx == i)[:k]] for i, lab in enumerate(VISION_LABELS)}
            galleries[k] = gallery = enroll(clf, chosen).gallery
            cosines = clf.cosines(views, gallery, gallery.threshold)
            preds = decide(cosines, gallery.labels, gallery.threshold, clf.scale(gallery))
            results[k].append(accuracy([p.label for p in preds], truth))
            argmax_results[k].append(accuracy([gallery.labels[i] for i in cosines.argmax(axis=1)], truth))
            rejections[k].append(float(np.mean([p.label == UNKNOWN for p in clf.classify_views(strange, gallery)])))
        rep.say(f"{name} {d + 1}/{count}: 1-shot {results[1][-1]:.4f}, 3-shot {results[3][-1]:.4f}")
    for k in (1, 3):
        rep.figures[f"{key}_{k}shot_top1"] = float(np.mean(results[k]))
        rep.figures[f"{key}_{k}shot_top1_no_reject"] = float(np.mean(argmax_results[k]))
        rep.figures[f"{key}_{k}shot_unknown_rejection"] = float(np.mean(rejections[k]))
        rep.say(f"{name}s ({count} x {len(VISION_LABELS)} labels x {per_label} photos), {k}-shot: top-1 "
                f"{rep.figures[f'{key}_{k}shot_top1']:.4f} (argmax without unknown threshold "
                f"{rep.figures[f'{key}_{k}shot_top1_no_reject']:.4f}), unknown rejection "
                f"{rep.figures[f'{key}_{k}shot_unknown_rejection']:.4f}")
    rep.figures[f"{key}_images"] = count * len(VISION_LABELS) * per_label
    rep.figures[f"{key}_outline_found"] = float(np.mean(found))
    rep.say(f"{name}s: card outline found in {rep.figures[f'{key}_outline_found']:.4f} of the test photos")
    return views, galleries[1]


def heldout(clf: CardClassifier, rep: Report, families: list[str], decks: int, per_label: int,
            workers: int) -> None:
    """Held-out families (:mod:`models.heldout`), each enrolled and named deck by deck."""
    for family in families:
        result = measure.measure(clf, family, rep.seed, decks, per_label, workers=workers)
        for line in measure.lines(result):
            rep.say(line)
        rep.figures |= measure.figures(result)


def fresh_seed() -> int:
    """A seed drawn at random, above every seed training or development chose by hand."""
    return 10**6 + secrets.randbelow(2**31 - 10**6)


def timing(clf: CardClassifier, views: list[CardViews], gallery: Gallery | None,
           repeats: int = 3) -> tuple[float, float, float]:
    """Milliseconds per card, second looks included: batched (256 a call) and one card per call
    (the baseline); and the share of cards that got a second look."""
    clf.classify_views(views[:8], gallery)
    best_batched, best_single = float("inf"), float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        clf.classify_views(views, gallery)
        best_batched = min(best_batched, (time.perf_counter() - start) / len(views) * 1000)
        start = time.perf_counter()
        for card in views[:128]:
            clf.classify_views([card], gallery)
        best_single = min(best_single, (time.perf_counter() - start) / 128 * 1000)
    crops = [v.framings[0] for v in views if len(v.framings)]
    first = clf.against(*clf.infer(crops, deck=gallery is not None), gallery)
    return best_batched, best_single, float(unsure(first, clf.threshold(gallery)).mean())


def write_card(rep: Report, path: Path) -> None:
    """Insert the figures into the model card between its result markers."""
    text = path.read_text(encoding="utf-8")
    begin, end = "<!-- results:begin -->", "<!-- results:end -->"
    body = "\n".join(["```text", *rep.lines, "```", "", "Figures as JSON:", "", "```json",
                      json.dumps(rep.figures, indent=1), "```"])
    head, rest = text.split(begin)
    path.write_text(f"{head}{begin}\n{body}\n{end}{rest.split(end)[1]}", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=None, help="reproduce a run (default: a fresh seed)")
    parser.add_argument("--per-label", type=int, default=200, help="house photos per label")
    parser.add_argument("--decks", type=int, default=6, help="unseen-style decks")
    parser.add_argument("--deck-photos", type=int, default=60, help="test photos per label and deck")
    parser.add_argument("--kin-decks", type=int, default=3,
                        help="unseen-style kin decks (beans in a few colour groups, as on real decks)")
    parser.add_argument("--families", default=",".join(FAMILIES),
                        help=f"held-out families, comma-separated ('' for none; of {', '.join(FAMILIES)})")
    parser.add_argument("--heldout-decks", type=int, default=3, help="decks per held-out family")
    parser.add_argument("--heldout-photos", type=int, default=20, help="test photos per label and held-out deck")
    parser.add_argument("--heldout-only", action="store_true", help="only the held-out families")
    parser.add_argument("--learning", type=int, default=0, metavar="ROUNDS",
                        help="also learn each held-out deck in ROUNDS rounds of play after 1-shot enrollment")
    parser.add_argument("--misentered", type=float, default=0.0, metavar="SHARE",
                        help="with --learning, the share of fields played that the game has as another bean")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--card", action="store_true", help="write the figures into models/MODEL_CARD.md")
    args = parser.parse_args(argv)
    families = [f for f in args.families.split(",") if f]
    if unknown := set(families) - set(FAMILIES):
        parser.error(f"no held-out family {', '.join(sorted(unknown))}; there are {', '.join(FAMILIES)}")
    seed = fresh_seed() if args.seed is None else args.seed
    rep = Report(seed)
    clf = CardClassifier(threads=2)
    manifest = clf.manifest
    for model in (manifest.classifier, manifest.locator, manifest.refiner, manifest.detail_features,
                  manifest.detail_compare, manifest.deck):
        size_kib = (MODEL_DIR / model.file).stat().st_size / 1024
        rep.say(f"model {model.file}: sha256 {model.sha256[:12]}, {size_kib:.0f} KiB")
    rep.say(f"evaluation seed {seed}" + ("" if args.seed is not None else f" (fresh; --seed {seed} reproduces it)"))
    if not args.heldout_only:
        house = shipped(clf, rep, args.per_label, args.workers)
        deck, gallery = decks(clf, rep, args.decks, args.deck_photos, args.workers)
        if args.kin_decks:
            decks(clf, rep, args.kin_decks, args.deck_photos, args.workers, kin=True)
        for name, views, against in (("house", house[:1024], None), ("deck", deck, gallery)):
            batched, single, looked = timing(clf, views, against)
            rep.figures[f"ms_per_card_batched_{name}"], rep.figures[f"ms_per_card_single_{name}"] = batched, single
            rep.figures[f"second_look_share_{name}"] = looked
            rep.say(f"timing, 2 threads, {len(views)} {name} photos' framings ({looked:.1%} second looks): "
                    f"{batched:.3f} ms per card batched (256 a call), {single:.3f} ms one at a time (baseline)")
    heldout(clf, rep, families, args.heldout_decks, args.heldout_photos, args.workers)
    for family in families if args.learning else ():
        rounds = tuple(sorted({0, args.learning // 4, args.learning // 2, args.learning}))
        for line in learning.lines(learning.measure(clf, family, rep.seed, args.heldout_decks, args.heldout_photos,
                                                    per_bean=args.learning, checkpoints=rounds, workers=args.workers,
                                                    misentered=args.misentered)):
            rep.say(line)
    if args.card:
        write_card(rep, MODEL_DIR / "MODEL_CARD.md")
        rep.say(f"wrote {MODEL_DIR / 'MODEL_CARD.md'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
