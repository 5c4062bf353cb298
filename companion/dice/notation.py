"""Order notation: parse and print the orders on harvest cards.

Grammar (spaces are free between tokens)::

    ORDER := ALT (" or " ALT)*
    ALT   := TERM ("+" TERM)*
    TERM  := [N "x"] (BEAN | "(" BEAN ("|" BEAN)* ")")

``BEAN`` is a bean id of the card catalogue.  Printing is canonical: one space
around ``+`` and ``or``, ``Nx`` only for N > 1, repeated terms merged
(``soy + soy`` prints ``2x soy``), repeated alternatives dropped.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from companion.cards import BEAN_IDS, CATALOGUE


@dataclass(frozen=True, slots=True)
class Term:
    """``count`` dice, each showing one of ``beans`` (as written, no repeats)."""

    count: int
    beans: tuple[str, ...]

    def __str__(self) -> str:
        body = self.beans[0] if len(self.beans) == 1 else "(" + "|".join(self.beans) + ")"
        if self.count == 1:
            return body
        return f"{self.count}x{' ' if len(self.beans) == 1 else ''}{body}"


@dataclass(frozen=True, slots=True)
class Alternative:
    """One way to meet an order: all its terms on distinct dice."""

    terms: tuple[Term, ...]

    @property
    def dice(self) -> int:
        """How many dice this alternative needs."""
        return sum(t.count for t in self.terms)

    def __str__(self) -> str:
        return " + ".join(map(str, self.terms))


@dataclass(frozen=True, slots=True)
class Order:
    """An order of a harvest card: met when any of its alternatives is met."""

    alternatives: tuple[Alternative, ...]

    def __str__(self) -> str:
        return " or ".join(map(str, self.alternatives))


class OrderSyntaxError(ValueError):
    """Malformed order text; ``position`` is the 0-based index of the fault."""

    def __init__(self, text: str, position: int, reason: str):
        super().__init__(f"{reason} at position {position + 1} of {text!r}")
        self.text = text
        self.position = position
        self.reason = reason

    def pointer(self) -> str:
        """Two lines: the text and a caret under the fault."""
        return f"{self.text}\n{' ' * self.position}^"


def parse_order(text: str) -> Order:
    """Parse order notation; ``OrderSyntaxError`` says what is wrong and where."""
    return _Parser(text).order()


def order(text_or_order: str | Order) -> Order:
    """An :class:`Order`, parsing it first if it is text."""
    return text_or_order if isinstance(text_or_order, Order) else parse_order(text_or_order)


class _Parser:
    """Recursive descent over the characters of one order."""

    def __init__(self, text: str):
        self.text = text
        self.pos = 0

    def fail(self, reason: str, position: int | None = None) -> OrderSyntaxError:
        return OrderSyntaxError(self.text, self.pos if position is None else position, reason)

    def skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def word(self) -> tuple[int, str]:
        self.skip()
        start = self.pos
        while self.pos < len(self.text) and (self.text[self.pos].isalpha() or self.text[self.pos] == "-"):
            self.pos += 1
        return start, self.text[start : self.pos].lower()

    def order(self) -> Order:
        alternatives = [self.alternative()]
        while self.peek():
            start, word = self.word()
            if word != "or":
                raise self.fail("expected '+', 'or' or the end", start)
            alternatives.append(self.alternative())
        return Order(tuple(dict.fromkeys(alternatives)))

    def alternative(self) -> Alternative:
        merged: dict[frozenset[str], Term] = {}
        while True:
            term = self.term()
            key = frozenset(term.beans)
            seen = merged.get(key)
            merged[key] = term if seen is None else Term(seen.count + term.count, seen.beans)
            if self.peek() != "+":
                return Alternative(tuple(merged.values()))
            self.pos += 1

    def term(self) -> Term:
        count = 1
        if self.peek().isdecimal():
            start = self.pos
            while self.pos < len(self.text) and self.text[self.pos].isdecimal():
                self.pos += 1
            count = int(self.text[start : self.pos])
            if count < 1:
                raise self.fail("a count must be at least 1", start)
            if self.peek() not in ("x", "X", "×"):
                raise self.fail("expected 'x' after the count")
            self.pos += 1
        if self.peek() != "(":
            return Term(count, (self.bean()[1],))
        self.pos += 1
        beans = [self.bean()[1]]
        while self.peek() == "|":
            self.pos += 1
            start, bean = self.bean()
            if bean in beans:
                raise self.fail(f"{bean} is already in this group", start)
            beans.append(bean)
        if self.peek() != ")":
            raise self.fail("expected '|' or ')'")
        self.pos += 1
        return Term(count, tuple(beans))

    def bean(self) -> tuple[int, str]:
        start, word = self.word()
        if not word:
            raise self.fail("expected a bean", start)
        if word not in CATALOGUE:
            close = difflib.get_close_matches(word, BEAN_IDS, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise self.fail(f"unknown bean {word!r}{hint}", start)
        return start, word
