"""Model files of the wrong shape are refused once, when they load, with the file and both shapes named.

Each case writes a tiny real ONNX network (the ``onnx`` package) in place of one shipped model
in a models folder, and loads the folder through the same loader the companion uses.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.vision import CardReader
from companion.vision.columns import ColumnReader
from companion.vision.errors import VisionError
from companion.vision.manifest import load_manifest
from companion.vision.onnx import SPINNING
from support.tiny_models import models_folder, tiny_net

SHIPPED = load_manifest()
EMBEDDING, LABELS = SHIPPED.embedding_dim, len(SHIPPED.labels)
CLASSIFIER_HW = (SHIPPED.classifier.input_height, SHIPPED.classifier.input_width)  # (96, 64)
LOCATOR_HW = (SHIPPED.locator.input_height, SHIPPED.locator.input_width)  # (80, 96)
REFINER_HW = (SHIPPED.refiner.input_height, SHIPPED.refiner.input_width)  # (120, 80)
DETAIL_HW = (SHIPPED.detail_features.input_height, SHIPPED.detail_features.input_width)  # (144, 96)

CASES = {
    "classifier-input": ("classifier", tiny_net(64, 64, {"embedding": (0, EMBEDDING), "cosines": (0, LABELS)}),
                         "input 'image' expected (N, 3, 96, 64), found (n, 3, 64, 64)"),
    "classifier-embedding": ("classifier", tiny_net(*CLASSIFIER_HW, {"embedding": (0, 10), "cosines": (0, LABELS)}),
                             "output 'embedding' expected (N, 64), found (n, 10)"),
    "classifier-labels": ("classifier", tiny_net(*CLASSIFIER_HW, {"embedding": (0, EMBEDDING), "cosines": (0, 3)}),
                          "output 'cosines' expected (N, 16), found (n, 3)"),
    "classifier-outputs": ("classifier", tiny_net(*CLASSIFIER_HW, {"embedding": (0, EMBEDDING)}),
                           "it has 1 outputs ('embedding'), expected 2"),
    "classifier-input-name": ("classifier", tiny_net(*CLASSIFIER_HW, {"embedding": (0, EMBEDDING),
                                                                      "cosines": (0, LABELS)}, "pixels"),
                              "its inputs are 'pixels', expected 'image'"),
    "locator-mask": ("locator", tiny_net(*LOCATOR_HW, {"mask": (0, 1, *LOCATOR_HW)}),
                     "output 'mask' expected (N, 1, 40, 48), found (n, 1, 80, 96)"),
    "refiner-corners": ("refiner", tiny_net(*REFINER_HW, {"corners": (0, 4)}),
                        "output 'corners' expected (N, 8), found (n, 4)"),
    "detail-features": ("detail_features", tiny_net(*DETAIL_HW, {"features": (0, 8)}),
                        "output 'features' expected (N, 96, 18, 12), found (n, 8)"),
    "detail-compare-inputs": ("detail_compare", tiny_net(*DETAIL_HW, {"logit": (0, 1)}),
                              "its inputs are 'image', expected 'card', 'photo'"),
    "deck-embedding": ("deck", tiny_net(*CLASSIFIER_HW, {"embedding": (0, 10)}),
                       "output 'embedding' expected (N, 64), found (n, 10)"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_model_of_the_wrong_shape_is_refused_at_load(tmp_path: Path, case: str) -> None:
    key, net, problem = CASES[case]
    folder = models_folder(tmp_path / "models", **{key: net})
    file = folder / getattr(SHIPPED, key).file
    with pytest.raises(VisionError) as refused:
        CardReader(directory=folder)
    assert str(refused.value).startswith(f"{file}: the model does not fit this program: {problem}; reinstall")


def test_a_tiny_model_of_the_right_shape_loads_and_runs(tmp_path: Path) -> None:
    """The tiny networks are real: one of the right shape passes the check and gives its outputs."""
    net = tiny_net(*CLASSIFIER_HW, {"embedding": (0, EMBEDDING), "cosines": (0, LABELS)})
    reader = CardReader(directory=models_folder(tmp_path / "models", classifier=net))
    embeddings, cosines = reader.classifier.infer([np.zeros((*CLASSIFIER_HW, 3), np.uint8)] * 2)
    assert embeddings.shape == (2, EMBEDDING) and cosines.shape == (2, LABELS)


def test_the_shipped_models_load_from_a_copied_folder(tmp_path: Path) -> None:
    reader = CardReader(directory=models_folder(tmp_path / "models"))
    assert reader.classifier.input_size == CLASSIFIER_HW[::-1]


def test_no_session_spins_waiting_for_work_after_a_run() -> None:
    """On two cores, onnxruntime's threads spinning after each run took the time of the stages between the networks."""
    columns, reader = ColumnReader(SHIPPED), CardReader()
    sessions = [columns.bands.session, columns.checker.session, reader.classifier.session, reader.locator.session]
    assert [s.get_session_options().get_session_config_entry(SPINNING) for s in sessions] == ["0"] * 4
