"""The tablet page: a Flask app factory, one blueprint per area.

``create_app`` takes a mapping of settings (see ``DEFAULTS``); ``companion serve``
builds one and runs it under waitress. Tests build one per temporary instance folder.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask

DEFAULTS: dict[str, Any] = {
    "DATABASE": None,  # SQLite game store; default: companion.sqlite3 in the instance folder
    "TABLE_PIN": None,  # the PIN that lets a page change games; default: a random 6-digit PIN
    "DICE": None,  # dice bridge spec (port, URL, usb:VID:PID or "emulate"); None: manual rolls
    "CAMERA": None,  # camera index, video URL or file, or "synthetic" (a drawn demo table); None: no camera
    "CAMERA_INTERVAL_S": 1 / 30,  # shortest time from one camera frame to the next
    "PIN_ATTEMPTS": 5,  # wrong PINs allowed per client before a pause
    "PIN_LOCKOUT_S": 30.0,
    "STORE_POLL_S": 1.0,  # how often to look for changes another process stored (0: only when a game is asked for)
    "LIVE_KEEPALIVE_S": 5.0,  # a comment line on quiet live streams: finds pages that left, freeing their thread
    "LIVE_STREAMS_MAX": None,  # live streams open at once (each holds a thread); None: fit the server's (web.serving)
    "LIVE_STREAMS_PER_CLIENT": 8,  # live streams open at once from one address; beyond either limit: 503 (pages poll)
    "LIVE_STREAM_S": 300.0,  # a live stream's longest life; the page then reconnects, so none holds its place for ever
    "PUBLIC_URL": None,  # the address phones open (companion serve sets it); None: the one the host's browser used
    "WATCH_NEEDS_PIN": False,  # True (companion serve --private): reading the API needs the PIN too
    "MAX_CONTENT_LENGTH": 16 * 1024 * 1024,  # largest request body (a deck photo, one per request); beyond: 413
    "SESSION_COOKIE_SAMESITE": "Lax",  # the login cookie is not sent with other sites' requests
    "SESSION_COOKIE_HTTPONLY": True,  # nor readable by scripts
}


def create_app(settings: Mapping[str, Any] | None = None, instance_path: str | Path | None = None) -> Flask:
    """A ready app: store open, blueprints registered, hardware started from the settings."""
    from web import auth, camera, errors, pages
    from web.api import body, catalog, dice, docs, games, joins, live
    from web.api import camera as camera_api
    from web.hardware import Hardware
    from web.instance import prepare_folder, secret_key
    from web.joins import Joins
    from web.logins import Logins
    from web.tables import Tables

    app = Flask(__name__, instance_path=str(instance_path) if instance_path else None, instance_relative_config=True)
    app.json.sort_keys = False  # type: ignore[attr-defined]  # the engine's order (beans by deck), as the live stream
    app.config.update(DEFAULTS)
    app.config.update(settings or {})
    prepare_folder(Path(app.instance_path))
    app.config["SECRET_KEY"] = app.config.get("SECRET_KEY") or secret_key(Path(app.instance_path))
    app.config["TABLE_PIN"] = str(app.config["TABLE_PIN"] or f"{secrets.randbelow(10**6):06d}")
    app.config["DATABASE"] = str(app.config["DATABASE"] or Path(app.instance_path) / "companion.sqlite3")

    Logins().init_app(app)  # first, like the key: an unsafe logins file stops the app before anything starts
    Joins().init_app(app)
    Tables().init_app(app)
    Hardware().init_app(app)
    camera.init_app(app)
    errors.init_app(app)
    body.init_app(app)  # the door: unreadable requests are refused before any view (or the PIN guard) runs
    auth.init_app(app)
    for blueprint in (auth.bp, joins.bp, games.bp, dice.bp, camera_api.bp, live.bp, catalog.bp, docs.bp, pages.bp):
        app.register_blueprint(blueprint)
    return app

