"""Matching: does a roll meet an order, and can the dice ever meet it?

An alternative is met when its slots (one per die it asks for) can be given
distinct dice, each showing a bean its slot accepts.  A die may serve several
orders at once: nothing is burnt.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from companion.dice.config import DiceSet
from companion.dice.notation import Alternative, Order


@lru_cache(maxsize=4096)
def _slots(alternative: Alternative) -> tuple[frozenset[str], ...]:
    return tuple(frozenset(t.beans) for t in alternative.terms for _ in range(t.count))


def _assignable(slots: tuple[frozenset[str], ...], dice: Sequence[frozenset[str]]) -> bool:
    """Whether every slot gets its own die sharing a bean with it (augmenting paths)."""
    if len(slots) > len(dice):
        return False
    owner: list[int | None] = [None] * len(dice)

    def place(slot: int, tried: set[int]) -> bool:
        for die, shows in enumerate(dice):
            if die in tried or not slots[slot] & shows:
                continue
            tried.add(die)
            holder = owner[die]
            if holder is None or place(holder, tried):
                owner[die] = slot
                return True
        return False

    return all(place(slot, set()) for slot in range(len(slots)))


def meets(order: Order, beans: Sequence[str]) -> bool:
    """Whether dice showing ``beans`` (one bean per die) meet ``order``."""
    shown = [frozenset((b,)) for b in beans]
    return any(_assignable(_slots(alt), shown) for alt in order.alternatives)


def impossible_reason(order: Order, dice: DiceSet) -> str | None:
    """Why ``order`` can never be met by one roll of ``dice``, or None if it can."""
    faces = [frozenset(d.faces) for d in dice.dice]
    for alt in order.alternatives:
        if not _assignable(_slots(alt), faces):
            return f"'{alt}' can never be met by these {len(faces)} dice"
    return None
