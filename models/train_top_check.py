"""Train the top checker on the band network's likely card tops, export ONNX, record it in the manifest.

The one re-run command (CPU, about 12 minutes on 2 cores: 3 to render, 9 to train)::

    .venv/bin/python -m models.train_top_check

Its patches come from the shipped band network's peaks (:mod:`models.top_check_data`), so it is trained again
whenever the band network is. Columns of the ``train`` family only; the unseen art styles are kept for
:mod:`models.evaluate_columns`, which no training decision reads.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import torch
from torch.nn import functional as F

from companion.vision.manifest import MANIFEST, ModelFile
from companion.vision.top_check import PATCH_H, PATCH_W
from models.top_check_data import dataset
from models.top_check_net import OUTPUT, TopCheckNet
from models.train import MODEL_DIR, export, log

TOP_CHECK_FILE = "top_check.onnx"
CHUNK = 500
"""Columns rendered per worker task."""


def render(seed: int, size: int, workers: int) -> tuple[np.ndarray, np.ndarray]:
    """Patches and labels of ``size`` training columns, rendered in chunks by ``workers`` processes."""
    chunks = [(seed * 1000 + k, min(CHUNK, size - k * CHUNK)) for k in range((size + CHUNK - 1) // CHUNK)]
    # spawn, not fork: forking after onnxruntime or OpenCV started threads can deadlock
    with ProcessPoolExecutor(workers, multiprocessing.get_context("spawn")) as pool:
        parts = list(pool.map(dataset, *zip(*chunks)))
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def _batch(patches: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """uint8 (N, H, W, 3) to float (N, 3, H, W) with light jitter, a random half mirrored across the column."""
    x = patches.permute(0, 3, 1, 2).float() / 255.0
    n = x.shape[0]
    x = (x * (0.75 + 0.5 * torch.rand(n, 3, 1, 1, generator=gen))
         + 0.16 * torch.rand(n, 1, 1, 1, generator=gen) - 0.08).clamp(0, 1)
    mirror = torch.rand(n, generator=gen) < 0.5
    x[mirror] = torch.flip(x[mirror], dims=(3,))
    return x


def fit(patches: np.ndarray, labels: np.ndarray, epochs: int, seed: int, batch: int = 128,
        lr: float = 2e-3) -> TopCheckNet:
    """The top checker trained on uint8 patches and their labels; logs each epoch's loss."""
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    batch = min(batch, len(patches))
    net = TopCheckNet()
    x_all, y_all = torch.from_numpy(patches), torch.from_numpy(labels).float()
    steps = epochs * (len(patches) // batch)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(len(patches), generator=gen)
        total, start = 0.0, time.time()
        for k in range(0, len(patches) - batch + 1, batch):
            idx = order[k:k + batch]
            loss = F.binary_cross_entropy_with_logits(net(_batch(x_all[idx], gen)), y_all[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        log(f"epoch {epoch + 1}/{epochs}: loss {total / len(patches):.4f}, {time.time() - start:.0f} s")
    return net.eval()


def record(model: ModelFile, training: dict, path: Path) -> None:
    """Write the top checker's entry (and how it was trained) into the manifest at ``path``."""
    data = json.loads(path.read_text(encoding="utf-8"))
    data["top_check"] = {"file": model.file, "sha256": model.sha256, "input_width": model.input_width,
                         "input_height": model.input_height, "input": "image: BGR float32 (N, 3, H, W) in [0, 1]",
                         "outputs": [OUTPUT]}
    data.setdefault("training", {})["top_check"] = training
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=2, help="training seed (columns, weights)")
    parser.add_argument("--columns", type=int, default=24000, help="rendered training columns (both ways each)")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--workers", type=int, default=2, help="rendering processes")
    parser.add_argument("--out", type=Path, default=MODEL_DIR, help="where the ONNX file goes (and its manifest)")
    args = parser.parse_args(argv)
    torch.set_num_threads(2)
    begun = time.time()
    log(f"rendering {args.columns} columns (seed {args.seed})")
    patches, labels = render(args.seed, args.columns, args.workers)
    log(f"{len(patches)} likely tops, {labels.mean():.1%} of them true")
    net = fit(patches, labels, args.epochs, args.seed)
    model = export(net, (PATCH_W, PATCH_H), ["logit"], args.out / TOP_CHECK_FILE)
    training = {"seed": args.seed, "columns": args.columns, "epochs": args.epochs, "patches": int(len(patches)),
                "minutes": round((time.time() - begun) / 60, 1)}
    record(model, training, args.out / MANIFEST)
    log(f"manifest updated: {args.out / MANIFEST}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
