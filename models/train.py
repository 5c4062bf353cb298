"""Train the card locator, corner refiner and card network on rendered photos, export ONNX,
write the manifest.

The one re-run command (CPU, about 160 minutes on 2 cores)::

    .venv/bin/python -m models.train          # seed 1; then evaluates and writes MODEL_CARD.md
    .venv/bin/python -m models.train --stages refiner   # one stage; the others keep the shipped models

Stage ``locator`` trains the card mask of a photo. Stage ``refiner`` trains the corner
network on views around the quads that locator finds (and around jittered true quads).
Stage ``card`` renders card crops made by the locator and trains the classifier over the
shipped labels (the house deck) plus ``--card-others`` random card designs in decks, so the
embedding learns to tell cards apart in general. Unknown thresholds are calibrated on a
separate seed (``--calib-seed``) with the runtime; evaluation (:mod:`models.evaluate`)
uses another.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import time
import warnings
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
import torch
from torch.nn import functional as F

from companion.cards import VISION_LABELS
from companion.vision.classifier import CardClassifier, Gallery
from companion.vision.manifest import MANIFEST, Manifest, ModelFile, load_manifest
from companion.vision.mirrors import MIRRORS
from companion.vision.refine import inner_rectangle, unmirror
from companion.vision.views import CardViews
from models import dataset, top_check_net
from models.dataset import INPUT_H, INPUT_W, LOCATOR_H, LOCATOR_W, REFINER_H, REFINER_W
from models.net import EMBED_DIM, CardNet, CosineHead, Exported, LocatorNet, RefinerNet
from models.render import render_face, unseen_deck

MODEL_DIR = Path(__file__).resolve().parent
MODEL_FILE = "card_net.onnx"
LOCATOR_FILE = "card_locator.onnx"
REFINER_FILE = "card_refiner.onnx"
SCALE = 16.0


def log(message: str) -> None:
    """Progress line, flushed at once."""
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


def _progress(what: str):  # noqa: ANN202 - a progress callback
    def report(done: int, total: int) -> None:
        if done == total or done % 4096 < 256:
            log(f"{what}: {done}/{total}")
    return report


def _augment(x: torch.Tensor, gen: torch.Generator, turn: bool = True) -> torch.Tensor:
    """Cheap per-sample light jitter on a uint8 (N, H, W, 3) batch -> float (N, 3, H, W); a random
    half turned 180° when ``turn``."""
    x = x.permute(0, 3, 1, 2).float() / 255.0
    n = x.shape[0]
    gain = 0.75 + 0.5 * torch.rand(n, 3, 1, 1, generator=gen)
    bias = 0.16 * torch.rand(n, 1, 1, 1, generator=gen) - 0.08
    x = (x * gain + bias).clamp(0, 1)
    if turn:
        half = torch.rand(n, generator=gen) < 0.5
        x[half] = torch.flip(x[half], dims=(2, 3))
    return x


def _optimise(net: torch.nn.Module, params: list[torch.nn.Parameter], count: int, epochs: int, batch: int,
              gen: torch.Generator, loss_of: Callable[[torch.Tensor], torch.Tensor],
              describe: Callable[[int, float], str], lr: float, weight_decay: float,
              pct_start: float = 0.3) -> list[float]:
    """AdamW with a one-cycle learning rate over ``epochs`` shuffled passes of ``count`` samples.

    ``loss_of`` gives the loss of a batch of sample indices; ``describe(epoch, mean loss)``
    opens each epoch's log line. Returns the mean loss per epoch.
    """
    opt = torch.optim.AdamW(params, lr=lr, weight_decay=weight_decay)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=epochs * max(1, count // batch),
                                                pct_start=pct_start)
    history = []
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(count, generator=gen)
        total, loss_sum, start = 0, 0.0, time.time()
        for k in range(0, count - batch + 1, batch):
            idx = order[k:k + batch]
            loss = loss_of(idx)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            loss_sum += loss.item() * len(idx)
            total += len(idx)
        history.append(loss_sum / max(total, 1))
        log(f"{describe(epoch, history[-1])}, {time.time() - start:.0f} s")
    return history


def fit(images: np.ndarray, labels: np.ndarray, classes: int, epochs: int, seed: int, batch: int = 128,
        lr: float = 3e-3) -> tuple[CardNet, CosineHead, list[float]]:
    """Train network and cosine head on uint8 images; logs and returns the mean loss per epoch."""
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    net, head = CardNet(), CosineHead(classes, SCALE)
    x_all, y_all = torch.from_numpy(images), torch.from_numpy(labels)
    tally = {"right": 0, "seen": 0}

    def loss_of(idx: torch.Tensor) -> torch.Tensor:
        y = y_all[idx]
        emb = net(_augment(x_all[idx], gen))
        tally["right"] += int((head.cosines(emb.detach()).argmax(1) == y).sum())
        tally["seen"] += len(idx)
        return head.loss(emb, y)

    def describe(epoch: int, loss: float) -> str:
        accuracy = tally["right"] / max(tally["seen"], 1)
        tally.update(right=0, seen=0)
        return f"epoch {epoch + 1}/{epochs}: loss {loss:.3f}, train accuracy {accuracy:.4f}"

    params = list(net.parameters()) + list(head.parameters())
    history = _optimise(net, params, len(images), epochs, batch, gen, loss_of, describe, lr, 5e-4, pct_start=0.15)
    return net.eval(), head, history


def fit_locator(photos: np.ndarray, masks: np.ndarray, epochs: int, seed: int, batch: int = 64,
                lr: float = 3e-3) -> tuple[LocatorNet, list[float]]:
    """Train the card-mask network (binary cross-entropy); logs and returns the loss per epoch."""
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    net = LocatorNet()
    x_all, y_all = torch.from_numpy(photos), torch.from_numpy(masks)[:, None]

    def loss_of(idx: torch.Tensor) -> torch.Tensor:
        x = x_all[idx].permute(0, 3, 1, 2).float() / 255.0
        return F.binary_cross_entropy_with_logits(net(x), y_all[idx])

    history = _optimise(net, list(net.parameters()), len(photos), epochs, batch, gen, loss_of,
                        lambda epoch, loss: f"locator epoch {epoch + 1}/{epochs}: loss {loss:.4f}", lr, 1e-4)
    return net.eval(), history


def _mirror(x: torch.Tensor, corners: torch.Tensor, gen: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """Views and their corners, each sample as a random one of its mirror images (``MIRRORS``);
    :func:`~companion.vision.refine.unmirror` maps corners either way."""
    x, corners = x.clone(), corners.clone().reshape(-1, 4, 2)
    pick = torch.randint(len(MIRRORS), (len(x),), generator=gen)
    for k, (ry, rx) in enumerate(MIRRORS):
        chosen, dims = pick == k, [d for d, step in ((2, ry), (3, rx)) if step < 0]
        if dims and chosen.any():
            x[chosen] = torch.flip(x[chosen], dims=dims)
            corners[chosen] = torch.from_numpy(unmirror(corners[chosen].numpy(), ry, rx)).float()
    return x, corners.reshape(-1, 8)


def fit_refiner(views: np.ndarray, corners: np.ndarray, epochs: int, seed: int, batch: int = 64,
                lr: float = 3e-3) -> tuple[RefinerNet, list[float]]:
    """Train the corner refiner (L1 on corner positions as shares of the view); logs and returns
    the loss per epoch."""
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    start = torch.from_numpy(inner_rectangle((REFINER_W, REFINER_H)) / (REFINER_W, REFINER_H)).float()
    net = RefinerNet(start)
    x_all, y_all = torch.from_numpy(views), torch.from_numpy(corners)

    def loss_of(idx: torch.Tensor) -> torch.Tensor:
        x, y = _mirror(_augment(x_all[idx], gen, turn=False), y_all[idx], gen)
        return F.l1_loss(net(x), y)

    history = _optimise(net, list(net.parameters()), len(views), epochs, batch, gen, loss_of,
                        lambda epoch, loss: f"refiner epoch {epoch + 1}/{epochs}: mean corner error {loss:.4f} "
                                            "of the view", lr, 1e-4)
    return net.eval(), history


def export(model: torch.nn.Module, shape: tuple[int, int], outputs: list[str], path: Path) -> ModelFile:
    """Write ``model`` as ONNX (input ``image`` of (N, 3, height, width), dynamic batch)."""
    width, height = shape
    axes = {name: {0: "n"} for name in ["image", *outputs]}
    with warnings.catch_warnings():  # the TorchScript exporter is deprecated but needs no onnxscript
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(model.eval(), (torch.rand(2, 3, height, width),), str(path), input_names=["image"],
                          output_names=outputs, opset_version=17, dynamo=False, dynamic_axes=axes)
    log(f"exported {path} ({path.stat().st_size / 1024:.0f} KiB)")
    return ModelFile(path.name, hashlib.sha256(path.read_bytes()).hexdigest(), width, height)


def threshold(known: np.ndarray, unknown: np.ndarray, weight: float = 10.0) -> float:
    """The cosine threshold with the least cost: ``weight`` x share of known cards rejected
    plus share of non-cards accepted (losing a known card costs as much as ``weight`` strays).

    Every threshold between two neighbouring cosines costs the same, so of the first run
    of cheapest ones the middle is taken: the middle of the gap between the classes
    where they do not overlap, rather than its edge.
    """
    candidates = np.unique(np.concatenate([known, unknown]))
    cost = np.array([weight * np.mean(known < t) + np.mean(unknown >= t) for t in candidates])
    first = int(np.argmin(cost))
    last = first
    while last + 1 < len(cost) and cost[last + 1] == cost[first]:
        last += 1
    low = candidates[first - 1] if first > 0 else candidates[first]
    return float((low + candidates[last]) / 2)


def settled_threshold(best: Callable[[float], tuple[np.ndarray, np.ndarray]], rounds: int = 8) -> float:
    """The :func:`threshold` of the best cosines ``best(t)`` (known, non-cards) that the classifier
    gives when its second looks go to cards near ``t``: from no threshold, until it settles."""
    t = threshold(*best(-1.0))
    for _ in range(rounds):
        again = threshold(*best(t))
        if abs(again - t) < 1e-4:
            break
        t = again
    return t


CALIBRATION_SIZES = {"house": 150, "tables": 200, "strangers": 200, "decks": 4, "deck_photos": 30}
"""Calibration photos: per house label, bare tables, other cards per family, unseen-style decks
and test photos per label of each deck."""


def calibrate(classifier: CardClassifier, seed: int, workers: int) -> tuple[float, float]:
    """Unknown thresholds (shipped, deck) from best cosines of known cards and non-cards on ``seed``,
    each photo in its framings and decided as the runtime does (second looks included).

    Known: house photos (shipped) and unseen-style decks enrolled from one photo per
    label, in its framings (deck). Non-cards: bare tables and cards of other designs.
    """
    from companion.vision.locate import CardLocator

    size = CALIBRATION_SIZES
    covers, locator = dataset.other_faces(seed, 50), dataset.locator_parts(classifier.manifest)
    house, _ = dataset.view_set(dataset.house_faces(), [size["house"]] * len(VISION_LABELS), seed, locator,
                                workers, covers)
    tables = dataset.non_card_views(CardLocator.of(classifier.manifest), seed, size["tables"])
    count = size["strangers"]
    unknown = {family: tables + dataset.view_set(dataset.other_faces(seed + 70, count, family), [1] * count,
                                                 seed + 70, locator, workers)[0]
               for family in ("train", "unseen")}

    def best(views: list, gallery: Gallery | None, t: float) -> np.ndarray:
        return classifier.cosines(views, gallery, t).max(axis=1)

    shipped = settled_threshold(lambda t: (best(house, None, t), best(unknown["train"], None, t)))
    decks = [(gallery, photos) for gallery, photos, _ in calibration_decks(classifier, seed, workers)]
    deck = settled_threshold(lambda t: (np.concatenate([best(photos, g, t) for g, photos in decks]),
                                        np.concatenate([best(unknown["unseen"], g, t) for g, _ in decks])))
    return shipped, deck


def calibration_decks(classifier: CardClassifier, seed: int, workers: int,
                      kin: bool = False) -> list[tuple[Gallery, list[CardViews], np.ndarray]]:
    """The calibration seed's unseen-style decks (with ``kin``, kin decks of the same seeds), each enrolled from one
    photo per label, with its test photos (some covered, as a column's cards are) and their labels."""
    from companion.vision.profile import enroll

    size = CALIBRATION_SIZES
    covers, locator = dataset.other_faces(seed, 50), dataset.locator_parts(classifier.manifest)
    decks = []
    for d in range(size["decks"]):
        faces = [render_face(f) for f in unseen_deck(seed * 100 + d, kin=kin).values()]
        shots, _ = dataset.enrollment_set(faces, [1] * len(faces), seed + 50 + d, locator, workers)
        gallery = enroll(classifier, {lab: [shots[i]] for i, lab in enumerate(VISION_LABELS)}).gallery
        photos, labels = dataset.view_set(faces, [size["deck_photos"]] * len(faces), seed + 60 + d, locator,
                                          workers, covers)
        decks.append((gallery, photos, labels))
    return decks


def write_manifest(manifest: Manifest, extra: dict, path: Path) -> None:
    """The manifest JSON read by :func:`companion.vision.manifest.load_manifest`."""
    def entry(model: ModelFile) -> dict:
        return {"file": model.file, "sha256": model.sha256, "input_width": model.input_width,
                "input_height": model.input_height, "input": "image: BGR float32 (N, 3, H, W) in [0, 1]"}

    data = {"classifier": {**entry(manifest.classifier), "embedding_dim": manifest.embedding_dim,
                           "scale": manifest.scale, "outputs": ["embedding (N, D) unit", "cosines (N, labels)"]},
            "locator": {**entry(manifest.locator), "outputs": ["mask logits (N, 1, H/2, W/2)"]},
            "refiner": {**entry(manifest.refiner),
                        "outputs": ["corners (N, 8): x, y of 4 corners, shares of the view"]},
            "bands": {**entry(manifest.bands), "outputs": ["bands (N, H): logit of a card's top edge per row"]},
            "top_check": {**entry(manifest.top_check), "outputs": [top_check_net.OUTPUT]},
            "detail_features": {**entry(manifest.detail_features), "outputs": ["features (N, C, H/8, W/8)"]},
            "detail_compare": {**entry(manifest.detail_compare), "channels": manifest.detail_channels,
                               "input": "card, photo: feature maps float32 (N, C, H, W)",
                               "outputs": ["logit (N,): how well the card matches the photo"]},
            "deck": {**entry(manifest.deck), "embedding_dim": manifest.deck_embedding_dim,
                     "outputs": ["embedding (N, D) unit, the same for the crop turned 180°"]},
            "labels": list(manifest.labels), "unknown_threshold": round(manifest.unknown_threshold, 4),
            "deck_threshold": round(manifest.deck_threshold, 4), "deck_scale": manifest.deck_scale, "training": extra}
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def record_apart(key: str, model: ModelFile, outputs: list[str], training: dict, path: Path) -> None:
    """Write the entry of a network trained apart (``key``: bands, top_check...), with its ``outputs`` described and
    how it was trained, into the manifest at ``path``."""
    data = json.loads(path.read_text(encoding="utf-8"))
    data[key] = {"file": model.file, "sha256": model.sha256, "input_width": model.input_width,
                 "input_height": model.input_height, "input": "image: BGR float32 (N, 3, H, W) in [0, 1]",
                 "outputs": outputs}
    data.setdefault("training", {})[key] = training
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def evaluate_card() -> int:
    """Evaluate the package's models and rewrite the model card's results."""
    from models import evaluate

    return evaluate.main(["--card"])


STAGES = ("locator", "refiner", "card")
"""Training stages in order; a stage left out keeps the package's model."""
STAGE_OPTIONS = {"locator": ("others", "locator_photos", "locator_epochs"),
                 "refiner": ("others", "refiner_photos", "refiner_epochs"),
                 "card": ("card_others", "house_photos", "other_photos", "covered", "epochs", "batch")}
"""The options each stage's model depends on (besides ``seed``), kept in the manifest."""


def stage_record(args: argparse.Namespace, stage: str, started: float) -> dict:
    """How a stage's model was trained, for the manifest's ``training`` section."""
    options = {name: getattr(args, name) for name in ("seed", *STAGE_OPTIONS[stage])}
    return {**options, "minutes": round((time.time() - started) / 60, 1)}


def previous_records() -> dict:
    """The package manifest's training records per stage, those of the networks trained apart included (the band
    network, the top checker, the detail matcher and the deck network: :mod:`models.train_bands`,
    :mod:`models.train_top_check`, :mod:`models.train_detail` and :mod:`models.train_deck`); empty where a stage has
    none."""
    data = json.loads((MODEL_DIR / MANIFEST).read_text(encoding="utf-8")).get("training", {})
    apart = ("bands", "top_check", "detail", "deck")
    return {stage: data[stage] for stage in (*STAGES, *apart) if isinstance(data.get(stage), dict)}


def run_stage(args: argparse.Namespace, stages: set[str], records: dict, name: str, key: str,
              train: Callable[[], ModelFile]) -> ModelFile:
    """A stage's model: trained by ``train`` when ``name`` is in ``stages`` (its options and
    minutes go to ``records``), else the package's (copied to ``args.out`` when that is elsewhere)."""
    if name in stages:
        begun = time.time()
        model = train()
        records[name] = stage_record(args, name, begun)
        return model
    model = getattr(load_manifest(), key)
    if args.out.resolve() != MODEL_DIR:
        shutil.copy(MODEL_DIR / model.file, args.out / model.file)
    log(f"{name}: keeping {model.file}")
    return model


def train_locator(args: argparse.Namespace, faces: list[np.ndarray]) -> ModelFile:
    """Stage ``locator``: photos with true card masks, the mask network, exported."""
    photos, masks = dataset.locator_set(faces, args.locator_photos, args.seed, args.workers,
                                        _progress("locator photos"))
    return export(fit_locator(photos, masks, args.locator_epochs, args.seed)[0], (LOCATOR_W, LOCATOR_H),
                  ["mask"], args.out / LOCATOR_FILE)


def train_refiner(args: argparse.Namespace, faces: list[np.ndarray], locator: ModelFile) -> ModelFile:
    """Stage ``refiner``: views around the quads ``locator`` finds (and jittered true ones), the
    corner network, exported."""
    views, corners = dataset.refiner_set(faces, args.refiner_photos, args.seed, (locator, None, args.out),
                                         args.workers, _progress("refiner photos"))
    return export(fit_refiner(views, corners, args.refiner_epochs, args.seed)[0], (REFINER_W, REFINER_H),
                  ["corners"], args.out / REFINER_FILE)


def train_card(args: argparse.Namespace, faces: list[np.ndarray], locator: ModelFile) -> ModelFile:
    """Stage ``card``: crops of every face, ``args.covered`` of them covered by the next card of a
    column, the card network with its cosine head, exported.

    Cropped by the locator alone: its looser crops teach an embedding that tolerates
    framing; one trained on refined crops named far fewer unseen-style cards (model card).
    """
    per_class = [args.house_photos] * len(VISION_LABELS) + [args.other_photos] * args.card_others
    images, labels = dataset.training_set(faces, per_class, args.seed, (locator, None, args.out), args.covered,
                                          args.workers, _progress("card crops"))
    net, head, _ = fit(images, labels, len(faces), args.epochs, args.seed, args.batch)
    return export(Exported(net, head, len(VISION_LABELS)), (INPUT_W, INPUT_H), ["embedding", "cosines"],
                  args.out / MODEL_FILE)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1, help="training seed (designs, photos, weights)")
    parser.add_argument("--calib-seed", type=int, default=2, help="seed for the unknown-threshold calibration")
    parser.add_argument("--locator-photos", type=int, default=16000, help="photos for the locator")
    parser.add_argument("--locator-epochs", type=int, default=16)
    parser.add_argument("--refiner-photos", type=int, default=24000, help="photos for the corner refiner")
    parser.add_argument("--refiner-epochs", type=int, default=20)
    parser.add_argument("--others", type=int, default=4800,
                        help="random other card designs (decks of 16) for the locator and the refiner")
    parser.add_argument("--card-others", type=int, default=7200,
                        help="random other card designs for the card network (the first --others are the same)")
    parser.add_argument("--house-photos", type=int, default=300, help="photos per shipped label")
    parser.add_argument("--other-photos", type=int, default=12, help="photos per other design")
    parser.add_argument("--covered", type=float, default=0.5,
                        help="share of card photos covered by the next card of a column")
    parser.add_argument("--epochs", type=int, default=16)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--workers", type=int, default=2, help="rendering processes")
    parser.add_argument("--out", type=Path, default=MODEL_DIR, help="where the ONNX files and manifest go")
    parser.add_argument("--no-eval", action="store_true", help="skip evaluation and the model card")
    parser.add_argument("--stages", default=",".join(STAGES),
                        help="stages to train, comma-separated (default: all); the others keep the package's model. "
                             "--stages '' only recalibrates the thresholds and evaluates")
    args = parser.parse_args(argv)
    stages = {stage for stage in args.stages.split(",") if stage}
    if stages - set(STAGES):
        parser.error(f"--stages takes some of {', '.join(STAGES)}")
    torch.set_num_threads(2)
    args.out.mkdir(parents=True, exist_ok=True)
    shipped = args.out.resolve() == MODEL_DIR

    records = {} if not shipped else previous_records()
    faces = []
    if stages:
        designs = max(args.card_others if stage == "card" else args.others for stage in stages)
        log(f"rendering faces: {len(VISION_LABELS)} shipped labels + {designs} other designs (seed {args.seed})")
        faces = dataset.house_faces() + dataset.other_faces(args.seed, designs)
    shared = faces[:len(VISION_LABELS) + args.others]

    locator = run_stage(args, stages, records, "locator", "locator", lambda: train_locator(args, shared))
    refiner = run_stage(args, stages, records, "refiner", "refiner", lambda: train_refiner(args, shared, locator))
    classifier = run_stage(args, stages, records, "card", "classifier",
                           lambda: train_card(args, faces[:len(VISION_LABELS) + args.card_others], locator))

    apart = load_manifest()  # the band network, the top checker, the detail matcher and the deck network: apart
    if not shipped:
        for model in (apart.bands, apart.top_check, apart.detail_features, apart.detail_compare, apart.deck):
            shutil.copy(MODEL_DIR / model.file, args.out / model.file)
    manifest = Manifest(classifier, locator, refiner, apart.bands, apart.top_check, apart.detail_features,
                        apart.detail_compare, apart.detail_channels, apart.deck, apart.deck_embedding_dim,
                        VISION_LABELS, EMBED_DIM, SCALE, -1.0, -1.0, SCALE)
    if not shipped:
        log("not the package directory: no calibration, no evaluation")
        write_manifest(manifest, records, args.out / MANIFEST)
        return 0
    log("calibrating unknown thresholds")
    unknown_t, deck_t = calibrate(CardClassifier(manifest), args.calib_seed, args.workers)
    manifest = replace(manifest, unknown_threshold=unknown_t, deck_threshold=deck_t)
    from models.deck_scale import calibration_cosines, fitted_scale  # it imports this module

    manifest = replace(manifest, deck_scale=fitted_scale(*calibration_cosines(CardClassifier(manifest),
                                                                              args.calib_seed, args.workers)))
    records["calibration"] = {"seed": args.calib_seed}
    write_manifest(manifest, records, args.out / MANIFEST)
    log(f"manifest written: unknown threshold {unknown_t:.3f}, deck threshold {deck_t:.3f}, "
        f"deck scale {manifest.deck_scale}")
    return 0 if args.no_eval else evaluate_card()


if __name__ == "__main__":
    raise SystemExit(main())
