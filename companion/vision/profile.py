"""Deck profiles: a group's own cards, enrolled from a few photos per bean.

A profile holds one prototype per label: the mean embedding (the card and deck networks' side by
side, :meth:`~companion.vision.classifier.CardClassifier.deck_embed`) of the enrolled photos
(each cropped at several stages' corners) and of augmented copies of them (light,
blur, small shifts, upside down); and each photo's best framing at the detail size, whose
keypoints and detail-matcher features give a close call a second opinion
(:mod:`companion.vision.keypoints`, :mod:`companion.vision.matcher`).
"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.vision.classifier import CardClassifier, Gallery
from companion.vision.errors import VisionError
from companion.vision.keypoints import DETAIL_SIZE, detail, keypoints

FORMAT = 4
"""Format 4 embeds with the deck network beside the card network, weighted as
:data:`~companion.vision.classifier.CARD_SHARE` says (format 3 weighed them alike), and keeps the detail crops of
format 2; a profile of an earlier format must be enrolled again."""
AUGMENTS = 32
"""Augmented copies embedded per enrolled photo (besides the photo and its 180° turn)."""
TURN, ZOOM, SHIFT = 10.0, (0.82, 1.12), 0.1
"""Framing of the copies: up to 10° turned, 82-112 % zoom, up to 10 % shifted, as a
locator's miss would frame the card."""


@dataclass(frozen=True)
class DeckProfile:
    """Per-label prototypes of one deck, tied to the models that embedded them."""

    model_sha256: str
    """The card network's checksum, and the deck network's after a '+'."""
    gallery: Gallery
    photos: dict[str, int]
    details: dict[str, list[np.ndarray]]
    """Per label, its photos' best framings at the detail size (PNG in the file)."""
    learnt: dict[str, int] = field(default_factory=dict)
    """Per label, the cards learnt in play (:mod:`companion.tracker.lessons`) enrolled beside its photos."""

    def save(self, path: str | Path) -> None:
        """Write the profile as JSON, whole or not at all (a crash while writing leaves the file that was)."""
        data = {"format": FORMAT, "model_sha256": self.model_sha256, "threshold": self.gallery.threshold,
                "photos": self.photos, "learnt": self.learnt,
                "prototypes": {label: [round(float(v), 6) for v in vec]
                               for label, vec in zip(self.gallery.labels, self.gallery.vectors)},
                "details": {label: [_png(crop) for crop in crops] for label, crops in self.details.items()}}
        written = Path(f"{path}.new")
        written.write_text(json.dumps(data, indent=1), encoding="utf-8")
        os.replace(written, path)

    @classmethod
    def load(cls, path: str | Path, classifier: CardClassifier) -> DeckProfile:
        """Read a profile written by :meth:`save` for ``classifier``'s model.

        The file records the deck threshold in force when it was made; the gallery takes the
        model's present one, which a later calibration of the same network may have moved.
        """
        path = Path(path)
        hint = "enroll the deck again with `companion vision enroll --out PROFILE DIR`"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            labels = tuple(data["prototypes"])
            vectors = np.array([data["prototypes"][k] for k in labels], np.float32)
            if isinstance(data.get("format"), int) and data["format"] < FORMAT:
                raise VisionError(f"{path}: deck profile was made by an earlier version, which embedded cards "
                                  f"otherwise; {hint}")
            if data.get("format") != FORMAT or vectors.ndim != 2 or vectors.shape[1] != classifier.deck_dim:
                raise VisionError(f"{path}: deck profile has an unexpected format; {hint}")
            if data["model_sha256"] != models_of(classifier):
                raise VisionError(f"{path}: deck profile was made with another model; {hint}")
            details = {str(k): [_unpng(text) for text in v] for k, v in data.get("details", {}).items()}
            return cls(str(data["model_sha256"]), gallery(labels, vectors, classifier, details),
                       {str(k): int(v) for k, v in data["photos"].items()}, details,
                       {str(k): int(v) for k, v in data.get("learnt", {}).items()})
        except FileNotFoundError:
            raise VisionError(f"{path}: no such deck profile; {hint}") from None
        except (ValueError, KeyError, TypeError, AttributeError, cv2.error) as exc:
            raise VisionError(f"{path}: not a deck profile ({exc}); {hint}") from None


def models_of(classifier: CardClassifier) -> str:
    """What a profile records of the networks that embed it: both checksums."""
    return f"{classifier.manifest.classifier.sha256}+{classifier.manifest.deck.sha256}"


def _png(crop: np.ndarray) -> str:
    """A crop as base64 PNG text."""
    ok, data = cv2.imencode(".png", crop)
    if not ok:
        raise VisionError("a detail crop could not be encoded as PNG")
    return base64.b64encode(data.tobytes()).decode("ascii")


def _unpng(text: str) -> np.ndarray:
    """A crop from base64 PNG text; ValueError if it is none."""
    crop = cv2.imdecode(np.frombuffer(base64.b64decode(text, validate=True), np.uint8), cv2.IMREAD_COLOR)
    if crop is None:
        raise ValueError("a detail crop is not a PNG image")
    return crop


def gallery(labels: tuple[str, ...], vectors: np.ndarray, classifier: CardClassifier,
            details: Mapping[str, Sequence[np.ndarray]]) -> Gallery:
    """The gallery of prototypes ``vectors`` at ``classifier``'s deck threshold, with the keypoints and the
    detail matcher's features of each label's detail crops where every label has some (else no second opinion)."""
    if not all(details.get(label) for label in labels):
        return Gallery(labels, vectors, classifier.manifest.deck_threshold)
    found = tuple(tuple(keypoints(crop) for crop in details[label]) for label in labels)
    matches = tuple(classifier.matcher.features(details[label]) for label in labels)
    return Gallery(labels, vectors, classifier.manifest.deck_threshold, found, matches)


def details_of(framings: Sequence[np.ndarray]) -> list[np.ndarray]:
    """A photo's detail crop (its best framing at the detail size), none when the framing is smaller:
    keypoints of an enlarged crop match nothing well."""
    w, h = DETAIL_SIZE
    return [detail(framings[0])] if len(framings) and framings[0].shape[0] >= h and framings[0].shape[1] >= w else []


def augment(crop: np.ndarray, rng: np.random.Generator, count: int = AUGMENTS) -> list[np.ndarray]:
    """The crop, its 180° turn and ``count`` copies with other light, blur and framing."""
    h, w = crop.shape[:2]
    out = [crop, cv2.rotate(crop, cv2.ROTATE_180)]
    for _ in range(count):
        turn = cv2.getRotationMatrix2D((w / 2, h / 2), rng.uniform(-TURN, TURN), rng.uniform(*ZOOM))
        m = np.asarray(turn, np.float64)
        m[:, 2] += rng.uniform(-SHIFT, SHIFT, 2) * (w, h)
        img: np.ndarray = cv2.warpAffine(crop, m, (w, h), borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
        img = img * rng.uniform(0.7, 1.2, 3) + rng.uniform(-20, 20)
        if rng.random() < 0.5:
            img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.0))
        img = np.clip(img, 0, 255).astype(np.uint8)
        out.append(cv2.rotate(img, cv2.ROTATE_180) if rng.random() < 0.5 else img)
    return out


def enroll(classifier: CardClassifier, photos: Mapping[str, Sequence[Sequence[np.ndarray]]],
           seed: int = 0, learnt: Mapping[str, Sequence[np.ndarray]] | None = None) -> DeckProfile:
    """A profile from upright card crops per label: at least one photo each, every photo as one
    or more framings (:meth:`~companion.vision.locate.CardLocator.framings`). Framings at least
    the detail size also give the second opinion's keypoints. ``learnt`` adds, per label, cards learnt
    in play (one crop each), enrolled as its photos are."""
    learnt = learnt or {}
    labels = tuple(photos)
    framed = {label: _framed(photos[label], learnt.get(label, ())) for label in labels}
    vectors = np.array([prototype(classifier, label, framed[label], seed) for label in labels], np.float32)
    details = {label: _details(framed[label]) for label in labels}
    return DeckProfile(models_of(classifier), gallery(labels, vectors, classifier, details),
                       {k: len(v) for k, v in photos.items()}, details,
                       {k: len(learnt[k]) for k in labels if learnt.get(k)})


def relearnt(profile: DeckProfile, classifier: CardClassifier, label: str, photos: Sequence[Sequence[np.ndarray]],
             learnt: Sequence[np.ndarray], seed: int = 0) -> DeckProfile:
    """``profile`` with one enrolled ``label`` enrolled again from its ``photos`` and cards ``learnt`` in play, the
    other labels as they were: the profile :func:`enroll` would make from them all, at a label's cost."""
    labels = profile.gallery.labels
    framed = _framed(photos, learnt)
    vectors = profile.gallery.vectors.copy()
    vectors[labels.index(label)] = prototype(classifier, label, framed, seed)
    details = {**profile.details, label: _details(framed)}
    counts = {**profile.learnt, label: len(learnt)}
    return DeckProfile(profile.model_sha256, gallery(labels, vectors, classifier, details),
                       {**profile.photos, label: len(photos)}, details,
                       {k: counts[k] for k in labels if counts.get(k)})  # in the labels' order, as enroll gives


def _framed(photos: Sequence[Sequence[np.ndarray]], learnt: Sequence[np.ndarray]) -> list[Sequence[np.ndarray]]:
    """A label's photos as their framings, then its learnt cards, each one framing."""
    return [*photos, *([crop] for crop in learnt)]


def _details(framed: Sequence[Sequence[np.ndarray]]) -> list[np.ndarray]:
    """A label's detail crops: one per photo or learnt card at least the detail size (:func:`details_of`)."""
    return [crop for framings in framed for crop in details_of(framings)]


def prototype(classifier: CardClassifier, label: str, framed: Sequence[Sequence[np.ndarray]],
              seed: int = 0) -> np.ndarray:
    """A label's prototype: the mean embedding of its photos' framings and their augmented copies, drawn from the
    label's own seed (so that no label's photos move another's prototype), of length 1."""
    rng = np.random.default_rng([seed, *label.encode()])
    variants = [v for framings in framed for crop in framings for v in augment(crop, rng)]
    if not variants:
        raise VisionError(f"{label}: no card crop to enroll; give each photo at least one crop "
                          "(CardLocator.enrollment_framings)")
    mean = classifier.deck_embed(variants).mean(axis=0)
    return mean / np.linalg.norm(mean)
