"""The two optional rules of the expansion set (003) and the Plus expansion (004), as modules.

``retrade``: the active player may trade on cards received in trades (other players still
trade only hand cards). ``hand-at-end``: when the game ends every player plants and sells all
the cards in the hand, as if with as many fields as needed (so each bean in one field), no
trading, no orders. A real table does not know the hands: each player reveals theirs, in
turn from the active player, and the engine checks it against the cards still unseen.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.cards import CATALOGUE
from companion.rules import checks
from companion.rules.legal import Choice, LegalMove
from companion.rules.moves import register_move
from companion.rules.offers import unseen_beans
from companion.rules.parts import MoveRule, Part, register_module
from companion.rules.phases import Phase
from companion.rules.violations import RuleViolation
from companion.rules.wording import Names, beans, wording

if TYPE_CHECKING:
    from companion.rules.rulesets import Rules
    from companion.rules.state import GameState

EXPANSION = "expansion-set"


def _expansion_only(rules: Rules) -> str | None:
    return None if rules.edition.name == EXPANSION else "this optional rule belongs to the expansion set"


@register_move("retrade")
@dataclass(frozen=True, slots=True)
class Retrade:
    """The active player gives cards received in trades, for hand cards of the partner (or as a gift)."""

    player: int
    partner: int
    beans: tuple[str, ...]
    receive: tuple[str, ...] = ()


@register_move("reveal-hand")
@dataclass(frozen=True, slots=True)
class RevealHand:
    """At the end, a player shows every card in the hand; they are planted and sold."""

    player: int
    beans: tuple[str, ...]


@register_module
class TradeOnReceived(Part):
    name = "retrade"
    title = "Trading on received cards"
    book = "003_e82e8ed7cf5f5c14.txt and 004_e13a5e0396bac44f.txt, optional rules"
    about = "The active player may trade on cards received in trades; the others still trade only hand cards."
    allows = staticmethod(_expansion_only)

    def move_rules(self) -> Mapping[type, MoveRule]:
        return {Retrade: MoveRule(self.check, self.apply, self.offer)}

    def check(self, state: GameState, move: Retrade) -> RuleViolation | None:
        if move.player != state.active or state.phase is not Phase.TRADE:
            return RuleViolation("phase2.trade", "The active player trades in phase 2.")
        if move.partner == move.player or not move.beans:
            return RuleViolation("trade.partner", "Received cards go to another player.")
        if Counter(move.beans) - Counter(state.players[move.player].received):
            return RuleViolation("trade.received", "Only cards the active player received can be traded on.")
        partner = state.players[move.partner]
        if bad := checks.unknown_bean(state, move.receive) or checks.held_in_hand(partner, move.receive):
            return bad
        return None if partner.hand.known else checks.impossible(state, Counter(move.receive))

    def apply(self, state: GameState, move: Retrade) -> None:
        active, partner = state.players[move.player], state.players[move.partner]
        for bean in move.beans:
            active.received.remove(bean)
        partner.hand.remove(move.receive)
        state.unseen.subtract(move.receive)
        partner.received.extend(move.beans)
        active.received.extend(move.receive)

    def offer(self, state: GameState, seat: int) -> list[LegalMove]:
        received = state.players[seat].received
        if seat != state.active or state.phase is not Phase.TRADE or not received:
            return []
        found = []
        for partner, other in enumerate(state.players):
            if partner != seat:
                hand = tuple(dict.fromkeys(other.hand.cards)) if other.hand.cards is not None else unseen_beans(state)
                found.append(LegalMove("retrade", {"player": seat, "partner": partner},
                                       f"Trade received cards on to {other.name}",
                                       {"beans": Choice(tuple(dict.fromkeys(received)), True, 1),
                                        "receive": Choice(hand, True)}))  # fmt: skip
        return found


@register_module
class HandAtEnd(Part):
    name = "hand-at-end"
    title = "Planting the hand at the end"
    book = "003_e82e8ed7cf5f5c14.txt and 004_e13a5e0396bac44f.txt, optional rules"
    about = "When the game ends everyone plants and sells all hand cards, with as many fields as needed."
    allows = staticmethod(_expansion_only)

    def move_rules(self) -> Mapping[type, MoveRule]:
        return {RevealHand: MoveRule(self.check, self.apply, self.offer)}

    def _waiting(self, state: GameState) -> list[int]:
        found: list[int] = state.parts.get(self.name, [])
        return found

    def delay_end(self, state: GameState) -> bool:
        if self.name not in state.parts:
            n = len(state.players)
            order = [(state.active + i) % n for i in range(n)]
            state.parts[self.name] = [seat for seat in order if state.players[seat].hand.size]
        return bool(self._waiting(state))

    def to_act(self, state: GameState, seats: tuple[int, ...]) -> tuple[int, ...]:
        return (self._waiting(state)[0],) if self._waiting(state) else seats

    def notes(self, state: GameState) -> list[str]:
        waiting = self._waiting(state)
        return [f"The game is ending: {state.names[waiting[0]]} shows the hand to plant and sell it"] if waiting else []

    def veto(self, state: GameState, move: Any) -> RuleViolation | None:
        if self._waiting(state) and not isinstance(move, RevealHand):
            return RuleViolation("hand-at-end.reveal", "The game is ending: every player shows the hand to plant "
                                                       "and sell it.")  # fmt: skip
        return None

    def check(self, state: GameState, move: RevealHand) -> RuleViolation | None:
        waiting = self._waiting(state)
        if not waiting or move.player != waiting[0]:
            return RuleViolation("hand-at-end.order", "Hands are shown at the end, in turn from the active player.")
        hand = state.players[move.player].hand
        if len(move.beans) != hand.size:
            return RuleViolation("hand-at-end.all", f"{state.names[move.player]} holds {hand.size} cards: show all.")
        if hand.cards is not None:
            return None if Counter(hand.cards) == Counter(move.beans) else RuleViolation(
                "hand.not-held", f"That is not {state.names[move.player]}'s hand.")
        return checks.unknown_bean(state, move.beans) or checks.impossible(state, Counter(move.beans))

    def apply(self, state: GameState, move: RevealHand) -> None:
        player = state.players[move.player]
        player.hand.remove(move.beans)
        state.unseen.subtract(move.beans)
        for bean, count in Counter(move.beans).items():
            plantable = CATALOGUE[bean].plantable
            coins = min(state.rules.coins_for(state, move.player, bean, count), count) if plantable else 0
            player.coins.extend([bean] * coins)
            state.discard.extend([bean] * (count - coins))
        self._waiting(state).pop(0)
        if not self._waiting(state):
            state.game_over = True

    def offer(self, state: GameState, seat: int) -> list[LegalMove]:
        waiting = self._waiting(state)
        if not waiting or waiting[0] != seat:
            return []
        hand = state.players[seat].hand
        if hand.cards is not None:
            return [LegalMove("reveal-hand", {"player": seat, "beans": list(hand.cards)},
                              "Show the hand: plant and sell it")]
        return [LegalMove("reveal-hand", {"player": seat}, "Show the hand: plant and sell it",
                          {"beans": Choice(unseen_beans(state), True, hand.size)})]


@wording("retrade")
def _retrade(e: dict[str, Any], who: Names) -> str:
    return f"{who(e['player'])} traded received {beans(e.get('beans'))} on to {who(e['partner'])}" + (
        f" for {beans(e['receive'])}" if e.get("receive") else "")


@wording("reveal-hand")
def _reveal(e: dict[str, Any], who: Names) -> str:
    return f"{who(e['player'])} showed the hand ({beans(e.get('beans'))}), planted and sold it"
