"""onnxruntime sessions for the checked model files of the manifest."""

from __future__ import annotations

from pathlib import Path

import onnxruntime as ort

from companion.vision.errors import VisionError
from companion.vision.manifest import REBUILD_HINT, ModelFile, load_model_bytes


def open_session(model: ModelFile, threads: int = 2, directory: Path | None = None) -> ort.InferenceSession:
    """A CPU session on ``threads`` threads; the file comes from the package unless ``directory``."""
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    data = load_model_bytes(model, directory)
    try:
        return ort.InferenceSession(data, options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own untyped errors
        raise VisionError(f"{model.file}: cannot load the model ({exc}); {REBUILD_HINT}") from None
