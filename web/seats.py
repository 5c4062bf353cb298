"""What a phone that joined a seat may change: that seat's moves in its game, and its answers to trades.

A browser without the table PIN but with a live seat login (``web.joins``) may make moves whose
``player`` is its seat, offer events for it (proposals), and accept or decline what is offered
to it; a move that names another seat as its ``partner`` (a trade) goes as an offer that the
partner answers. Everything else needs the PIN. A phone whose seat login ended (the host
renewed or withdrew the join code) is told so, in the sentence ``REVOKED``, and watches.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import current_app, g, request, session

from web.api.body import json_value
from web.errors import ApiError
from web.joins import Joins, SeatLogin
from web.tables import tables

KEY = "seat"
"""The session cookie's key for the seat login id."""
REVOKED = "this phone's join code was revoked: ask the host for the new QR code; you are watching"
OPEN_ENDPOINTS = frozenset({"joins.join", "joins.leave"})
"""Changes that need no login: joining a seat with the join code, and leaving it."""


def joins() -> Joins:
    return current_app.extensions["joins"]


def seat_login() -> SeatLogin | None:
    """This browser's live seat (None if it holds none, or its login ended)."""
    if "seat_login" not in g:
        g.seat_login = joins().seat_of(session.get(KEY))
    return g.seat_login


def seat_ended() -> bool:
    """Whether this browser held a seat whose login has ended since (its join code was revoked)."""
    return KEY in session and seat_login() is None


def status() -> dict[str, Any]:
    """This browser's seat for ``GET /api/session``: game, seat and name, or why it holds none any more."""
    seat = seat_login()
    held = None if seat is None else {"game_id": seat.game_id, "seat": seat.seat, "name": _name(seat)}
    return {"seat": held, "seat_ended": REVOKED if seat_ended() else None}


def check_change() -> None:
    """Before a change from a browser without the PIN: 403 with the reason unless its seat may make it."""
    if request.endpoint in OPEN_ENDPOINTS:
        return
    seat = seat_login()
    if seat is None:
        if seat_ended():
            raise ApiError(403, REVOKED, seat_ended=True)
        raise ApiError(403, "enter the table PIN to change games", need_pin=True)
    check = _CHECKS.get(request.endpoint or "")
    if check is None:
        raise ApiError(403, f"this phone holds {_name(seat)}'s seat and plays its moves; "
                            "anything else needs the table PIN", need_pin=True)  # fmt: skip
    _same_game(seat)
    check(seat)


def _same_game(seat: SeatLogin) -> None:
    game_id = (request.view_args or {}).get("game_id")
    if game_id != seat.game_id:
        raise ApiError(403, f"this phone holds {_name(seat)}'s seat in game {seat.game_id}: "
                            "open this game's join link to play in it")  # fmt: skip


def _check_move(seat: SeatLogin) -> None:
    """A move of this seat's own (a trade, which names a partner, is offered instead)."""
    body = json_value()
    event = body.get("event", body) if isinstance(body, dict) else None
    if not isinstance(event, dict):
        return  # the view says what is wrong with the body
    _own(seat, event)
    partner = event.get("partner")
    if type(partner) is int and partner != seat.seat:
        name = _name(seat, partner)
        raise ApiError(403, f"{name} answers this trade: offer it from this phone ({name} accepts it on "
                            f"{name}'s phone), or enter it on the table's tablet")  # fmt: skip


def _check_offer(seat: SeatLogin) -> None:
    """An event offered for this seat's own moves (a trade waits for its partner's answer)."""
    body = json_value()
    event = body.get("event") if isinstance(body, dict) else None
    if isinstance(event, dict):
        _own(seat, event)


def _check_answer(seat: SeatLogin) -> None:
    """Accepting an offer made to this seat, as it was offered."""
    body = json_value()
    if isinstance(body, dict) and body.get("event") is not None:
        raise ApiError(403, "a phone accepts an offer as it is: correct it on the table's tablet")
    event = _offered(seat)
    if event is not None and event.get("partner") != seat.seat:
        raise ApiError(403, f"this offer is not made to {_name(seat)}: its partner accepts it")


def _check_withdraw(seat: SeatLogin) -> None:
    """Declining an offer made to this seat, or withdrawing one it made."""
    event = _offered(seat)
    if event is not None and seat.seat not in (event.get("player"), event.get("partner")):
        raise ApiError(403, f"this offer is not {_name(seat)}'s: only its two players or the table's tablet "
                            "take it back")  # fmt: skip


def _offered(seat: SeatLogin) -> dict[str, Any] | None:
    """The pending offer the request names (None if there is none: the view says so)."""
    proposal_id = (request.view_args or {}).get("proposal_id")
    pending = tables().proposals.pending(seat.game_id)
    return next((p.event for p in pending if p.id == proposal_id), None)


def _own(seat: SeatLogin, event: dict[str, Any]) -> None:
    player = event.get("player")
    if player != seat.seat or type(player) is not int:
        whom = _name(seat, player) if type(player) is int else "another seat"
        raise ApiError(403, f"this phone holds {_name(seat)}'s seat: it may not move for {whom}")


def _name(seat: SeatLogin, other: int | None = None) -> str:
    """The name of ``other`` (default: the phone's own seat) in the phone's game."""
    index = seat.seat if other is None else other
    try:
        players = tables().session(seat.game_id).header.players
    except ApiError:
        players = ()
    return players[index] if 0 <= index < len(players) else f"seat {index + 1}"


_CHECKS: dict[str, Callable[[SeatLogin], None]] = {
    "games.play_move": _check_move,
    "games.propose": _check_offer,
    "games.confirm_proposal": _check_answer,
    "games.dismiss_proposal": _check_withdraw,
}
