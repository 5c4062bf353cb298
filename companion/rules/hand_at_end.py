"""Optional rule of the expansion set (003) and the Plus expansion (004): planting the hand at the end.

"All players plant all remaining cards in hand when the game is over. They may create as many new
Fields as necessary to get the cards onto the table, but trading is not allowed. The winner is found
when all Fields has been harvested." (003; the Plus: "regardless of order", "players may not fill
orders".) So when the game ends, before the fields are harvested, each player shows the hand, in
turn from the active player (``reveal-hand``): every card is planted with its bean, in a field
growing that bean, else in an empty or a new field; then every field is harvested as usual. Where
a bean grows in several fields the cards are shared among them the way that pays most, as a
player would plant them. A card that is never planted (a magpie) goes to the discard pile.

A real table does not know the hands: the cards shown are checked against the cards still
unseen, as any card from a hidden hand is. No other move is made meanwhile (no trading, no
orders, no harvest). The tie-break by most cards in hand counts the cards each player showed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import product
from typing import TYPE_CHECKING, Any

from companion.cards import CATALOGUE
from companion.rules import checks, effects
from companion.rules.editions import TIE_MOST_CARDS
from companion.rules.legal import Choice, LegalMove
from companion.rules.moves import register_move
from companion.rules.offers import unseen_beans
from companion.rules.parts import MoveRule, Part, register_module
from companion.rules.retrade import expansion_only
from companion.rules.violations import RuleViolation
from companion.rules.wording import Names, beans, wording
from companion.rules.zones import Field

if TYPE_CHECKING:
    from companion.rules.state import GameState, PlayerState


@register_move("reveal-hand")
@dataclass(frozen=True, slots=True)
class RevealHand:
    """At the end, a player shows every card in the hand; they are planted, then harvested with the fields."""

    player: int
    beans: tuple[str, ...]


@dataclass(slots=True)
class Ending:
    """Who still shows the hand, in turn, and how many cards each player showed."""

    waiting: list[int]
    shown: dict[int, int] = field(default_factory=dict)


@register_module
class HandAtEnd(Part):
    name = "hand-at-end"
    title = "Planting the hand at the end"
    book = "003_e82e8ed7cf5f5c14.txt and 004_e13a5e0396bac44f.txt, optional rules"
    about = "When the game ends everyone plants all hand cards, with as many new fields as needed, then harvests."
    allows = staticmethod(expansion_only)

    def move_rules(self) -> Mapping[type, MoveRule]:
        return {RevealHand: MoveRule(self.check, self.apply, self.offer)}

    def _ending(self, state: GameState) -> Ending | None:
        ending: Ending | None = state.parts.get(self.name)
        return ending

    def _next(self, state: GameState) -> int | None:
        ending = self._ending(state)
        return ending.waiting[0] if ending and ending.waiting else None

    def delay_end(self, state: GameState) -> bool:
        if (ending := self._ending(state)) is None:
            n = len(state.players)
            order = [(state.active + i) % n for i in range(n)]
            ending = state.parts[self.name] = Ending([seat for seat in order if state.players[seat].hand.size])
        return bool(ending.waiting)

    def to_act(self, state: GameState, seats: tuple[int, ...]) -> tuple[int, ...]:
        return seats if (seat := self._next(state)) is None else (seat,)

    def phase_text(self, state: GameState) -> str | None:
        return None if self._next(state) is None else "The end · every hand is planted"

    def notes(self, state: GameState) -> list[str]:
        seat = self._next(state)
        return [] if seat is None else [f"The game is over: {state.names[seat]} shows the hand to plant it"]

    def veto(self, state: GameState, move: Any) -> RuleViolation | None:
        if self._next(state) is not None and not isinstance(move, RevealHand):
            return RuleViolation("hand-at-end.reveal", "The game is over: every player plants the cards in hand "
                                                       "(no trading, no orders), then all fields are "
                                                       "harvested.")  # fmt: skip
        return None

    def check(self, state: GameState, move: RevealHand) -> RuleViolation | None:
        seat = self._next(state)
        if seat is None:
            return RuleViolation("hand-at-end.not-yet", "Hands are planted when the game is over.")
        if move.player != seat:
            return RuleViolation("hand-at-end.order", f"Hands are shown in turn from the active player: "
                                                      f"{state.names[seat]} is next.")  # fmt: skip
        hand = state.players[seat].hand
        if len(move.beans) != hand.size:
            return RuleViolation("hand-at-end.all", f"{state.names[seat]} holds {hand.size} cards: all are planted.")
        if hand.cards is not None:
            return None if Counter(hand.cards) == Counter(move.beans) else RuleViolation(
                "hand.not-held", f"That is not {state.names[seat]}'s hand.")  # fmt: skip
        return checks.unknown_bean(state, move.beans) or checks.impossible(state, Counter(move.beans))

    def apply(self, state: GameState, move: RevealHand) -> None:
        player = state.players[move.player]
        player.hand.remove(move.beans)
        state.unseen.subtract(move.beans)
        for bean, count in Counter(move.beans).items():
            if CATALOGUE[bean].plantable:
                plant_all(state, move.player, player, bean, count)
            else:
                state.discard.extend([bean] * count)
        ending = self._ending(state)
        assert ending is not None
        ending.shown[move.player] = len(move.beans)
        ending.waiting.pop(0)
        if not ending.waiting:
            effects.finish_game(state)

    def offer(self, state: GameState, seat: int) -> list[LegalMove]:
        if self._next(state) != seat:
            return []
        hand = state.players[seat].hand
        text = "Show the hand and plant it"
        if hand.cards is not None:
            return [LegalMove("reveal-hand", {"player": seat, "beans": list(hand.cards)}, text)]
        return [LegalMove("reveal-hand", {"player": seat}, text,
                          {"beans": Choice(unseen_beans(state), True, hand.size)})]  # fmt: skip

    def break_tie(self, state: GameState, tied: list[int]) -> tuple[list[int], str] | None:
        ending = self._ending(state)
        if state.rules.tie_break != TIE_MOST_CARDS or ending is None or ending.waiting:
            return None
        most = max(ending.shown.get(s, 0) for s in tied)
        leaders = [s for s in tied if ending.shown.get(s, 0) == most]
        *others, last = [state.names[s] for s in leaders]
        if not others:
            return leaders, f"{last} held the most cards in hand when the game ended ({most}) and wins."
        return leaders, f"{', '.join(others)} and {last} also tie on cards held when the game ended ({most}) " \
                        "and share the win."


def plant_all(state: GameState, seat: int, player: PlayerState, bean: str, count: int) -> None:
    """Plant ``count`` cards of ``bean``: in the fields growing it (shared the best way), else one new field."""
    growing = [f for f in player.fields if f.bean == bean]
    if not growing:
        empty = next((f for f in player.fields if f.bean is None), None)
        if empty is None:
            empty = Field()
            player.fields.append(empty)
        growing = [empty]

    def pays(split: tuple[int, ...]) -> int:
        return sum(min(state.rules.coins_for(state, seat, bean, f.count + n), f.count + n)
                   for f, n in zip(growing, split))  # fmt: skip

    shares = (s for s in product(range(count + 1), repeat=len(growing)) if sum(s) == count)
    best: tuple[int, ...] = max(shares, key=pays)
    for target, n in zip(growing, best):
        target.cards.extend([bean] * n)


@wording("reveal-hand")
def _reveal(e: dict[str, Any], who: Names) -> str:
    return f"{who(e['player'])} showed the hand ({beans(e.get('beans'))}) and planted it"
