"""Learning in play, measured on held-out families: a deck enrolled from few photos, then cards the game names.

For each deck: the deck is enrolled from ``shots`` uncovered photos per bean, as
:mod:`models.heldout.measure` does. Then play: ``per_bean`` further uncovered photos of every card, in a random
order, stand for the top cards of fields whose bean the game knows. They come in rounds of one per bean on average;
each is named against the profile of the moment, and becomes a lesson as on the table
(:mod:`companion.tracker.lessons`) when the camera named it the game's bean or was unsure of it (confidence under
:data:`~companion.tracker.view.SURE`). After each round the deck is enrolled again with its lessons, as the tablet
does. The test photos of :func:`models.heldout.measure.test_shots` are named after the rounds in ``checkpoints``.
With ``misentered``, some fields are entered wrong: the game has another bean for the card, and the lesson is wrong;
a lesson the camera took for another bean is flagged as the tablet flags it
(:func:`~companion.tracker.lessons.taken_for`). Nothing here feeds back into training or thresholds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from companion.cards import VISION_LABELS
from companion.tracker.lessons import taken_for
from companion.tracker.view import SURE
from companion.vision.classifier import UNKNOWN, CardClassifier, Gallery
from companion.vision.profile import enroll
from companion.vision.views import CardViews
from models.heldout.measure import deck_seed, enrollment_shots, family_tag, table_shots, test_shots
from models.heldout.photos import Shot, shoot

PLAY = 11
"""Mixed into a play photo's seed: no enrollment or test photo shares one."""


@dataclass(frozen=True)
class Learning:
    """One family's figures: wrong answers of ``photos`` test photos after each checkpoint (rounds of play), the
    lessons taken of those offered, and the share of bare tables rejected before play and after the last round."""

    family: str
    seed: int
    shots: int
    photos: int
    wrong: dict[int, int]
    taken: int
    offered: int
    rejected: tuple[float, float]
    misentered_share: float = 0.0
    """The share of fields played that the game had as another bean."""
    misentered: tuple[int, int] = (0, 0)
    """Lessons whose field the game had wrong: taken, and of those flagged as taken for another bean."""
    flagged: int = 0
    """Lessons whose field the game had right that were flagged all the same."""
    forgotten: tuple[int, int] = (0, 0)
    """Wrong answers of the test photos after the last round with every flagged lesson forgotten, and with every
    lesson the game had wrong forgotten (what a perfect flag would give)."""


class Taken(NamedTuple):
    """A lesson taken in play: the game's bean for the card, its crop, whether it was flagged as taken for another
    bean, and whether the game was right."""

    bean: str
    crop: np.ndarray
    flagged: bool
    right: bool


def play_shots(family: str, seed: int, deck: int, per_bean: int) -> list[tuple[Shot, Shot]]:
    """``per_bean`` photos of every card of one deck in a random order, each as a lesson's crop and as the camera
    names it (the same photo cropped for enrollment and for naming)."""
    f = family_tag(family)
    keys = [(c, (seed, f, PLAY, deck, c, i)) for c in range(len(VISION_LABELS)) for i in range(per_bean)]
    order = np.random.default_rng([seed, f, PLAY, deck]).permutation(len(keys))
    return [(Shot(family, deck_seed(seed, deck), keys[j][0], -1, keys[j][1], enrolling=True),
             Shot(family, deck_seed(seed, deck), keys[j][0], -1, keys[j][1])) for j in order]


def measure(clf: CardClassifier, family: str, seed: int, decks: int = 3, per_label: int = 20, shots: int = 1,
            per_bean: int = 8, checkpoints: tuple[int, ...] = (0, 2, 4, 8), tables: int = 100,
            workers: int = 2, misentered: float = 0.0) -> Learning:
    """Enroll ``decks`` decks of ``family`` from ``shots`` photos per bean, play ``per_bean`` rounds, and name
    ``per_label`` test photos per bean after each round of ``checkpoints``; ``tables`` bare tables are named against
    each deck before play and after it. A ``misentered`` share of the fields played the game has as another bean
    (a plant entered wrong), drawn at random."""
    beans = len(VISION_LABELS)
    wrong = dict.fromkeys(checkpoints, 0)
    taken = offered = photos = flagged = 0
    bad = [0, 0]
    forgotten = [0, 0]
    bare = shoot(table_shots(family, seed, tables), clf.manifest, workers)
    rejected: list[tuple[float, float]] = []
    for d in range(decks):
        play = play_shots(family, seed, d, per_bean)
        games = _games(play, family, seed, d, misentered)
        tests = test_shots(family, seed, d, per_label)
        enrolled = enrollment_shots(family, seed, d, shots)
        views = shoot(enrolled + [s for pair in play for s in pair] + tests, clf.manifest, workers)
        crops, named_views = views[len(enrolled):len(enrolled) + 2 * len(play):2], \
            views[len(enrolled) + 1:len(enrolled) + 2 * len(play):2]
        tested, truth = views[-len(tests):], [VISION_LABELS[s.card] for s in tests]
        photos_of = {label: [views[c * shots + i].framings for i in range(shots)]
                     for c, label in enumerate(VISION_LABELS)}
        lessons: list[Taken] = []
        gallery = enroll(clf, photos_of).gallery
        before = _rejected(clf, bare, gallery)
        for done in range(per_bean + 1):
            if done in wrong:
                wrong[done] += _wrong(clf, tested, truth, gallery)
            if done == per_bean:
                break
            round_ = range(done * beans, (done + 1) * beans)
            for j, named in zip(round_, clf.classify_views([named_views[j] for j in round_], gallery)):
                offered += 1
                label, right = games[j], games[j] == VISION_LABELS[play[j][0].card]
                if (named.label == label or named.confidence < SURE) and len(crops[j].framings):
                    taken += 1
                    lesson = Taken(label, crops[j].framings[0], taken_for(named.label, label) is not None, right)
                    flagged += lesson.right and lesson.flagged
                    bad[0] += not lesson.right
                    bad[1] += not lesson.right and lesson.flagged
                    lessons.append(lesson)
            gallery = enroll(clf, photos_of, learnt=_learnt(lessons)).gallery
        rejected.append((before, _rejected(clf, bare, gallery)))
        if misentered:
            for k, kept in enumerate(([t for t in lessons if not t.flagged], [t for t in lessons if t.right])):
                forgotten[k] += _wrong(clf, tested, truth, enroll(clf, photos_of, learnt=_learnt(kept)).gallery)
        photos += len(tests)
    return Learning(family, seed, shots, photos, wrong, taken, offered,
                    (float(np.mean([r[0] for r in rejected])), float(np.mean([r[1] for r in rejected]))),
                    misentered, (bad[0], bad[1]), flagged, (forgotten[0], forgotten[1]))


def _games(play: list[tuple[Shot, Shot]], family: str, seed: int, deck: int, misentered: float) -> list[str]:
    """The bean the game has for each field played: the card's own, or a ``misentered`` share another at random."""
    rng = np.random.default_rng([seed, family_tag(family), PLAY, deck, 1])
    out = []
    for shot, _ in play:
        truth = shot.card
        if rng.random() < misentered:
            truth = (truth + int(rng.integers(1, len(VISION_LABELS)))) % len(VISION_LABELS)
        out.append(VISION_LABELS[truth])
    return out


def _learnt(lessons: list[Taken]) -> dict[str, list[np.ndarray]]:
    """The lessons' crops per bean, oldest first."""
    out: dict[str, list[np.ndarray]] = {}
    for lesson in lessons:
        out.setdefault(lesson.bean, []).append(lesson.crop)
    return out


def _wrong(clf: CardClassifier, tested: list[CardViews], truth: list[str], gallery: Gallery) -> int:
    """How many of the test photos ``gallery`` names wrong."""
    return sum(p.label != t for p, t in zip(clf.classify_views(tested, gallery), truth))


def _rejected(clf: CardClassifier, bare: list[CardViews], gallery: Gallery) -> float:
    """The share of bare tables named ``unknown`` against ``gallery``."""
    return float(np.mean([p.label == UNKNOWN for p in clf.classify_views(bare, gallery)])) if bare else 1.0


def lines(result: Learning) -> list[str]:
    """The result as report lines."""
    r = result
    after = ", ".join(f"{k} rounds {1 - n / r.photos:.4f} ({n} wrong)" for k, n in r.wrong.items())
    return [f"held-out family {r.family}, seed {r.seed}, learning in play from {r.shots}-shot: {after} of "
            f"{r.photos} test photos; lessons taken {r.taken} of {r.offered} cards played; bare tables rejected "
            f"{r.rejected[0]:.4f} before play, {r.rejected[1]:.4f} after"] + ([
        f"  {r.misentered_share:.0%} of fields entered wrong: {r.misentered[0]} lessons taken, {r.misentered[1]} of "
        f"them flagged; {r.flagged} of {r.taken - r.misentered[0]} right lessons flagged; after {max(r.wrong)} rounds "
        f"{r.wrong[max(r.wrong)]} wrong with every lesson, {r.forgotten[0]} with the flagged ones forgotten, "
        f"{r.forgotten[1]} with the wrong ones forgotten"] if r.misentered_share else [])
