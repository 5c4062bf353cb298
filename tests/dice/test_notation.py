"""Order notation: the book's examples, canonical printing, and malformed text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dice.notation import Alternative, Order, OrderSyntaxError, Term, parse_order

BOOK_EXAMPLES = [
    "stink + soy + red",
    "2x green or 2x soy",
    "(soy|green) + red + garden",
    "(soy|green) + 2x(garden|red)",
]


@pytest.mark.parametrize("text", BOOK_EXAMPLES)
def test_book_examples_print_back_unchanged(text: str) -> None:
    assert str(parse_order(text)) == text


def test_structure_of_the_fourth_book_example() -> None:
    assert parse_order("(soy|green) + 2x(garden|red)") == Order(
        (Alternative((Term(1, ("soy", "green")), Term(2, ("garden", "red")))),)
    )


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("  stink+soy +red ", "stink + soy + red"),
        ("2 X green OR 2×soy", "2x green or 2x soy"),
        ("soy + soy", "2x soy"),
        ("(soy|green) + (green|soy) + red", "2x(soy|green) + red"),
        ("(soy)", "soy"),
        ("1x red", "red"),
        ("red or red", "red"),
        ("Black-Eyed", "black-eyed"),
    ],
)
def test_canonical_printing(text: str, canonical: str) -> None:
    assert str(parse_order(text)) == canonical


@pytest.mark.parametrize(
    ("text", "position", "reason"),
    [
        ("", 0, "expected a bean"),
        ("stink +", 7, "expected a bean"),
        ("stinky", 0, "unknown bean 'stinky' (did you mean 'stink'?)"),
        ("soy + 2 green", 8, "expected 'x' after the count"),
        ("0x soy", 0, "a count must be at least 1"),
        ("²x soy", 0, "expected a bean"),  # a digit to str.isdigit, but no number to int()
        ("(soy| soy)", 6, "soy is already in this group"),
        ("(soy|green", 10, "expected '|' or ')'"),
        ("soy red", 4, "expected '+', 'or' or the end"),
        ("soy or", 6, "expected a bean"),
        ("soy + ()", 7, "expected a bean"),
    ],
)
def test_malformed_text_is_refused_with_its_position(text: str, position: int, reason: str) -> None:
    with pytest.raises(OrderSyntaxError) as caught:
        parse_order(text)
    assert (caught.value.position, caught.value.reason) == (position, reason)
    assert f"position {position + 1}" in str(caught.value)
    assert caught.value.pointer().splitlines()[1] == " " * position + "^"


BEANS = ["blue", "garden", "stink", "soy", "red", "green"]
terms = st.builds(
    Term, st.integers(1, 3), st.lists(st.sampled_from(BEANS), min_size=1, max_size=3, unique=True).map(tuple)
)
orders = st.lists(st.lists(terms, min_size=1, max_size=3).map(tuple), min_size=1, max_size=3).map(
    lambda alts: Order(tuple(Alternative(t) for t in alts))
)


@settings(max_examples=60, deadline=None)
@given(orders)
def test_printing_is_a_fixed_point(order: Order) -> None:
    canonical = str(parse_order(str(order)))
    assert str(parse_order(canonical)) == canonical
