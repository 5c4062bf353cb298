"""Errors as JSON with a reason: every refusal is a 4xx that says why, never a 500."""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

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

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Any:
        if not request.path.startswith("/api/"):
            return exc
        return error_response(exc.code or 400, exc.description or exc.name)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> tuple[Response, int]:
        log.exception("unexpected error on %s %s", request.method, request.path)
        return error_response(500, f"the companion failed on this request ({type(exc).__name__}); the game is unchanged")
