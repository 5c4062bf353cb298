"""Taking cards from the draw pile: reshuffles, passes and the last pass.

``plan_take`` works out what taking cards would do without changing the state,
so checking a move and applying it use the same reckoning.
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(slots=True)
class TakePlan:
    """The outcome of taking cards from the draw pile."""

    cards: list[str | None]
    """The cards taken, in order; None where the engine cannot see them."""
    pile: list[str] | None
    pile_size: int
    discard: list[str]
    passes: int
    last_pass: bool
    """The pile ran out for the game-ending time."""
    reshuffled: list[str]
    """Discarded cards that went back into the draw pile."""
    piles: list[tuple[list[str] | None, int]]
    """Where the cards came from, in order: (None: the pile as it was | the cards reshuffled into a new one,
    how many were taken from it)."""


def reshuffled_order(cards: list[str], seed: int, pass_number: int) -> list[str]:
    """The new draw pile (top card last) when ``cards`` are reshuffled in a known-deck game."""
    pile = list(cards)
    random.Random(f"{seed}:{pass_number}").shuffle(pile)
    return pile


def plan_take(
    pile: list[str] | None,
    pile_size: int,
    discard: list[str],
    passes: int,
    end_pass: int,
    wanted: int,
    seed: int,
) -> TakePlan:
    """Take up to ``wanted`` cards, reshuffling the discard pile each time the pile runs out.

    The pile runs out when its last card is taken; the discard pile is reshuffled
    at once, unless this was the game-ending pass. A reshuffle of an empty discard
    pile leaves an empty pile, which runs out again at the next take.
    """
    pile = list(pile) if pile is not None else None
    taken: list[str | None] = []
    reshuffled: list[str] = []
    piles: list[tuple[list[str] | None, int]] = [(None, 0)]
    last = False

    def run_out() -> bool:
        nonlocal passes, pile, pile_size, discard
        passes += 1
        if passes >= end_pass:
            return True
        reshuffled.extend(discard)
        piles.append((list(discard), 0))
        pile_size = len(discard)
        if pile is not None:
            pile = reshuffled_order(discard, seed, passes)
        discard = []
        return False

    while len(taken) < wanted:
        if pile_size == 0:
            if last := run_out():
                break
            continue
        taken.append(pile.pop() if pile is not None else None)
        piles[-1] = (piles[-1][0], piles[-1][1] + 1)
        pile_size -= 1
        if pile_size == 0 and (last := run_out()):
            break
    return TakePlan(taken, pile, pile_size, discard, passes, last, reshuffled, piles)
