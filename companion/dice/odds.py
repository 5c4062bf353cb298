"""Exact odds: the probability that one roll of all the dice meets an order.

A roll is reduced to how many dice show each bean (a few hundred outcomes with
their weights, computed once per dice set).  An alternative is met by such an
outcome exactly when Hall's condition holds: every group of its terms finds at
least as many dice among its beans as the group needs.  All arithmetic is on
integers, so the result is an exact fraction.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

import numpy as np

from companion.dice.config import DiceSet
from companion.dice.matching import meets
from companion.dice.notation import Alternative, Order


@dataclass(frozen=True, slots=True)
class _Outcomes:
    """Every distinct bean count of one roll: ``counts[k, b]`` dice show ``beans[b]``."""

    beans: dict[str, int]
    counts: np.ndarray
    weights: np.ndarray
    total: int


@lru_cache(maxsize=8)
def _outcomes(dice: DiceSet) -> _Outcomes:
    beans = {b: i for i, b in enumerate(dict.fromkeys(f for d in dice.dice for f in d.faces))}
    states: dict[tuple[int, ...], int] = {(0,) * len(beans): 1}
    for die in dice.dice:
        rolled: dict[tuple[int, ...], int] = {}
        for state, weight in states.items():
            for face in die.faces:
                counts = list(state)
                counts[beans[face]] += 1
                key = tuple(counts)
                rolled[key] = rolled.get(key, 0) + weight
        states = rolled
    return _Outcomes(
        beans,
        np.array(list(states), dtype=np.int64).reshape(len(states), len(beans)),
        np.array(list(states.values()), dtype=np.int64),
        math.prod(len(d.faces) for d in dice.dice),
    )


def _met(alt: Alternative, outcomes: _Outcomes) -> np.ndarray:
    """Which outcomes meet ``alt``: Hall's condition over every group of its terms."""
    groups = [g for r in range(1, len(alt.terms) + 1) for g in itertools.combinations(alt.terms, r)]
    masks = np.zeros((len(outcomes.beans), len(groups)), dtype=np.int64)
    needs = np.empty(len(groups), dtype=np.int64)
    for j, group in enumerate(groups):
        needs[j] = sum(t.count for t in group)
        for bean in {b for t in group for b in t.beans}:
            if bean in outcomes.beans:
                masks[outcomes.beans[bean], j] = 1
    return np.asarray((outcomes.counts @ masks >= needs).all(axis=1))


def probability(order: Order, dice: DiceSet) -> Fraction:
    """The exact probability that one roll of all ``dice`` meets ``order``."""
    outcomes = _outcomes(dice)
    met = np.zeros(len(outcomes.weights), dtype=bool)
    for alt in order.alternatives:
        met |= _met(alt, outcomes)
    return Fraction(int(outcomes.weights[met].sum()), outcomes.total)


def brute_force_probability(order: Order, dice: DiceSet) -> Fraction:
    """The same probability by trying every face of every die (the slow reference)."""
    hits = sum(meets(order, roll) for roll in itertools.product(*(d.faces for d in dice.dice)))
    return Fraction(hits, math.prod(len(d.faces) for d in dice.dice))


@dataclass(frozen=True, slots=True)
class PrintedCheck:
    """A printed percentage compared with the computed probability."""

    printed: Decimal
    computed: Fraction

    @property
    def unit(self) -> Decimal:
        """The place of the last printed digit: 1 for ``14``, 0.1 for ``4.5``."""
        return Decimal(1).scaleb(min(int(self.printed.as_tuple().exponent), 0))

    @property
    def percent(self) -> Decimal:
        """The computed probability in percent, to the printed number of decimals."""
        value = Decimal(self.computed.numerator * 100) / Decimal(self.computed.denominator)
        return value.quantize(self.unit)

    @property
    def agrees(self) -> bool:
        """Whether the printed value is the computed one as rounded for print (half a unit either way)."""
        return abs(Fraction(self.printed) - self.computed * 100) <= Fraction(self.unit) / 2


def check_printed(order: Order, printed: str | int | float, dice: DiceSet) -> PrintedCheck:
    """Compare a card's printed percentage (as typed, e.g. ``"14"`` or ``4.5``) with the odds."""
    try:
        value = Decimal(str(printed).strip().rstrip("%").strip())
    except ArithmeticError:
        raise ValueError(f"{printed!r} is not a percentage") from None
    if not value.is_finite() or not 0 <= value <= 100:
        raise ValueError(f"{printed!r} is not a percentage between 0 and 100")
    return PrintedCheck(value, probability(order, dice))
