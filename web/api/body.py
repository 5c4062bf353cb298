"""Reading requests at the door: JSON bodies, fields and query numbers, with a 4xx that says what is wrong.

A JSON body is read once, before any view sees it (``check_request``, also for views
that call ``request.get_json``): at most ``MAX_JSON_BYTES`` (413), UTF-8, nested at most
``MAX_DEPTH`` levels (counted before parsing), numbers within ``MAX_INT`` and text that
is valid Unicode (400). Whole numbers in paths beyond ``MAX_ID`` name nothing (404).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import Flask, current_app, g, request

from companion.records.checked import MAX_DEPTH, MAX_INT, JsonTextError, loads_checked, shown
from web.errors import ApiError

MAX_JSON_BYTES = 256 * 1024
"""Largest JSON body read (a game record upload is a file, not a JSON body)."""
MAX_ID = 2**63 - 1
"""SQLite's largest integer: no game, proposal or photo has a larger id."""
NOT_AN_OBJECT = "the request body must be a JSON object (Content-Type: application/json)"

View = TypeVar("View", bound=Callable[..., Any])


def init_app(app: Flask) -> None:
    """Check every request at the door before its view runs."""
    app.before_request(check_request)


def reads_text(view: View) -> View:
    """Mark a view that reads its body as text itself (a record), so the door does not parse it as one JSON."""
    view.reads_text = True  # type: ignore[attr-defined]
    return view


def check_request() -> None:
    """Path numbers within range, and a JSON body readable as ``json_value`` reads it."""
    for name, value in (request.view_args or {}).items():
        if isinstance(value, int) and value > MAX_ID:
            raise ApiError(404, f"there is no {name.removesuffix('_id')} {value}")
    view = current_app.view_functions.get(request.endpoint or "")
    if request.is_json and not getattr(view, "reads_text", False):
        json_value()


def json_value() -> Any:
    """The request's JSON body, checked (None if there is none); read once per request."""
    if "json_body" not in g:
        g.json_body = _read_json()
    return g.json_body


def _read_json() -> Any:
    raw = _raw_body()
    if not raw.strip():
        return None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ApiError(400, "the request body is not UTF-8 text") from None
    try:
        return loads_checked(text, MAX_DEPTH)
    except JsonTextError as exc:
        raise ApiError(400, f"{NOT_AN_OBJECT}: {exc}") from None


def json_object() -> dict[str, Any]:
    """The request's JSON body, which must be an object."""
    data = json_value() if request.is_json else None
    if not isinstance(data, dict):
        raise ApiError(400, NOT_AN_OBJECT)
    return data


def optional_json_object(*fields: str) -> dict[str, Any]:
    """The request's JSON object body (with no keys but ``fields``, when named), or an empty object for an empty body.

    Anything else is a 400: a body that is sent must say what it means.
    """
    data = json_object() if _raw_body().strip() else {}
    if fields and (unknown := sorted(set(data) - set(fields))):
        raise ApiError(400, f"unknown field(s) {shown(', '.join(unknown))}: this request takes {', '.join(fields)}")
    return data


def _raw_body() -> bytes:
    """The body's bytes; a 413 beyond ``MAX_JSON_BYTES``, refused before reading when the length is declared."""
    too_large = ApiError(413, f"the request body is larger than {MAX_JSON_BYTES // 1024} KiB, the most JSON may be")
    if (request.content_length or 0) > MAX_JSON_BYTES:
        raise too_large
    raw = request.get_data(cache=True)
    if len(raw) > MAX_JSON_BYTES:
        raise too_large
    return raw


def whole(value: Any, name: str, minimum: int = 0, maximum: int = MAX_INT) -> int:
    """``value`` as a whole number from ``minimum`` to ``maximum``."""
    if type(value) is not int or not minimum <= value <= maximum:
        bounds = f"of at least {minimum}" if maximum == MAX_INT else f"from {minimum} to {maximum}"
        raise ApiError(400, f'"{name}" must be a whole number {bounds}, got {shown(value)}')
    return value


def query_int(name: str, what: str = "a whole number", maximum: int = MAX_ID) -> int | None:
    """The query argument ``name`` as a whole number up to ``maximum``, None if absent; else a 400 saying ``what``."""
    raw = request.args.get(name)
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit()) or len(raw) > len(str(maximum)) or int(raw) > maximum:
        raise ApiError(400, f'"{name}" must be {what}, got {shown(raw)}')
    return int(raw)
