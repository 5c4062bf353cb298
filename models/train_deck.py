"""Train the deck network (:mod:`models.deck_net`) on whole decks, export it to ONNX and record it in the manifest.

``python -m models.train_deck`` renders decks as the detail matcher's training does
(:mod:`models.detail_data`), then trains with the matcher's ranking loss and augmentation
(:func:`models.train_detail.fit_decks`): a card's crop against its deck's 16 enrolled crops, the own one
the target by a margin, every other deck's in the batch as further negatives, a deck's colours shuffled per
step. It trains for ``--steps``, or as many as fit ``--seconds`` (meant for a GPU: on two CPU cores a step of
32 decks takes seconds), from scratch or from ``--start``. Two check sets rendered beside it, never trained on,
say how often a test crop's own photo ranks first. Writes ``deck_net.onnx``
(:class:`~models.deck_net.Symmetric`) and its weights ``deck_net.pt`` (to go on from, ``--start``; not shipped)
into ``--out``.
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import torch

from models.dataset import INPUT_H, INPUT_W
from models.deck_net import EMBED_DIM, DeckNet, Symmetric, margin_logits
from models.train import MODEL_DIR
from models.train_detail import Log, checked, deck_options, fit_decks, kept, model_file, rendered, to_device

FILE = "deck_net.onnx"


def export(net: DeckNet, out: Path) -> None:
    """Write ``net`` (as :class:`~models.deck_net.Symmetric`) into ``out`` as ONNX: input ``image``
    (N, 3, INPUT_H, INPUT_W), output ``embedding`` (N, EMBED_DIM)."""
    shipped = Symmetric(net.cpu().eval())
    with warnings.catch_warnings():  # the TorchScript exporter is deprecated but needs no onnxscript
        warnings.simplefilter("ignore")
        torch.onnx.export(shipped, (torch.rand(2, 3, INPUT_H, INPUT_W),), str(out / FILE), input_names=["image"],
                          output_names=["embedding"], dynamic_axes={"image": {0: "n"}, "embedding": {0: "n"}},
                          opset_version=17, dynamo=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=MODEL_DIR,
                        help="where the ONNX file goes (and the manifest it is recorded in, if there is one)")
    parser.add_argument("--seconds", type=float, default=150, help="training time, rendering left out")
    parser.add_argument("--start", type=Path, help="weights to go on from (a deck_net.pt an earlier run wrote)")
    parser.add_argument("--peak", type=float, default=2e-3, help="the learning rate's peak")
    deck_options(parser, decks=1400, tests=3, batch_decks=32)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    say, start = Log(), time.time()
    data, checks = rendered(args, say)
    torch.manual_seed(args.seed)
    net = DeckNet()
    if args.start:
        net.load_state_dict(torch.load(args.start, map_location="cpu"))
        net.to(args.device)
        checked(net, margin_logits, checks, args, say)
    fit_decks(net, margin_logits, to_device(data, args.device), args.seconds, args.batch_decks, args.device,
              args.seed, say, args.steps, args.peak)
    checked(net, margin_logits, checks, args, say)
    torch.save(net.state_dict(), args.out / "deck_net.pt")
    export(net, args.out)
    kept(args, start, say, "deck", deck=model_file(args.out / FILE, INPUT_W, INPUT_H), deck_embedding_dim=EMBED_DIM)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
