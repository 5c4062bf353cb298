"""Tiny real ONNX networks of chosen shapes (made with the ``onnx`` package), and models folders holding them."""

from __future__ import annotations

import hashlib
import json
import shutil
from importlib import resources
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from companion.vision.manifest import MANIFEST, PACKAGE


def tiny_net(height: int, width: int, outputs: dict[str, tuple[int, ...]], input_name: str = "image") -> bytes:
    """An ONNX model taking ``input_name`` of (n, 3, height, width) and giving each output in order:
    (n, k) by pooling and a matrix product, (n, 1, height, width) by a 1x1 convolution."""
    nodes, weights, declared = [], [], []
    for name, shape in outputs.items():
        if len(shape) == 2:
            nodes += [helper.make_node("GlobalAveragePool", [input_name], [f"{name}_pool"]),
                      helper.make_node("Flatten", [f"{name}_pool"], [f"{name}_flat"]),
                      helper.make_node("MatMul", [f"{name}_flat", f"{name}_w"], [name])]
            weights.append(numpy_helper.from_array(np.ones((3, shape[1]), np.float32), f"{name}_w"))
        else:
            assert shape[1:] == (1, height, width), "only a mask at the input's size is made here"
            nodes.append(helper.make_node("Conv", [input_name, f"{name}_w"], [name]))
            weights.append(numpy_helper.from_array(np.ones((1, 3, 1, 1), np.float32), f"{name}_w"))
        declared.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, ["n", *shape[1:]]))
    image = helper.make_tensor_value_info(input_name, TensorProto.FLOAT, ["n", 3, height, width])
    model = helper.make_model(helper.make_graph(nodes, "tiny", [image], declared, weights),
                              opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model, full_check=True)
    return model.SerializeToString()


def models_folder(folder: Path, **nets: bytes) -> Path:
    """``folder`` with the package's manifest and model files, where each of ``nets`` (by manifest key:
    classifier, locator, refiner, detail_features...) replaces that model's file, its checksum updated in the
    manifest."""
    package = resources.files(PACKAGE)
    manifest = json.loads(package.joinpath(MANIFEST).read_text(encoding="utf-8"))
    folder.mkdir(parents=True, exist_ok=True)
    for key in [k for k, v in manifest.items() if isinstance(v, dict) and "file" in v]:
        entry, target = manifest[key], folder / manifest[key]["file"]
        if key in nets:
            target.write_bytes(nets[key])
            entry["sha256"] = hashlib.sha256(nets[key]).hexdigest()
        else:
            with resources.as_file(package.joinpath(entry["file"])) as shipped:
                shutil.copy(shipped, target)
    (folder / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    return folder
