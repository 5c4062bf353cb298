"""onnxruntime sessions for the checked model files of the manifest.

Each session is checked once, when it is made, against the tensor shapes the code feeds
it and reads from it: a model file of the wrong shape is refused with a sentence naming
the file and both shapes, instead of failing on every picture.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import onnxruntime as ort

from companion.vision.errors import VisionError
from companion.vision.manifest import REBUILD_HINT, ModelFile, load_model_bytes, model_location

INPUT = "image"
"""The one input of every network: BGR float32 (N, 3, H, W)."""

SPINNING = "session.intra_op.allow_spinning"
"""The onnxruntime setting, turned off, that lets a session's threads spin, waiting for work, for a while after each
run: on two cores they took the time of the OpenCV and numpy stages between the networks (the band network's strips
were explained at half the speed)."""

Shape = tuple[int | None, ...]
"""A tensor shape as the code expects it; ``None`` where any size goes (the batch)."""


def open_session(model: ModelFile, outputs: Sequence[Shape], threads: int = 2, directory: Path | None = None,
                 inputs: Sequence[tuple[str, Shape]] | None = None) -> ort.InferenceSession:
    """A CPU session on ``threads`` threads; the file comes from the package unless ``directory``.

    The model must take ``inputs`` (in order; by default one, ``image`` of (N, 3, height, width) as the
    manifest gives them), and give ``outputs`` (in order); :class:`VisionError` otherwise.
    """
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.add_session_config_entry(SPINNING, "0")
    data = load_model_bytes(model, directory)
    try:
        session = ort.InferenceSession(data, options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own untyped errors
        raise VisionError(f"{model.file}: cannot load the model ({exc}); {REBUILD_HINT}") from None
    problem = shape_problem(session, inputs or [(INPUT, (None, 3, model.input_height, model.input_width))], outputs)
    if problem:
        raise VisionError(f"{model_location(model.file, directory)}: the model does not fit this program: "
                          f"{problem}; {REBUILD_HINT}")
    return session


def shape_problem(session: ort.InferenceSession, inputs: Sequence[tuple[str, Shape]],
                  outputs: Sequence[Shape]) -> str | None:
    """What is wrong with the session's input and output shapes, or ``None``."""
    given = session.get_inputs()
    if [i.name for i in given] != [name for name, _ in inputs]:
        return f"its inputs are {_names(given)}, expected {', '.join(repr(name) for name, _ in inputs)}"
    for tensor, (name, shape) in zip(given, inputs):
        if not _fits(tensor.shape, shape):
            return f"input {name!r} expected {_shown(shape)}, found {_shown(tensor.shape)}"
    found = session.get_outputs()
    if len(found) != len(outputs):
        return f"it has {len(found)} outputs ({_names(found)}), expected {len(outputs)}"
    for output, expected in zip(found, outputs):
        if not _fits(output.shape, expected):
            return f"output {output.name!r} expected {_shown(expected)}, found {_shown(output.shape)}"
    return None


def _fits(found: Sequence[int | str | None], expected: Shape) -> bool:
    """Same rank, and every fixed size equal (a named or unknown size in the model may be anything)."""
    return len(found) == len(expected) and all(
        want is None or not isinstance(have, int) or have == want for have, want in zip(found, expected))


def _shown(shape: Sequence[int | str | None]) -> str:
    return "(" + ", ".join("N" if size is None else str(size) for size in shape) + ")"


def _names(tensors: Sequence[ort.NodeArg]) -> str:
    return ", ".join(repr(t.name) for t in tensors) or "none"
