"""Train the band network on rendered field columns, export ONNX, record it in the manifest.

The one re-run command (CPU, about 20 minutes on 2 quiet cores; the shipped model took 34 on shared ones)::

    .venv/bin/python -m models.train_bands

Columns of the ``train`` family only (:mod:`models.band_data`): the shipped deck and the
training renderer's random designs. The unseen art styles are kept for
:mod:`models.evaluate_columns`, which no training decision reads.
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import torch
from torch.nn import functional as F

from companion.vision.manifest import MANIFEST, ModelFile
from companion.vision.strips import STRIP_L, STRIP_W
from models.band_data import dataset
from models.band_net import BandNet
from models.train import MODEL_DIR, export, log

BANDS_FILE = "band_net.onnx"
CHUNK = 500
"""Columns rendered per worker task."""
POSITIVE_WEIGHT = 4.0
"""Weight of a card-top row against the many rows without one."""


def render(seed: int, size: int, workers: int) -> tuple[np.ndarray, np.ndarray]:
    """``size`` training columns rendered in chunks by ``workers`` processes: strips and targets."""
    chunks = [(seed * 1000 + k, min(CHUNK, size - k * CHUNK)) for k in range((size + CHUNK - 1) // CHUNK)]
    with ProcessPoolExecutor(workers) as pool:
        parts = list(pool.map(_chunk, chunks))
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def _chunk(job: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    strips, targets, _ = dataset(job[0], job[1], "train")
    return strips, targets


def _batch(strips: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """uint8 (N, L, W, 3) to float (N, 3, L, W) with light jitter, a random half mirrored across the column."""
    x = strips.permute(0, 3, 1, 2).float() / 255.0
    n = x.shape[0]
    x = (x * (0.75 + 0.5 * torch.rand(n, 3, 1, 1, generator=gen))
         + 0.16 * torch.rand(n, 1, 1, 1, generator=gen) - 0.08).clamp(0, 1)
    mirror = torch.rand(n, generator=gen) < 0.5
    x[mirror] = torch.flip(x[mirror], dims=(3,))
    return x


def fit(strips: np.ndarray, targets: np.ndarray, epochs: int, seed: int, batch: int = 64,
        lr: float = 3e-3) -> BandNet:
    """The band network trained on uint8 strips and their per-row targets; logs each epoch's loss."""
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    batch = min(batch, len(strips))
    net = BandNet()
    x_all, y_all = torch.from_numpy(strips), torch.from_numpy(targets)
    steps = epochs * (len(strips) // batch)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.2)
    weight = torch.tensor(POSITIVE_WEIGHT)
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(len(strips), generator=gen)
        total, start = 0.0, time.time()
        for k in range(0, len(strips) - batch + 1, batch):
            idx = order[k:k + batch]
            y = y_all[idx]
            loss = F.binary_cross_entropy_with_logits(net(_batch(x_all[idx], gen)), y, pos_weight=weight)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        log(f"epoch {epoch + 1}/{epochs}: loss {total / len(strips):.4f}, {time.time() - start:.0f} s")
    return net.eval()


def record(model: ModelFile, training: dict, path: Path) -> None:
    """Write the band network's entry (and how it was trained) into the manifest at ``path``."""
    data = json.loads(path.read_text(encoding="utf-8"))
    data["bands"] = {"file": model.file, "sha256": model.sha256, "input_width": model.input_width,
                     "input_height": model.input_height, "input": "image: BGR float32 (N, 3, H, W) in [0, 1]",
                     "outputs": ["bands (N, H): logit of a card's top edge per row"]}
    data.setdefault("training", {})["bands"] = training
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1, help="training seed (columns, weights)")
    parser.add_argument("--columns", type=int, default=12000, help="rendered training columns (2 strips each)")
    parser.add_argument("--epochs", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2, help="rendering processes")
    parser.add_argument("--out", type=Path, default=MODEL_DIR, help="where the ONNX file goes (and its manifest)")
    args = parser.parse_args(argv)
    torch.set_num_threads(2)
    begun = time.time()
    log(f"rendering {args.columns} columns (seed {args.seed})")
    strips, targets = render(args.seed, args.columns, args.workers)
    net = fit(strips, targets, args.epochs, args.seed)
    model = export(net, (STRIP_W, STRIP_L), ["bands"], args.out / BANDS_FILE)
    training = {"seed": args.seed, "columns": args.columns, "epochs": args.epochs,
                "minutes": round((time.time() - begun) / 60, 1)}
    record(model, training, args.out / MANIFEST)
    log(f"manifest updated: {args.out / MANIFEST}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
