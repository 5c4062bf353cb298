"""Card classification speed on 2 threads: batched vs. one card per call, plus the crop step.

    .venv/bin/python benchmarks/vision.py
"""

from __future__ import annotations

import time

import numpy as np

from companion.vision import CardReader
from models.camera import photograph
from models.dataset import house_faces
from models.evaluate import timing


def main() -> None:
    reader = CardReader(threads=2)
    faces = house_faces()
    photos = [photograph(faces[i % len(faces)], np.random.default_rng([31337, i])) for i in range(512)]
    start = time.perf_counter()
    crops = [reader.crop(p) for p in photos]
    crop_ms = (time.perf_counter() - start) * 1000 / len(photos)
    batched, single = timing(reader.classifier, crops)
    print(f"vision: {len(crops)} cards, onnxruntime on 2 threads")
    print(f"  classify batched (256 a call): {batched:.3f} ms per card")
    print(f"  classify one card per call   : {single:.3f} ms per card (baseline)")
    print(f"  locate + crop a 240x200 photo: {crop_ms:.3f} ms per photo")


if __name__ == "__main__":
    main()
