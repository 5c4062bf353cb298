"""The card network: a compact CNN giving an L2-normalised embedding and cosine logits.

One network does both jobs: ``cosines`` against the shipped labels' class vectors
(the classifier) and the ``embedding`` itself (for decks enrolled by a group).
"""

from __future__ import annotations

import math

import torch
from torch import nn
from torch.nn import functional as F

from models.dataset import INPUT_H, INPUT_W, REFINER_H, REFINER_W

EMBED_DIM = 64


def _separable(cin: int, cout: int, stride: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cin, 3, stride, 1, groups=cin, bias=False), nn.BatchNorm2d(cin), nn.ReLU(inplace=True),
        nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
    )


class CardNet(nn.Module):
    """Image (N, 3, INPUT_H, INPUT_W) BGR in [0, 1] -> unit embedding (N, EMBED_DIM)."""

    def __init__(self, width: int = 32) -> None:
        super().__init__()
        w = width
        self.features = nn.Sequential(
            nn.Conv2d(3, w, 3, 2, 1, bias=False), nn.BatchNorm2d(w), nn.ReLU(inplace=True),  # 48x32
            _separable(w, 2 * w, 1),
            _separable(2 * w, 2 * w, 2),  # 24x16
            _separable(2 * w, 3 * w, 1),
            _separable(3 * w, 4 * w, 2),  # 12x8
            _separable(4 * w, 4 * w, 1),
            _separable(4 * w, 6 * w, 2),  # 6x4
        )
        cells = math.ceil(INPUT_H / 16) * math.ceil(INPUT_W / 16)
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(6 * w * cells, EMBED_DIM))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = (x - 0.5) / 0.25
        return F.normalize(self.head(self.features(x)), dim=1)


class CosineHead(nn.Module):
    """Class vectors on the unit sphere; CosFace logits s * (cos - m at the target)."""

    def __init__(self, classes: int, scale: float = 16.0, margin: float = 0.2) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.randn(classes, EMBED_DIM) * 0.1)
        self.scale, self.margin = scale, margin

    def cosines(self, embedding: torch.Tensor) -> torch.Tensor:
        return embedding @ F.normalize(self.weight, dim=1).T

    def loss(self, embedding: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        cos = self.cosines(embedding)
        logits = self.scale * (cos - self.margin * F.one_hot(target, cos.shape[1]))
        return F.cross_entropy(logits, target)


class Exported(nn.Module):
    """What ships: the embedding and its cosines to the shipped labels' class vectors."""

    def __init__(self, net: CardNet, head: CosineHead, shipped: int) -> None:
        super().__init__()
        self.net = net
        self.register_buffer("classes", F.normalize(head.weight.detach()[:shipped], dim=1).clone())

    def forward(self, image: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        embedding = self.net(image)
        return embedding, embedding @ self.classes.T


def _conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


def _up(x: torch.Tensor, skip: torch.Tensor) -> torch.Tensor:
    """``x`` scaled (bilinear) to ``skip``'s size and stacked on it."""
    return torch.cat([F.interpolate(x, size=skip.shape[2:], mode="bilinear", align_corners=False), skip], 1)


class LocatorNet(nn.Module):
    """Photo (N, 3, H, W) BGR in [0, 1] -> card-mask logits (N, 1, H/2, W/2): a small U-Net.

    Four stride-2 levels down to H/16 (the whole photo in view, to tell the card from
    the one covering it), three bilinear steps up with skips.
    """

    def __init__(self) -> None:
        super().__init__()
        self.down1, self.down2 = _conv(3, 16, 2), _conv(16, 32, 2)
        self.down3 = nn.Sequential(_conv(32, 48, 2), _conv(48, 48))
        self.down4 = nn.Sequential(_conv(48, 64, 2), _conv(64, 64))
        self.up3, self.up2, self.up1 = _conv(64 + 48, 48), _conv(48 + 32, 24), _conv(24 + 16, 12)
        self.out = nn.Conv2d(12, 1, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = (x - 0.5) / 0.25
        d1 = self.down1(x)
        d2 = self.down2(d1)
        d3 = self.down3(d2)
        u3 = self.up3(_up(self.down4(d3), d3))
        return self.out(self.up1(_up(self.up2(_up(u3, d2)), d1)))


class RefinerNet(nn.Module):
    """View (N, 3, H, W) BGR in [0, 1] -> corners (N, 8): x, y of 4 corners as shares of the view.

    Five stride-2 levels to H/32, flatten, two linear layers giving small moves from the
    rough corners (:func:`companion.vision.refine.inner_rectangle`), in the same order.
    """

    def __init__(self, start: torch.Tensor) -> None:
        super().__init__()
        self.features = nn.Sequential(_conv(3, 16, 2), _conv(16, 32, 2), _conv(32, 48, 2), _conv(48, 48),
                                      _conv(48, 64, 2), _conv(64, 64), _conv(64, 96, 2))
        cells = math.ceil(REFINER_H / 32) * math.ceil(REFINER_W / 32)
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(96 * cells, 128), nn.ReLU(inplace=True), nn.Linear(128, 8))
        self.register_buffer("start", start.reshape(1, 8).float())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.start + 0.1 * self.head(self.features((x - 0.5) / 0.25))
