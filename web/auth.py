"""Who may change a game: anyone may watch; changes need the table PIN (or a seat) and a CSRF token.

The PIN, printed by ``companion serve`` at start, is entered once per browser: the server
records a login (``web.logins``) whose id the browser keeps in its signed session cookie, so
forgetting the PIN or starting with another PIN ends it. A phone that joined a seat with the
table's join code may make that seat's moves without the PIN (``web.seats``). Every request
that changes something carries the session's CSRF token in the ``X-CSRF-Token`` header (the
page's script adds it). With ``WATCH_NEEDS_PIN`` (``companion serve --private``) reading the
API needs a login or a seat too.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Flask, Response, current_app, g, jsonify, request, session

from web import seats
from web.api.body import optional_json_object
from web.errors import ApiError
from web.logins import Logins

bp = Blueprint("auth", __name__, url_prefix="/api/session")

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CSRF_HEADER = "X-CSRF-Token"


class PinGuard:
    """Counts wrong PINs per client and pauses a client that guesses too often."""

    def __init__(self, attempts: int, lockout_s: float, clock: Callable[[], float] = time.monotonic):
        self.attempts = attempts
        self.lockout_s = lockout_s
        self.clock = clock
        self._failures: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    def wait_left(self, client: str) -> float:
        """Seconds this client must wait before trying again (0 if it may try now)."""
        with self._lock:
            recent = self._recent(client)
            if len(recent) < self.attempts:
                return 0.0
            return max(0.0, recent[-self.attempts] + self.lockout_s - self.clock())

    def failed(self, client: str) -> None:
        with self._lock:
            self._failures[client] = self._recent(client) + [self.clock()]

    def succeeded(self, client: str) -> None:
        with self._lock:
            self._failures.pop(client, None)

    def _recent(self, client: str) -> list[float]:
        cutoff = self.clock() - self.lockout_s
        return [t for t in self._failures.get(client, []) if t > cutoff]


def csrf_token() -> str:
    """This browser session's CSRF token (made on first use)."""
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)
    return session["csrf"]


def is_editor() -> bool:
    """Whether this request comes from a browser whose login (made with the table PIN) is still live."""
    if "editor" not in g:
        g.editor = _logins().is_live(session.get("login"))
    return g.editor


def _logins() -> Logins:
    return current_app.extensions["logins"]


def status() -> dict[str, Any]:
    """What ``GET /api/session`` says of this browser: editor or not, its seat, its CSRF token."""
    return {"editor": is_editor(), "csrf_token": csrf_token(), **seats.status()}


@bp.get("")
def whoami() -> Response:
    """Whether this browser may change games (all, or one seat's moves), and its CSRF token."""
    return jsonify(status())


@bp.post("")
def enter_pin() -> Response:
    """Check the table PIN; on success this browser may change games."""
    guard: PinGuard = current_app.extensions["pin_guard"]
    client = request.remote_addr or "?"
    wait = guard.wait_left(client)
    if wait > 0:
        raise ApiError(429, f"too many wrong PINs: try again in {wait:.0f} s", retry_after=round(wait))
    pin = optional_json_object("pin").get("pin")
    if not isinstance(pin, str) or not pin:
        raise ApiError(400, 'send {"pin": "..."}: the PIN printed where the companion was started')
    if not hmac.compare_digest(pin.strip().encode(), current_app.config["TABLE_PIN"].encode()):
        guard.failed(client)
        raise ApiError(403, "wrong PIN: it is printed where the companion was started")
    guard.succeeded(client)
    _logins().revoke(session.get("login"))
    session["login"] = _logins().login()
    g.editor = True
    return jsonify(status())


@bp.delete("")
def leave() -> Response:
    """End this browser's login: neither it nor a saved copy of its cookie may change games any more."""
    _logins().revoke(session.pop("login", None))
    g.editor = False
    return jsonify(status())


def _guard() -> None:
    """Before every API request: the checks of who may read and who may change.

    A read needs a login or a seat only in private mode; a change needs the CSRF token and (but
    for entering or forgetting the PIN) a login, or a seat that may make it.
    """
    if not request.path.startswith("/api/"):
        return
    if request.method in SAFE_METHODS:
        if not _may_watch():
            raise ApiError(403, "enter the table PIN to watch: this companion was started with --private",
                           need_pin=True)  # fmt: skip
        return
    sent = request.headers.get(CSRF_HEADER, "")
    expected = session.get("csrf", "")
    if not expected or not hmac.compare_digest(sent.encode(), expected.encode()):
        raise ApiError(403, "missing or wrong CSRF token: reload the page", need_csrf=True)
    if request.endpoint == "auth.enter_pin" or request.endpoint == "auth.leave":
        return
    if not is_editor():
        seats.check_change()


def _may_watch() -> bool:
    """Whether this request may read: anyone may, but with --private only a login or a seat (or who gets one)."""
    if not current_app.config["WATCH_NEEDS_PIN"] or request.blueprint in (bp.name, "joins"):
        return True
    return is_editor() or seats.seat_login() is not None


def init_app(app: Flask) -> None:
    """Install the PIN guard and the check before every request (the ``Logins`` extension keeps the logins)."""
    app.extensions["pin_guard"] = PinGuard(app.config["PIN_ATTEMPTS"], app.config["PIN_LOCKOUT_S"])
    app.before_request(_guard)
