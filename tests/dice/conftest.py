"""Shared fixtures of the dice tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import strategies as st

from companion.dice.catalogue import HarvestCard
from companion.dice.notation import parse_order


@pytest.fixture
def card() -> Callable[..., HarvestCard]:
    """Builds a harvest card from five order texts, bottom to top."""

    def build(*orders: str, id: str = "") -> HarvestCard:
        return HarvestCard(tuple(parse_order(o) for o in orders), id)

    return build


BEANS = ["blue", "garden", "stink", "soy", "red", "green"]


@pytest.fixture(scope="session")
def order_texts() -> st.SearchStrategy[str]:
    """Random order texts over the six dice beans, one to three alternatives."""
    term = st.tuples(st.integers(1, 3), st.lists(st.sampled_from(BEANS), min_size=1, max_size=3, unique=True))
    alternative = st.lists(term, min_size=1, max_size=3)
    return st.lists(alternative, min_size=1, max_size=3).map(
        lambda alts: " or ".join(" + ".join(f"{n}x({'|'.join(b)})" for n, b in alt) for alt in alts)
    )
