"""The dice game's API through Flask's test client: catalogue, odds, virtual rolls, deals,
the odds in the dice state, and the refusals of dice moves on the generic moves endpoint."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.dice.catalogue import sample_catalogue
from companion.dice.config import DEFAULT_DICE
from companion.dice.game import DiceGame
from companion.dice.notation import parse_order
from companion.dice.odds import brute_force_probability
from support.web_client import Editor
from web.api.dice import CATALOGUE_FILE
from web.present import order_odds

CARD = ["stink", "soy", "red", "2x green", "(soy|green) + 2x(garden|red)"]
PRINTED = ["74", "56", "42", "26", "15"]


def _catalogue_path(app: Flask) -> Path:
    return Path(app.instance_path) / CATALOGUE_FILE


def _sample_game(editor: Editor, players: int = 2, seed: int = 0) -> int:
    names = ["Ann", "Ben", "Cid", "Dee", "Eve"][:players]
    game = editor.start(game="dice", players=names, options={"harvest_cards": "sample", "seed": seed})
    for _ in range(2 * players):
        assert editor.post(f"/api/dice/games/{game['game_id']}/deal").status_code == 200
    return game["game_id"]


def _hidden_game(editor: Editor) -> int:
    return editor.start(game="dice", players=["Ann", "Ben"])["game_id"]


def _events(app: Flask, game_id: int) -> list[dict[str, Any]]:
    return app.extensions["tables"].store.events(game_id)


def _move(editor: Editor, game_id: int, event: dict[str, Any]):
    return editor.post(f"/api/games/{game_id}/moves", event)


# ----------------------------------------------------------------- odds


def test_odds_are_exact_and_match_the_brute_force_count(client: FlaskClient) -> None:
    response = client.get("/api/dice/odds", query_string={"order": "2x green  or 2X soy"})
    assert response.status_code == 200
    data = response.get_json()
    exact = brute_force_probability(parse_order("2x green or 2x soy"), DEFAULT_DICE)
    assert data["order"] == "2x green or 2x soy"
    assert Fraction(data["fraction"]) == exact
    assert data["percent"] == round(float(exact * 100), 1)
    assert "printed" not in data


def test_odds_check_a_printed_percentage(client: FlaskClient) -> None:
    agrees = client.get("/api/dice/odds", query_string={"order": "stink", "printed": "74"}).get_json()
    assert agrees["printed"] == {"value": "74", "agrees": True, "computed": "74"}
    wrong = client.get("/api/dice/odds", query_string={"order": "stink", "printed": "60 %"}).get_json()
    assert wrong["printed"]["agrees"] is False and wrong["printed"]["computed"] == "74"


def test_a_syntax_error_in_an_order_names_its_position(client: FlaskClient) -> None:
    response = client.get("/api/dice/odds", query_string={"order": "2x green + "})
    assert response.status_code == 400
    data = response.get_json()
    assert data["position"] == 11 and data["reason"] == "expected a bean"
    assert "position 12" in data["error"]
    assert data["pointer"].splitlines()[1] == " " * 11 + "^"


def test_an_unknown_bean_gets_a_suggestion(client: FlaskClient) -> None:
    data = client.get("/api/dice/odds", query_string={"order": "soy + grene"}).get_json()
    assert data["position"] == 6 and "did you mean 'green'" in data["reason"]


@pytest.mark.parametrize(
    ("query", "status", "words"),
    [
        ({}, 400, "give the order"),
        ({"order": "   "}, 400, "give the order"),
        ({"order": "3x garden"}, 422, "impossible"),
        ({"order": "stink", "printed": "lots"}, 400, "not a percentage"),
        ({"order": "stink", "printed": "140"}, 400, "between 0 and 100"),
        ({"order": "stink", "game": "one"}, 400, "game id"),
        ({"order": "stink", "game": "99"}, 404, "no game 99"),
    ],
)
def test_bad_odds_requests_are_refused_with_a_reason(client: FlaskClient, query: dict, status: int, words: str) -> None:
    response = client.get("/api/dice/odds", query_string=query)
    assert response.status_code == status
    assert words in response.get_json()["error"]


def test_odds_use_the_dice_of_the_game_named(editor: Editor) -> None:
    dice = {"dice": [{"kind": "odd", "faces": ["garden"] * 6}] * 3}
    game_id = editor.start(game="dice", players=["Ann", "Ben"], options={"dice": dice})["game_id"]
    assert editor.get(f"/api/dice/odds?order=3x%20garden&game={game_id}").get_json()["fraction"] == "1/1"
    card_game = editor.start()["game_id"]
    response = editor.get(f"/api/dice/odds?order=stink&game={card_game}")
    assert response.status_code == 400 and "not a dice game" in response.get_json()["error"]


# ----------------------------------------------------------------- catalogue


def test_the_catalogue_lists_the_group_cards_and_the_labelled_sample(client: FlaskClient) -> None:
    data = client.get("/api/dice/catalogue").get_json()
    assert data["group"] == {"name": "Our table", "sample": False, "cards": []}
    sample = data["sample"]
    assert sample["sample"] is True and "SAMPLE" in sample["name"]
    assert len(sample["cards"]) == len(sample_catalogue().cards) == 55
    first = sample["cards"][0]
    exact = brute_force_probability(parse_order(first["orders"][0]), DEFAULT_DICE)
    assert Fraction(first["odds"][0]["fraction"]) == exact


def test_a_card_is_added_to_the_file_in_the_instance_folder(editor: Editor, app: Flask) -> None:
    response = editor.post("/api/dice/catalogue", {"orders": CARD, "printed": PRINTED})
    assert response.status_code == 201
    card = response.get_json()["card"]
    assert card["id"] == "1" and card["orders"] == CARD and card["printed"] == PRINTED
    assert [o["percent"] for o in card["odds"]] == [74.3, 55.6, 42.1, 25.9, 14.8]
    stored = json.loads(_catalogue_path(app).read_text())
    assert stored["format"] == "bohnanza-dice-harvest-cards" and stored["cards"][0]["orders"] == CARD
    assert editor.get("/api/dice/catalogue").get_json()["group"]["cards"][0]["id"] == "1"


def test_the_same_card_entered_again_is_recognised(editor: Editor, app: Flask) -> None:
    editor.post("/api/dice/catalogue", {"orders": CARD, "id": "A7"})
    again = editor.post("/api/dice/catalogue", {"orders": [" stink", "soy", "red", "green + green", CARD[4]]})
    assert again.status_code == 200
    assert again.get_json() == {"added": False, "card": {**again.get_json()["card"], "id": "A7"}}
    assert len(json.loads(_catalogue_path(app).read_text())["cards"]) == 1


def _refused(editor: Editor, app: Flask, body: Any, status: int) -> dict[str, Any]:
    before = editor.get("/api/dice/catalogue").get_json()["group"]
    response = editor.post("/api/dice/catalogue", body)
    assert response.status_code == status, response.get_json()
    assert editor.get("/api/dice/catalogue").get_json()["group"] == before
    return response.get_json()


def test_a_card_with_bad_order_text_is_refused_with_the_order_and_position(editor: Editor, app: Flask) -> None:
    data = _refused(editor, app, {"orders": [*CARD[:3], "2x grean", CARD[4]]}, 400)
    assert data["order_index"] == 3 and data["position"] == 3
    assert data["error"].startswith("order 4 (from the bottom): unknown bean 'grean'")
    assert not _catalogue_path(app).exists()


def test_an_order_of_superscript_digits_is_refused_not_a_server_error(editor: Editor, app: Flask) -> None:
    data = _refused(editor, app, {"orders": ["¹", *CARD[1:]]}, 400)
    assert data["order_index"] == 0 and "expected a bean" in data["error"]


def test_a_card_with_an_impossible_order_is_refused(editor: Editor, app: Flask) -> None:
    data = _refused(editor, app, {"orders": [*CARD[:4], "3x garden"]}, 422)
    assert data["order_index"] == 4 and data["impossible"] is True
    assert "can never be met" in data["error"]


def test_a_card_whose_printed_percentage_disagrees_is_refused(editor: Editor, app: Flask) -> None:
    data = _refused(editor, app, {"orders": CARD, "printed": ["74", "56", "42", "62", None]}, 422)
    assert data["order_index"] == 3 and data["computed"] == "26"


@pytest.mark.parametrize(
    "body",
    [
        {"orders": CARD[:4]},
        {"orders": "stink soy red"},
        {"orders": [*CARD[:4], 5]},
        {"orders": CARD, "printed": ["74"]},
        {"orders": CARD, "printed": [True, None, None, None, None]},
        {"orders": CARD, "id": 7},
        {"orders": CARD, "id": "x" * 41},
        {"orders": [*CARD[:4], "soy + " * 50 + "soy"]},
        ["stink"],
    ],
)
def test_malformed_cards_are_refused(editor: Editor, app: Flask, body: Any) -> None:
    assert "error" in _refused(editor, app, body, 400)


def test_a_different_card_under_a_used_id_is_refused(editor: Editor, app: Flask) -> None:
    editor.post("/api/dice/catalogue", {"orders": CARD, "id": "A7"})
    data = _refused(editor, app, {"orders": ["soy", *CARD[1:]], "id": "A7"}, 409)
    assert "A7" in data["error"]


def test_a_damaged_catalogue_file_is_reported_not_overwritten(editor: Editor, app: Flask) -> None:
    _catalogue_path(app).write_text("{not json")
    response = editor.get("/api/dice/catalogue")
    assert response.status_code == 422 and "damaged" in response.get_json()["error"]
    assert editor.post("/api/dice/catalogue", {"orders": CARD}).status_code == 422
    assert _catalogue_path(app).read_text() == "{not json"


def test_adding_a_card_needs_the_pin_and_the_csrf_token(client: FlaskClient, app: Flask) -> None:
    no_csrf = client.post("/api/dice/catalogue", json={"orders": CARD})
    assert no_csrf.status_code == 403 and no_csrf.get_json()["need_csrf"] is True
    token = client.get("/api/session").get_json()["csrf_token"]
    no_pin = client.post("/api/dice/catalogue", json={"orders": CARD}, headers={"X-CSRF-Token": token})
    assert no_pin.status_code == 403 and no_pin.get_json()["need_pin"] is True
    assert not _catalogue_path(app).exists()


# ----------------------------------------------------------------- virtual rolls and deals


def test_a_virtual_roll_rolls_every_die_due_with_its_own_faces(editor: Editor, app: Flask) -> None:
    game_id = _sample_game(editor)
    response = editor.post(f"/api/dice/games/{game_id}/roll")
    assert response.status_code == 200
    data = response.get_json()
    beans = data["event"]["beans"]
    assert data["event"]["type"] == "roll" and len(beans) == 5
    assert all(bean in die.faces for bean, die in zip(beans, DEFAULT_DICE.dice))
    assert data["state"]["phase"] == "save" and data["state"]["last_roll"] == beans
    assert _events(app, game_id)[-1] == data["event"]

    assert _move(editor, game_id, {"type": "save", "dice": [0, 3]}).status_code == 200
    second = editor.post(f"/api/dice/games/{game_id}/roll").get_json()["event"]["beans"]
    assert second[0] is None and second[3] is None
    assert all(second[i] in DEFAULT_DICE.dice[i].faces for i in (1, 2, 4))


def test_a_virtual_roll_is_published_with_its_source(editor: Editor, app: Flask) -> None:
    game_id = _sample_game(editor)
    subscription = app.extensions["tables"].feed.subscribe([f"game:{game_id}"])
    try:
        editor.post(f"/api/dice/games/{game_id}/roll")
        message = subscription.inbox.get(timeout=5)
    finally:
        subscription.close()
    assert message.event == "state" and message.data["change"]["source"] == "virtual"
    assert message.data["change"]["event"]["type"] == "roll"


def test_a_virtual_roll_out_of_phase_is_refused_with_the_rule(editor: Editor, app: Flask) -> None:
    hidden = _hidden_game(editor)
    response = editor.post(f"/api/dice/games/{hidden}/roll")
    assert response.status_code == 409 and response.get_json()["rule"] == "dice.draw-pending"
    game_id = _sample_game(editor)
    editor.post(f"/api/dice/games/{game_id}/roll")
    before = _events(app, game_id)
    again = editor.post(f"/api/dice/games/{game_id}/roll")
    assert again.status_code == 409 and again.get_json()["rule"] == "dice.save-at-least-one"
    assert _events(app, game_id) == before


def test_virtual_rolls_and_deals_are_refused_for_other_games_and_unknown_ids(editor: Editor) -> None:
    card_game = editor.start()["game_id"]
    for action in ("roll", "deal"):
        response = editor.post(f"/api/dice/games/{card_game}/{action}")
        assert response.status_code == 400 and "not a dice game" in response.get_json()["error"]
        assert editor.post(f"/api/dice/games/999/{action}").status_code == 404


def test_virtual_rolls_and_deals_need_the_pin_and_the_csrf_token(editor: Editor, app: Flask) -> None:
    game_id = _hidden_game(editor)
    stranger = app.test_client()
    for action in ("roll", "deal"):
        assert stranger.post(f"/api/dice/games/{game_id}/{action}").get_json()["need_csrf"] is True
        token = stranger.get("/api/session").get_json()["csrf_token"]
        response = stranger.post(f"/api/dice/games/{game_id}/{action}", headers={"X-CSRF-Token": token})
        assert response.status_code == 403 and response.get_json()["need_pin"] is True
    assert _events(app, game_id) == []


def test_deals_follow_the_known_deck(editor: Editor, app: Flask) -> None:
    options = {"harvest_cards": "sample", "seed": 5}
    game_id = editor.start(game="dice", players=["Ann", "Ben"], options=options)["game_id"]
    reference = DiceGame.new(["Ann", "Ben"], 0, {"harvest_cards": "sample", "seed": 5})
    for _ in range(4):
        expected = reference.deal()
        reference.push(expected)
        event = editor.post(f"/api/dice/games/{game_id}/deal").get_json()["event"]
        assert event["player"] == expected.player and event["card"]["id"] == expected.card.id
    response = editor.post(f"/api/dice/games/{game_id}/deal")
    assert response.status_code == 409 and response.get_json()["rule"] == "dice.no-draw-due"
    assert len(_events(app, game_id)) == 4


def test_a_hidden_deck_is_not_dealt(editor: Editor, app: Flask) -> None:
    game_id = _hidden_game(editor)
    response = editor.post(f"/api/dice/games/{game_id}/deal")
    assert response.status_code == 409 and response.get_json()["rule"] == "dice.deck-hidden"
    assert _events(app, game_id) == []


# ----------------------------------------------------------------- the dice state


def test_the_state_shows_every_order_with_its_exact_odds(editor: Editor) -> None:
    game_id = _sample_game(editor)
    state = editor.get(f"/api/games/{game_id}").get_json()["state"]
    for player in state["players"]:
        assert len(player["top_card"]["orders"]) == 5
        for shown in player["top_card"]["orders"]:
            exact = brute_force_probability(parse_order(shown["order"]), DEFAULT_DICE)
            assert Fraction(shown["fraction"]) == exact
            assert shown["percent"] == round(float(exact * 100), 1)
        assert player["can_harvest"] is False and player["can_exchange"] is False
    assert [d["faces"] for d in state["dice"]] == [list(d.faces) for d in DEFAULT_DICE.dice]
    assert state["to_roll"] == [0, 1, 2, 3, 4] and state["deck"] == "known"


def test_order_odds_are_computed_once_per_order(editor: Editor) -> None:
    game_id = _sample_game(editor)
    editor.get(f"/api/games/{game_id}")
    misses = order_odds.cache_info().misses
    for _ in range(3):
        editor.get(f"/api/games/{game_id}")
    assert order_odds.cache_info().misses == misses


def test_a_hidden_deck_game_says_so(editor: Editor) -> None:
    state = editor.get(f"/api/games/{_hidden_game(editor)}").get_json()["state"]
    assert state["deck"] == "hidden" and state["pending_draw"] == 0
    assert all(p["top_card"] is None for p in state["players"])


# ----------------------------------------------------------------- dice moves on the moves endpoint


def _draw(editor: Editor, game_id: int, player: int, orders: list[str]):
    return _move(editor, game_id, {"type": "draw", "player": player, "card": {"orders": orders}})


def test_a_hidden_deck_draw_names_its_card_and_impossible_cards_are_refused(editor: Editor, app: Flask) -> None:
    game_id = _hidden_game(editor)
    refused = _draw(editor, game_id, 0, [*CARD[:4], "3x garden"])
    assert refused.status_code == 409 and refused.get_json()["rule"] == "dice.order-impossible"
    malformed = _draw(editor, game_id, 0, [*CARD[:4], "3x"])
    assert malformed.status_code == 400 and "expected a bean" in malformed.get_json()["error"]
    assert _events(app, game_id) == []
    drawn = _draw(editor, game_id, 0, CARD)
    assert drawn.status_code == 200
    top = drawn.get_json()["state"]["players"][0]["top_card"]
    assert [o["order"] for o in top["orders"]] == CARD and top["orders"][0]["percent"] == 74.3


def _hidden_game_ready(editor: Editor) -> int:
    game_id = _hidden_game(editor)
    for player in (0, 0, 1, 1):
        assert _draw(editor, game_id, player, CARD).status_code == 200
    return game_id


def test_a_manual_roll_with_a_face_the_die_lacks_is_refused(editor: Editor, app: Flask) -> None:
    game_id = _hidden_game_ready(editor)
    before = _events(app, game_id)
    response = _move(editor, game_id, {"type": "roll", "beans": ["red", "soy", "red", "red", "red"]})
    assert response.status_code == 409
    assert response.get_json()["rule"] == "dice.face-not-on-die"
    assert "Die 1 (dark) has no red" in response.get_json()["error"]
    assert _events(app, game_id) == before


def test_moves_out_of_phase_are_refused_with_their_rule(editor: Editor, app: Flask) -> None:
    game_id = _hidden_game_ready(editor)
    for event, rule in (
        ({"type": "save", "dice": [0]}, "dice.save-after-roll"),
        ({"type": "end-turn"}, "dice.turn-not-over"),
        ({"type": "bean-piece"}, "dice.bean-piece-after-roll"),
        ({"type": "harvest", "player": 1}, "dice.harvest-needs-three"),
        ({"type": "exchange", "player": 0}, "dice.deck-not-empty"),
    ):
        response = _move(editor, game_id, event)
        assert response.status_code == 409 and response.get_json()["rule"] == rule, event
    assert len(_events(app, game_id)) == 4


def test_a_turn_played_by_hand_completes_orders_and_harvests(editor: Editor) -> None:
    game_id = _hidden_game_ready(editor)
    rolled = _move(editor, game_id, {"type": "roll", "beans": ["stink", "soy", "red", "green", "green"]}).get_json()
    state = rolled["state"]
    assert [(c["name"], c["index"]) for c in state["last_completions"]] == [("Ben", i) for i in range(4)]
    assert state["players"][1]["can_harvest"] is True and state["players"][0]["can_harvest"] is False
    harvest = _move(editor, game_id, {"type": "harvest", "player": 1}).get_json()["state"]
    assert harvest["players"][1]["dollars"] == 2 and harvest["pending_draw"] == 1
    assert _move(editor, game_id, {"type": "save", "dice": [0]}).get_json()["rule"] == "dice.draw-pending"


def test_the_bean_piece_repeats_the_roll_once_per_turn(editor: Editor) -> None:
    game_id = _sample_game(editor)
    editor.post(f"/api/dice/games/{game_id}/roll")
    state = _move(editor, game_id, {"type": "bean-piece"}).get_json()["state"]
    assert state["phase"] == "roll" and state["bean_piece_used"] is True and state["to_roll"] == [0, 1, 2, 3, 4]
    assert _move(editor, game_id, {"type": "bean-piece"}).get_json()["rule"] == "dice.bean-piece-after-roll"
    editor.post(f"/api/dice/games/{game_id}/roll")
    assert _move(editor, game_id, {"type": "bean-piece"}).get_json()["rule"] == "dice.bean-piece-once"


# ----------------------------------------------------------------- every input checked at the door

FACES = ["blue", "garden", "stink", "stink", "soy", "soy"]


def test_more_dice_than_the_odds_can_count_are_refused_before_a_game_starts(editor: Editor, app: Flask) -> None:
    options = {"dice": {"dice": [{"kind": "dark", "faces": FACES}] * 30}}
    response = editor.post("/api/games", {"game": "dice", "players": ["Ann", "Ben"], "options": options})
    assert response.status_code == 400 and "at most 8 dice" in response.get_json()["error"]
    assert editor.get("/api/games").get_json()["games"] == []


def test_eight_dice_still_play_and_show_their_odds(editor: Editor, app: Flask) -> None:
    options = {"dice": {"dice": [{"kind": "dark", "faces": FACES}] * 8}}
    game_id = editor.start(game="dice", players=["Ann", "Ben"], options=options)["game_id"]
    drawn = _draw(editor, game_id, 0, ["soy"] * 5)
    assert drawn.status_code == 200
    assert drawn.get_json()["state"]["players"][0]["top_card"]["orders"][0]["percent"] == 96.1  # 1 - (4/6)^8
    assert editor.get(f"/api/games/{game_id}").status_code == 200


@pytest.mark.parametrize(
    ("card", "words"),
    [
        ({"orders": ["10000000x soy", *CARD[1:]]}, "asks for 10000000 dice"),
        ({"orders": [["soy"], *CARD[1:]]}, "an order is text"),
        ({"orders": ["soy + " * 40 + "soy", *CARD[1:]]}, "at most 200 characters"),
        ({"orders": CARD, "id": {"x": 1}}, "id must be text"),
        ({"orders": CARD, "id": "S\u202e1"}, "control character"),
        ({"orders": CARD, "printed": [[1], None, None, None, None]}, '"printed"'),
    ],
)
def test_a_drawn_card_is_checked_field_by_field_and_a_refusal_changes_nothing(
    editor: Editor, app: Flask, card: dict[str, Any], words: str
) -> None:
    game_id = _hidden_game(editor)
    response = _move(editor, game_id, {"type": "draw", "player": 0, "card": card})
    assert response.status_code == 400 and words in response.get_json()["error"], response.get_json()
    assert _events(app, game_id) == []
    assert editor.get(f"/api/games/{game_id}").status_code == 200


@pytest.mark.parametrize("printed", ["1e-30", "0E-1000000", "1_0", "٣", "5e1"])
def test_printed_percentages_other_than_plain_numbers_are_refused(client: FlaskClient, editor: Editor, app: Flask,
                                                                  printed: str) -> None:  # fmt: skip
    odds = client.get("/api/dice/odds", query_string={"order": "soy", "printed": printed})
    assert odds.status_code == 400 and "not a percentage" in odds.get_json()["error"]
    card = editor.post("/api/dice/catalogue", {"orders": CARD, "printed": [printed, None, None, None, None]})
    assert card.status_code == 400 and not _catalogue_path(app).exists()
