"""The card catalogue: counts and beanometers as printed on the cards."""

from __future__ import annotations

import pytest

from companion.cards import BACK, CATALOGUE, VISION_LABELS, bean, with_beanometer


def test_the_catalogue_counts():
    counts = {b.id: b.count for b in CATALOGUE.values()}
    assert counts == {
        "coffee": 24, "wax": 22, "brandy": 22, "blue": 20, "chili": 18, "stink": 16, "green": 14, "soy": 12,
        "black-eyed": 10, "red": 8, "garden": 6, "cocoa": 4, "field": 3, "magpie": 6, "cognac": 22,
    }
    assert VISION_LABELS[-1] == BACK and len(VISION_LABELS) == 16


@pytest.mark.parametrize(
    ("bean_id", "cards", "coins"),
    [("garden", 1, 0), ("garden", 2, 2), ("garden", 3, 3), ("garden", 6, 3), ("cocoa", 4, 4),
     ("coffee", 11, 3), ("coffee", 12, 4), ("red", 2, 1), ("field", 2, 0), ("field", 3, 3), ("magpie", 6, 0)],
)
def test_beanometers_skip_the_steps_a_card_does_not_print(bean_id, cards, coins):
    assert bean(bean_id).coins_for(cards) == coins


def test_cognac_defaults_to_brandy_and_a_group_may_override_it():
    assert CATALOGUE["cognac"].beanometer == CATALOGUE["brandy"].beanometer
    printed = with_beanometer("cognac", (3, 5, 7, 9))
    assert printed.coins_for(7) == 3 and CATALOGUE["cognac"].coins_for(7) == 2


def test_an_unknown_bean_is_named():
    with pytest.raises(KeyError, match="unknown bean 'pea'"):
        bean("pea")
