"""The live stream: one server-sent event stream per page (``/api/live?game=ID``)."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, request, stream_with_context

from web.errors import ApiError
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
    raw = request.args.get("game")
    if raw is not None:
        if not raw.isdigit():
            raise ApiError(400, f'"game" must be a game id, got {raw!r}')
        session = tables().session(int(raw))
        channels.append(f"game:{session.game_id}")
    subscription = tables().feed.subscribe(channels)
    if raw is not None:  # after subscribing, so no change between snapshot and stream is lost
        last = session.events[-1] if session.events else None
        first.append(Message("state", {**tables().snapshot(session), "change": {"kind": "connect", "event": last}}))
    return Response(stream_with_context(event_stream(subscription, first, current_app.config["LIVE_KEEPALIVE_S"])), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})  # fmt: skip
