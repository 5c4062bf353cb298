"""Games: list, start, read, play (moves and undo), export, import and replay."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request

from companion.records.format import Header, RecordError
from companion.records.jsonl import dumps_record
from companion.records.replay import replay_log
from companion.storage import StoredGame
from web.api.body import json_object, optional_json_object, query_int, reads_text, whole
from web.auth import is_editor
from web.errors import ApiError
from web.hardware import hardware
from web.present import event_text, holds_hidden_order, present, progress
from web.tables import tables

bp = Blueprint("games", __name__, url_prefix="/api/games")

MAX_UNDO = 50
MAX_SOURCE = 40
MAX_ALTERNATIVES = 5
"""Other readings a proposal may offer."""


@bp.get("")
def list_games() -> Response:
    """Every stored game, most recently played first."""
    return jsonify({"games": [_listed(g) for g in tables().store.games()]})


def _listed(g: StoredGame) -> dict[str, Any]:
    """A game as the archive lists it; one whose header cannot be read is listed with the problem as its title."""
    h = g.header
    return {
        "id": g.id, "game": h.game if h else None, "ruleset": h.ruleset if h else None,
        "players": list(h.players) if h else [], "title": h.meta.get("title") if h else g.problem,
        "problem": g.problem, "events": g.events, "created": g.created, "updated": g.updated, "finished": g.finished,
    }  # fmt: skip


@bp.post("")
def start_game() -> tuple[Response, int]:
    """Start a game from a header-like object: game, ruleset, players, start_player, options, meta."""
    data = json_object()
    fields = {"format": "bohnanza-record", "version": 1, **data}
    fields.setdefault("game", "bohnanza")
    if fields["game"] == "dice":
        fields.setdefault("ruleset", "dice")
    try:
        header = Header.from_dict(fields)
    except RecordError as exc:
        raise ApiError(400, exc.message) from None
    session = tables().start(header)
    if header.game == "bohnanza":
        hardware().game_started()
    return jsonify(tables().snapshot(session)), 201


@bp.get("/<int:game_id>")
def show_game(game_id: int) -> Response:
    """A game's header and current state."""
    return jsonify(tables().snapshot(tables().session(game_id)))


@bp.get("/<int:game_id>/events")
def game_events(game_id: int) -> Response:
    """The live event log, oldest first."""
    return jsonify({"game_id": game_id, "events": tables().session(game_id).events})


@bp.get("/<int:game_id>/history")
def game_history(game_id: int) -> Response:
    """Every event stored for the game in the engine's words, the undone ones marked; ``at``: its number if live."""
    session = tables().session(game_id)
    rows, at = [], 0
    for event, undone in tables().store.history(game_id):
        if not undone:
            at += 1
        rows.append({"at": None if undone else at, "undone": undone, "type": event.get("type"),
                     "text": event_text(session.header, event)})  # fmt: skip
    return jsonify({"game_id": game_id, "events": at, "seq": session.last_seq, "history": rows})


@bp.post("/<int:game_id>/moves")
def play_move(game_id: int) -> Response:
    """Apply one event (its record form); 409 with the broken rule if refused."""
    data = json_object()
    event = data.get("event", data)
    if not isinstance(event, dict):
        raise ApiError(400, '"event" must be an event object, e.g. {"type": "plant", "player": 0, "bean": "blue"}')
    source = data.get("source", "tablet") if "event" in data else "tablet"
    if not isinstance(source, str) or not 0 < len(source) <= MAX_SOURCE:
        raise ApiError(400, f'"source" names where the move comes from in at most {MAX_SOURCE} characters, e.g. "dice"')
    stored = tables().push(game_id, event, source=source)
    return jsonify(_after_move(game_id, stored, source))


def _after_move(game_id: int, stored: dict[str, Any], source: str) -> dict[str, Any]:
    """The snapshot after a move, with the change the page shows ("Last: ...") as the live stream words it."""
    session = tables().session(game_id)
    change = {"kind": "move", "event": stored, "source": source, "text": event_text(session.header, stored)}
    return {**tables().snapshot(session), "event": stored, "change": change}


@bp.post("/<int:game_id>/proposals")
def propose(game_id: int) -> tuple[Response, int]:
    """Propose an event (e.g. what the camera saw); it waits for a tap to confirm, correct or dismiss."""
    data = json_object()
    source = data.get("source", "camera")
    if not isinstance(source, str) or not 0 < len(source) <= MAX_SOURCE:
        raise ApiError(400, f'"source" names who proposes in at most {MAX_SOURCE} characters, e.g. "camera"')
    others = data.get("alternatives", [])
    if not isinstance(others, list) or len(others) > MAX_ALTERNATIVES or not all(isinstance(e, dict) for e in others):
        raise ApiError(400, f'"alternatives" lists at most {MAX_ALTERNATIVES} other event objects, likeliest first')
    return jsonify(tables().propose(game_id, data.get("event"), source, alternatives=tuple(others))), 201


@bp.post("/<int:game_id>/proposals/<int:proposal_id>/confirm")
def confirm_proposal(game_id: int, proposal_id: int) -> Response:
    """Apply a proposal as it is, or corrected (a body ``{"event": ...}``)."""
    corrected = optional_json_object().get("event")
    if corrected is not None and not isinstance(corrected, dict):
        raise ApiError(400, '"event" must be the corrected event object, or left out to confirm the proposal as it is')
    stored = tables().confirm(game_id, proposal_id, corrected)
    return jsonify({**tables().snapshot(tables().session(game_id)), "event": stored})


@bp.delete("/<int:game_id>/proposals/<int:proposal_id>")
def dismiss_proposal(game_id: int, proposal_id: int) -> Response:
    """Throw a proposal away."""
    tables().dismiss(game_id, proposal_id)
    return jsonify(tables().snapshot(tables().session(game_id)))


@bp.post("/<int:game_id>/check")
def check_move(game_id: int) -> Response:
    """Whether an event would be legal now, without applying it."""
    session = tables().session(game_id)
    try:
        violation = session.check(json_object())
    except ValueError as exc:
        raise ApiError(400, str(exc)) from None
    if violation is None:
        return jsonify({"legal": True})
    return jsonify({"legal": False, "rule": violation.rule, "error": violation.message})


@bp.post("/<int:game_id>/undo")
def undo(game_id: int) -> Response:
    """Undo the last ``count`` events (default 1)."""
    data = optional_json_object("count", "after")
    count = whole(data.get("count", 1), "count", minimum=1)
    if count > MAX_UNDO:
        raise ApiError(400, f"undo at most {MAX_UNDO} events at once")
    after = data.get("after")
    after = None if after is None else whole(after, "after")
    change = tables().undo(game_id, count, after)
    return jsonify({**tables().snapshot(tables().session(game_id)), "undone": change["count"], "change": change})


@bp.post("/<int:game_id>/repair")
def repair(game_id: int) -> Response:
    """Undo a stored game's first event that does not replay, and every event after it."""
    undone = tables().repair(game_id)
    return jsonify({**tables().snapshot(tables().session(game_id)), "undone": undone})


@bp.get("/<int:game_id>/record")
def export_record(game_id: int) -> Response:
    """The game record (JSON lines, docs/record-format.md) as a download."""
    session = tables().session(game_id)
    if holds_hidden_order(session.header) and not is_editor():
        raise ApiError(403, "this game's record holds its deck's order, hidden at a real table: "
                            "enter the table PIN to export it", need_pin=True)  # fmt: skip
    text = dumps_record(session.header, session.events)
    name = f"{session.header.game}-game-{game_id}.jsonl"
    return Response(text, mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})  # fmt: skip


@bp.post("/import")
@reads_text
def import_record() -> tuple[Response, int]:
    """Store an uploaded record (a ``record`` file field, or the JSON lines as the body) as a new game."""
    upload = request.files.get("record")
    raw = upload.read() if upload is not None else request.get_data()
    if not raw:
        raise ApiError(400, "send a game record: a file field named \"record\", or the JSON lines as the body")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ApiError(400, "a game record is UTF-8 text (JSON lines); this file is not") from None
    session = tables().import_record(text)
    return jsonify(tables().snapshot(session)), 201


@bp.get("/<int:game_id>/replay")
def replay_at(game_id: int) -> Response:
    """The state after the first ``at`` events (the replay slider)."""
    session = tables().session(game_id)
    at = query_int("at")
    at = len(session.events) if at is None else at
    if at > len(session.events):
        raise ApiError(400, f"the game has {len(session.events)} events; \"at\" is at most that")
    state = replay_log(session.header, session.events[:at]).state
    event = session.events[at - 1] if at else None
    return jsonify({"game_id": game_id, "at": at, "events": len(session.events), "event": event,
                    "event_text": event_text(session.header, event) if event else None,
                    "state": present(session.header, state)})  # fmt: skip


@bp.get("/<int:game_id>/progress")
def game_progress(game_id: int) -> Response:
    """Each player's score after every event (for the end-of-game chart)."""
    session = tables().session(game_id)
    return jsonify({"game_id": game_id, **progress(session.header, session.events)})
