"""Shared fixtures: the shipped classifier (one session) and fresh rendered photos."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from companion.cards import VISION_LABELS
from companion.vision import CardClassifier, CardReader
from companion.vision.keypoints import DETAIL_SIZE
from models.camera import photograph
from models.dataset import house_faces, other_faces
from models.heldout import camera as heldout_camera
from models.heldout.families import FAMILIES

TEST_SEED = 4242
"""Never used by training (1, 2) or the evaluation script (9001 and up)."""


@pytest.fixture(scope="session")
def reader() -> CardReader:
    return CardReader()


@pytest.fixture(scope="session")
def classifier(reader) -> CardClassifier:  # noqa: ANN001
    return reader.classifier


@pytest.fixture(scope="session")
def faces() -> list[np.ndarray]:
    return house_faces()


def photos_of(faces: list[np.ndarray], per_face: int, seed: int, cover: bool = True) -> list[np.ndarray]:
    """Fresh degraded photos, ``per_face`` of each face in order."""
    covers = other_faces(seed, 8) if cover else None
    return [photograph(face, np.random.default_rng([seed, c, i]), covers[i % 8] if covers else None)
            for c, face in enumerate(faces) for i in range(per_face)]


def write_photos(folder, photos: list[np.ndarray], prefix: str = "p") -> list[str]:  # noqa: ANN001
    """Save photos as JPEG files, returning their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, photo in enumerate(photos):
        path = folder / f"{prefix}{i}.jpg"
        cv2.imwrite(str(path), photo)
        paths.append(str(path))
    return paths


@pytest.fixture(scope="session")
def kit() -> SimpleNamespace:
    """The test seed and the photo helpers above (test modules cannot import conftest)."""
    return SimpleNamespace(seed=TEST_SEED, photos_of=photos_of, write_photos=write_photos)


@pytest.fixture(scope="session")
def details(reader, kit) -> dict[str, list[np.ndarray]]:  # noqa: ANN001
    """Two photos of each card of a held-out woodcut deck (:mod:`models.heldout`), cropped at the detail size:
    one to enroll, one fresh."""
    family = FAMILIES["woodcut"]
    faces = family.deck(kit.seed)
    photos = [heldout_camera.photograph(face, np.random.default_rng([kit.seed, 21, c, i]), family.look)
              for c, face in enumerate(faces) for i in range(2)]  # fmt: skip
    crops = [reader.locator.framings(photo, DETAIL_SIZE)[0] for photo in photos]
    return {label: crops[2 * c:2 * c + 2] for c, label in enumerate(VISION_LABELS)}
