"""Measuring the shipped models on held-out families: enroll a deck, name fresh photos of it.

For each deck of a family: 3 uncovered photos per label are enrolled (the first alone for
1-shot, all three for 3-shot) as ``companion vision enroll`` does; ``per_label`` other
photos per label (a quarter of them under a deck-mate, as in a field's column) are named
against the profile, second looks included; bare tables photographed the same way must
come out ``unknown``. Nothing here feeds back into training or thresholds.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from companion.cards import VISION_LABELS
from companion.tracker.view import SURE
from companion.vision.classifier import UNKNOWN, CardClassifier, decide
from companion.vision.profile import enroll
from models.heldout.families import FAMILIES
from models.heldout.photos import Shot, shoot

SHOTS = (1, 3)
"""Enrollment photos per label the figures are given for (unless :func:`measure` is told others)."""
COVERED = 0.25
"""Share of test photos with a deck-mate lying over one end."""


@dataclass(frozen=True)
class FamilyResult:
    """One family's figures: per number of enrollment photos per label (the keys), the share named right (``unknown``
    counts as wrong), the share whose best label is right (no threshold), the share of bare
    tables rejected, and each (truth, predicted) count of the wrong answers."""

    family: str
    seed: int
    decks: int
    photos: int
    tables: int
    right: dict[int, float]
    best_label: dict[int, float]
    rejected: dict[int, float]
    confusions: dict[int, Counter[tuple[str, str]]]
    worst_deck: dict[int, float]
    outline_found: float
    sure: dict[int, tuple[int, int]]
    """Of the photos, how many were named with the tracker's sure confidence (:data:`~companion.tracker.view.SURE`),
    and how many of those right: what a column's bean taken without the rules would cost."""


def family_tag(family: str) -> int:
    """The family's number, mixed into every photo's seed so that two families never share one."""
    return list(FAMILIES).index(family)


def deck_seed(seed: int, deck: int) -> int:
    """The seed of deck ``deck`` of an evaluation run on ``seed``."""
    return seed * 100 + deck


def test_shots(family: str, seed: int, deck: int, per_label: int) -> list[Shot]:
    """``per_label`` photos of every card of one deck, a :data:`COVERED` share under a deck-mate."""
    f = family_tag(family)
    shots = []
    for c in range(len(VISION_LABELS)):
        for i in range(per_label):
            rng = np.random.default_rng([seed, f, 3, deck, c, i])
            cover = int(rng.integers(len(VISION_LABELS))) if rng.random() < COVERED else -1
            shots.append(Shot(family, deck_seed(seed, deck), c, cover, (seed, f, 2, deck, c, i)))
    return shots


def enrollment_shots(family: str, seed: int, deck: int, count: int) -> list[Shot]:
    """``count`` uncovered enrollment photos of every card of one deck, card after card."""
    f = family_tag(family)
    return [Shot(family, deck_seed(seed, deck), c, -1, (seed, f, 1, deck, c, i), enrolling=True)
            for c in range(len(VISION_LABELS)) for i in range(count)]


def table_shots(family: str, seed: int, count: int) -> list[Shot]:
    """``count`` photos of the table with no card, taken as the family's cards are."""
    f = family_tag(family)
    return [Shot(family, 0, -1, -1, (seed, f, 4, i)) for i in range(count)]


def measure(clf: CardClassifier, family: str, seed: int, decks: int = 3, per_label: int = 20,
            tables: int = 100, workers: int = 2, counts: tuple[int, ...] = SHOTS) -> FamilyResult:
    """Enroll ``decks`` decks of ``family`` from each of ``counts`` photos per label (the first ones
    of the same photos) and name ``per_label`` fresh photos per label of each; reject ``tables``
    bare tables against each profile."""
    most = max(counts)
    n_enroll, n_test = len(VISION_LABELS) * most, len(VISION_LABELS) * per_label
    shots = [s for d in range(decks)
             for s in enrollment_shots(family, seed, d, most) + test_shots(family, seed, d, per_label)]
    views = shoot(shots + table_shots(family, seed, tables), clf.manifest, workers)
    bare = views[len(shots):]
    truth = [VISION_LABELS[s.card] for s in shots if not s.enrolling]
    preds: dict[int, list[str]] = {k: [] for k in counts}
    best: dict[int, list[str]] = {k: [] for k in counts}
    rejected: dict[int, list[float]] = {k: [] for k in counts}
    per_deck: dict[int, list[float]] = {k: [] for k in counts}
    sure: dict[int, list[bool]] = {k: [] for k in counts}
    for d in range(decks):
        start = d * (n_enroll + n_test)
        enrolled, tests = views[start:start + n_enroll], views[start + n_enroll:start + n_enroll + n_test]
        deck_truth = truth[d * n_test:(d + 1) * n_test]
        for k in counts:
            photos = {label: [enrolled[c * most + i].framings for i in range(k)]
                      for c, label in enumerate(VISION_LABELS)}
            gallery = enroll(clf, photos).gallery
            cosines = clf.cosines(tests, gallery, gallery.threshold)
            predictions = decide(cosines, gallery.labels, gallery.threshold, clf.scale(gallery))
            named = [p.label for p in predictions]
            sure[k] += [p.label == t for p, t in zip(predictions, deck_truth)
                        if p.label != UNKNOWN and p.confidence >= SURE]
            preds[k] += named
            best[k] += [gallery.labels[i] if len(v.framings) else UNKNOWN
                        for i, v in zip(cosines.argmax(axis=1), tests)]
            per_deck[k].append(float(np.mean([p == t for p, t in zip(named, deck_truth)])))
            rejected[k].append(float(np.mean([p.label == UNKNOWN for p in clf.classify_views(bare, gallery)])))
    tested = [v for s, v in zip(shots, views) if not s.enrolling]
    return FamilyResult(
        family, seed, decks, len(truth), tables,
        {k: float(np.mean([p == t for p, t in zip(preds[k], truth)])) for k in counts},
        {k: float(np.mean([p == t for p, t in zip(best[k], truth)])) for k in counts},
        {k: float(np.mean(rejected[k])) for k in counts},
        {k: Counter((t, p) for p, t in zip(preds[k], truth) if p != t) for k in counts},
        {k: min(per_deck[k]) for k in counts},
        float(np.mean([len(v.framings) > 0 for v in tested])),
        {k: (len(sure[k]), sum(sure[k])) for k in counts})


def lines(result: FamilyResult, top: int = 12) -> list[str]:
    """The result as report lines: figures per number of enrollment photos, then the wrong answers,
    most frequent first, as "truth -> predicted: count"."""
    r = result
    out = [f"held-out family {r.family}, seed {r.seed}: {r.decks} decks x {len(VISION_LABELS)} labels x "
           f"{r.photos // (r.decks * len(VISION_LABELS))} photos ({r.photos} named, {COVERED:.0%} under a deck-mate), "
           f"{r.tables} bare tables; card outline found in {r.outline_found:.4f} of the photos"]
    for k in r.right:
        wrong = sum(r.confusions[k].values())
        out.append(f"  {k}-shot: top-1 {r.right[k]:.4f} ({wrong} wrong of {r.photos}; "
                   f"worst deck {r.worst_deck[k]:.4f}), best label without threshold {r.best_label[k]:.4f}, "
                   f"bare tables rejected {r.rejected[k]:.4f}")
        out.append(f"  {k}-shot: named at {SURE} or more: {r.sure[k][0]} of {r.photos}, {r.sure[k][1]} of them right")
        listed = ", ".join(f"{t} -> {p}: {n}" for (t, p), n in r.confusions[k].most_common(top))
        out.append(f"  {k}-shot confusions: {listed or 'none'}"
                   + (f" (and {len(r.confusions[k]) - top} more pairs)" if len(r.confusions[k]) > top else ""))
    return out


def figures(result: FamilyResult) -> dict[str, float]:
    """The result's figures for the report's JSON."""
    r, name = result, f"heldout_{result.family}"
    out = {f"{name}_images": float(r.photos), f"{name}_outline_found": r.outline_found}
    for k in r.right:
        out |= {f"{name}_{k}shot_top1": r.right[k], f"{name}_{k}shot_top1_no_reject": r.best_label[k],
                f"{name}_{k}shot_unknown_rejection": r.rejected[k], f"{name}_{k}shot_sure": float(r.sure[k][0]),
                f"{name}_{k}shot_sure_right": float(r.sure[k][1])}
    return out
