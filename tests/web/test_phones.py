"""Every player's phone (issue 21): a join code from the host, a seat per phone, its moves only, trades answered
by the partner's phone, a revoked code turning phones into watchers, and two phones acting at once."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from flask import Flask

from support.web_client import Editor, Phone
from web.seats import REVOKED


def plant(player: int, bean: str) -> dict[str, Any]:
    return {"type": "plant", "player": player, "bean": bean, "source": "hand"}


def trade(receiver: int, bean: str = "soy") -> dict[str, Any]:
    """Ann (seat 0, active) gives ``receiver`` a turned-over ``bean``."""
    return {"type": "trade", "player": 0, "partner": receiver, "give_face_up": [bean]}


def code_of(editor: Editor) -> str:
    response = editor.post("/api/join/code")
    assert response.status_code == 200
    return response.get_json()["code"]


def trading(editor: Editor) -> int:
    """A game of Ann, Ben, Cid and Dee in Ann's trading phase, soy and chili turned over."""
    game_id = editor.start(players=["Ann", "Ben", "Cid", "Dee"])["game_id"]
    for event in (plant(0, "blue"), {"type": "turn-over", "player": 0, "beans": ["soy", "chili"]}):
        assert editor.post(f"/api/games/{game_id}/moves", event).status_code == 200
    return game_id


def events(editor: Editor, game_id: int) -> list[dict[str, Any]]:
    return editor.get(f"/api/games/{game_id}/events").get_json()["events"]


def test_the_host_hands_out_a_join_code_as_a_link_and_a_qr_code_and_a_phone_takes_a_seat_without_the_pin(
    app: Flask, editor: Editor
) -> None:
    game_id = editor.start()["game_id"]
    assert editor.get(f"/api/join?game={game_id}").get_json()["link"] is None  # no code yet: no phone may join
    code = code_of(editor)
    host = editor.get(f"/api/join?game={game_id}").get_json()
    assert host["code"] == code and host["link"] == f"http://localhost/games/{game_id}?join={code}"
    assert "--lan" in host["loopback"] and host["held"] == {}  # the test client's localhost: phones reach nothing
    qr = editor.get(f"/api/join/qr?game={game_id}")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml" and b"<svg" in qr.data

    stranger = app.test_client()
    for path in (f"/api/join?game={game_id}", f"/api/join/qr?game={game_id}"):
        refused = stranger.get(path)
        assert refused.status_code == 403 and refused.get_json()["need_pin"] is True, path
        assert code not in refused.get_data(as_text=True)

    phone = Phone(app.test_client(), code, game_id, seat=1)
    assert phone.joined.status_code == 200
    assert phone.session()["seat"] == {"game_id": game_id, "seat": 1, "name": "Ben"}
    assert phone.session()["editor"] is False
    assert editor.get(f"/api/join?game={game_id}").get_json()["held"] == {"1": 1}
    assert Phone(app.test_client(), code, game_id, seat=3).joined.status_code == 400  # three players: no seat 3
    wrong = Phone(app.test_client(), "guessed", game_id, seat=0).joined
    assert wrong.status_code == 403 and wrong.get_json()["join_refused"] is True
    assert "ask the host for the new QR code; you are watching" in wrong.get_json()["error"]


def test_the_join_link_holds_the_address_the_server_was_started_on(make_app) -> None:
    editor = Editor(make_app(PUBLIC_URL="http://192.168.1.20:8000/").test_client())  # as companion serve --lan sets it
    game_id = editor.start()["game_id"]
    code = code_of(editor)
    host = editor.get(f"/api/join?game={game_id}").get_json()
    assert host["link"] == f"http://192.168.1.20:8000/games/{game_id}?join={code}" and host["loopback"] is None


def test_a_phone_makes_its_seats_moves_only_and_is_told_which_seat_it_holds(app: Flask, editor: Editor) -> None:
    game_id = editor.start()["game_id"]
    code = code_of(editor)
    ann, ben = (Phone(app.test_client(), code, game_id, seat) for seat in (0, 1))
    assert ann.move(game_id, plant(0, "blue")).status_code == 200
    for phone, event, sentence in (
        (ben, plant(0, "red"), "this phone holds Ben's seat: it may not move for Ann"),
        (ann, {"type": "harvest", "player": 2, "field": 0}, "this phone holds Ann's seat: it may not move for Cid"),
        (ann, {"event": plant(1, "red"), "source": "phone"}, "this phone holds Ann's seat: it may not move for Ben"),
    ):
        refused = phone.move(game_id, event)
        assert refused.status_code == 403 and refused.get_json()["error"] == sentence
    assert ben.post(f"/api/games/{game_id}/undo", {}).status_code == 403  # undo is the host's
    refused = ben.move(game_id, plant(1, "red"))  # Ben's own move, but not his turn: the rules say why
    assert refused.status_code == 409 and refused.get_json()["rule"]
    assert events(editor, game_id) == [plant(0, "blue") | {"field": 0}]

    other = editor.start()["game_id"]
    elsewhere = ann.move(other, plant(0, "blue"))
    assert elsewhere.status_code == 403
    assert elsewhere.get_json()["error"] == (f"this phone holds Ann's seat in game {game_id}: "
                                             "open this game's join link to play in it")  # fmt: skip
    assert events(editor, other) == []


def test_a_trade_is_offered_from_the_active_phone_and_answered_on_the_partners(app: Flask, editor: Editor) -> None:
    game_id = trading(editor)
    code = code_of(editor)
    ann, ben, cid = (Phone(app.test_client(), code, game_id, seat) for seat in (0, 1, 2))
    direct = ann.move(game_id, trade(1))
    assert direct.status_code == 403 and direct.get_json()["error"].startswith("Ben answers this trade: offer it")
    offer = ann.post(f"/api/games/{game_id}/proposals", {"event": trade(1), "source": "phone"})
    assert offer.status_code == 201 and offer.get_json()["legal"] is True
    assert offer.get_json()["text"] == "Ann offers Ben Soy as a gift"  # an offer, not yet a trade
    offer_id = offer.get_json()["id"]
    assert ben.post(f"/api/games/{game_id}/proposals", {"event": trade(1), "source": "phone"}).status_code == 403
    accept = f"/api/games/{game_id}/proposals/{offer_id}/confirm"
    assert cid.post(accept, {}).get_json()["error"] == "this offer is not made to Cid: its partner accepts it"
    assert cid.delete(f"/api/games/{game_id}/proposals/{offer_id}").status_code == 403
    assert ben.post(accept, {"event": trade(1, "chili")}).status_code == 403  # a phone accepts as offered
    assert ben.post(accept, {}).status_code == 200
    assert events(editor, game_id)[-1] == trade(1)

    second = ann.post(f"/api/games/{game_id}/proposals", {"event": trade(2, "chili"), "source": "phone"}).get_json()
    assert cid.delete(f"/api/games/{game_id}/proposals/{second['id']}").status_code == 200  # Cid declines
    assert editor.get(f"/api/games/{game_id}").get_json()["proposals"] == []
    assert ann.move(game_id, {"type": "end-trading", "player": 0}).status_code == 200


def test_revoking_the_join_code_turns_every_phone_into_a_watcher_that_is_told_so(app: Flask, editor: Editor) -> None:
    game_id = editor.start()["game_id"]
    old = code_of(editor)
    ann = Phone(app.test_client(), old, game_id, seat=0)
    live = app.extensions["tables"].feed.subscribe(["games"])
    new = code_of(editor)
    assert new != old
    assert live.inbox.get(timeout=1).event == "joins"  # every page hears of it, so phones turn watchers at once
    refused = ann.move(game_id, plant(0, "blue"))
    assert refused.status_code == 403 and refused.get_json() == {"error": REVOKED, "seat_ended": True}
    assert ann.session()["seat"] is None and ann.session()["seat_ended"] == REVOKED
    assert app.test_client().get(f"/api/games/{game_id}").status_code == 200  # watching goes on
    assert Phone(app.test_client(), old, game_id, seat=1).joined.status_code == 403
    ben = Phone(app.test_client(), new, game_id, seat=0)
    assert ben.move(game_id, plant(0, "blue")).status_code == 200

    assert editor.delete("/api/join/code").get_json()["code"] is None  # joining closed
    assert ben.move(game_id, plant(0, "red")).get_json()["seat_ended"] is True
    assert Phone(app.test_client(), new, game_id, seat=1).joined.status_code == 403
    assert events(editor, game_id) == [plant(0, "blue") | {"field": 0}]


def test_a_phone_that_leaves_its_seat_watches(app: Flask, editor: Editor) -> None:
    game_id = editor.start()["game_id"]
    ann = Phone(app.test_client(), code_of(editor), game_id, seat=0)
    left = ann.delete("/api/join").get_json()
    assert left["seat"] is None and left["seat_ended"] is None
    refused = ann.move(game_id, plant(0, "blue"))
    assert refused.status_code == 403 and refused.get_json()["need_pin"] is True


def test_join_codes_and_seats_survive_a_restart_and_the_folder_keeps_no_seat_login_in_clear(make_app) -> None:
    first = make_app("shared")
    editor = Editor(first.test_client())
    game_id = editor.start()["game_id"]
    code = code_of(editor)
    ann = Phone(first.test_client(), code, game_id, seat=0)
    restarted = make_app("shared", DATABASE=first.config["DATABASE"])
    ann.client.application = restarted  # the same phone (its cookie), talking to the restarted server
    assert ann.move(game_id, plant(0, "blue")).status_code == 200
    assert Editor(restarted.test_client()).get(f"/api/join?game={game_id}").get_json()["code"] == code
    login_id = restarted.session_interface.get_signing_serializer(restarted).loads(
        ann.client.get_cookie("session").value)["seat"]  # fmt: skip
    assert login_id.encode() not in (Path(restarted.instance_path) / "joins.sqlite3").read_bytes()


def test_two_phones_answering_at_once_one_is_refused_with_the_reason_and_nothing_is_lost(
    app: Flask, editor: Editor
) -> None:
    """Ann offers the one turned-over soy to Ben and to Cid; both accept at the same moment."""
    game_id = trading(editor)
    code = code_of(editor)
    ann, ben, cid = (Phone(app.test_client(), code, game_id, seat) for seat in (0, 1, 2))
    offers = {seat: ann.post(f"/api/games/{game_id}/proposals", {"event": trade(seat), "source": "phone"})
              .get_json()["id"] for seat in (1, 2)}  # fmt: skip
    start = threading.Barrier(2)
    answers: dict[int, Any] = {}

    def accept(phone: Phone, seat: int) -> None:
        start.wait()
        answers[seat] = phone.post(f"/api/games/{game_id}/proposals/{offers[seat]}/confirm", {})

    threads = [threading.Thread(target=accept, args=(phone, seat)) for phone, seat in ((ben, 1), (cid, 2))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(a.status_code for a in answers.values()) == [200, 409]
    winner = next(seat for seat, answer in answers.items() if answer.status_code == 200)
    loser = 3 - winner
    refusal = answers[loser].get_json()
    assert refusal["rule"] == "trade.face-up" and "Soy" in refusal["error"]
    print(f"the second answer was refused: {refusal['error']} ({refusal['rule']})")
    assert events(editor, game_id)[-1] == trade(winner)
    pending = editor.get(f"/api/games/{game_id}").get_json()["proposals"]
    assert [(p["event"], p["legal"]) for p in pending] == [(trade(loser), False)]  # kept, with why it cannot be


def test_a_phone_with_a_seat_may_watch_a_private_table(make_app) -> None:
    app = make_app(WATCH_NEEDS_PIN=True)
    editor = Editor(app.test_client())
    game_id = editor.start()["game_id"]
    phone = Phone(app.test_client(), code_of(editor), game_id, seat=2)
    assert phone.joined.status_code == 200
    assert phone.client.get(f"/api/games/{game_id}").status_code == 200
    assert app.test_client().get(f"/api/games/{game_id}").status_code == 403
