"""Lessons from play: field cards whose bean the game knows, for the camera to learn a group's deck by.

A deck enrolled from one photo per bean may hold a poor photo of some bean, and then the camera names that bean's
cards wrong or not at all. The game knows every field's bean. Where the fields of a seat, as the camera settled on
them and as the frame shows them, agree column for column with the game's, the top card of each column is a card of
the game's bean: a labelled photo of the group's own deck, taken at the table. The camera named it that bean or was
unsure of it (a column it was unsure of agrees with any of its count); a card it is sure is another bean teaches
nothing, since the camera or the game is wrong. A column is a lesson only where exactly one of the seat's fields in
the game fits it, and only once: the same card lies on top until its field changes. A card the camera, unsure, took
for another bean is learnt all the same (a bean lost to a poor photo is learnt that way) but flagged
(:func:`taken_for`): the field may have been entered wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import cast

import numpy as np

from companion.rules.state import GameState
from companion.tracker.explain import game_view
from companion.tracker.view import Column, Part, Told, columns_differing, seat_columns
from companion.vision.classifier import UNKNOWN
from companion.vision.scene import Scene

PER_BEAN = 8
"""Lessons a deck keeps per bean, the oldest going first: held-out decks enrolled from one photo per bean named about
as many cards right with 4 or 8 further cards per bean (models/MODEL_CARD.md, "Learning in play")."""
Key = tuple[int, str, int]
"""A field as a lesson knows it: (seat, bean, count); a card planted on it, or a harvest, makes it another."""


@dataclass(frozen=True, slots=True)
class Lesson:
    """The top card of a seat's field of ``count`` cards of ``bean``, lying at ``corners`` in the frame, which the
    camera named ``named``."""

    seat: int
    bean: str
    count: int
    corners: np.ndarray = field(compare=False, repr=False)
    named: str = field(default=UNKNOWN, compare=False)

    @property
    def key(self) -> Key:
        return self.seat, self.bean, self.count

    @property
    def taken_for(self) -> str | None:
        """The other bean the camera took the card for, if it did (:func:`taken_for`)."""
        return taken_for(self.named, self.bean)


def taken_for(named: str, bean: str) -> str | None:
    """The bean the camera named a lesson's card where it is not the game's ``bean``: a card to check, since the
    field may have been entered wrong (or the camera be wrong); None where it named the game's bean or none."""
    return None if named in (bean, UNKNOWN) else named


def fitting(column: Column, fields: tuple[Column, ...]) -> list[Column]:
    """The game's fields (bean, count) that a seen column (its bean, None when unsure, and count) may show."""
    bean, count = column
    return [(b, n) for b, n in fields if n == count and (bean is None or b == bean)]


def lessons(scene: Scene, state: GameState, settled: Mapping[Part, Told], sure: float) -> list[Lesson]:
    """The lessons ``scene`` (a still frame, placed in its zones) gives: the top cards of the field columns of each
    seat whose columns, as this frame shows them and as the seat ``settled`` on them, agree with the game's; a top
    card named below ``sure`` confidence stands for any bean. A field holding more than one bean (High Bohn's mixed
    fields) teaches nothing: its top card may be another bean than the one it is known by."""
    game = game_view(state, tuple(range(len(state.players)))).seats()
    found = []
    for seat, columns in sorted(seat_columns(scene, sure, state.deck_counts).items()):
        fields, told = game.get(seat, ()), settled.get(seat)
        if (told is None or columns_differing(fields, cast(tuple[Column, ...], told))
                or columns_differing(fields, tuple(reading.column(stack.count) for reading, stack in columns))):
            continue
        pure = {(f.bean, f.count) for f in state.players[seat].fields if f.count and len(set(f.cards)) == 1}
        for reading, stack in columns:
            fits = fitting(reading.column(stack.count), fields)
            if len(fits) == 1 and fits[0] in pure:
                found.append(Lesson(seat, str(fits[0][0]), fits[0][1], stack.top.corners, stack.top.label))
    return found


class Teacher:
    """One game's lessons, each field learnt from once: a field's top card is new once a card is planted on it or
    it is harvested (the game's (seat, bean, count) of it changes)."""

    def __init__(self) -> None:
        self.learnt: set[Key] = set()

    def new(self, scene: Scene, state: GameState, settled: Mapping[Part, Told], sure: float) -> list[Lesson]:
        """The lessons of ``scene`` (:func:`lessons`) not learnt before."""
        fresh = [lesson for lesson in lessons(scene, state, settled, sure) if lesson.key not in self.learnt]
        fields = {(seat, f.bean, f.count) for seat, player in enumerate(state.players) for f in player.fields
                  if f.bean and f.count}  # fmt: skip
        self.learnt = (self.learnt & fields) | {lesson.key for lesson in fresh}
        return fresh
