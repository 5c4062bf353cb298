"""What a real table knows of its hidden cards, exactly, across reshuffles.

Before the first reshuffle the draw pile and the hands share one pool of unseen cards.
When the pile runs out it is empty, so at that moment the hands hold exactly the unseen
cards (``hands``), and the new pile is exactly the discard pile, which lay face up (``pile``).
From then on, per bean, ``turned`` cards were turned over from the pile, ``drawn`` cards went
from the pile into hands unseen, and hand cards were revealed (planted, traded, discarded),
which the unseen counts tell. Say ``x[b]`` of the drawn cards were of bean ``b``:

    max(0, revealed[b] - hands[b]) <= x[b] <= pile[b] - turned[b],   sum of x == drawn

The cards seen so far are possible exactly when such an ``x`` exists, which is so exactly
when every bean's bounds meet and the lower bounds add up to at most ``drawn``. The same
bounds say how many cards of each bean may be in the pile and in the hands now.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass(slots=True)
class SinceReshuffle:
    """The hidden cards since the last reshuffle."""

    hands: Counter[str]
    pile: Counter[str]
    turned: Counter[str] = field(default_factory=Counter)
    drawn: int = 0

    def copy(self) -> SinceReshuffle:
        return SinceReshuffle(Counter(self.hands), Counter(self.pile), Counter(self.turned), self.drawn)

    def bounds(self, unseen: Counter[str]) -> dict[str, tuple[int, int]]:
        """Per bean, the fewest and most of the drawn cards that can be that bean."""
        found = {}
        for bean in self.hands.keys() | self.pile.keys():
            revealed = self.hands[bean] + self.pile[bean] - self.turned[bean] - unseen[bean]
            found[bean] = (max(0, revealed - self.hands[bean]), self.pile[bean] - self.turned[bean])
        room = sum(high for _, high in found.values())
        return {b: (max(low, self.drawn - (room - high)), high) for b, (low, high) in found.items()}

    def impossible(self, unseen: Counter[str]) -> str | None:
        """A bean the cards seen so far cannot be explained with, or None if they can."""
        bounds = self.bounds(unseen)
        for bean, (low, high) in bounds.items():
            if low > high:
                return bean
        if sum(low for low, _ in bounds.values()) > self.drawn or any(n < 0 for n in unseen.values()):
            return max(bounds, key=lambda b: bounds[b][0])
        return None

    def counts(self, unseen: Counter[str]) -> dict[str, dict[str, tuple[int, int]]]:
        """Per bean, (fewest, most) cards in the draw pile and hidden in hands."""
        bounds = self.bounds(unseen)
        spare = self.drawn - sum(low for low, _ in bounds.values())
        shown = {}
        for bean, (low, high) in bounds.items():
            most = min(high, low + spare)
            left = self.pile[bean] - self.turned[bean]
            shown[bean] = {"pile": (left - most, left - low), "hands": (unseen[bean] - left + low,
                                                                       unseen[bean] - left + most)}
        return shown


def take(hidden: SinceReshuffle | None, unseen: Counter[str], piles: list[tuple[list[str] | None, int]],
         shown: tuple[str, ...] | None) -> tuple[SinceReshuffle | None, Counter[str], str | None]:
    """Cards taken from the draw pile, pile by pile: turned over (``shown``) or drawn unseen into a hand.

    Returns the new tracker, the unseen counts, and a bean the cards shown cannot be (else None).
    """
    hidden = hidden.copy() if hidden is not None else None
    unseen = Counter(unseen)
    at = 0
    for reshuffled, count in piles:
        if reshuffled is not None:
            hidden = SinceReshuffle(Counter({b: n for b, n in unseen.items() if n > 0}), Counter(reshuffled))
            unseen.update(reshuffled)
        if shown is None:
            if hidden is not None:
                hidden.drawn += count
            continue
        beans = Counter(shown[at:at + count])
        at += count
        unseen.subtract(beans)
        if hidden is not None:
            hidden.turned.update(beans)
        problem = hidden.impossible(unseen) if hidden is not None else None
        bad = next((b for b, n in unseen.items() if n < 0), None)
        if bad or problem:
            return hidden, unseen, bad or problem
    return hidden, unseen, None


def hidden_counts(hidden: SinceReshuffle | None, unseen: Counter[str], pile_size: int,
                  in_hands: int) -> dict[str, dict[str, tuple[int, int]]]:
    """Per bean, (fewest, most) cards that may be in the draw pile and hidden in hands, from public events."""
    if hidden is not None:
        return {bean: {"pile": (0, 0), "hands": (0, 0)} for bean in unseen} | hidden.counts(unseen)
    return {
        bean: {"pile": (max(0, n - in_hands), min(n, pile_size)), "hands": (max(0, n - pile_size), min(n, in_hands))}
        for bean, n in unseen.items()
    }
