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
    checked_percentage,
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


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": ["roll"]}, r"unknown event type \['roll'\]"),
        ({"type": "harvest", "player": 1001}, "from 0 to 1000"),
        ({"type": "harvest", "player": -1}, "from 0 to 1000"),
        ({"type": "save", "dice": [2**70]}, "die indices"),
        ({"type": "save", "dice": list(range(1001))}, "at most 1000 items"),
        ({"type": "roll", "beans": ["\ud800"] * 5}, "bean ids"),
        ({"type": "draw", "player": 0, "card": {"orders": ["1001x soy", *ORDERS[1:]]}}, "asks for 1001 dice"),
        ({"type": "draw", "player": 0, "card": {"orders": ["soy or " * 40 + "red", *ORDERS[1:]]}}, "200 characters"),
        ({"type": "draw", "player": 0, "card": {"orders": [7, *ORDERS[1:]]}}, "an order is text, not 7"),
        ({"type": "draw", "player": 0, "card": {"orders": ORDERS, "id": ["S1"]}}, "id must be text"),
        ({"type": "draw", "player": 0, "card": {"orders": ORDERS, "id": "S\x001"}}, "control character U\\+0000"),
        ({"type": "draw", "player": 0, "card": {"orders": ORDERS, "printed": ["1", "2", "3", "4", {}]}}, '"printed"'),
        ({"type": "draw", "player": 0, "card": {"orders": ORDERS, "printed": ["1", "2", "3", 1e300]}}, '"printed"'),
    ],
)
def test_every_field_is_type_checked_and_bounded(data: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        move_from_dict(data)  # type: ignore[arg-type]


def test_a_card_keeps_its_label_and_printed_percentages_as_typed() -> None:
    card = {"id": "S1", "orders": ORDERS, "printed": ["9", 12, 4.5, None, "1 %"]}
    event = {"type": "draw", "player": 1, "card": card}
    move = move_from_dict(event)
    assert isinstance(move, DrawCard) and move.card.id == "S1" and move.card.printed == ("9", "12", "4.5", None, "1 %")


@pytest.mark.parametrize("printed", ["14", "4.5", " 14 % ", 100, 0.5])
def test_a_printed_percentage_is_a_plain_number_up_to_100(printed: object) -> None:
    assert float(checked_percentage(printed)) <= 100


@pytest.mark.parametrize("printed", ["1e-30", "0E-1000000", "1_0", "٣", "101", "-1", "nan", True, None, [14]])
def test_anything_else_is_not_a_percentage(printed: object) -> None:
    with pytest.raises(ValueError, match="not a percentage"):
        checked_percentage(printed)
