"""The live stream: one server-sent event stream per page (``/api/live?game=ID``).

Streams are admitted by the app's ``StreamGate`` within the settings ``LIVE_STREAMS_MAX``
(in total) and ``LIVE_STREAMS_PER_CLIENT`` (per client address); beyond them the answer
is 503 with ``Retry-After``, and the page polls its game until then.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, request, stream_with_context
from flask.blueprints import BlueprintSetupState

from web.api.body import query_int
from web.hardware import hardware
from web.live import RETRY_AFTER_S, Message, StreamGate, StreamsFull, event_stream
from web.tables import tables

bp = Blueprint("live", __name__, url_prefix="/api/live")
GATE = "live_streams"
"""The app's ``StreamGate``, in ``app.extensions``."""


@bp.record_once
def _add_gate(state: BlueprintSetupState) -> None:
    state.app.extensions[GATE] = StreamGate()


@bp.get("")
def stream() -> Response:
    """Hardware status and archive changes, plus every change of game ``game`` if given.

    The stream opens with the current hardware status and, for a game, its full
    state, so a page that (re)connects is never stale.
    """
    game_id = query_int("game", "a game id")
    session = None if game_id is None else tables().session(game_id)
    config = current_app.config
    try:
        release = current_app.extensions[GATE].admit(request.remote_addr or "", config["LIVE_STREAMS_MAX"],
                                                     config["LIVE_STREAMS_PER_CLIENT"])  # fmt: skip
    except StreamsFull as full:
        return _busy(str(full))
    try:
        channels = ["hardware", "games"] + ([] if session is None else [f"game:{session.game_id}"])
        subscription = tables().feed.subscribe(channels)
        first = [Message("hardware", hardware().status())]  # after subscribing, so no change in between is lost
        if session is not None:  # after subscribing too
            last = session.events[-1] if session.events else None
            first.append(Message("state", {**tables().snapshot(session), "change": {"kind": "connect", "event": last}}))
        stream = event_stream(subscription, first, config["LIVE_KEEPALIVE_S"], config["LIVE_STREAM_S"])
        response = Response(stream_with_context(stream), mimetype="text/event-stream",
                            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})  # fmt: skip
    except BaseException:
        release()
        raise
    response.call_on_close(release)  # when the stream ends, or the client leaves
    return response


def _busy(reason: str) -> Response:
    """503 with ``Retry-After``: no room for another stream now."""
    response = jsonify({"error": f"{reason}; poll the game meanwhile and try again in {RETRY_AFTER_S} s",
                        "retry_after": RETRY_AFTER_S})  # fmt: skip
    response.status_code = 503
    response.headers["Retry-After"] = str(RETRY_AFTER_S)
    return response
