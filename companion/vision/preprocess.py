"""Card crops to network input: pure functions on arrays."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np


def to_input(crops: Sequence[np.ndarray] | np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """BGR ``uint8`` crops (any size) -> float32 (N, 3, height, width) in [0, 1]."""
    w, h = size
    batch = np.empty((len(crops), h, w, 3), np.uint8)
    for i, crop in enumerate(crops):
        batch[i] = crop if crop.shape[:2] == (h, w) else cv2.resize(crop, (w, h), interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(batch.transpose(0, 3, 1, 2), np.float32) / np.float32(255.0)


def turned(crop: np.ndarray) -> np.ndarray:
    """``crop`` turned by 180° (a card lies either way up)."""
    return np.ascontiguousarray(crop[::-1, ::-1])
