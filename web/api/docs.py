"""The API's own description: ``/api/openapi.json``, merged from one fragment per area in ``web/openapi/``."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from flask import Blueprint, Response, jsonify

bp = Blueprint("docs", __name__, url_prefix="/api")

BASE = "base.json"


@cache
def openapi_document() -> dict[str, Any]:
    """The OpenAPI 3.1 document: ``base.json`` plus the paths and schemas of every other fragment."""
    folder = resources.files("web") / "openapi"
    document = json.loads((folder / BASE).read_text())
    for fragment in sorted((f for f in folder.iterdir() if f.name.endswith(".json") and f.name != BASE),
                           key=lambda f: f.name):
        part = json.loads(fragment.read_text())
        document["paths"].update(part.get("paths", {}))
        document["components"]["schemas"].update(part.get("components", {}).get("schemas", {}))
    return document


@bp.get("/openapi.json")
def openapi() -> Response:
    """This API, described as OpenAPI 3.1."""
    return jsonify(openapi_document())
