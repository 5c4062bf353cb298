"""The Duel's own moves: discarding a hand card in phase 1, and discarding an offered bean type."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.rules.moves import register_move
from companion.rules.wording import Names, bean_name, wording


@register_move("discard")
@dataclass(frozen=True, slots=True)
class Discard:
    """The Duel, phase 1: discard one hand card face up (``at``: its place in the hand, 0 = front)."""

    player: int
    bean: str
    at: int | None = None


@register_move("discard-offer")
@dataclass(frozen=True, slots=True)
class DiscardOffer:
    """The Duel, phase 0: put every offered card of one bean type on the discard pile."""

    player: int
    bean: str


@wording("discard")
def _discard(e: dict[str, Any], who: Names) -> str:
    return f"{who(e['player'])} discarded a {bean_name(e['bean'])} from hand"


@wording("discard-offer")
def _discard_offer(e: dict[str, Any], who: Names) -> str:
    return f"{who(e['player'])} discarded the offered {bean_name(e['bean'])}s"
