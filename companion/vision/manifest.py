"""The shipped models' manifest: file names, checksums, input sizes, labels, thresholds.

Model files are package data of ``models``, found with :mod:`importlib.resources`
wherever the package is installed, or lie in a folder given as ``directory`` (a manifest
beside its model files); :func:`load_model_bytes` checks the checksum.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from companion.vision.errors import VisionError

PACKAGE = "models"
MANIFEST = "manifest.json"
REBUILD_HINT = "reinstall the package, or rebuild the models with `python -m models.train`"


@dataclass(frozen=True)
class ModelFile:
    """One ONNX file of the package: its name, checksum and input size."""

    file: str
    sha256: str
    input_width: int
    input_height: int


@dataclass(frozen=True)
class Manifest:
    """What the runtime needs to know about the shipped networks."""

    classifier: ModelFile
    locator: ModelFile
    refiner: ModelFile
    bands: ModelFile
    """The band network of field columns (:mod:`companion.vision.columns`)."""
    top_check: ModelFile
    """The top checker (:mod:`companion.vision.top_check`): a closer look at each likely card top of a column."""
    detail_features: ModelFile
    """The detail matcher's feature network (:mod:`companion.vision.matcher`): a crop at its input size."""
    detail_compare: ModelFile
    """The detail matcher's comparison: its input size is that of the feature maps it compares."""
    detail_channels: int
    """Channels of the detail matcher's feature maps."""
    deck: ModelFile
    """The deck network (:mod:`models.deck_net`): a crop's embedding for naming a group's own deck, beside the
    card network's."""
    deck_embedding_dim: int
    labels: tuple[str, ...]
    embedding_dim: int
    scale: float
    """Softmax temperature of the cosines (the training scale)."""
    unknown_threshold: float
    """Least cosine to a shipped label's class vector for a known card."""
    deck_threshold: float
    """Least cosine to an enrolled prototype for a known card of a deck profile."""
    deck_scale: float
    """Softmax temperature of the cosines to an enrolled deck's prototypes, fitted on the calibration decks
    (:mod:`models.deck_scale`): they lie closer together than the shipped labels' class vectors."""


def _model_file(data: dict) -> ModelFile:
    return ModelFile(str(data["file"]), str(data["sha256"]), int(data["input_width"]), int(data["input_height"]))


def model_location(name: str, directory: Path | None = None):  # noqa: ANN201 - a Path or a Traversable
    """Where a file of the models lies: in the ``models`` package, or in ``directory``."""
    return resources.files(PACKAGE).joinpath(name) if directory is None else directory / name


def load_manifest(directory: Path | None = None) -> Manifest:
    """The manifest shipped in the ``models`` package, or the one in ``directory`` (beside its model files)."""
    try:
        res = model_location(MANIFEST, directory)
    except OSError as exc:  # e.g. an editable install made before models/ was a package
        raise VisionError(f"package {PACKAGE!r} has no readable files ({exc}); {REBUILD_HINT}") from None
    try:
        data = json.loads(res.read_text(encoding="utf-8"))
        net = data["classifier"]
        return Manifest(_model_file(net), _model_file(data["locator"]), _model_file(data["refiner"]),
                        _model_file(data["bands"]), _model_file(data["top_check"]),
                        _model_file(data["detail_features"]), _model_file(data["detail_compare"]),
                        int(data["detail_compare"]["channels"]),
                        _model_file(data["deck"]), int(data["deck"]["embedding_dim"]),
                        tuple(data["labels"]),
                        int(net["embedding_dim"]), float(net["scale"]), float(data["unknown_threshold"]),
                        float(data["deck_threshold"]), float(data["deck_scale"]))
    except FileNotFoundError:
        raise VisionError(f"{res}: model manifest missing; {REBUILD_HINT}") from None
    except (ValueError, KeyError, TypeError) as exc:
        raise VisionError(f"{res}: model manifest is corrupt ({exc}); {REBUILD_HINT}") from None


def load_model_bytes(model: ModelFile, directory: Path | None = None) -> bytes:
    """An ONNX file's bytes (from the package, or ``directory``), checked against its checksum."""
    res = model_location(model.file, directory)
    try:
        data = res.read_bytes()
    except FileNotFoundError:
        raise VisionError(f"{res}: model file missing; {REBUILD_HINT}") from None
    digest = hashlib.sha256(data).hexdigest()
    if digest != model.sha256:
        raise VisionError(f"{res}: model file is corrupt (sha256 {digest[:12]}..., manifest says "
                          f"{model.sha256[:12]}...); {REBUILD_HINT}")
    return data
