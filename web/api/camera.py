"""The camera's API (live view, detections, enrollment of a group's deck).

Watching needs nothing; adding or deleting photos and building the deck needs the PIN
and CSRF token like every other change (``web.auth``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, send_file, url_for

from companion.vision.rectify import warp_card
from companion.vision.zones import TableZones
from web.api.body import optional_json_object
from web.camera import Camera, Snapshot, camera, deck, pending_layout, save_zones_file
from web.enrollment import CROP_SIZE, check_label
from web.errors import ApiError

bp = Blueprint("camera", __name__, url_prefix="/api/camera")

NO_CAMERA = ("no camera: start the companion with --camera INDEX, a video URL, 'synthetic', or 'demo' (a recorded "
             "game on a rendered table); enrollment from photos still works")
BOUNDARY = "frame"
STREAM_WAIT_S = 2.0
"""A live view re-sends its last frame after this long without a new one (and so notices a client that left)."""


def _camera() -> Camera:
    """The configured camera; a 404 saying how to configure one otherwise."""
    part = camera()
    if part is None:
        raise ApiError(404, NO_CAMERA)
    return part


def _snapshot() -> Snapshot:
    """The latest frame of an online camera; a 409 with the camera's own message otherwise."""
    part = _camera()
    snap = part.latest()
    if snap is None:
        raise ApiError(409, part.message if part.state != "online" else "camera: no picture yet, try again in a moment",
                       state=part.state)
    return snap


@bp.get("")
def status() -> Response:
    """The camera's status (or "none") as the hardware line has it (auto-accept and the last thing refereed
    included), and whether cards are named against an enrolled deck."""
    part = camera()
    body = current_app.extensions["hardware"].status()["camera"] if part else {
        "state": "none", "message": NO_CAMERA, "cards": 0, "frame": 0, "streams": 0}
    enrolled = deck().profile_path.exists() and (part.gallery() if part else deck().gallery()) is not None
    return jsonify({**body, "deck": "enrolled" if enrolled else "house"})


@bp.get("/frame.jpg")
def frame() -> Response:
    """The latest frame as JPEG, every recognised card outlined and labelled."""
    snap = _snapshot()
    response = Response(snap.jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})
    response.headers["X-Frame"] = str(snap.seq)
    return response


@bp.get("/cards")
def cards() -> Response:
    """The cards of the latest frame: label, name, confidence and 4 corners (pixels, TL TR BR BL)."""
    return jsonify(_snapshot().to_json())


@bp.get("/zones")
def zones() -> Response:
    """The zones drawn and saved for this table (the printed markers in sight add theirs on every frame)."""
    return jsonify(_camera().zones.to_json())


@bp.put("/zones")
def save_zones() -> Response:
    """Keep zones drawn on the latest frame (tied to the table-corner markers on it) in the instance folder."""
    part, snap = _camera(), _snapshot()
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or not isinstance(body.get("zones"), list):
        raise ApiError(400, 'send {"zones": [{"name", "kind", "seat", "polygon": [[x, y], ...]}, ...]}')
    try:
        drawn = TableZones.from_json({"version": 1, "zones": body["zones"]})
    except ValueError as exc:
        raise ApiError(400, str(exc)) from None
    part.zones = TableZones.drawn_on(snap.frame, drawn.zones)
    save_zones_file(current_app, part.zones)
    return jsonify(part.zones.to_json())


@bp.delete("/zones")
def forget_zones() -> Response:
    """Forget the drawn zones: only the printed markers in sight give zones from now on."""
    part = _camera()
    part.zones = TableZones()
    save_zones_file(current_app, None)
    return jsonify(part.zones.to_json())


@bp.put("/auto-accept")
def auto_accept() -> Response:
    """Turn auto-accept on or off: the camera then pushes the events the rules allow and it is sure of."""
    _camera()
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or not isinstance(body.get("on"), bool):
        raise ApiError(400, 'send {"on": true} or {"on": false} to turn auto-accept on or off')
    referee = current_app.extensions["hardware"].referee
    referee.auto = body["on"]
    if not referee.auto:
        referee.tables.hold_proposals()
    current_app.extensions["hardware"].publish()
    return jsonify({"auto_accept": referee.auto})


def _mjpeg(part: Camera, first: Snapshot) -> Iterator[bytes]:
    """Multipart JPEG parts as frames come; the last one again when none came for a while.

    Ends when the camera goes offline or closes (the page then shows why); waitress ends it
    when the client leaves, at the next part it cannot send.
    """
    last = first
    while not part.closed and part.latest() is not None:
        yield f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: {len(last.jpeg)}\r\n\r\n".encode()
        yield last.jpeg + b"\r\n"
        last = part.wait_frame(last.seq, STREAM_WAIT_S) or last


@bp.get("/stream")
def stream() -> Response:
    """The annotated live view as MJPEG (multipart/x-mixed-replace), for an ``<img>``; ends when the client leaves."""
    part = _camera()
    first = _snapshot()
    if not part.open_stream():
        raise ApiError(429, "too many live views are open; close one, or show frame.jpg instead")
    response = Response(_mjpeg(part, first),
                        mimetype=f"multipart/x-mixed-replace; boundary={BOUNDARY}",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    response.call_on_close(part.close_stream)  # also when the client leaves before the first frame
    return response


# --- enrollment ------------------------------------------------------------------------------


@bp.get("/enrollment")
def enrollment() -> Response:
    """Photos per bean (of how many wanted), overall progress, what stops a build, and the deck profile in use."""
    return jsonify(deck().progress())


def _bean_progress(label: str, status: int, **extra: object) -> tuple[Response, int]:
    bean = next(b for b in deck().progress()["beans"] if b["id"] == label)
    return jsonify({"bean": bean, **extra}), status


@bp.post("/enrollment/<bean>/photos")
def add_photos(bean: str) -> tuple[Response, int]:
    """Upload photos of one bean (multipart field ``photo``, one card per photo, filling most of it)."""
    label = check_label(bean)
    files = [(f.filename or "photo", f.read()) for f in request.files.getlist("photo")]
    added = deck().add_photos(label, files)
    return _bean_progress(label, 201, added=added)


@bp.post("/enrollment/<bean>/capture")
def capture(bean: str) -> tuple[Response, int]:
    """Keep the one card under the server's camera as a photo of ``bean``."""
    label = check_label(bean)
    snap = _snapshot()
    cards = snap.scene.cards
    if len(cards) != 1:
        found = "no card" if not cards else f"{len(cards)} cards"
        raise ApiError(409, f"the camera sees {found}: lay just one card of this bean under it, apart from the others",
                       cards=len(cards))
    photo = deck().add_framings(label, [warp_card(snap.frame, cards[0].corners, CROP_SIZE)])
    return _bean_progress(label, 201, added=[{"photo": photo, "outline_found": True, "crop_in_doubt": False}])


@bp.post("/enrollment/layout")
def read_layout() -> tuple[Response, int]:
    """Keep every card under the camera (the whole deck laid out, one card per bean) as the layout waiting for
    the group to say which bean each card is; a new reading replaces the one waiting."""
    snap = _snapshot()
    if not snap.scene.cards:
        raise ApiError(409, "the camera sees no card: lay the deck out under it, one card of each bean, "
                            "the cards apart from each other", cards=0)  # fmt: skip
    return _layout_json(pending_layout().keep(snap.frame, snap.scene.cards, snap.seq)), 201


@bp.get("/enrollment/layout")
def layout() -> Response:
    """The laid-out deck waiting to be confirmed: each card's crop, outline, the camera's guess and flags."""
    return _layout_json(pending_layout().pending())


@bp.get("/enrollment/layout/<int:index>.png")
def layout_image(index: int) -> Response:
    """The upright crop of one card of the waiting layout."""
    return send_file(pending_layout().crop_path(index), mimetype="image/png", max_age=0)


@bp.post("/enrollment/layout/confirm")
def confirm_layout() -> Response:
    """Keep each card of the waiting layout given a bean as one photo of that bean (null skips a card), then
    clear the layout; the enrollment progress and what was kept."""
    body = optional_json_object("beans", "layout")
    added = pending_layout().confirm(body, deck())
    return jsonify({**deck().progress(), "added": added})


def _layout_json(layout: dict[str, Any]) -> Response:
    """A layout as the page gets it: each card with the address of its crop."""
    cards = [{**card, "crop": url_for("camera.layout_image", index=card["index"], v=layout["layout"])}
             for card in layout["cards"]]
    return jsonify({**layout, "cards": cards})


@bp.get("/enrollment/<bean>/photos/<int:photo>.png")
def photo_image(bean: str, photo: int) -> Response:
    """One kept photo: the card as it will be enrolled (upright crop)."""
    return send_file(deck().photo_path(check_label(bean), photo), mimetype="image/png", max_age=0)


@bp.delete("/enrollment/<bean>/photos/<int:photo>")
def delete_photo(bean: str, photo: int) -> tuple[Response, int]:
    """Delete one photo of a bean."""
    label = check_label(bean)
    return _bean_progress(label, 200, deleted=deck().delete(label, photo))


@bp.delete("/enrollment/<bean>/photos")
def delete_photos(bean: str) -> tuple[Response, int]:
    """Delete every photo of a bean."""
    label = check_label(bean)
    return _bean_progress(label, 200, deleted=deck().delete(label))


@bp.get("/enrollment/<bean>/learnt/<int:card>.png")
def learnt_image(bean: str, card: int) -> Response:
    """One card learnt in play: the top card of a field whose bean the game knew, as it is enrolled."""
    return send_file(deck().learnt_path(check_label(bean), card), mimetype="image/png", max_age=0)


@bp.delete("/enrollment/<bean>/learnt/<int:card>")
def delete_learnt(bean: str, card: int) -> tuple[Response, int]:
    """Forget one card learnt in play (one the game had wrong); its bean is enrolled again without it."""
    label = check_label(bean)
    deck().forget_learnt_card(label, card)
    return _bean_progress(label, 200, deleted=1)


@bp.post("/enrollment/<bean>/learnt/<int:card>/vouch")
def vouch_learnt(bean: str, card: int) -> tuple[Response, int]:
    """Say that a card learnt in play that the camera took for another bean is this bean after all: its doubt goes."""
    label = check_label(bean)
    deck().vouch_learnt_card(label, card)
    return _bean_progress(label, 200)


@bp.post("/deck")
def build_deck() -> tuple[Response, int]:
    """Build the deck profile from all photos; the camera names cards against it from now on."""
    profile = deck().build()
    return jsonify({"profile": profile, "enrollment": deck().progress()}), 201


@bp.delete("/deck")
def forget_deck() -> Response:
    """Go back to the shipped house deck (the photos stay, to build again)."""
    if not deck().forget():
        raise ApiError(404, "no deck profile to remove: the camera already uses the house deck")
    return jsonify(deck().progress())


@bp.delete("/deck/learnt")
def forget_learnt() -> Response:
    """Forget the cards the camera learnt in play (the deck is enrolled again without them; the photos stay)."""
    forgotten = deck().forget_learnt()
    if not forgotten:
        raise ApiError(404, "the camera has learnt no cards in play to forget")
    return jsonify({**deck().progress(), "forgotten": forgotten})
