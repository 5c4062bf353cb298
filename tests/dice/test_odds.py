"""Exact odds, against values worked out by hand and against brute force."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dice.config import DEFAULT_DICE, DiceSet, Die
from companion.dice.notation import parse_order
from companion.dice.odds import brute_force_probability, check_printed, probability

# Default dice: dark = blue garden stink stink soy soy; light = stink red blue blue green green.
HAND_WORKED = [
    # No stink on any die: the two dark dice miss with 4/6, the three light with 5/6.
    ("stink", 1 - Fraction(4, 6) ** 2 * Fraction(5, 6) ** 3),
    # Green only on the light dice (1/3 each): at least two of three.
    ("2x green", 3 * Fraction(1, 3) ** 2 * Fraction(2, 3) + Fraction(1, 3) ** 3),
    # Book 2: soy only dark, green only light, so the two halves are independent:
    # 1 - (1 - 7/27)(1 - 1/9).
    ("2x green or 2x soy", Fraction(83, 243)),
    # Book 1: soy must come from a dark die, red from a light one.  Both dark soy (1/9):
    # a light red and a light stink, 5/36.  One soy and one stink dark (2/9): a light red,
    # 91/216.  One soy and one other dark (2/9): light red and stink, 5/36.
    ("stink + soy + red", Fraction(1, 9) * Fraction(5, 36) + Fraction(2, 9) * Fraction(91, 216)
     + Fraction(2, 9) * Fraction(5, 36)),
    # Book 3: garden dark, red light.  Dark garden+soy (1/9): a light red, 91/216.  Dark
    # garden+garden (1/36) or garden+other (1/6): a light red and a light green, 1/4.
    ("(soy|green) + red + garden", Fraction(1, 9) * Fraction(91, 216) + (Fraction(1, 36) + Fraction(1, 6)) / 4),
    # Book 4: every die shows garden/red with 1/6 and soy/green with 1/3, so the dice are alike:
    # P(at least two G) - P(at least two G and no S) = 1526/7776 - (2/3)^5 * 376/1024.
    ("(soy|green) + 2x(garden|red)", Fraction(1526, 7776) - Fraction(2, 3) ** 5 * Fraction(376, 1024)),
    ("3x garden", Fraction(0)),
]


@pytest.mark.parametrize(("order", "expected"), HAND_WORKED)
def test_exact_odds_worked_by_hand(order: str, expected: Fraction) -> None:
    assert probability(parse_order(order), DEFAULT_DICE) == expected


def test_book_examples_as_decimals() -> None:
    got = [float(probability(parse_order(o), DEFAULT_DICE)) for o, _ in HAND_WORKED[2:6]]
    assert got == pytest.approx([0.341564, 0.139918, 0.095422, 0.147891], abs=5e-7)


def test_odds_follow_the_dice_configuration() -> None:
    fair = DiceSet((Die("plain", ("blue", "green", "red", "soy", "stink", "garden")),) * 2)
    assert probability(parse_order("2x blue"), fair) == Fraction(1, 36)
    assert probability(parse_order("blue + green"), fair) == Fraction(2, 36)
    assert probability(parse_order("blue or green"), fair) == 1 - Fraction(4, 6) ** 2


@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_exact_odds_equal_brute_force_over_all_rolls(order_texts: st.SearchStrategy[str], data: st.DataObject) -> None:
    order = parse_order(data.draw(order_texts))
    assert probability(order, DEFAULT_DICE) == brute_force_probability(order, DEFAULT_DICE)


@pytest.mark.parametrize(
    ("printed", "agrees", "shown"),
    [("14", True, "14"), ("14%", True, "14"), (14, True, "14"), ("13", False, "14"), ("13.99", True, "13.99"),
     ("14.1", False, "14.0"), (13.992, True, "13.992")],
)
def test_printed_percentages_are_checked(printed: str | int | float, agrees: bool, shown: str) -> None:
    verdict = check_printed(parse_order("stink + soy + red"), printed, DEFAULT_DICE)  # 13.9918 %
    assert verdict.agrees is agrees
    assert str(verdict.percent) == shown


@pytest.mark.parametrize("printed", ["abc", "-1", "101", "nan"])
def test_a_printed_value_that_is_no_percentage_is_refused(printed: str) -> None:
    with pytest.raises(ValueError, match="percentage"):
        check_printed(parse_order("soy"), printed, DEFAULT_DICE)
