"""Errors as JSON with a reason: every refusal is a 4xx that says why, never a 500."""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, current_app, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from companion.rules.violations import IllegalMove

log = logging.getLogger(__name__)


class ApiError(Exception):
    """A refused request: HTTP status, a sentence for the page, and optional details."""

    def __init__(self, status: int, message: str, **details: Any):
        super().__init__(message)
        self.status = status
        self.message = message
        self.details = details


def error_response(status: int, message: str, **details: Any) -> tuple[Response, int]:
    return jsonify({"error": message, **details}), status


def init_app(app: Flask) -> None:
    """Register the handlers: API errors, refused moves, HTTP errors and anything unexpected."""

    @app.errorhandler(ApiError)
    def _api_error(exc: ApiError) -> Any:
        if not request.path.startswith("/api/"):
            return render_template("error.html", status=exc.status, message=exc.message), exc.status
        return error_response(exc.status, exc.message, **exc.details)

    @app.errorhandler(IllegalMove)
    def _illegal(exc: IllegalMove) -> tuple[Response, int]:
        return error_response(409, exc.violation.message, rule=exc.violation.rule)

    @app.errorhandler(RequestEntityTooLarge)
    def _too_large(exc: RequestEntityTooLarge) -> tuple[Response, int]:
        limit = current_app.config["MAX_CONTENT_LENGTH"] / 2**20
        return error_response(413, f"the request body is over {limit:g} MiB, more than any photo or record needs; "
                                   "nothing was read.")  # fmt: skip

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Any:
        if not request.path.startswith("/api/"):
            return exc
        return error_response(exc.code or 400, exc.description or exc.name)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> tuple[Response, int]:
        log.exception("unexpected error on %s %s", request.method, request.path)
        failure = type(exc).__name__
        return error_response(500, f"the companion failed on this request ({failure}); the game is unchanged")
