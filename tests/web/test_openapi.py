"""The API is documented: every route under /api/ is in the OpenAPI document, with its methods."""

from __future__ import annotations

import re

from flask import Flask

HTTP_METHODS = {"get", "post", "put", "patch", "delete"}


def _documented_path(rule: str) -> str:
    return re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule)


def test_every_api_route_is_documented_with_its_methods(app: Flask, client) -> None:
    document = client.get("/api/openapi.json").get_json()
    assert document["openapi"].startswith("3.1")
    paths = document["paths"]
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        path = _documented_path(rule.rule)
        assert path in paths, f"{path} is not in the OpenAPI document"
        methods = {m.lower() for m in rule.methods} & HTTP_METHODS
        assert methods <= set(paths[path]), f"{path}: {methods - set(paths[path])} undocumented"


def test_every_documented_path_exists(app: Flask, client) -> None:
    routes = {_documented_path(r.rule) for r in app.url_map.iter_rules()}
    for path in client.get("/api/openapi.json").get_json()["paths"]:
        assert path in routes, f"{path} is documented but not served"


def test_every_schema_reference_resolves(client) -> None:
    document = client.get("/api/openapi.json").get_json()
    text = str(document)
    for name in re.findall(r"#/components/schemas/([\w-]+)", text):
        assert name in document["components"]["schemas"], name
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            assert method in HTTP_METHODS and operation.get("responses"), (path, method)
