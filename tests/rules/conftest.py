"""Fixtures for rule-book scenarios."""

from __future__ import annotations

import pytest

from companion.rules import GameState
from support.tables import table


@pytest.fixture
def four() -> GameState:
    """A real four-player table under the AMIGO 25th-anniversary rules, Ann to start."""
    return table("amigo-25", 4)
