"""The live stream: one server-sent event stream per page (``/api/live?game=ID``)."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, stream_with_context

from web.api.body import query_int
from web.hardware import hardware
from web.live import Message, event_stream
from web.tables import tables

bp = Blueprint("live", __name__, url_prefix="/api/live")


@bp.get("")
def stream() -> Response:
    """Hardware status and archive changes, plus every change of game ``game`` if given.

    The stream opens with the current hardware status and, for a game, its full
    state, so a page that (re)connects is never stale.
    """
    channels = ["hardware", "games"]
    first = [Message("hardware", hardware().status())]
    game_id = query_int("game", "a game id")
    session = None if game_id is None else tables().session(game_id)
    if session is not None:
        channels.append(f"game:{session.game_id}")
    subscription = tables().feed.subscribe(channels)
    if session is not None:  # after subscribing, so no change between snapshot and stream is lost
        last = session.events[-1] if session.events else None
        first.append(Message("state", {**tables().snapshot(session), "change": {"kind": "connect", "event": last}}))
    stream = event_stream(subscription, first, current_app.config["LIVE_KEEPALIVE_S"])
    return Response(stream_with_context(stream), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})  # fmt: skip
