"""Reading request bodies: JSON objects and fields, with a 400 that says what is wrong."""

from __future__ import annotations

from typing import Any

from flask import request

from web.errors import ApiError


def json_object() -> dict[str, Any]:
    """The request's JSON body, which must be an object."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise ApiError(400, "the request body must be a JSON object (Content-Type: application/json)")
    return data


def whole(value: Any, name: str, minimum: int = 0) -> int:
    """``value`` as a whole number of at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ApiError(400, f'"{name}" must be a whole number of at least {minimum}, got {value!r}')
    return value


def query_int(name: str, what: str = "a whole number") -> int | None:
    """The query argument ``name`` as a whole number, None if absent; a 400 saying it must be ``what``."""
    raw = request.args.get(name)
    if raw is None:
        return None
    if not raw.isdecimal():
        raise ApiError(400, f'"{name}" must be {what}, got {raw!r}')
    return int(raw)
