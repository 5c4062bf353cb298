"""The top checker: a closer look at each row where the band network believes a card's top edge lies.

Columns are rendered fresh (a seed no training used); the checker was trained on the ``train`` family only.
"""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from companion.vision import top_check
from companion.vision.columns import ColumnReader
from companion.vision.manifest import load_manifest
from companion.vision.strips import find_outlines
from companion.vision.top_check import HALF_ROWS, PATCH_H, PATCH_W, SCALE, TopChecker, candidates, patches
from models import train_top_check
from models.evaluate_columns import render_table
from models.render import unseen_deck
from models.top_check_data import dataset
from models.train import MODEL_DIR


@pytest.fixture(scope="module")
def checker(classifier) -> TopChecker:  # noqa: ANN001 - the session's shipped classifier
    return TopChecker(classifier.manifest)


def rank_share(higher: np.ndarray, lower: np.ndarray) -> float:
    """The share of pairs in which a value of ``higher`` exceeds one of ``lower`` (the area under the ROC curve)."""
    return float(np.mean(higher[:, None] > lower[None, :]))


def test_likely_tops_are_the_peaks_above_the_floor_inside_the_strip():
    logits = np.array([5.0, 1.0, 3.0, 2.0, -2.0, -1.5, -3.0, -0.5, -3.0, 4.0, 4.0, 9.0], np.float32)
    assert candidates(logits, 11).tolist() == [2, 7, 9]  # row 5 peaks below the floor; rows 0 and 10 are edges
    assert candidates(logits, 2).tolist() == []


def test_a_patch_is_centred_on_its_row_at_twice_the_strips_resolution():
    """An outline 64 px wide and 200 px long is a strip of 100 rows; a red line across frame row 61 is strip row 30
    and lies on the middle rows of that row's patch."""
    frame = np.full((240, 120, 3), 90, np.uint8)
    frame[61] = (0, 0, 255)
    outline = np.array([[20, 0], [84, 0], [84, 200], [20, 200]], np.float32)
    (patch,) = patches(frame, outline, [30])
    assert patch.shape == (PATCH_H, PATCH_W, 3) and SCALE * HALF_ROWS == PATCH_H // 2
    reddest = int(np.argmax(patch[:, :, 2].astype(int).mean(axis=1) - patch[:, :, 0].mean(axis=1)))
    assert abs(reddest - PATCH_H // 2) <= 1


def test_the_shipped_checker_tells_card_tops_from_the_designs_own_lines(checker, kit):
    """On fresh columns, at the rows where the band network believes in a card top, the checker ranks the true tops
    above the rest."""
    x, y = dataset(kit.seed, 40)
    looks = checker.infer(x)
    true, false = looks[y == 1], looks[y == 0]
    assert len(true) >= 100 and len(false) >= 10
    assert rank_share(true, false) > 0.95


def test_the_checker_mends_a_band_read_as_two(classifier, monkeypatch):
    """Tuning table 19's unseen-style column of 9 cards: a design line in one band looks like a card top to the band
    network, and the column was read as 10. At twice the resolution no card's edge cuts the design there."""
    frame, fields = render_table(19, unseen_deck(19))
    laid = fields[0]
    centre = laid.outline.mean(axis=0)
    outline = min(find_outlines(frame), key=lambda found: float(np.linalg.norm(found.mean(axis=0) - centre)))
    reader = ColumnReader(classifier.manifest)
    (column,) = reader.read(frame, [outline])
    assert laid.count == 9 and column is not None and column.count == 9
    monkeypatch.setattr(top_check, "WEIGHT", 0.0)
    (column,) = reader.read(frame, [outline])
    assert column is not None and column.count == 10


def test_the_top_checker_trains_and_exports_a_model_the_runtime_reads(tmp_path):
    for name in ("manifest.json", "band_net.onnx"):
        shutil.copy(MODEL_DIR / name, tmp_path / name)
    assert train_top_check.main(["--columns", "4", "--epochs", "1", "--workers", "1", "--out", str(tmp_path)]) == 0
    manifest = load_manifest(tmp_path)
    assert manifest.top_check.file == "top_check.onnx" and manifest.top_check.sha256 != load_manifest().top_check.sha256
    looks = TopChecker(manifest, directory=tmp_path).infer(np.zeros((3, PATCH_H, PATCH_W, 3), np.uint8))
    assert looks.shape == (3,) and np.isfinite(looks).all()
