"""Phones join the table: the host's join code and QR code, and a phone taking (or leaving) its seat.

The host (with the PIN) reads the join code and the link to a game's page with it
(``GET /api/join?game=ID``, its QR code at ``/api/join/qr?game=ID``), renews it
(``POST /api/join/code``: phones that joined with the old one watch from then on) or withdraws
it (``DELETE /api/join/code``). A phone sends the code with its game and seat
(``POST /api/join``) and may then make that seat's moves (``web.seats``). Every page
watching hears of each change on the live stream (a ``joins`` event), so a phone whose code
was revoked turns into a watcher at once.
"""

from __future__ import annotations

import ipaddress
from typing import Any
from urllib.parse import urlencode, urljoin, urlsplit

import qrcode
from flask import Blueprint, Response, current_app, g, jsonify, request, session
from qrcode.image.svg import SvgPathImage

from web import seats
from web.api.body import json_object, query_int, whole
from web.auth import is_editor, status
from web.errors import ApiError
from web.tables import tables

bp = Blueprint("joins", __name__, url_prefix="/api/join")

MAX_CODE = 100
LOOPBACK = ("this address opens on this machine only, so a phone that scans it reaches nothing: "
            "start the companion with --lan for phones to join")  # fmt: skip
WRONG_CODE = ("this join code is not the table's (the host has revoked it, or it was mistyped): "
              "ask the host for the new QR code; you are watching")  # fmt: skip


@bp.get("")
def host_view() -> Response:
    """For the host: the join code, the link to game ``game`` with it, and how many phones hold each seat."""
    _host_only()
    return jsonify(_host_view())


@bp.get("/qr")
def qr_code() -> Response:
    """For the host: the QR code of the link to game ``game`` with the join code, as SVG."""
    _host_only()
    link = _host_view()["link"]
    if link is None:
        raise ApiError(404, "no phone may join now: hand out a join code first (POST /api/join/code)")
    picture = qrcode.make(link, image_factory=SvgPathImage, border=2).to_string(encoding="unicode")
    return Response(picture, mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


@bp.post("/code")
def renew_code() -> Response:
    """A new join code; every phone that joined with the old one may change nothing more."""
    seats.joins().renew()
    _announce("renewed")
    return jsonify(_host_view())


@bp.delete("/code")
def withdraw_code() -> Response:
    """No join code: no phone may join, and every phone that joined watches from now on."""
    seats.joins().close()
    _announce("withdrawn")
    return jsonify(_host_view())


@bp.post("")
def join() -> Response:
    """Take a seat of a game with the table's join code: this browser may then make that seat's moves."""
    data = json_object()
    code = data.get("code")
    if not isinstance(code, str) or not 0 < len(code) <= MAX_CODE:
        raise ApiError(400, '"code" must be the join code from the table\'s QR code')
    game_id = whole(data.get("game"), "game", minimum=1)
    table = tables().session(game_id)
    if table.header.game != "bohnanza":
        raise ApiError(400, f"game {game_id} is a dice game: it is played on the tablet, not from phones")
    seat = whole(data.get("seat"), "seat", maximum=len(table.header.players) - 1)
    login_id = seats.joins().join(code, game_id, seat)
    if login_id is None:
        raise ApiError(403, WRONG_CODE, join_refused=True)
    seats.joins().leave(session.get(seats.KEY))
    session[seats.KEY] = login_id
    g.pop("seat_login", None)
    _announce("joined")
    return jsonify(status())


@bp.delete("")
def leave() -> Response:
    """Give this browser's seat back: it watches from now on."""
    seats.joins().leave(session.pop(seats.KEY, None))
    g.pop("seat_login", None)
    _announce("left")
    return jsonify(status())


def _host_only() -> None:
    if not is_editor():
        raise ApiError(403, "only the host (with the table PIN) hands out the join code", need_pin=True)


def _host_view() -> dict[str, Any]:
    """The join code, and for the query's ``game``: its join link and the seats phones hold."""
    code = seats.joins().code()
    game_id = query_int("game", "a game id")
    base = current_app.config["PUBLIC_URL"] or request.host_url
    link = None
    if game_id is not None:
        tables().session(game_id)  # 404 for a game that does not exist
        if code is not None:
            link = urljoin(base, f"/games/{game_id}?{urlencode({'join': code})}")
    held = {} if game_id is None else seats.joins().held(game_id)
    return {"code": code, "link": link, "held": {str(seat): count for seat, count in held.items()},
            "loopback": LOOPBACK if _loopback(base) else None}  # fmt: skip


def _announce(change: str) -> None:
    """Tell every page: phones re-read their seat, the host's page the seats held."""
    tables().feed.publish("games", "joins", {"change": change})


def _loopback(url: str) -> bool:
    """Whether ``url`` opens on this machine only."""
    host = urlsplit(url).hostname or ""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"
