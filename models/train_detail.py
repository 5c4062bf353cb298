"""Train the detail matcher (:mod:`models.detail_net`), export it to ONNX and record it in the manifest.

``python -m models.train_detail`` renders the decks (:mod:`models.detail_data`), then trains with a
ranking loss: each test crop of a deck against all 16 of the deck's enrolled crops, its own one the
target. A deck's crops share one random channel order (and sometimes inversion) per step, so no colour
is learnt as a card's; each crop may lose its colour and gets its own light, framing, blur and way up.
Training runs for ``--steps``, or as many steps as fit ``--seconds`` (the shipped matcher: 415 s on one
lent GPU with 16 rendering processes, ``--workers 16``; on two CPU cores a step takes seconds). Two check
sets rendered beside it, never trained on, say how often a test crop's own photo ranks first.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import time
import warnings
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import torch
from torch.nn import functional as F

from companion.vision.manifest import MANIFEST, ModelFile, load_manifest
from models.detail_data import DetailSet, detail_set
from models.detail_net import CHANNELS, DETAIL_H, DETAIL_W, Compare, DetailNet, Features, deck_logits, ranking_loss
from models.train import MODEL_DIR, write_manifest

GREY = 0.15
"""Share of crops seen without colour, so that printed detail, not colour, tells cards apart."""
ZOOM, SHIFT, TURN = 0.06, 0.04, 3.0
"""Each crop framed anew: up to 6 % zoomed, 4 % shifted and 3° turned, as another locator run would frame it."""


def reframed(crops: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """(N, 3, H, W) crops, each a little zoomed, shifted and turned."""
    n, dev = crops.shape[0], crops.device
    rand = torch.rand(n, 4, device=dev, generator=generator) * 2 - 1
    scale, angle = 1 + ZOOM * rand[:, 0], math.radians(TURN) * rand[:, 1]
    theta = torch.zeros(n, 2, 3, device=dev)
    theta[:, 0, 0], theta[:, 0, 1] = scale * torch.cos(angle), -scale * torch.sin(angle)
    theta[:, 1, 0], theta[:, 1, 1] = scale * torch.sin(angle), scale * torch.cos(angle)
    theta[:, :, 2] = 2 * SHIFT * rand[:, 2:]
    grid = F.affine_grid(theta, list(crops.shape), align_corners=False)
    return F.grid_sample(crops, grid, padding_mode="border", align_corners=False)


def augment(crops: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """uint8 (B, n, H, W, 3) -> float (B, n, 3, H, W) in [0, 1]: per deck a channel order and maybe
    inversion, per crop maybe no colour, light, framing, blur and a 180° turn."""
    b, n = crops.shape[:2]
    dev = crops.device

    def uniform(*shape: int, lo: float = 0.0, hi: float = 1.0) -> torch.Tensor:
        return torch.rand(*shape, device=dev, generator=generator) * (hi - lo) + lo

    x = crops.permute(0, 1, 4, 2, 3).float() / 255
    order = torch.argsort(uniform(b, 3), dim=1)
    x = torch.gather(x, 2, order[:, None, :, None, None].expand_as(x))
    invert = (uniform(b) < 0.15)[:, None, None, None, None]
    x = torch.where(invert, 1 - x, x)
    grey = (uniform(b, n) < GREY)[:, :, None, None, None]
    x = torch.where(grey, x.mean(dim=2, keepdim=True).expand_as(x), x)
    x = x * uniform(b, n, 3, 1, 1, lo=0.75, hi=1.25) + uniform(b, n, 1, 1, 1, lo=-0.08, hi=0.08)
    flat = reframed(x.flatten(0, 1), generator)
    x = flat.view_as(x)
    blurred = F.avg_pool2d(flat, 3, 1, 1, count_include_pad=False).view_as(x)
    x = torch.where((uniform(b, n) < 0.3)[:, :, None, None, None], blurred, x)
    x = torch.where((uniform(b, n) < 0.5)[:, :, None, None, None], x.flip(-1, -2), x)
    return x.clamp(0, 1)


def pick_tests(found: torch.Tensor, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """For each (deck, card) of ``found`` (B, 16, T), one test photo index, drawn among those found, and whether
    any was found."""
    weights = found.float() + 1e-6
    index = torch.multinomial(weights.flatten(0, 1), 1, generator=generator).view(found.shape[:2])
    return index, found.any(dim=2)


def batch(data: dict[str, torch.Tensor], decks: torch.Tensor,
          generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """Augmented (cards, their turns, enrolled photos, valid) for ``decks``."""
    index, valid = pick_tests(data["found"][decks], generator)
    tests = data["tests"][decks]
    cards = torch.gather(tests, 2, index[:, :, None, None, None, None].expand(-1, -1, 1, *tests.shape[3:]))[:, :, 0]
    both = augment(torch.cat([cards, data["enrolled"][decks]], dim=1), generator)
    cards, photos = both[:, :16], both[:, 16:]
    return cards, cards.flip(-1, -2), photos, valid


def to_device(data: DetailSet, device: str) -> dict[str, torch.Tensor]:
    """A detail set's arrays as tensors on ``device``."""
    return {"enrolled": torch.from_numpy(data.enrolled).to(device), "tests": torch.from_numpy(data.tests).to(device),
            "found": torch.from_numpy(data.found).to(device)}


Net = TypeVar("Net", bound=torch.nn.Module)
DeckLogits = Callable[[Net, torch.Tensor, torch.Tensor, torch.Tensor], torch.Tensor]
"""(net, cards, their turns, enrolled photos) -> (B, Q, K) logits, as :func:`~models.detail_net.deck_logits`."""


def evaluate(net: Net, data: dict[str, torch.Tensor], logits_of: DeckLogits[Net]) -> float:
    """Share of test crops whose best-matching enrolled photo of their deck is their own (no augmentation)."""
    net.eval()
    right = total = 0
    with torch.no_grad():
        for d in range(len(data["enrolled"])):
            tests = data["tests"][d].permute(1, 0, 4, 2, 3).float() / 255  # (T, 16, 3, H, W)
            photos = data["enrolled"][d].permute(0, 3, 1, 2).float() / 255
            photos = photos[None].expand(tests.shape[0], -1, -1, -1, -1)
            logits = logits_of(net, tests, tests.flip(-1, -2), photos)  # (T, 16, 16)
            found = data["found"][d].T
            right += int(((logits.argmax(dim=2) == torch.arange(16, device=logits.device)) & found).sum())
            total += int(found.sum())
    net.train()
    return right / max(total, 1)


FEATURES_FILE, COMPARE_FILE = "detail_features.onnx", "detail_compare.onnx"


def export(net: DetailNet, out: Path) -> tuple[ModelFile, ModelFile]:
    """Write the matcher's two networks into ``out`` as ONNX: ``features`` (input ``image``, a crop) and
    ``compare`` (inputs ``card`` and ``photo``, feature maps; its size is theirs)."""
    net = net.cpu().eval()
    image = torch.rand(2, 3, DETAIL_H, DETAIL_W)
    maps = net.features(image)
    with warnings.catch_warnings():  # the TorchScript exporter is deprecated but needs no onnxscript
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(Features(net), (image,), str(out / FEATURES_FILE), input_names=["image"],
                          output_names=["features"], dynamic_axes={"image": {0: "n"}, "features": {0: "n"}},
                          opset_version=17, dynamo=False)
        torch.onnx.export(Compare(net), (maps, maps), str(out / COMPARE_FILE), input_names=["card", "photo"],
                          output_names=["logit"],
                          dynamic_axes={"card": {0: "n"}, "photo": {0: "n"}, "logit": {0: "n"}},
                          opset_version=17, dynamo=False)
    return (model_file(out / FEATURES_FILE, DETAIL_W, DETAIL_H),
            model_file(out / COMPARE_FILE, maps.shape[3], maps.shape[2]))


def model_file(path: Path, width: int, height: int) -> ModelFile:
    """A written ONNX file as the manifest describes it."""
    return ModelFile(path.name, hashlib.sha256(path.read_bytes()).hexdigest(), width, height)


TIMED_STEPS = (10, 30)
"""Steps timed (at a low learning rate, after the first ones have warmed up) before the number of steps
that fits ``seconds`` is set."""


def learning_rate(step: int, total: int, peak: float) -> float:
    """Warm-up over the first tenth of ``total`` steps, then a cosine down to nothing."""
    warm = max(1, total // 10)
    if step < warm:
        return peak * (step + 1) / warm
    return peak * 0.5 * (1 + math.cos(math.pi * min(1.0, (step - warm) / max(1, total - warm))))


def train(data: DetailSet, seconds: float, batch_decks: int, device: str, seed: int, say: Callable[[str], None],
          steps: int | None = None, peak: float = 2e-3) -> DetailNet:
    """A matcher trained on ``data`` (see :func:`fit_decks`)."""
    torch.manual_seed(seed)
    net = DetailNet()
    fit_decks(net, deck_logits, to_device(data, device), seconds, batch_decks, device, seed, say, steps, peak)
    return net


def fit_decks(net: Net, logits_of: DeckLogits[Net], tensors: dict[str, torch.Tensor], seconds: float,
              batch_decks: int, device: str, seed: int, say: Callable[[str], None], steps: int | None = None,
              peak: float = 2e-3) -> None:
    """Train ``net`` on whole decks (``tensors``, as :func:`to_device` gives them) with the ranking loss of
    ``logits_of``, for ``steps``, or for about ``seconds``: then the first steps are timed at a low learning
    rate, and as many steps as fit follow the schedule. ``say`` reports the loss now and then."""
    generator = torch.Generator(device=device).manual_seed(seed)
    net.to(device).train()
    opt = torch.optim.AdamW(net.parameters(), lr=peak / 100, weight_decay=1e-4)
    start = time.time()
    first, timed = TIMED_STEPS if steps is None else (0, 0)
    total, step = steps or timed, 0
    while step < total:
        if step == first:
            clock = time.time()
        if step >= timed:
            for group in opt.param_groups:
                group["lr"] = learning_rate(step - timed, total - timed, peak)
        decks = torch.randint(len(tensors["enrolled"]), (batch_decks,), device=device, generator=generator)
        cards, turned, photos, valid = batch(tensors, decks, generator)
        with torch.autocast(device_type="cuda" if device.startswith("cuda") else "cpu", dtype=torch.bfloat16,
                            enabled=device.startswith("cuda")):
            loss = ranking_loss(logits_of(net, cards, turned, photos).float(), valid.float())
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if step % 500 == 0 or step == total - 1:
            say(f"step {step} loss {loss.item():.4f} {time.time() - start:.0f} s")
        step += 1
        if steps is None and step == timed:
            each = (time.time() - clock) / (timed - first)
            total += max(1, int((seconds - (time.time() - start)) / each))
            say(f"{each * 1000:.0f} ms a step: {total} steps in all")


def rendering(start: float) -> Callable[[int, int], None]:
    """A progress report of the decks rendered so far."""
    def report(done: int, total: int) -> None:
        print(f"decks {done}/{total} {time.time() - start:.0f} s", flush=True)

    return report


class Log(list[str]):
    """A run's log: each line said is printed at once and kept for the manifest."""

    def __call__(self, line: str) -> None:
        self.append(line)
        print(line, flush=True)


def deck_options(parser: argparse.ArgumentParser, decks: int, tests: int, batch_decks: int) -> None:
    """The options of a training run on whole decks (besides its time)."""
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--decks", type=int, default=decks)
    parser.add_argument("--tests", type=int, default=tests)
    parser.add_argument("--steps", type=int,
                        help="training steps (default: as many as fit --seconds; without a GPU, give the steps)")
    parser.add_argument("--batch-decks", type=int, default=batch_decks)
    parser.add_argument("--check-decks", type=int, default=40, help="decks of each check set")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")


def rendered(args: argparse.Namespace, say: Callable[[str], None]) -> tuple[DetailSet, dict[str, DetailSet]]:
    """A run's training decks and its two check sets, rendered beside them and never trained on."""
    start = time.time()
    data = detail_set(args.seed, args.decks, args.tests, args.workers, progress=rendering(start))
    checks = {"training styles": detail_set(args.seed + 1, args.check_decks, args.tests, args.workers),
              "unseen styles, kin decks": detail_set(args.seed + 2, args.check_decks, args.tests, args.workers,
                                                     "unseen", 1.0)}
    say(f"rendered {args.decks} decks in {time.time() - start:.0f} s; outlines found {data.found.mean():.4f}")
    return data, checks


def checked(net: Net, logits_of: DeckLogits[Net], checks: dict[str, DetailSet], args: argparse.Namespace,
            say: Callable[[str], None]) -> None:
    """Say how often a check set's test crop ranks its own photo first."""
    for name, check in checks.items():
        say(f"{name}, {args.check_decks} decks: own photo ranked first for "
            f"{evaluate(net, to_device(check, args.device), logits_of):.4f}")


def kept(args: argparse.Namespace, start: float, log: Log, stage: str, **models: Any) -> None:
    """How the run trained (its options, minutes and log): recorded into the manifest in ``--out`` as ``stage``,
    with its ``models`` (the manifest's fields the run wrote), or without one written beside the model as
    ``<stage>_training.json``."""
    training = {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items() if k not in ("out", "workers")}
    training |= {"minutes": round((time.time() - start) / 60, 1), "log": log}
    path = args.out / MANIFEST
    if path.exists():
        records = json.loads(path.read_text(encoding="utf-8")).get("training", {})
        write_manifest(replace(load_manifest(path.parent), **models), records | {stage: training}, path)
    else:
        (args.out / f"{stage}_training.json").write_text(json.dumps(training, indent=1), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=MODEL_DIR,
                        help="where the ONNX files go (and the manifest they are recorded in, if there is one)")
    parser.add_argument("--seconds", type=float, default=415,
                        help="time for the whole run, rendering included (the shipped run's, on a GPU)")
    deck_options(parser, decks=1200, tests=4, batch_decks=8)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    say, start = Log(), time.time()
    data, checks = rendered(args, say)
    net = train(data, args.seconds - (time.time() - start) - 40, args.batch_decks, args.device, args.seed, say,
                args.steps)
    checked(net, deck_logits, checks, args, say)
    features, compare = export(net, args.out)
    kept(args, start, say, "detail", detail_features=features, detail_compare=compare, detail_channels=CHANNELS)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
