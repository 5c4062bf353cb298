"""Legal moves: what a seat may do now, as the page and the terminal offer it.

A :class:`LegalMove` fixes what the rules fix (who, which field, how many cards) and
leaves open what a player chooses or what only the table can see (which beans came up,
what is traded). Every choice is checked again when the move is made.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.rules.moves import Move, move_from_dict

if TYPE_CHECKING:
    from companion.rules.state import GameState


@dataclass(frozen=True, slots=True)
class Choice:
    """A field of the move still to choose: one of ``options``, or a list of them when ``many``."""

    options: tuple[Any, ...]
    many: bool = False
    exactly: int | None = None
    """How many a list must hold (None: any number, within what is there)."""

    def to_dict(self) -> dict[str, Any]:
        return {"options": list(self.options), "many": self.many, "exactly": self.exactly}


@dataclass(frozen=True, slots=True)
class LegalMove:
    """One kind of move a seat may make now, in the record's terms, with its wording."""

    type: str
    fields: dict[str, Any]
    text: str
    choose: dict[str, Choice] = field(default_factory=dict)

    def move(self, **chosen: Any) -> Move:
        """The move with ``chosen`` values for the open fields; ``ValueError`` if malformed."""
        return move_from_dict({"type": self.type, **self.fields, **chosen})

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "fields": self.fields, "text": self.text,
                "choose": {k: c.to_dict() for k, c in self.choose.items()}}  # fmt: skip


def legal_moves(state: GameState, seat: int) -> list[LegalMove]:
    """Every kind of move ``seat`` may make now."""
    return state.rules.legal_moves(state, seat)
