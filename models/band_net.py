"""The band network: where, along a field column's strip, each card's top edge lies.

Input: a strip (N, 3, L, W), BGR in [0, 1], read from one end of a column
(:mod:`companion.vision.strips`). Output: (N, L) logits, one per row, that a card's top edge
lies on that row with the card upright as read (its top toward row 0). A strip read from
the column's near end has no such row, so the same network says which end a column starts
from. Small 2-D convolutions read each row with its neighbours and fold the width away; dilated
1-D convolutions along the column then give each row about one and a half cards of context.
"""

from __future__ import annotations

import torch
from torch import nn

WIDTH_CHANNELS = (12, 16, 24)
"""Channels of the 2-D stages (each halves the strip's width)."""
DILATIONS = (1, 2, 4, 8)
"""Dilations of the 1-D stages along the column."""


def _block2d(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride=(1, 2), padding=1, bias=False), nn.BatchNorm2d(cout),
                         nn.ReLU(inplace=True))


def _block1d(channels: int, dilation: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv1d(channels, channels, 5, padding=2 * dilation, dilation=dilation, bias=False),
                         nn.BatchNorm1d(channels), nn.ReLU(inplace=True))


class BandNet(nn.Module):
    """Strips (N, 3, L, W) to per-row logits (N, L) of a card's top edge."""

    def __init__(self) -> None:
        super().__init__()
        stages, cin = [], 3
        for cout in WIDTH_CHANNELS:
            stages.append(_block2d(cin, cout))
            cin = cout
        self.rows = nn.Sequential(*stages)
        self.column = nn.Sequential(*[_block1d(cin, d) for d in DILATIONS])
        self.head = nn.Conv1d(cin, 1, 1)

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        features = self.rows(image).mean(dim=3)
        return self.head(self.column(features)).squeeze(1)
