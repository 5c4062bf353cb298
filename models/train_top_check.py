"""Train the top checker on the band network's likely card tops, export ONNX, record it in the manifest.

The one re-run command (CPU, about 7 minutes on 2 cores: 4 to 5 to render, 2 to train)::

    .venv/bin/python -m models.train_top_check

Its patches come from the shipped band network's peaks (:mod:`models.top_check_data`), so it is trained again
whenever the band network is. Columns of the ``train`` family only; the unseen art styles are kept for
:mod:`models.evaluate_columns`, which no training decision reads.
"""

from __future__ import annotations

import time

import numpy as np

from companion.vision.manifest import MANIFEST
from companion.vision.top_check import PATCH_H, PATCH_W
from models.top_check_data import dataset
from models.top_check_net import OUTPUT, TopCheckNet
from models.train import export, log, record_apart
from models.train_bands import column_options, fit_logits, rendered

TOP_CHECK_FILE = "top_check.onnx"


def render(seed: int, size: int, workers: int) -> tuple[np.ndarray, np.ndarray]:
    """Patches and labels of ``size`` training columns, rendered in chunks by ``workers`` processes."""
    return rendered(dataset, seed, size, workers)


def fit(patches: np.ndarray, labels: np.ndarray, epochs: int, seed: int, batch: int = 128,
        lr: float = 2e-3) -> TopCheckNet:
    """The top checker trained on uint8 patches and their labels; logs each epoch's loss."""
    return fit_logits(TopCheckNet, patches, labels, epochs, seed, batch, lr)


def main(argv: list[str] | None = None) -> int:
    begun = time.time()
    args = column_options(__doc__, 2, 24000, 6, argv)
    patches, labels = render(args.seed, args.columns, args.workers)
    log(f"{len(patches)} likely tops, {labels.mean():.1%} of them true")
    net = fit(patches, labels, args.epochs, args.seed)
    model = export(net, (PATCH_W, PATCH_H), ["logit"], args.out / TOP_CHECK_FILE)
    training = {"seed": args.seed, "columns": args.columns, "epochs": args.epochs, "patches": int(len(patches)),
                "minutes": round((time.time() - begun) / 60, 1)}
    record_apart("top_check", model, [OUTPUT], training, args.out / MANIFEST)
    log(f"manifest updated: {args.out / MANIFEST}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
