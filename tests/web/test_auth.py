"""Who may watch and change a game: the table PIN, revocable logins, the CSRF token, the cookie and body limits."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from support.web_client import PIN, Editor


def test_anyone_may_watch_without_the_pin(client, editor: Editor) -> None:
    game_id = editor.start()["game_id"]
    for path in ("/", "/new", f"/games/{game_id}", f"/games/{game_id}/replay", "/camera",
                 "/api/games", f"/api/games/{game_id}", "/api/rulesets", "/api/hardware"):  # fmt: skip
        assert client.get(path).status_code == 200, path


def test_a_change_without_the_csrf_token_is_refused(client) -> None:
    client.get("/api/session")
    response = client.post("/api/games", json={"ruleset": "amigo-25", "players": ["A", "B", "C"]})
    assert response.status_code == 403 and response.get_json()["need_csrf"] is True
    forged = client.post("/api/games", json={"ruleset": "amigo-25", "players": ["A", "B", "C"]},
                         headers={"X-CSRF-Token": "guessed"})  # fmt: skip
    assert forged.status_code == 403
    assert client.get("/api/games").get_json()["games"] == []


def test_a_change_without_the_pin_is_refused_and_changes_nothing(client, editor: Editor) -> None:
    game_id = editor.start()["game_id"]
    token = client.get("/api/session").get_json()["csrf_token"]
    response = client.post(f"/api/games/{game_id}/moves", json={"type": "plant", "player": 0, "bean": "blue"},
                           headers={"X-CSRF-Token": token})  # fmt: skip
    assert response.status_code == 403 and response.get_json()["need_pin"] is True
    assert client.post(f"/api/games/{game_id}/undo", headers={"X-CSRF-Token": token}).status_code == 403
    assert editor.get(f"/api/games/{game_id}").get_json()["events"] == 0


def test_a_wrong_pin_is_refused_and_the_right_one_is_kept_in_the_session(client) -> None:
    token = client.get("/api/session").get_json()["csrf_token"]
    wrong = client.post("/api/session", json={"pin": "0000"}, headers={"X-CSRF-Token": token})
    assert wrong.status_code == 403 and "wrong PIN" in wrong.get_json()["error"]
    assert client.post("/api/session", json={}, headers={"X-CSRF-Token": token}).status_code == 400
    right = client.post("/api/session", json={"pin": PIN}, headers={"X-CSRF-Token": token})
    assert right.get_json()["editor"] is True
    assert client.get("/api/session").get_json()["editor"] is True
    started = client.post("/api/games", json={"ruleset": "amigo-25", "players": ["A", "B", "C"]},
                          headers={"X-CSRF-Token": token})  # fmt: skip
    assert started.status_code == 201
    assert client.delete("/api/session", headers={"X-CSRF-Token": token}).get_json()["editor"] is False


def test_guessing_pins_is_paused_after_too_many_wrong_ones(app, client) -> None:
    clock = [1000.0]
    app.extensions["pin_guard"].clock = lambda: clock[0]
    token = client.get("/api/session").get_json()["csrf_token"]

    def attempt(pin: str) -> int:
        return client.post("/api/session", json={"pin": pin}, headers={"X-CSRF-Token": token}).status_code

    assert [attempt(f"{n:04d}") for n in range(5)] == [403] * 5
    assert attempt(PIN) == 429
    clock[0] += app.config["PIN_LOCKOUT_S"] + 1
    assert attempt(PIN) == 200


def test_the_pin_is_random_when_not_given(tmp_path) -> None:
    from web import create_app

    pins = {create_app(instance_path=tmp_path / str(n)).config["TABLE_PIN"] for n in range(4)}
    assert all(len(pin) == 6 and pin.isdecimal() for pin in pins) and len(pins) > 1


def test_the_session_key_survives_a_restart(tmp_path) -> None:
    from web import create_app

    first = create_app({"TABLE_PIN": PIN}, instance_path=tmp_path)
    second = create_app({"TABLE_PIN": PIN}, instance_path=tmp_path)
    assert first.config["SECRET_KEY"] == second.config["SECRET_KEY"]
    assert first.debug is False and second.debug is False


def test_unexpected_failures_are_json_with_a_reason(app, editor: Editor, monkeypatch) -> None:
    tables = app.extensions["tables"]
    game_id = editor.start()["game_id"]

    def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(tables.store, "append", broken)
    response = editor.post(f"/api/games/{game_id}/moves", {"type": "plant", "player": 0, "bean": "blue"})
    assert response.status_code == 500 and "unchanged" in response.get_json()["error"]
    monkeypatch.undo()
    assert editor.get(f"/api/games/{game_id}").get_json()["state"]["players"][0]["fields"][0] is None


def _saved_cookie(client) -> str:
    return client.get_cookie("session").value


def _replay(app, cookie: str):
    """A new browser with a saved copy of a session cookie (and the CSRF token in it) tries to start a game."""
    thief = app.test_client()
    thief.set_cookie("session", cookie)
    token = thief.get("/api/session").get_json()["csrf_token"]
    return thief.post("/api/games", json={"ruleset": "amigo-25", "players": ["A", "B", "C"]},
                      headers={"X-CSRF-Token": token})  # fmt: skip


def test_forgetting_the_pin_ends_the_login_for_saved_copies_of_the_cookie_too(app, editor: Editor) -> None:
    saved = _saved_cookie(editor.client)
    assert _replay(app, saved).status_code == 201
    assert editor.delete("/api/session").get_json()["editor"] is False
    refused = _replay(app, saved)
    assert refused.status_code == 403 and refused.get_json()["need_pin"] is True


def test_a_restart_with_another_pin_ends_every_login_and_the_same_pin_keeps_them(make_app) -> None:
    first = make_app("shared")
    saved = _saved_cookie(Editor(first.test_client()).client)
    assert _replay(make_app("shared"), saved).status_code == 201  # restarted with the same PIN
    assert _replay(make_app("shared", TABLE_PIN="97531"), saved).status_code == 403
    assert _replay(first, saved).status_code == 403  # an older server on the folder follows the newest PIN
    assert _replay(make_app("shared"), saved).status_code == 403  # the old PIN back does not revive it


def test_the_instance_folder_keeps_only_hashes_of_the_pin_and_login_ids(app, editor: Editor) -> None:
    contents = (Path(app.instance_path) / "logins.sqlite3").read_bytes()
    login_id = app.session_interface.get_signing_serializer(app).loads(_saved_cookie(editor.client))["login"]
    assert len(login_id) >= 32 and login_id.encode() not in contents and PIN.encode() not in contents


def test_the_session_cookie_is_same_site_and_hidden_from_scripts(client) -> None:
    cookie = client.get("/api/session").headers["Set-Cookie"]
    assert "SameSite=Lax" in cookie and "HttpOnly" in cookie


@pytest.mark.parametrize(("path", "field"), [("/api/games/import", "record"),
                                             ("/api/camera/enrollment/blue/photos", "photo")])  # fmt: skip
def test_a_20_mb_body_is_refused_with_413_unread(editor: Editor, path: str, field: str) -> None:
    part = f'--x\r\nContent-Disposition: form-data; name="{field}"; filename="big"\r\n\r\n'.encode()
    body = io.BytesIO(part + bytes(20 * 1024 * 1024) + b"\r\n--x--\r\n")
    response = editor.post(path, input_stream=body, content_type="multipart/form-data; boundary=x")
    assert response.status_code == 413 and "over 16 MiB" in response.get_json()["error"]
    assert body.tell() == 0  # refused by its declared length, before reading any of it


def test_a_deck_photo_of_several_megabytes_is_within_the_limit(editor: Editor) -> None:
    photo = b"\xff\xd8" + bytes(12 * 1024 * 1024)  # a 12 MB "JPEG" that is no image
    response = editor.post("/api/camera/enrollment/blue/photos", data={"photo": (io.BytesIO(photo), "big.jpg")})
    assert response.status_code == 400 and "image" in response.get_json()["error"]


def test_private_mode_needs_the_pin_to_watch(make_app) -> None:
    app = make_app(WATCH_NEEDS_PIN=True)
    anonymous, editor = app.test_client(), Editor(app.test_client())
    for path in ("/api/games", "/api/hardware", "/api/rulesets", "/api/live"):
        refused = anonymous.get(path)
        assert refused.status_code == 403 and refused.get_json()["need_pin"] is True, path
    assert anonymous.get("/api/session").get_json()["editor"] is False
    assert anonymous.get("/").status_code == 200  # the page shell, which asks for the PIN
    assert editor.get("/api/games").status_code == 200 and editor.get("/api/hardware").status_code == 200


def test_private_mode_page_shells_name_no_players_to_strangers(make_app) -> None:
    app = make_app(WATCH_NEEDS_PIN=True)
    editor = Editor(app.test_client())
    card = editor.start(players=["Ann", "Ben", "Zoltan"])["game_id"]
    dice = editor.start(game="dice", players=["Ann", "Yvette"], meta={"title": "Secret night"})["game_id"]
    anonymous = app.test_client()
    for path in (f"/games/{card}", f"/games/{card}/replay", f"/games/{dice}"):
        page = anonymous.get(path).get_data(as_text=True)
        assert "Zoltan" not in page and "Yvette" not in page and "Secret night" not in page, path
        assert "Watching needs it too" in page
    assert "Zoltan" in editor.get(f"/games/{card}").get_data(as_text=True)
