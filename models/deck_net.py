"""The deck network: a card crop's embedding, learnt the way a group's enrollment uses it.

The card network (:mod:`models.net`) learns thousands of designs as classes at once, and colour is the
easiest way to tell those apart. A group's deck asks something else: which of this deck's 16 cards is
this one, where beans of like colour differ by their printed name, numbers and picture. The deck network
is trained on exactly that (:mod:`models.train_deck`): a card's crop against the 16 enrolled crops of its
own deck, with each deck's colours shuffled, so that no colour stands for a card. It reads the card
network's crop size; what ships (:class:`Symmetric`) gives a crop and its 180° turn the same embedding.
"""

from __future__ import annotations

import math

import torch
from torch import nn
from torch.nn import functional as F

from models.dataset import INPUT_H, INPUT_W
from models.net import _separable

EMBED_DIM = 64
SCALE, MARGIN = 16.0, 0.2
"""Cosine logits' scale and the margin the own photo must win by in training (as the card network's)."""


class DeckNet(nn.Module):
    """Crops (N, 3, INPUT_H, INPUT_W) BGR in [0, 1] (other sizes are scaled to it) -> unit embeddings
    (N, EMBED_DIM): a 3x3 stem (stride 2), three pairs of separable blocks (the second of each stride 2),
    flatten, linear."""

    def __init__(self, channels: int = 32) -> None:
        super().__init__()
        c = channels
        blocks: list[nn.Module] = [nn.Conv2d(3, c, 3, 2, 1, bias=False), nn.BatchNorm2d(c), nn.ReLU(inplace=True)]
        cin = c
        for cout in (2 * c, 3 * c, 4 * c):
            blocks += [_separable(cin, cin, 1), _separable(cin, cout, 2)]
            cin = cout
        self.features = nn.Sequential(*blocks)
        cells = math.ceil(INPUT_H / 16) * math.ceil(INPUT_W / 16)
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(cin * cells, EMBED_DIM))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.shape[-2:] != (INPUT_H, INPUT_W):
            x = F.interpolate(x, size=(INPUT_H, INPUT_W), mode="area")
        return F.normalize(self.head(self.features((x - 0.5) / 0.25)), dim=1)


class Symmetric(nn.Module):
    """What ships as ``deck_net.onnx``: the unit mean of a crop's embedding and its 180° turn's, so that a
    card reads the same either way up, as the card network's embedding does."""

    def __init__(self, net: DeckNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        return F.normalize(self.net(image) + self.net(image.flip(-1, -2)), dim=1)


def deck_cosines(net: DeckNet, cards: torch.Tensor, turned: torch.Tensor, photos: torch.Tensor,
                 across: bool = False) -> torch.Tensor:
    """(B, Q, K) cosines of each deck's Q card crops to its K enrolled photos, each card the better of itself
    and its 180° turn (``turned``). Crops come as (B, n, 3, H, W). With ``across``, (B, Q, B x K): each card's
    own deck's photos first, then every other deck's in the batch."""
    b, q, k = cards.shape[0], cards.shape[1], photos.shape[1]
    emb = net(torch.cat([cards, turned, photos], dim=1).flatten(0, 1)).float().view(b, 2 * q + k, -1)
    others = emb[:, 2 * q:]
    if across:  # deck b's photos rolled to the front of every other deck's
        others = torch.stack([others.roll(-d, dims=0) for d in range(b)], dim=1).flatten(1, 2)
    cos = torch.einsum("bqd,bkd->bqk", emb[:, :2 * q], others).view(b, 2, q, -1)
    return cos.amax(dim=1)


def margin_logits(net: DeckNet, cards: torch.Tensor, turned: torch.Tensor, photos: torch.Tensor) -> torch.Tensor:
    """Logits of each card against its deck's photos, scaled cosines. In training also against every other deck's
    photos in the batch (so that a card of another deck lies apart too, as an enrolled deck's unknown threshold
    needs), the own photo's cosine lowered by the margin."""
    cos = deck_cosines(net, cards, turned, photos, across=net.training)
    if not net.training:
        return SCALE * cos
    own = torch.eye(cos.shape[1], cos.shape[2], device=cos.device)
    return SCALE * (cos - MARGIN * own)
