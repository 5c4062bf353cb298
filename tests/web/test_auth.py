"""Who may change a game: watching is free; changes need the table PIN and the CSRF token."""

from __future__ import annotations

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
