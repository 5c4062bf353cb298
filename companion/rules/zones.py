"""Card zones: bean fields, hands and the draw pile.

A hand or the draw pile holds hidden cards. At a real table the engine knows only
how many there are (``cards`` is None); in full-information mode it knows them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class Field:
    """One bean field: the cards lying in it, the first planted first.

    ``only`` names the one bean a building's field grows (High Bohn's 2 Saloon: green);
    ``mixed`` says how a field holds more than one bean (High Bohn: ``"stew"`` or ``"farm"``).
    """

    __slots__ = ("cards", "only", "mixed")

    def __init__(self, cards: list[str] | None = None, only: str | None = None):
        self.cards: list[str] = cards if cards is not None else []
        self.only = only
        self.mixed: str | None = None

    @property
    def bean(self) -> str | None:
        """The bean growing here: the first planted (None when empty)."""
        return self.cards[0] if self.cards else None

    @property
    def count(self) -> int:
        return len(self.cards)

    def accepts(self, bean: str) -> bool:
        """Whether ``bean`` may be planted here by the basic rule (empty, or the same bean; a building's own bean)."""
        return (self.only in (None, bean)) and (not self.cards or (self.mixed is None and self.cards[-1] == bean))

    def plant(self, bean: str) -> None:
        self.cards.append(bean)

    def take(self) -> str:
        """Take the top card away (a magpie's theft)."""
        return self.cards.pop()

    def clear(self) -> tuple[str | None, int]:
        """Empty the field; returns what lay there."""
        taken = (self.bean, self.count)
        self.cards = []
        self.mixed = None
        return taken

    def __deepcopy__(self, memo: dict[int, Any]) -> Field:
        twin = Field(list(self.cards), self.only)  # the cards are bean names, never changed in place
        twin.mixed = self.mixed
        return twin

    def __repr__(self) -> str:
        return f"Field({self.bean!r}, {self.count})"


class Hand:
    """A player's hand in fixed order: front card first; ``cards`` None when hidden."""

    __slots__ = ("cards", "size")

    def __init__(self, cards: list[str] | None = None, size: int = 0):
        self.cards = cards
        self.size = len(cards) if cards is not None else size

    def __deepcopy__(self, memo: dict[int, Any]) -> Hand:
        twin = Hand(size=self.size)
        twin.cards = None if self.cards is None else list(self.cards)
        return twin

    @property
    def known(self) -> bool:
        return self.cards is not None

    def front(self) -> str | None:
        """The front card if known."""
        return self.cards[0] if self.cards else None

    def remove_front(self) -> None:
        if self.cards is not None:
            del self.cards[0]
        self.size -= 1

    def count(self, bean: str) -> int:
        """How many known cards of ``bean`` the hand holds (0 when hidden)."""
        return self.cards.count(bean) if self.cards is not None else 0

    def remove(self, beans: Iterable[str], at: tuple[int, ...] = ()) -> None:
        """Take cards out from anywhere (a trade): from the places ``at``, else the rearmost card of each bean."""
        if at:
            for place in sorted(at, reverse=True):
                self.remove_at(place)
            return
        for bean in beans:
            if self.cards is not None:
                place = len(self.cards) - 1 - self.cards[::-1].index(bean)
                del self.cards[place]
            self.size -= 1

    def remove_at(self, at: int) -> None:
        """Take out the card at place ``at`` (0 = front)."""
        if self.cards is not None:
            del self.cards[at]
        self.size -= 1

    def add(self, cards: list[str | None]) -> None:
        """Put drawn cards behind the last card, in the order drawn."""
        if self.cards is not None:
            self.cards.extend(c for c in cards if c is not None)
        self.size += len(cards)


class DrawPile:
    """The face-down draw pile; the top card is the last of ``cards`` when known."""

    __slots__ = ("cards", "size")

    def __init__(self, cards: list[str] | None = None, size: int = 0):
        self.cards = cards
        self.size = len(cards) if cards is not None else size

    def __deepcopy__(self, memo: dict[int, Any]) -> DrawPile:
        twin = DrawPile(size=self.size)
        twin.cards = None if self.cards is None else list(self.cards)
        return twin
