"""Moves and their JSON events."""

from __future__ import annotations

import json

import pytest

from companion.dice.moves import (
    DrawCard,
    EndTurn,
    Exchange,
    Harvest,
    Roll,
    Save,
    UseBeanPiece,
    move_from_dict,
    move_to_dict,
)

ORDERS = ["stink", "soy + red", "2x green", "(soy|green) + 2x(garden|red)", "2x green or 2x soy"]


def test_every_move_round_trips_through_json(card) -> None:
    moves = [
        DrawCard(1, card(*ORDERS, id="S03")),
        Roll(("soy", None, "red", "blue", "green")),
        Save((0, 3)),
        UseBeanPiece(),
        Harvest(2),
        EndTurn(),
        Exchange(0),
    ]
    for move in moves:
        data = json.loads(json.dumps(move_to_dict(move)))
        again = move_from_dict(data)
        assert again == move
        assert type(again) is type(move)
    assert move_from_dict(move_to_dict(moves[0])).card.id == "S03"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "an event is a JSON object"),
        ({"type": "shake"}, "unknown event type 'shake'"),
        ({"type": "harvest"}, 'harvest event: "player" must be a seat index'),
        ({"type": "harvest", "player": True}, "must be a seat index"),
        ({"type": "roll", "beans": "soy"}, 'roll event: "beans" must be a list'),
        ({"type": "roll", "beans": [1, 2]}, "bean ids, or null"),
        ({"type": "save", "dice": [0.5]}, "die indices"),
        ({"type": "draw", "player": 0, "card": {"orders": ["soy"]}}, "5 orders, not 1"),
        ({"type": "draw", "player": 0, "card": {"orders": ["soy +"] * 5}}, "expected a bean"),
    ],
)
def test_malformed_events_are_refused_clearly(data: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        move_from_dict(data)  # type: ignore[arg-type]
