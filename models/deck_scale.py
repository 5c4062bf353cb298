"""The softmax temperature for naming an enrolled deck, fitted on the calibration seed's decks.

    .venv/bin/python -m models.deck_scale

A card's confidence is the softmax of its cosines times a temperature. The training scale fits the shipped
labels, whose class vectors the card network learnt; against a deck enrolled from one photo per bean the cosines
lie closer together, so at that scale a card named right is named unsurely: on development photos of a held-out
family, a fifth of a woodcut deck's cards reached 0.9, yet every card named at 0.5 or more was right. The tracker
takes a column's bean where its name holds 0.9, so the temperature should say how often a name is right.

It is fitted as temperature scaling does (the least negative log-likelihood of the true labels) on the calibration
seed's unseen-style decks (those the deck threshold is calibrated on) and as many kin decks
(:func:`models.render.kin_deck`: beans in a few colour groups, as on real decks), each enrolled from one photo per
bean, their photos named as the runtime names them (second looks included), cards named below the deck's
threshold left out. The held-out families (:mod:`models.heldout`) are read by no step of it.
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from companion.vision.classifier import CardClassifier
from companion.vision.manifest import MANIFEST
from models.train import MODEL_DIR, calibration_decks

SCALES = np.arange(4.0, 128.0, 0.5)
"""Temperatures tried."""


def fitted_scale(cosines: np.ndarray, truth: np.ndarray, scales: np.ndarray = SCALES) -> float:
    """Of ``scales``, the temperature whose softmax of the (N, K) ``cosines`` gives the true labels (N,) the least
    mean negative log-likelihood."""
    logits = scales[:, None, None] * cosines[None]
    top = logits.max(axis=2, keepdims=True)
    log_norm = top[..., 0] + np.log(np.exp(logits - top).sum(axis=2))
    own = np.take_along_axis(logits, truth[None, :, None].repeat(len(scales), axis=0), axis=2)[..., 0]
    return float(scales[int(np.argmin((log_norm - own).mean(axis=1)))])


def calibration_cosines(classifier: CardClassifier, seed: int, workers: int) -> tuple[np.ndarray, np.ndarray]:
    """Cosines (N, labels) and true labels of the calibration seed's deck photos named above their deck's
    threshold: its unseen-style decks and as many kin decks, each enrolled from one photo per bean."""
    rows, truth = [], []
    for kin in (False, True):
        for gallery, photos, labels in calibration_decks(classifier, seed, workers, kin):
            cosines = classifier.cosines(photos, gallery, gallery.threshold)
            named = cosines.max(axis=1) >= gallery.threshold
            rows.append(cosines[named])
            truth.append(labels[named])
    return np.concatenate(rows), np.concatenate(truth)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calib-seed", type=int, default=2, help="the calibration seed (as models.train's)")
    parser.add_argument("--workers", type=int, default=2, help="rendering processes")
    args = parser.parse_args(argv)
    cosines, truth = calibration_cosines(CardClassifier(), args.calib_seed, args.workers)
    scale = fitted_scale(cosines, truth)
    path = MODEL_DIR / MANIFEST
    data = json.loads(path.read_text(encoding="utf-8"))
    data["deck_scale"] = scale
    data.setdefault("training", {})["deck_scale"] = {"seed": args.calib_seed, "named": len(truth)}
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    print(f"deck scale {scale} (training scale {data['classifier']['scale']}), fitted on {len(truth)} cards")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
