"""Matching a roll against an order, and orders the dice can never meet."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dice.config import DEFAULT_DICE, DiceSet, Die
from companion.dice.matching import impossible_reason, meets
from companion.dice.notation import Order, parse_order


@pytest.mark.parametrize(
    ("order", "roll", "met"),
    [
        # Book example 1: one stink, one soy, one red.
        ("stink + soy + red", ["soy", "stink", "red", "blue", "green"], True),
        ("stink + soy + red", ["soy", "soy", "red", "blue", "green"], False),
        # Book example 2: two greens or two soys.
        ("2x green or 2x soy", ["soy", "soy", "stink", "red", "blue"], True),
        ("2x green or 2x soy", ["soy", "blue", "green", "red", "blue"], False),
        # Book example 3: soy or green, plus red and garden.
        ("(soy|green) + red + garden", ["garden", "blue", "green", "red", "blue"], True),
        ("(soy|green) + red + garden", ["garden", "blue", "stink", "red", "blue"], False),
        # Book example 4: soy or green; two more dice each garden or red.
        ("(soy|green) + 2x(garden|red)", ["garden", "soy", "red", "stink", "blue"], True),
        ("(soy|green) + 2x(garden|red)", ["garden", "soy", "green", "red", "blue"], True),
        ("(soy|green) + 2x(garden|red)", ["garden", "blue", "green", "blue", "blue"], False),
        # One die cannot fill two slots of the same order.
        ("(soy|red) + (soy|garden)", ["soy", "blue", "stink", "blue", "blue"], False),
        # A greedy choice would take the soy for the first slot and fail.
        ("(soy|red) + soy", ["soy", "red", "blue", "blue", "blue"], True),
        # Fewer dice than slots (a partial roll).
        ("3x blue", ["blue", "blue"], False),
    ],
)
def test_matching_worked_by_hand(order: str, roll: list[str], met: bool) -> None:
    assert meets(parse_order(order), roll) is met


def _oracle(order: Order, roll: tuple[str, ...]) -> bool:
    """Try every ordering of the dice against the slots."""
    for alt in order.alternatives:
        slots = [t.beans for t in alt.terms for _ in range(t.count)]
        if any(all(b in s for b, s in zip(p, slots)) for p in itertools.permutations(roll, len(slots))):
            return True
    return False


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_matching_agrees_with_trying_every_assignment(order_texts: st.SearchStrategy[str], data: st.DataObject) -> None:
    order = parse_order(data.draw(order_texts))
    roll = tuple(data.draw(st.lists(st.sampled_from(["blue", "garden", "stink", "soy", "red", "green"]), max_size=5)))
    assert meets(order, roll) is _oracle(order, roll)


@pytest.mark.parametrize(
    ("order", "possible"),
    [
        ("2x garden", True),  # both dark dice
        ("3x garden", False),  # only the two dark dice show garden
        ("2x soy + garden", False),  # soy and garden only on the dark dice
        ("3x green + 2x soy", True),
        ("3x green + 2x soy + stink", False),  # six dice
        ("6x blue", False),
        ("coffee", False),  # on no die
        ("coffee or stink", False),  # every alternative must be possible
    ],
)
def test_orders_the_five_dice_can_never_meet(order: str, possible: bool) -> None:
    reason = impossible_reason(parse_order(order), DEFAULT_DICE)
    assert (reason is None) is possible
    if reason:
        assert "can never be met by these 5 dice" in reason


def test_impossibility_depends_on_the_dice() -> None:
    all_garden = DiceSet((Die("odd", ("garden",) * 6),) * 3)
    assert impossible_reason(parse_order("3x garden"), all_garden) is None
    assert impossible_reason(parse_order("4x garden"), all_garden) is not None
