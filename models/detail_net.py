"""The detail matcher: does a card crop show the same card as an enrolled photo's crop?

Two beans of like colour embed close together in a deck the card network never saw; what tells
them apart is printed detail (name, numbers, picture shape) in the same place on the card. The
matcher reads both crops at the detail size (96 x 144) into feature maps at an eighth of it (12 x 18)
and compares them place by place, so it learns what differs between two cards rather than what each
card is. ``features`` runs once per crop, ``compare`` once per pair; both ship as ONNX.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F

from companion.vision.keypoints import DETAIL_SIZE

DETAIL_W, DETAIL_H = DETAIL_SIZE
CHANNELS = 96
"""Channels of a crop's feature map."""


def _conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


def _separable(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cin, 3, stride, 1, groups=cin, bias=False), nn.BatchNorm2d(cin), nn.ReLU(inplace=True),
        nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
    )


class DetailNet(nn.Module):
    """Crops (N, 3, 144, 96) BGR in [0, 1] -> feature maps (N, CHANNELS, 18, 12); pairs of maps -> match logits (N,)."""

    def __init__(self) -> None:
        super().__init__()
        c = CHANNELS
        self.trunk = nn.Sequential(
            _conv(3, 32, 2),  # 72x48
            _separable(32, 48),
            _separable(48, 64, 2),  # 36x24
            _separable(64, 64),
            _separable(64, c, 2),  # 18x12
            _separable(c, c),
            _separable(c, c),
        )
        self.head = nn.Sequential(
            nn.Conv2d(4 * c, c, 1, bias=False), nn.BatchNorm2d(c), nn.ReLU(inplace=True),
            _separable(c, c),
            _separable(c, 128, 2),  # 9x6
            _separable(128, 128),
        )
        self.out = nn.Linear(256, 1)

    def features(self, image: torch.Tensor) -> torch.Tensor:
        """Feature maps of crops."""
        return self.trunk((image - 0.5) / 0.25)

    def compare(self, card: torch.Tensor, photo: torch.Tensor) -> torch.Tensor:
        """Match logits of pairs of feature maps (a card's, an enrolled photo's)."""
        x = self.head(torch.cat([card, photo, (card - photo).abs(), card * photo], dim=1))
        pooled = torch.cat([x.mean(dim=(2, 3)), x.amax(dim=(2, 3))], dim=1)
        return self.out(pooled).squeeze(1)


class Features(nn.Module):
    """What ships as ``detail_features.onnx``: crops -> feature maps."""

    def __init__(self, net: DetailNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        return self.net.features(image)


class Compare(nn.Module):
    """What ships as ``detail_compare.onnx``: pairs of feature maps -> match logits."""

    def __init__(self, net: DetailNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, card: torch.Tensor, photo: torch.Tensor) -> torch.Tensor:
        return self.net.compare(card, photo)


def deck_logits(net: DetailNet, cards: torch.Tensor, turned: torch.Tensor, photos: torch.Tensor) -> torch.Tensor:
    """(B, Q, K) match logits of each deck's Q card crops against its K enrolled photos, each card the better
    of itself and its 180° turn (``turned``): a crop lies either way up. Crops come as (B, n, 3, H, W)."""
    b, q, k = cards.shape[0], cards.shape[1], photos.shape[1]
    feats = net.features(torch.cat([cards, turned, photos], dim=1).flatten(0, 1))
    feats = feats.view(b, 2 * q + k, *feats.shape[1:])
    card, photo = feats[:, :2 * q], feats[:, 2 * q:]
    pairs_card = card[:, :, None].expand(-1, -1, k, -1, -1, -1).flatten(0, 2)
    pairs_photo = photo[:, None].expand(-1, 2 * q, -1, -1, -1, -1).flatten(0, 2)
    logits = net.compare(pairs_card, pairs_photo).view(b, 2, q, k)
    return logits.amax(dim=1)


def ranking_loss(logits: torch.Tensor, valid: torch.Tensor) -> torch.Tensor:
    """Cross-entropy of (B, Q, K) logits where card q's own photo is photo q, over valid cards (B, Q)."""
    target = torch.arange(logits.shape[1], device=logits.device).expand(logits.shape[0], -1)
    loss = F.cross_entropy(logits.flatten(0, 1), target.flatten(), reduction="none")
    return (loss * valid.flatten()).sum() / valid.sum().clamp(min=1)
