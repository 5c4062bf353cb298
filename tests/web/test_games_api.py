"""The games API through Flask's test client: start, play, refuse, undo, export, import, replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support.web_client import Editor
from web.api.body import MAX_JSON_BYTES

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "records"


def test_a_new_game_starts_in_phase_one_with_dealt_hands(editor: Editor) -> None:
    game = editor.start(start_player=1)
    state = game["state"]
    assert game["events"] == 0 and state["game"] == "bohnanza"
    assert state["active_player"] == 1 and state["phase"] == 1
    assert [p["hand_size"] for p in state["players"]] == [5, 5, 5]
    assert state["draw_pile"] == 104 - 15


def test_the_game_list_shows_every_game_newest_first(editor: Editor) -> None:
    first = editor.start()["game_id"]
    second = editor.start(game="dice", players=["Ann", "Ben"])["game_id"]
    listed = editor.get("/api/games").get_json()["games"]
    assert [g["id"] for g in listed] == [second, first]
    assert listed[0]["game"] == "dice" and listed[1]["ruleset"] == "amigo-25"


def test_a_legal_plant_is_stored_and_returned(editor: Editor, app) -> None:
    game_id = editor.start()["game_id"]
    response = editor.post(f"/api/games/{game_id}/moves", {"type": "plant", "player": 0, "bean": "blue"})
    assert response.status_code == 200
    data = response.get_json()
    assert data["event"] == {"type": "plant", "player": 0, "bean": "blue", "source": "hand", "field": 0}
    assert data["state"]["players"][0]["fields"][0] == {"bean": "blue", "count": 1}
    assert app.extensions["tables"].store.events(game_id) == [data["event"]]


def test_a_move_may_come_wrapped_with_its_source(editor: Editor) -> None:
    game_id = editor.start()["game_id"]
    body = {"event": {"type": "plant", "player": 0, "bean": "red"}, "source": "camera"}
    assert editor.post(f"/api/games/{game_id}/moves", body).status_code == 200


def test_an_illegal_move_is_refused_with_its_rule_and_changes_nothing(editor: Editor, app) -> None:
    game_id = editor.start()["game_id"]
    response = editor.post(f"/api/games/{game_id}/moves", {"type": "plant", "player": 1, "bean": "blue"})
    assert response.status_code == 409
    assert response.get_json()["rule"] == "turn.out-of-turn"
    assert "Ann's turn" in response.get_json()["error"]
    assert app.extensions["tables"].store.events(game_id) == []
    assert editor.get(f"/api/games/{game_id}").get_json()["events"] == 0


def test_malformed_events_are_refused_with_a_reason(editor: Editor) -> None:
    game_id = editor.start()["game_id"]
    for body, words in (
        ({"type": "teleport"}, "unknown event type"),
        ({"type": "plant", "player": "Ann", "bean": "blue"}, "player"),
    ):
        response = editor.post(f"/api/games/{game_id}/moves", body)
        assert response.status_code == 400, body
        assert words in response.get_json()["error"]
    unknown = editor.post(f"/api/games/{game_id}/moves", {"type": "plant", "player": 0, "bean": "unicorn"})
    assert unknown.status_code == 409 and "unicorn" in unknown.get_json()["error"]
    response = editor.post(f"/api/games/{game_id}/moves", data="not json", headers={"Content-Type": "application/json"})
    assert response.status_code == 400 and "JSON object" in response.get_json()["error"]


def test_check_previews_a_move_without_applying_it(editor: Editor) -> None:
    game_id = editor.start()["game_id"]
    legal = editor.post(f"/api/games/{game_id}/check", {"type": "plant", "player": 0, "bean": "blue"}).get_json()
    illegal = editor.post(f"/api/games/{game_id}/check", {"type": "draw", "player": 0}).get_json()
    assert legal == {"legal": True}
    assert illegal["legal"] is False and illegal["rule"].startswith("phase")
    assert editor.get(f"/api/games/{game_id}").get_json()["events"] == 0


def test_undo_takes_back_the_last_events(editor: Editor) -> None:
    game_id = editor.start()["game_id"]
    for bean in ("blue", "red"):
        editor.post(f"/api/games/{game_id}/moves", {"type": "plant", "player": 0, "bean": bean})
    response = editor.post(f"/api/games/{game_id}/undo", {"count": 1})
    data = response.get_json()
    assert data["undone"] == 1 and data["events"] == 1
    assert data["state"]["players"][0]["fields"][1] is None
    assert editor.post(f"/api/games/{game_id}/undo").get_json()["undone"] == 1
    assert editor.post(f"/api/games/{game_id}/undo").get_json()["undone"] == 0


def test_undo_says_in_words_what_it_undid(editor: Editor) -> None:
    game_id = editor.start()["game_id"]
    for bean in ("blue", "red"):
        editor.post(f"/api/games/{game_id}/moves", {"type": "plant", "player": 0, "bean": bean})
    change = editor.post(f"/api/games/{game_id}/undo", {"count": 2}).get_json()["change"]
    assert change == {"kind": "undo", "count": 2, "undone": [
        "Ann planted a Blue Bean (from hand) in field 1", "Ann planted a Red Bean (from hand) in field 2"]}


def test_the_api_and_the_live_stream_list_beans_in_the_same_order(editor: Editor) -> None:
    from companion.rules.rulesets import ruleset

    game_id = editor.start()["game_id"]
    shown = editor.get(f"/api/games/{game_id}").get_json()["state"]["unseen"]
    assert list(shown) == list(ruleset("amigo-25", 3).deck())  # the deck's order, not the alphabet


def test_bad_undo_counts_are_refused(editor: Editor) -> None:
    game_id = editor.start()["game_id"]
    for count in (0, -1, "two", 51):
        assert editor.post(f"/api/games/{game_id}/undo", {"count": count}).status_code == 400


def test_unknown_games_are_404_everywhere(editor: Editor) -> None:
    for path in ("/api/games/99", "/api/games/99/events", "/api/games/99/record", "/api/games/99/replay",
                 "/api/games/99/progress", "/api/live?game=99"):  # fmt: skip
        response = editor.get(path)
        assert response.status_code == 404 and "no game 99" in response.get_json()["error"], path
    assert editor.post("/api/games/99/moves", {"type": "draw", "player": 0}).status_code == 404
    assert editor.post("/api/games/99/undo").status_code == 404
    page = editor.get("/games/99")
    assert page.status_code == 404 and page.mimetype == "text/html" and b"there is no game 99" in page.data


def test_games_the_rules_cannot_start_are_refused(editor: Editor) -> None:
    for body, words in (
        ({"ruleset": "amigo-25", "players": ["Ann", "Ben"]}, "3-5 players"),
        ({"ruleset": "chess", "players": ["Ann", "Ben", "Cid"]}, "unknown ruleset"),
        ({"ruleset": "classic", "players": ["A", "B", "C"], "options": {"protection": "maybe"}}, "protection"),
        ({"ruleset": "classic", "players": "Ann, Ben"}, "players"),
        ({"ruleset": "classic", "players": ["A", "B", "C"], "start_player": 3}, "start_player"),
        ({"game": "dice", "players": ["Solo"]}, "2-5 players"),
    ):
        response = editor.post("/api/games", body)
        assert response.status_code == 400, body
        assert words in response.get_json()["error"], response.get_json()
    assert editor.get("/api/games").get_json()["games"] == []


def test_a_record_exports_and_imports_back_to_the_same_state(editor: Editor) -> None:
    game_id = editor.start()["game_id"]
    for bean in ("blue", "blue"):
        editor.post(f"/api/games/{game_id}/moves", {"type": "plant", "player": 0, "bean": bean})
    response = editor.get(f"/api/games/{game_id}/record")
    assert response.mimetype == "application/x-ndjson"
    assert "attachment" in response.headers["Content-Disposition"]
    lines = response.get_data(as_text=True).splitlines()
    assert json.loads(lines[0])["format"] == "bohnanza-record" and len(lines) == 3
    ndjson = {"Content-Type": "application/x-ndjson"}
    imported = editor.post("/api/games/import", data=response.get_data(), headers=ndjson)
    assert imported.status_code == 201
    original = editor.get(f"/api/games/{game_id}").get_json()["state"]
    assert imported.get_json()["state"] == original


def test_an_example_record_imports_as_a_file_upload(editor: Editor) -> None:
    path = EXAMPLES / "classic-5p.jsonl"
    with path.open("rb") as handle:
        response = editor.post("/api/games/import", data={"record": (handle, path.name)},
                               content_type="multipart/form-data")
    assert response.status_code == 201
    data = response.get_json()
    assert data["state"]["game_over"] is True and data["state"]["winners"]
    assert editor.get("/api/games").get_json()["games"][0]["finished"] is True


def test_broken_records_are_refused_with_the_line_and_nothing_is_stored(editor: Editor) -> None:
    header = json.dumps({"format": "bohnanza-record", "version": 1, "game": "bohnanza", "ruleset": "amigo-25",
                         "players": ["Ann", "Ben", "Cid"]})  # fmt: skip
    cases = (
        (b"", "send a game record"),
        (b"\xff\xfe\x00garbage", "UTF-8"),
        (b"hello\n", "line 1"),
        (f'{header}\n{{"type": "plant", "player": 2, "bean": "blue"}}\n'.encode(), "line 2"),
        (f"{header}\n{{not json\n".encode(), "line 2"),
    )
    for raw, words in cases:
        response = editor.post("/api/games/import", data=raw, headers={"Content-Type": "application/x-ndjson"})
        assert response.status_code == 400, raw
        assert words in response.get_json()["error"], response.get_json()
    illegal = editor.post("/api/games/import", data=cases[3][0], headers={"Content-Type": "application/x-ndjson"})
    assert illegal.get_json()["rule"] == "turn.out-of-turn" and illegal.get_json()["line"] == 2
    assert editor.get("/api/games").get_json()["games"] == []


def test_replay_gives_the_state_after_any_number_of_events(editor: Editor) -> None:
    game_id = editor.start()["game_id"]
    for bean in ("blue", "red"):
        editor.post(f"/api/games/{game_id}/moves", {"type": "plant", "player": 0, "bean": bean})
    at_one = editor.get(f"/api/games/{game_id}/replay?at=1").get_json()
    assert at_one["at"] == 1 and at_one["events"] == 2 and at_one["event"]["bean"] == "blue"
    assert at_one["state"]["players"][0]["fields"] == [{"bean": "blue", "count": 1}, None, None]
    assert editor.get(f"/api/games/{game_id}/replay?at=0").get_json()["event"] is None
    assert editor.get(f"/api/games/{game_id}/replay").get_json()["at"] == 2
    assert editor.get(f"/api/games/{game_id}/replay?at=3").status_code == 400
    assert editor.get(f"/api/games/{game_id}/replay?at=-1").status_code == 400


def test_progress_gives_every_players_coins_after_every_event(editor: Editor) -> None:
    path = EXAMPLES / "amigo-25-4p-known-deck.jsonl"
    ndjson = {"Content-Type": "application/x-ndjson"}
    imported = editor.post("/api/games/import", data=path.read_bytes(), headers=ndjson)
    game_id = imported.get_json()["game_id"]
    data = editor.get(f"/api/games/{game_id}/progress").get_json()
    events = editor.get(f"/api/games/{game_id}/events").get_json()["events"]
    assert len(data["scores"]) == len(events) + 1
    assert data["scores"][0] == [0, 0, 0, 0]
    final = imported.get_json()["state"]["scores"]
    for player in imported.get_json()["state"]["players"]:
        assert sum(player["coins_by_bean"].values()) == player["coins"] == final[player["name"]]
    assert data["scores"][-1] == [final[name] for name in data["players"]]
    for before, after in zip(data["scores"], data["scores"][1:]):
        assert all(b <= a for b, a in zip(before, after))


def test_rulesets_list_every_registered_ruleset_with_its_options(client) -> None:
    from companion.rules.rulesets import RULESETS

    games = {g["game"]: g for g in client.get("/api/rulesets").get_json()["games"]}
    card = {r["name"]: r for r in games["bohnanza"]["rulesets"]}
    assert set(card) == set(RULESETS)
    assert card["classic"]["max_players"] == 7
    protection = next(o for o in card["classic"]["options"] if o["name"] == "protection")
    assert protection["default"] == "strict"
    assert [c["value"] for c in protection["choices"]] == ["lenient", "strict"]
    assert all(c["about"].endswith(".") for c in protection["choices"])
    assert games["dice"]["rulesets"][0]["min_players"] == 2


def test_beans_list_the_catalogue(client) -> None:
    from companion.cards import CATALOGUE

    beans = client.get("/api/beans").get_json()["beans"]
    assert [b["id"] for b in beans] == list(CATALOGUE)
    assert next(b for b in beans if b["id"] == "garden")["beanometer"] == [None, 2, 3, None]


def test_a_camera_proposal_waits_until_someone_confirms_it(editor: Editor) -> None:
    game_id = editor.start()["game_id"]
    response = editor.post(f"/api/games/{game_id}/proposals",
                           {"event": {"type": "plant", "player": 0, "bean": "blue"}, "source": "camera"})  # fmt: skip
    assert response.status_code == 201
    proposal = response.get_json()
    assert proposal["legal"] is True and proposal["source"] == "camera"
    snapshot = editor.get(f"/api/games/{game_id}").get_json()
    assert snapshot["events"] == 0 and [p["id"] for p in snapshot["proposals"]] == [proposal["id"]]
    confirmed = editor.post(f"/api/games/{game_id}/proposals/{proposal['id']}/confirm").get_json()
    assert confirmed["events"] == 1 and confirmed["proposals"] == []
    assert editor.get(f"/api/games/{game_id}/events").get_json()["events"][0]["bean"] == "blue"


def test_a_proposal_can_be_corrected_or_dismissed(editor: Editor) -> None:
    game_id = editor.start()["game_id"]
    first = editor.post(f"/api/games/{game_id}/proposals", {"event": {"type": "plant", "player": 0, "bean": "blue"}})
    second = editor.post(f"/api/games/{game_id}/proposals", {"event": {"type": "plant", "player": 0, "bean": "soy"}})
    corrected = editor.post(f"/api/games/{game_id}/proposals/{first.get_json()['id']}/confirm",
                            {"event": {"type": "plant", "player": 0, "bean": "red"}})  # fmt: skip
    assert corrected.get_json()["event"]["bean"] == "red"
    dismissed = editor.delete(f"/api/games/{game_id}/proposals/{second.get_json()['id']}")
    assert dismissed.status_code == 200 and dismissed.get_json()["proposals"] == []
    assert editor.delete(f"/api/games/{game_id}/proposals/{second.get_json()['id']}").status_code == 404
    assert editor.post(f"/api/games/{game_id}/proposals/999/confirm").status_code == 404


def test_an_illegal_proposal_is_flagged_and_refused_on_confirm_but_kept(editor: Editor) -> None:
    game_id = editor.start()["game_id"]
    proposal = editor.post(f"/api/games/{game_id}/proposals", {"event": {"type": "draw", "player": 0}}).get_json()
    assert proposal["legal"] is False and proposal["rule"]
    refused = editor.post(f"/api/games/{game_id}/proposals/{proposal['id']}/confirm")
    assert refused.status_code == 409 and refused.get_json()["rule"] == proposal["rule"]
    assert [p["id"] for p in editor.get(f"/api/games/{game_id}").get_json()["proposals"]] == [proposal["id"]]
    assert editor.post(f"/api/games/{game_id}/proposals", {"event": "plant blue"}).status_code == 400
    assert editor.get(f"/api/games/{game_id}").get_json()["events"] == 0


# ----------------------------------------------------------------- every input checked at the door

DEEP = ("[" * 1000 + "]" * 1000).encode()


def _raw(editor: Editor, path: str, body: bytes, content_type: str = "application/json"):
    return editor.client.post(path, data=body, headers={"X-CSRF-Token": editor.token, "Content-Type": content_type})


def _log(editor: Editor, game_id: int) -> list[dict]:
    return editor.get(f"/api/games/{game_id}/events").get_json()["events"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b'{"type": ["plant"], "player": 0}', "unknown event type ['plant']"),
        (b'{"event": null}', '"event" must be an event object'),
        (b'{"event": [1], "source": "camera"}', '"event" must be an event object'),
        (b'{"event": {"type": "plant", "player": 0, "bean": "blue"}, "source": ["camera"]}', '"source"'),
        (DEEP, "nested deeper than 32 levels"),
        (b'{"type": "plant", "player": ' + b"9" * 5000 + b', "bean": "blue"}', "out of range"),
        (b'{"type": "plant", "player": 1e400, "bean": "blue"}', "out of range"),
        (b'{"type": "plant", "player": NaN, "bean": "blue"}', "NaN is not a JSON number"),
        (b'{"type": "plant", "player": 0, "bean": "\\ud800"}', "lone surrogate"),
        (b'{"type": "plant", "player": -1, "bean": "blue"}', "from 0 to 1000"),
        (b'\xff{"type": "plant"}', "not UTF-8"),
    ],
)
def test_hostile_move_bodies_are_refused_with_a_sentence_and_change_nothing(editor: Editor, body: bytes, words: str):
    game_id = editor.start()["game_id"]
    assert editor.post(f"/api/games/{game_id}/moves", {"type": "plant", "player": 0, "bean": "blue"}).status_code == 200
    before = _log(editor, game_id)
    response = _raw(editor, f"/api/games/{game_id}/moves", body)
    assert response.status_code == 400, response.get_json()
    assert words in response.get_json()["error"]
    assert _log(editor, game_id) == before


def test_deep_json_is_refused_before_parsing_even_where_the_pin_is_entered(client) -> None:
    token = client.get("/api/session").get_json()["csrf_token"]
    for body in (DEEP, b'{"pin": "\\udfff"}', b'{"pin": 1e999}'):
        headers = {"X-CSRF-Token": token, "Content-Type": "application/json"}
        response = client.post("/api/session", data=body, headers=headers)
        assert response.status_code == 400 and response.get_json()["error"], body[:20]
    assert client.get("/api/session").get_json()["editor"] is False


def test_a_json_body_beyond_the_limit_is_refused_with_413(editor: Editor) -> None:
    game_id = editor.start()["game_id"]
    body = b'{"type": "plant", "player": 0, "bean": "' + b"b" * MAX_JSON_BYTES + b'"}'
    response = _raw(editor, f"/api/games/{game_id}/moves", body)
    assert response.status_code == 413 and "KiB" in response.get_json()["error"]
    assert _log(editor, game_id) == []


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (b'{"count": "x"}', "text/plain"),
        (b'{"count": 1}', "text/plain"),
        (b"[]", "application/json"),
        (b"[1]", "application/json"),
        (b'"x"', "application/json"),
        (b"not json", "application/json"),
        (b'{"count": 1, "cuont": 2}', "application/json"),
        (b'{"count": true}', "application/json"),
        (b'{"count": 1, "after": 99999999999999999999999}', "application/json"),
    ],
)
def test_a_malformed_undo_body_undoes_nothing(editor: Editor, body: bytes, content_type: str) -> None:
    game_id = editor.start()["game_id"]
    editor.post(f"/api/games/{game_id}/moves", {"type": "plant", "player": 0, "bean": "blue"})
    before = _log(editor, game_id)
    response = _raw(editor, f"/api/games/{game_id}/undo", body, content_type)
    assert response.status_code == 400 and response.get_json()["error"]
    assert _log(editor, game_id) == before and len(before) == 1
    assert _raw(editor, f"/api/games/{game_id}/undo", b"", "text/plain").get_json()["undone"] == 1


def test_a_proposal_corrected_with_something_else_than_an_event_is_refused_and_kept(editor: Editor) -> None:
    game_id = editor.start()["game_id"]
    proposal = editor.post(f"/api/games/{game_id}/proposals", {"event": {"type": "plant", "player": 0, "bean": "blue"}})
    confirm = f"/api/games/{game_id}/proposals/{proposal.get_json()['id']}/confirm"
    for body in (b'{"event": 5}', b'{"event": "plant"}', b"[1]", b"{"):
        assert _raw(editor, confirm, body).status_code == 400, body
    assert _log(editor, game_id) == []
    assert len(editor.get(f"/api/games/{game_id}").get_json()["proposals"]) == 1


@pytest.mark.parametrize(
    ("player", "words"),
    [
        ("\ud800", "lone surrogate"),
        ("A\x00nn", "control character U+0000"),
        ("\u202eAnn", "control character U+202E"),
        ("A" * 41, "longer than 40 characters"),
        ("   ", "must not be empty"),
    ],
)
def test_player_names_that_cannot_be_shown_are_refused_and_nothing_is_stored(editor: Editor, player: str, words: str):
    response = editor.post("/api/games", {"ruleset": "amigo-25", "players": [player, "Ben", "Cid"]})
    assert response.status_code == 400 and words in response.get_json()["error"]
    assert editor.get("/api/games").get_json()["games"] == []


def test_names_and_titles_are_stored_in_composed_form_and_export_cleanly(editor: Editor) -> None:
    game = editor.start(players=["Zoe\u0308", "Ben", "Cid"], meta={"title": "Cafe\u0301"})
    assert game["header"]["players"][0] == "Zo\u00eb" and game["header"]["meta"]["title"] == "Caf\u00e9"
    record = editor.get(f"/api/games/{game['game_id']}/record")
    assert record.status_code == 200
    assert json.loads(record.get_data(as_text=True).splitlines()[0])["players"][0] == "Zoë"
    assert editor.get("/api/games").get_json()["games"][0]["players"][0] == "Zoë"


def test_numbers_beyond_any_id_are_refused_with_a_sentence(editor: Editor) -> None:
    game_id = editor.start()["game_id"]
    for path, status in (
        ("/api/games/99999999999999999999999", 404),
        (f"/api/games/{game_id}/replay?at=" + "9" * 5000, 400),
        (f"/api/games/{game_id}/replay?at=%D9%A3", 400),
        ("/api/live?game=" + "9" * 5000, 400),
    ):
        response = editor.get(path)
        assert response.status_code == status and response.get_json()["error"], path
    assert editor.post(f"/api/games/{game_id}/proposals/{2**64}/confirm").status_code == 404


def test_a_record_sent_with_a_json_content_type_is_still_read_line_by_line(editor: Editor) -> None:
    text = (EXAMPLES / "amigo-25-3p.jsonl").read_bytes()
    response = editor.post("/api/games/import", data=text, headers={"Content-Type": "application/json"})
    assert response.status_code == 201 and response.get_json()["state"]["game_over"] is True
