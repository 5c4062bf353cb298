"""Helpers for rule-book scenarios: set up a table, then play it move by move."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from companion.rules import GameState, IllegalMove, KnownDeck, Setup
from companion.rules.rulesets import ruleset

NAMES = ("Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus")


def table(ruleset_name: str = "amigo-25", players: int = 4, start: int = 0, **options: str) -> GameState:
    """A real table: hands and the draw pile hidden."""
    return GameState(Setup(ruleset_name, NAMES[:players], start, options))


def known_table(
    hands: list[list[str]], top: Sequence[str] = (), ruleset_name: str = "amigo-25", start: int = 0, **options: str
) -> GameState:
    """A known deck: ``hands`` per seat from the start player, then ``top`` on the draw pile."""
    rules = ruleset(ruleset_name, len(hands), options)
    rest = dict(rules.deck())
    for card in [c for h in hands for c in h] + list(top):
        rest[card] -= 1
    order = [c for h in hands for c in h] + list(top)
    order += [b for b, n in rest.items() for _ in range(n)]
    return GameState(Setup(ruleset_name, NAMES[: len(hands)], start, options, KnownDeck(0, tuple(order))))


def given_draw_pile(state: GameState, cards: int, passes: int, keep: tuple[str, ...] = ()) -> None:
    """Scenario set-up: the pile has run out ``passes`` times and holds ``cards`` cards.

    Surplus cards go from the draw pile to the discard pile, face up, as if played and
    harvested; beans in ``keep`` stay unseen.
    """
    assert state.draw.cards is None, "only for hidden-deck tables"
    surplus = state.draw.size - cards
    assert surplus >= 0
    for _ in range(surplus):
        bean = max((b for b in state.unseen if b not in keep), key=state.unseen.__getitem__)
        state.unseen[bean] -= 1
        state.discard.append(bean)
    state.draw.size = cards
    state.passes = passes


def refused(state, move) -> str:
    """The rule a refused move breaks; the move changes nothing (``push`` raises)."""
    violation = state.check(move)
    assert violation is not None, f"{move} should be refused"
    with pytest.raises(IllegalMove):
        state.push(move)
    return violation.rule
