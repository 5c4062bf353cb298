"""The enrollment folder: ``DIR/<label>/*.png|jpg``, checked before any work is done."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from companion.cards import VISION_LABELS
from companion.vision.errors import VisionError
from companion.vision.imageio import IMAGE_SUFFIXES

LOPSIDED = 3
"""A label may have at most this many times the photos of the label with the fewest."""


def enrollment_photos(root: str | Path) -> dict[str, list[Path]]:
    """Photo paths per label, in ``VISION_LABELS`` order; :class:`VisionError` says what is wrong."""
    root = Path(root)
    layout = f"put a few photos of each card in {root}/<bean id>/*.png or *.jpg"
    if not root.is_dir():
        raise VisionError(f"{root}: no such folder; {layout}")
    folders = {p.name: p for p in root.iterdir() if p.is_dir()}
    strange = sorted(set(folders) - set(VISION_LABELS))
    if strange:
        raise VisionError(f"{root}: folders {', '.join(strange)} are no known labels; "
                          f"use these names: {', '.join(VISION_LABELS)}")
    photos = {label: sorted(p for p in folders[label].iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
              for label in VISION_LABELS if label in folders}
    empty = [label for label, paths in photos.items() if not paths]
    if not photos:
        raise VisionError(f"{root}: empty enrollment folder; {layout}")
    if empty:
        raise VisionError(f"{root}: no photos in {', '.join(f'{e}/' for e in empty)}; {layout}")
    problem = uneven_enrollment({label: len(paths) for label, paths in photos.items()}, lambda label: f"{label}/")
    if problem:
        raise VisionError(f"{root}: {problem}")
    return photos


def uneven_enrollment(counts: Mapping[str, int], name: Callable[[str], str] = str) -> str | None:
    """Why photos with these counts per label (each at least one) make a poor deck profile, or None."""
    if len(counts) < 2:
        return f"only {name(next(iter(counts)))} has photos; enroll at least two kinds of card"
    low, high = min(counts, key=counts.__getitem__), max(counts, key=counts.__getitem__)
    if counts[high] > LOPSIDED * counts[low]:
        return (f"lopsided enrollment, {name(high)} has {counts[high]} photos but {name(low)} only {counts[low]}; "
                "take about as many photos of every card")
    return None
