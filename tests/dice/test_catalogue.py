"""Harvest cards and the group's catalogue file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.dice.catalogue import (
    HarvestCard,
    HarvestCatalogue,
    card_from_data,
    catalogue_from_data,
    load_catalogue,
    sample_catalogue,
    save_catalogue,
)
from companion.dice.config import DEFAULT_DICE
from companion.dice.odds import check_printed

ORDERS = ["stink", "soy + red", "2x green", "(soy|green) + 2x(garden|red)", "2x green or 2x soy"]


def test_the_sample_catalogue_is_labelled_and_complete() -> None:
    sample = sample_catalogue()
    assert sample.sample is True
    assert "SAMPLE" in sample.name and "NOT the published" in sample.name
    assert len(sample.cards) == 55
    assert len({c.id for c in sample.cards}) == 55
    assert all(c.impossible_reason(DEFAULT_DICE) is None for c in sample.cards)


def test_the_sample_cards_print_percentages_matching_the_default_dice() -> None:
    for c in sample_catalogue().cards:
        assert all(check_printed(o, p, DEFAULT_DICE).agrees for o, p in zip(c.orders, c.printed, strict=True))


def test_entering_cards_numbers_them_and_keeps_one_copy(card) -> None:
    group = HarvestCatalogue("Our table")
    first = group.add(card(*ORDERS))
    second = group.add(card(*reversed(ORDERS)))
    again = group.add(card(*ORDERS))
    assert (first.id, second.id, again.id) == ("1", "2", "1")
    assert len(group.cards) == 2
    assert group.find("2") == second
    with pytest.raises(KeyError, match="no harvest card '9'"):
        group.find("9")


def test_an_id_cannot_label_two_different_cards(card) -> None:
    group = HarvestCatalogue("Our table", [card(*ORDERS, id="A")])
    with pytest.raises(ValueError, match="already has a different card 'A'"):
        group.add(card(*reversed(ORDERS), id="A"))


def test_a_catalogue_file_round_trips(tmp_path: Path, card) -> None:
    group = HarvestCatalogue("Our table", [card(*ORDERS), HarvestCard(card(*ORDERS[::-1]).orders, "7", ("1",) * 5)])
    path = tmp_path / "cards.json"
    save_catalogue(group, path)
    loaded = load_catalogue(path)
    assert loaded.name == "Our table" and loaded.sample is False
    assert [(c.id, c.orders, c.printed) for c in loaded.cards] == [(c.id, c.orders, c.printed) for c in group.cards]
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == "bohnanza-dice-harvest-cards"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"orders": ORDERS[:4]}, "a harvest card has 5 orders, not 4"),
        ({"orders": [*ORDERS[:4], "stink +"]}, "expected a bean at position 8"),
        ({"orders": ORDERS, "printed": [1, 2]}, "prints 5 percentages, not 2"),
        ({"orders": "stink"}, "a list of five orders"),
        ({"orders": ORDERS, "printed": "14"}, '"printed" is a list'),
    ],
)
def test_malformed_cards_are_refused(data: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        card_from_data(data)


def test_a_catalogue_refuses_orders_the_dice_cannot_meet() -> None:
    data = {"format": "bohnanza-dice-harvest-cards", "version": 1, "cards": [{"orders": [*ORDERS[:4], "3x garden"]}]}
    with pytest.raises(ValueError, match="card 1: order 5 .* '3x garden' can never be met"):
        catalogue_from_data(data)


@pytest.mark.parametrize(
    ("text", "message"),
    [("[]", "not a harvest card catalogue"), ('{"format": "bohnanza-dice-harvest-cards", "version": 2}', "version 2"),
     ("{", "cards.json: ")],
)
def test_a_bad_catalogue_file_names_the_fault(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "cards.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        load_catalogue(path)
