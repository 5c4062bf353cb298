"""The game so far (issue 21): every stored event in the engine's words, the undone ones marked."""

from __future__ import annotations

from support.web_client import Editor


def test_the_history_words_every_event_and_marks_the_undone_ones(editor: Editor) -> None:
    game_id = editor.start()["game_id"]
    for bean in ("blue", "red"):
        planted = editor.post(f"/api/games/{game_id}/moves", {"type": "plant", "player": 0, "bean": bean})
        assert planted.status_code == 200
    seq = editor.get(f"/api/games/{game_id}").get_json()["seq"]
    assert editor.post(f"/api/games/{game_id}/undo", {"count": 1, "after": seq}).status_code == 200
    assert editor.post(f"/api/games/{game_id}/moves", {"type": "plant", "player": 0, "bean": "soy"}).status_code == 200
    data = editor.get(f"/api/games/{game_id}/history").get_json()
    assert data["events"] == 2 and data["seq"] == editor.get(f"/api/games/{game_id}").get_json()["seq"]
    assert data["history"] == [
        {"at": 1, "undone": False, "type": "plant", "text": "Ann planted a Blue Bean (from hand) in field 1"},
        {"at": None, "undone": True, "type": "plant", "text": "Ann planted a Red Bean (from hand) in field 2"},
        {"at": 2, "undone": False, "type": "plant", "text": "Ann planted a Soy Bean (from hand) in field 2"},
    ]


def test_the_history_of_no_game_is_404(editor: Editor) -> None:
    assert editor.get("/api/games/999/history").status_code == 404
