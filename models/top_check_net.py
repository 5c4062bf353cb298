"""The top checker: whether a card's top edge lies on the middle row of a patch of a column's strip.

Input: a patch (N, 3, H, W), BGR in [0, 1], of the frame around one row of a column's strip at twice the
strip's resolution (:func:`companion.vision.top_check.patches`). Output: (N,) logits. Five small
convolution stages (the width halved four times, the rows three times) keep where things lie, so the
head sees whether the row is a straight edge across the whole card, with a thin shadow before it and a
design cut short above it, or a line of the design itself.
"""

from __future__ import annotations

import torch
from torch import nn

from companion.vision.top_check import PATCH_H, PATCH_W

CHANNELS = (16, 24, 32, 48, 64)
"""Channels of the convolution stages."""
STRIDES = ((2, 2), (2, 2), (2, 2), (1, 2), (1, 1))
"""Each stage's stride (rows, width)."""
HIDDEN = 64
OUTPUT = "logit (N,): a card's top edge on the patch's middle row"
"""The output as the manifest describes it."""


def _stage(cin: int, cout: int, stride: tuple[int, int]) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False), nn.BatchNorm2d(cout),
                         nn.ReLU(inplace=True))


class TopCheckNet(nn.Module):
    """Patches (N, 3, PATCH_H, PATCH_W) to logits (N,)."""

    def __init__(self) -> None:
        super().__init__()
        stages, cin, rows, width = [], 3, PATCH_H, PATCH_W
        for cout, (down, across) in zip(CHANNELS, STRIDES):
            stages.append(_stage(cin, cout, (down, across)))
            cin, rows, width = cout, -(-rows // down), -(-width // across)
        self.features = nn.Sequential(*stages)
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(cin * rows * width, HIDDEN), nn.ReLU(inplace=True),
                                  nn.Linear(HIDDEN, 1))

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(image)).squeeze(1)
