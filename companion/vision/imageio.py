"""Reading photos from disk with a clear message when a file is no image."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.vision.errors import VisionError

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")


def read_image(path: str | Path) -> np.ndarray:
    """The BGR ``uint8`` image at ``path``; :class:`VisionError` if it cannot be read."""
    path = Path(path)
    if not path.is_file():
        raise VisionError(f"{path}: no such image file; give the path of a PNG or JPEG photo")
    data = np.fromfile(path, np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise VisionError(f"{path}: not a readable image (empty or corrupt?); take the photo again as PNG or JPEG")
    return image
