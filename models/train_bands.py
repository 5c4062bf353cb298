"""Train the band network on rendered field columns, export ONNX, record it in the manifest.

The one re-run command (CPU, about 20 minutes on 2 quiet cores; the shipped model took 34 on shared ones)::

    .venv/bin/python -m models.train_bands

Columns of the ``train`` family only (:mod:`models.band_data`): the shipped deck and the
training renderer's random designs. The unseen art styles are kept for
:mod:`models.evaluate_columns`, which no training decision reads.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TypeVar

import numpy as np
import torch
from torch.nn import functional as F

from companion.vision.manifest import MANIFEST
from companion.vision.strips import STRIP_L, STRIP_W
from models.band_data import dataset
from models.band_net import BandNet
from models.train import MODEL_DIR, export, log, record_apart

BANDS_FILE = "band_net.onnx"
CHUNK = 500
"""Columns rendered per worker task."""
POSITIVE_WEIGHT = 4.0
"""Weight of a card-top row against the many rows without one."""


def render(seed: int, size: int, workers: int) -> tuple[np.ndarray, np.ndarray]:
    """``size`` training columns rendered in chunks by ``workers`` processes: strips and targets."""
    return rendered(_chunk, seed, size, workers)


def _chunk(seed: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    strips, targets, _ = dataset(seed, size, "train")
    return strips, targets


def rendered(make: Callable[[int, int], tuple[np.ndarray, np.ndarray]], seed: int, size: int,
             workers: int) -> tuple[np.ndarray, np.ndarray]:
    """The images and targets of ``size`` training columns, made by ``make(seed, columns)`` in chunks of
    :data:`CHUNK` by ``workers`` processes (spawned: forking after onnxruntime or OpenCV started threads can
    deadlock)."""
    chunks = [(seed * 1000 + k, min(CHUNK, size - k * CHUNK)) for k in range((size + CHUNK - 1) // CHUNK)]
    with ProcessPoolExecutor(workers, multiprocessing.get_context("spawn")) as pool:
        parts = list(pool.map(make, *zip(*chunks)))
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def jittered(images: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """uint8 (N, H, W, 3) strips or patches to float (N, 3, H, W) with light jitter, a random half mirrored across
    the column."""
    x = images.permute(0, 3, 1, 2).float() / 255.0
    n = x.shape[0]
    x = (x * (0.75 + 0.5 * torch.rand(n, 3, 1, 1, generator=gen))
         + 0.16 * torch.rand(n, 1, 1, 1, generator=gen) - 0.08).clamp(0, 1)
    mirror = torch.rand(n, generator=gen) < 0.5
    x[mirror] = torch.flip(x[mirror], dims=(3,))
    return x


def fit(strips: np.ndarray, targets: np.ndarray, epochs: int, seed: int, batch: int = 64,
        lr: float = 3e-3) -> BandNet:
    """The band network trained on uint8 strips and their per-row targets; logs each epoch's loss."""
    return fit_logits(BandNet, strips, targets, epochs, seed, batch, lr, pct_start=0.2,
                      pos_weight=torch.tensor(POSITIVE_WEIGHT))


Net = TypeVar("Net", bound=torch.nn.Module)


def fit_logits(make: Callable[[], Net], images: np.ndarray, targets: np.ndarray, epochs: int, seed: int, batch: int,
               lr: float, pct_start: float = 0.3, pos_weight: torch.Tensor | None = None) -> Net:
    """A network made by ``make`` (after seeding) trained on uint8 images (:func:`jittered`) to give their targets'
    logits, by binary cross-entropy (a true target weighed ``pos_weight``), AdamW and one cycle of learning rate;
    logs each epoch's loss."""
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    batch = min(batch, len(images))
    net = make()
    x_all, y_all = torch.from_numpy(images), torch.from_numpy(targets).float()
    steps = epochs * (len(images) // batch)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=pct_start)
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(len(images), generator=gen)
        total, start = 0.0, time.time()
        for k in range(0, len(images) - batch + 1, batch):
            idx = order[k:k + batch]
            loss = F.binary_cross_entropy_with_logits(net(jittered(x_all[idx], gen)), y_all[idx],
                                                      pos_weight=pos_weight)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        log(f"epoch {epoch + 1}/{epochs}: loss {total / len(images):.4f}, {time.time() - start:.0f} s")
    return net.eval()


def column_options(description: str, seed: int, columns: int, epochs: int,
                   argv: list[str] | None) -> argparse.Namespace:
    """The command line of a network trained on rendered columns, with these defaults; logs what it renders and
    sets torch's threads."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=seed, help="training seed (columns, weights)")
    parser.add_argument("--columns", type=int, default=columns, help="rendered training columns (each read both ways)")
    parser.add_argument("--epochs", type=int, default=epochs)
    parser.add_argument("--workers", type=int, default=2, help="rendering processes")
    parser.add_argument("--out", type=Path, default=MODEL_DIR, help="where the ONNX file goes (and its manifest)")
    args = parser.parse_args(argv)
    torch.set_num_threads(2)
    log(f"rendering {args.columns} columns (seed {args.seed})")
    return args


def main(argv: list[str] | None = None) -> int:
    begun = time.time()
    args = column_options(__doc__, 1, 12000, 16, argv)
    strips, targets = render(args.seed, args.columns, args.workers)
    net = fit(strips, targets, args.epochs, args.seed)
    model = export(net, (STRIP_W, STRIP_L), ["bands"], args.out / BANDS_FILE)
    training = {"seed": args.seed, "columns": args.columns, "epochs": args.epochs,
                "minutes": round((time.time() - begun) / 60, 1)}
    record_apart("bands", model, ["bands (N, H): logit of a card's top edge per row"], training, args.out / MANIFEST)
    log(f"manifest updated: {args.out / MANIFEST}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
