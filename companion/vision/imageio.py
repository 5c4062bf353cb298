"""Reading photos from disk with a clear message when a file is no image, or too large a picture to decode."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.vision.errors import VisionError
from companion.vision.image_size import check_picture

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")


def read_image(path: str | Path) -> np.ndarray:
    """The BGR ``uint8`` image at ``path``; :class:`VisionError` if it cannot be read, or has too many
    pixels to decode (:func:`~companion.vision.image_size.check_picture`, before decoding)."""
    path = Path(path)
    if not path.is_file():
        raise VisionError(f"{path}: no such image file; give the path of a PNG or JPEG photo")
    data = path.read_bytes()
    check_picture(str(path), data)
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise VisionError(f"{path}: not a readable image (empty or corrupt?); take the photo again as PNG or JPEG")
    return image
