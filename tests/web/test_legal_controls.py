"""The page's controls come from the engine: legal moves per seat, in the engine's words, and no hidden card."""

from __future__ import annotations

from support.web_client import Editor


def test_every_seat_has_its_legal_moves_with_sentences_and_one_made_from_them_is_accepted(editor: Editor) -> None:
    game_id = editor.start()["game_id"]
    state = editor.get(f"/api/games/{game_id}").get_json()["state"]
    assert len(state["legal"]) == 3 and state["to_act"] == [0]
    plant = next(m for m in state["legal"][0] if m["type"] == "plant")
    assert plant["text"] == "Plant the front card of the hand" and set(plant["choose"]) == {"bean", "field"}
    event = {"type": plant["type"], **plant["fields"], "bean": "blue", "field": plant["choose"]["field"]["options"][0]}
    moved = editor.post(f"/api/games/{game_id}/moves", event).get_json()
    assert moved["change"]["text"] == "Ann planted a Blue Bean (from hand) in field 1"


def test_a_known_decks_moves_tell_no_watcher_a_hidden_card(editor: Editor) -> None:
    game_id = editor.start(deck={"seed": 7})["game_id"]
    plant = next(m for m in editor.get(f"/api/games/{game_id}").get_json()["state"]["legal"][0] if m["type"] == "plant")
    assert "bean" not in plant["fields"] and "bean" in plant["choose"]  # the front card stays hidden
