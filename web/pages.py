"""The HTML pages: each is a shell that its script fills from the JSON API and the live stream."""

from __future__ import annotations

import hmac
from typing import Any

from flask import Blueprint, Response, current_app, render_template, request, send_from_directory

from companion.records.format import Header
from web.auth import is_editor
from web.seats import joins, seat_login
from web.tables import tables

bp = Blueprint("pages", __name__)


@bp.get("/")
def archive() -> str:
    """Past and running games: resume, export, import, replay."""
    return render_template("archive.html")


@bp.get("/new")
def new_game() -> str:
    """Set up a new card or dice game."""
    return render_template("new.html")


@bp.get("/games/<int:game_id>")
def game(game_id: int) -> str:
    """The live table of a game (the card game's table or the dice game's screen)."""
    header = tables().session(game_id).header
    template = "dice.html" if header.game == "dice" else "table.html"
    return render_template(template, game_id=game_id, **_shell(header))


@bp.get("/games/<int:game_id>/replay")
def replay(game_id: int) -> str:
    """A finished or running game, event by event, with a slider."""
    return render_template("replay.html", game_id=game_id, **_shell(tables().session(game_id).header))


def _shell(header: Header) -> dict[str, Any]:
    """What a page shell shows of a game before its script loads: nothing to a stranger when watching needs the PIN.

    A phone that opened the table's join link is no stranger: it is shown the names to pick its seat from.
    """
    if current_app.config["WATCH_NEEDS_PIN"] and not is_editor() and seat_login() is None and not _join_link():
        return {"players": "enter the PIN to watch", "names": [], "title": "", "ruleset": ""}
    return {"players": ", ".join(header.players), "names": list(header.players),
            "title": header.meta.get("title") or "", "ruleset": header.ruleset}  # fmt: skip


def _join_link() -> bool:
    """Whether the page was opened with the table's current join code (a phone about to take its seat)."""
    code, given = joins().code(), request.args.get("join")
    return code is not None and given is not None and hmac.compare_digest(code.encode(), given.encode())


@bp.get("/camera")
def camera() -> str:
    """The camera's live view and the enrollment of a group's own deck."""
    return render_template("camera.html")


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest, so the page can be added to a tablet's home screen."""
    return send_from_directory(str(current_app.static_folder), "manifest.webmanifest",
                               mimetype="application/manifest+json")  # fmt: skip
