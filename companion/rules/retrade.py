"""Optional rule of the expansion set (003) and the Plus expansion (004): trading on received cards.

"The active player may re-trade (or give away) beans received during the Trade phase. All other
players are still limited to trade/give away cards in hand." The base game's ``trade`` is left as
it is; this module adds one move, ``retrade``: the active player gives cards received in this
turn's trades to a partner, for cards of the partner's hand or as a gift. Whatever the partner
gives is received as usual (and may be traded on in turn); the partner plants what it gets in phase 3.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

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


def expansion_only(rules: Rules) -> str | None:
    """The expansion's optional rules are played with the expansion set only."""
    return None if rules.edition.name == EXPANSION else "this optional rule belongs to the expansion set"


@register_move("retrade")
@dataclass(frozen=True, slots=True)
class Retrade:
    """The active player gives cards received in trades, for hand cards of the partner (or as a gift)."""

    player: int
    partner: int
    beans: tuple[str, ...]
    receive: tuple[str, ...] = ()


@register_module
class TradeOnReceived(Part):
    name = "retrade"
    title = "Trading on received cards"
    book = "003_e82e8ed7cf5f5c14.txt and 004_e13a5e0396bac44f.txt, optional rules"
    about = "The active player may trade on cards received in trades; the others still trade only hand cards."
    allows = staticmethod(expansion_only)

    def move_rules(self) -> Mapping[type, MoveRule]:
        return {Retrade: MoveRule(self.check, self.apply, self.offer)}

    def check(self, state: GameState, move: Retrade) -> RuleViolation | None:
        if move.player != state.active:
            return RuleViolation("trade.with-active", "Only the active player may trade on cards received in "
                                                      "trades; the others trade only cards in hand.")  # fmt: skip
        if state.phase is not Phase.TRADE:
            return RuleViolation("phase2.trade", "Trading happens in phase 2, after the cards are turned over.")
        if move.partner == move.player:
            return RuleViolation("trade.partner", "A trade needs a partner other than the active player.")
        if not move.beans:
            return RuleViolation("retrade.nothing", "Trading on names the received cards given on.")
        if Counter(move.beans) - Counter(state.players[move.player].received):
            return RuleViolation("retrade.not-received", "Only cards received in this turn's trades can be "
                                                         "traded on.")  # fmt: skip
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
                                       {"beans": Choice(tuple(dict.fromkeys(received)), True),
                                        "receive": Choice(hand, True)}))  # fmt: skip
        return found


@wording("retrade")
def _retrade(e: dict[str, Any], who: Names) -> str:
    return f"{who(e['player'])} traded received {beans(e.get('beans'))} on to {who(e['partner'])}" + (
        f" for {beans(e['receive'])}" if e.get("receive") else "")
