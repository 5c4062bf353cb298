"""Order (job) cards: the expansion set (003) and the Plus expansion (004), for the standard turn.

Each player holds one order card in the hand, dealt last; it moves forward as bean cards
leave the front. At the front in phase 1 it is laid out face up, and only one bean is
planted that turn. An order "a/b" is filled, on its owner's turn, when two adjacent fields
(1 and 2, or 2 and 3) hold exactly a and b cards; it becomes a coin. A laid-out order not
filled by the end of phase 3 goes under the order stack; a player without one draws a new
one after the phase-4 draw.

The books list no order numbers, so none are assumed: an order's numbers are read when it is
shown (``lay-order`` and ``fill-order`` name them). Where it lies in a hidden hand is known
as bounds (how many bean cards may lie in front of it): a plant from the front moves it
forward, a card given from somewhere in the hand may or may not have been in front of it.
Order cards are not bean cards: they never count in the draw pile, the passes or the forecast.
An empty order stack deals nothing (unfilled orders go back under it, so it rarely runs out).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.rules.legal import Choice, LegalMove
from companion.rules.moves import Draw, Plant, Source, move_type, register_move
from companion.rules.parts import MoveRule, Part, register_module
from companion.rules.phases import Phase
from companion.rules.violations import RuleViolation
from companion.rules.wording import Names, wording

if TYPE_CHECKING:
    from companion.rules.rulesets import Rules
    from companion.rules.state import GameState

ORDER_CARDS = 39
MAX_NUMBER = 20
"""Largest number an order card may name: beyond any field a game reaches."""


@register_move("lay-order")
@dataclass(frozen=True, slots=True)
class LayOrder:
    """Phase 1: the order card is at the front of the hand: lay it out face up ("first/second")."""

    player: int
    first: int
    second: int


@register_move("fill-order")
@dataclass(frozen=True, slots=True)
class FillOrder:
    """Fill the order "first/second" with two adjacent fields; it goes to the coin pile."""

    player: int
    first: int
    second: int


@dataclass(slots=True)
class Holding:
    """One player's order card and filled orders."""

    in_hand: bool = True
    ahead: tuple[int, int] = (0, 0)
    """Fewest and most bean cards that may lie in front of the order card in the hand."""
    shown: tuple[int, int] | None = None
    """The numbers of a laid-out order."""
    laid_turn: int = 0
    filled: int = 0
    hand_size: int = 0
    """Bean cards in the hand when last seen: how many left it since."""


@dataclass(slots=True)
class OrderState:
    stack: int
    seats: list[Holding] = field(default_factory=list)


def orders(state: GameState) -> OrderState:
    found: OrderState = state.parts["order-cards"]
    return found


@register_module
class OrderCards(Part):
    name = "order-cards"
    title = "Order cards"
    book = "003_e82e8ed7cf5f5c14.txt, job cards; 004_e13a5e0396bac44f.txt, Plus expansion, the order cards"
    about = ("An order card in each hand: when two adjacent fields hold exactly its two numbers on your turn, "
             "it becomes a coin.")

    def allows(self, rules: Rules) -> str | None:
        return None if rules.edition.turns == "standard" else "order cards need the four phases of the standard turn"

    def setup(self, state: GameState) -> None:
        n = len(state.players)
        state.parts[self.name] = OrderState(ORDER_CARDS - n, [
            Holding(ahead=(p.hand.size, p.hand.size), hand_size=p.hand.size) for p in state.players])  # fmt: skip

    def public(self, state: GameState) -> dict[str, Any]:
        o = orders(state)
        return {"orders": {"stack": o.stack, "seats": [
            {"in_hand": h.in_hand, "ahead": list(h.ahead), "shown": list(h.shown) if h.shown else None,
             "filled": h.filled} for h in o.seats]}}  # fmt: skip

    def notes(self, state: GameState) -> list[str]:
        return [f"{state.names[seat]}'s order {h.shown[0]}/{h.shown[1]} is laid out"
                for seat, h in enumerate(orders(state).seats) if h.shown is not None]  # fmt: skip

    def score(self, state: GameState, seat: int) -> dict[str, int]:
        return {"orders": orders(state).seats[seat].filled}

    def move_rules(self) -> Mapping[type, MoveRule]:
        return {
            LayOrder: MoveRule(self.check_lay, self.apply_lay, self.lay_options),
            FillOrder: MoveRule(self.check_fill, self.apply_fill, self.fill_options),
        }

    def hand_plants(self, state: GameState, seat: int, count: int) -> int:
        return 1 if orders(state).seats[seat].laid_turn == state.turn else count

    def veto(self, state: GameState, move: Any) -> RuleViolation | None:
        if isinstance(move, Plant) and move.source is Source.HAND:
            h = orders(state).seats[move.player]
            if h.in_hand and h.ahead[1] == 0:
                return RuleViolation("order.front", "The order card is at the front of the hand: it is laid out at "
                                                    "the start of phase 1, never planted.")  # fmt: skip
        return None

    # --- laying out -----------------------------------------------------------------

    def check_lay(self, state: GameState, move: LayOrder) -> RuleViolation | None:
        h = orders(state).seats[move.player]
        if move.player != state.active or state.phase is not Phase.PLANT or state.plants_this_turn:
            return RuleViolation("order.lay-phase", "An order card is laid out at the start of its owner's phase 1.")
        if not h.in_hand or h.ahead[0] > 0:
            return RuleViolation("order.not-front", f"{state.names[move.player]}'s order card is not at the front "
                                                    "of the hand.")  # fmt: skip
        return _numbers(move)

    def apply_lay(self, state: GameState, move: LayOrder) -> None:
        h = orders(state).seats[move.player]
        h.in_hand, h.shown, h.laid_turn = False, (move.first, move.second), state.turn

    def lay_options(self, state: GameState, seat: int) -> list[LegalMove]:
        h = orders(state).seats[seat]
        if seat != state.active or state.phase is not Phase.PLANT or state.plants_this_turn or not h.in_hand:
            return []
        if h.ahead[0] > 0:
            return []
        numbers = Choice(tuple(range(MAX_NUMBER + 1)))
        return [LegalMove("lay-order", {"player": seat}, "Lay out the order card from the front of the hand",
                          {"first": numbers, "second": numbers})]  # fmt: skip

    # --- filling --------------------------------------------------------------------

    def check_fill(self, state: GameState, move: FillOrder) -> RuleViolation | None:
        h = orders(state).seats[move.player]
        if move.player != state.active:
            return RuleViolation("order.own-turn", "An order is filled only during its owner's turn.")
        if not h.in_hand and h.shown is None:
            return RuleViolation("order.none", f"{state.names[move.player]} has no order card.")
        if h.shown is not None and h.shown != (move.first, move.second):
            return RuleViolation("order.numbers", f"The order laid out is {h.shown[0]}/{h.shown[1]}.")
        if bad := _numbers(move):
            return bad
        counts = [f.count for f in state.players[move.player].fields]
        if not any(counts[i:i + 2] == [move.first, move.second] for i in range(len(counts) - 1)):
            return RuleViolation("order.not-met", f"No two adjacent fields hold exactly {move.first} and "
                                                  f"{move.second} cards, in that order.")  # fmt: skip
        return None

    def apply_fill(self, state: GameState, move: FillOrder) -> None:
        h = orders(state).seats[move.player]
        h.in_hand, h.shown, h.filled = False, None, h.filled + 1

    def fill_options(self, state: GameState, seat: int) -> list[LegalMove]:
        h = orders(state).seats[seat]
        if seat != state.active or (not h.in_hand and h.shown is None):
            return []
        counts = [f.count for f in state.players[seat].fields]
        pairs = dict.fromkeys((counts[i], counts[i + 1]) for i in range(len(counts) - 1))
        return [LegalMove("fill-order", {"player": seat, "first": a, "second": b}, f"Fill an order {a}/{b}")
                for a, b in pairs if h.shown in (None, (a, b)) and max(a, b) <= MAX_NUMBER]  # fmt: skip

    # --- the hand moves on, phase 3 ends, phase 4 draws -----------------------------

    def after(self, state: GameState, move: Any) -> None:
        o = orders(state)
        for seat, (holding, player) in enumerate(zip(o.seats, state.players)):
            left = holding.hand_size - player.hand.size
            front = move.player == seat and move_type(move) in ("plant", "play-magpie")
            _forward(holding, left, front)
            holding.hand_size = player.hand.size
        active = o.seats[state.active]
        if active.shown is not None and (state.phase is Phase.DRAW or state.game_over):
            active.shown, o.stack = None, o.stack + 1  # not filled by the end of phase 3: under the order stack
        if isinstance(move, Draw) and not state.draws_due:
            drawer = o.seats[move.player]
            if not drawer.in_hand and drawer.shown is None and o.stack:
                o.stack -= 1
                drawer.in_hand, drawer.ahead = True, (drawer.hand_size, drawer.hand_size)


def _forward(holding: Holding, cards: int, front: bool) -> None:
    """Bean cards left the hand: from the front (each in front of the order card), or from anywhere."""
    if not holding.in_hand or cards <= 0:
        return
    low, high = holding.ahead
    if front:
        holding.ahead = (max(0, max(low, cards) - cards), max(0, high - cards))
    else:
        holding.ahead = (max(0, low - cards), high)


def _numbers(move: Any) -> RuleViolation | None:
    if not (0 <= move.first <= MAX_NUMBER and 0 <= move.second <= MAX_NUMBER):
        return RuleViolation("order.numbers", f"An order names two numbers from 0 to {MAX_NUMBER}.")
    return None


@wording("lay-order")
def _lay(e: dict[str, Any], who: Names) -> str:
    return f"{who(e['player'])} laid out the order {e['first']}/{e['second']}"


@wording("fill-order")
def _fill(e: dict[str, Any], who: Names) -> str:
    return f"{who(e['player'])} filled the order {e['first']}/{e['second']}"
