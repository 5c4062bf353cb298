"""Card classification speed on 2 threads: batched vs. one card per call (second looks included),
plus the crop step: one crop against every stage's framings and the reframings of odd outlines.

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
    for photo in photos:
        reader.crop(photo)
    crop_ms = (time.perf_counter() - start) * 1000 / len(photos)
    start = time.perf_counter()
    views = [reader.views(p) for p in photos]
    views_ms = (time.perf_counter() - start) * 1000 / len(photos)
    batched, single, looked = timing(reader.classifier, views, None)
    print(f"vision: {len(views)} cards, onnxruntime on 2 threads, {looked:.1%} given a second look")
    print(f"  classify batched (256 a call): {batched:.3f} ms per card")
    print(f"  classify one card per call   : {single:.3f} ms per card (baseline)")
    print(f"  locate + crop a 240x200 photo: {crop_ms:.3f} ms per photo (baseline)")
    print(f"  locate + views (3 framings)  : {views_ms:.3f} ms per photo ({views_ms / crop_ms:.2f} x)")


if __name__ == "__main__":
    main()
