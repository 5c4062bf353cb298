"""The AMIGO Bean Coin (book 000, for 3-5 players in the base game).

The active player may claim the coin when their fields are worth enough (6 coins with three
players, 5 with four or five). Its holder may defend: the active player draws a random card
from the holder's hand; a Blue Bean keeps the coin, anything else loses it; either way the
drawn card is planted at once. Phase 4: fields worth less than one coin draw two; the holder
always draws four. At the end the coin is worth nothing but wins a tie.

Chance is logged like a move: ``defend-coin`` names the card drawn and its place in the hand.
In a known-deck game the place is drawn from the deck's seed and the turn.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.cards import CATALOGUE
from companion.rules import checks
from companion.rules.legal import Choice, LegalMove
from companion.rules.moves import Harvest, Plant, register_move
from companion.rules.offers import field_choice, unseen_beans
from companion.rules.parts import MoveRule, Part, register_module
from companion.rules.violations import RuleViolation
from companion.rules.wording import Names, bean_name, wording
from companion.rules.zones import Field

if TYPE_CHECKING:
    from companion.rules.rulesets import Rules
    from companion.rules.state import GameState

KEEPS_THE_COIN = "blue"


@register_move("claim-coin")
@dataclass(frozen=True, slots=True)
class ClaimCoin:
    """The active player claims the Bean Coin."""

    player: int


@register_move("yield-coin")
@dataclass(frozen=True, slots=True)
class YieldCoin:
    """The holder lets the claim succeed without defending."""

    player: int


@register_move("defend-coin")
@dataclass(frozen=True, slots=True)
class DefendCoin:
    """The holder defends: the active player drew ``bean`` from place ``at`` of the holder's hand."""

    player: int
    bean: str
    at: int


@register_move("plant-drawn")
@dataclass(frozen=True, slots=True)
class PlantDrawn:
    """The active player plants the card drawn from the holder's hand, at once."""

    player: int
    field: int


@dataclass(slots=True)
class CoinState:
    holder: int
    claimed: bool = False
    """A claim waits for the holder's answer."""
    drawn: str | None = None
    """The card drawn in a defence, waiting to be planted."""
    tried_turn: int = 0
    """The turn in which a defence with a Blue Bean stopped the active player."""


def coin(state: GameState) -> CoinState:
    found: CoinState = state.parts["bean-coin"]
    return found


def fields_worth(state: GameState, seat: int) -> int:
    """What ``seat``'s unharvested fields would pay now."""
    fields: list[Field] = state.players[seat].fields
    return sum(state.rules.coins_for(state, seat, f.bean, f.count) for f in fields if f.bean is not None)


@register_module
class BeanCoin(Part):
    name = "bean-coin"
    title = "The AMIGO Bean Coin"
    book = "000_7919b706fb618356.txt, the AMIGO Bean Coin"
    about = ("Claim the coin when your fields are worth 6 coins (three players) or 5 (four or five); its holder "
             "draws four cards, fields worth nothing draw two; it wins a tie.")

    def allows(self, rules: Rules) -> str | None:
        if not 3 <= rules.players <= 5:
            return "the Bean Coin is for 3 to 5 players"
        if rules.edition.name not in ("amigo-25", "classic"):
            return "the Bean Coin is played with the base game"
        return None

    def threshold(self) -> int:
        return 6 if self.players == 3 else 5

    def setup(self, state: GameState) -> None:
        state.parts[self.name] = CoinState(holder=(state.setup.start_player - 1) % len(state.players))

    def public(self, state: GameState) -> dict[str, Any]:
        c = coin(state)
        return {"bean_coin": {"holder": c.holder, "claimed": c.claimed, "drawn": c.drawn}}

    def notes(self, state: GameState) -> list[str]:
        c, active = coin(state), state.names[state.active]
        found = [f"{state.names[c.holder]} holds the AMIGO Bean Coin"]
        if c.claimed:
            found.append(f"{active} claims it: {state.names[c.holder]} may defend or hand it over")
        if c.drawn is not None:
            found.append(f"{active} must plant the drawn {bean_name(c.drawn)} at once")
        return found

    def cards_held(self, state: GameState) -> int:
        return 1 if coin(state).drawn is not None else 0

    def move_rules(self) -> Mapping[type, MoveRule]:
        return {
            ClaimCoin: MoveRule(self.check_claim, self.apply_claim, self.claim_options),
            YieldCoin: MoveRule(self.check_answer, self.apply_yield, self.answer_options),
            DefendCoin: MoveRule(self.check_defend, self.apply_defend),
            PlantDrawn: MoveRule(self.check_plant_drawn, self.apply_plant_drawn, self.plant_drawn_options),
        }

    def veto(self, state: GameState, move: Any) -> RuleViolation | None:
        c = coin(state)
        if isinstance(move, (YieldCoin, DefendCoin, PlantDrawn)):
            return None
        if c.claimed:
            return RuleViolation("bean-coin.answer", f"{state.names[c.holder]} must first answer the claim on the "
                                                     "Bean Coin.")  # fmt: skip
        if c.drawn is not None and not (isinstance(move, Harvest) and move.player == state.active):
            return RuleViolation("bean-coin.plant-drawn", f"{state.names[state.active]} must first plant the "
                                                          f"{bean_name(c.drawn)} drawn for the Bean Coin.")  # fmt: skip
        return None

    def to_act(self, state: GameState, seats: tuple[int, ...]) -> tuple[int, ...]:
        c = coin(state)
        if c.claimed:
            return (c.holder,)
        if c.drawn is not None:
            return (state.active,)
        return seats

    # --- claiming -----------------------------------------------------------------

    def check_claim(self, state: GameState, move: ClaimCoin) -> RuleViolation | None:
        c = coin(state)
        if bad := checks.active_only(state, move, "claims the Bean Coin"):
            return bad
        if c.holder == move.player:
            return RuleViolation("bean-coin.held", f"{state.names[move.player]} already holds the Bean Coin.")
        if c.tried_turn == state.turn:
            return RuleViolation("bean-coin.stopped", "A Blue Bean stopped this claim: no second try this turn.")
        worth = fields_worth(state, move.player)
        if worth < self.threshold():
            need, who = self.threshold(), state.names[move.player]
            return RuleViolation("bean-coin.worth",
                                 f"The Bean Coin needs fields worth at least {need} coins; {who}'s are worth {worth}.")
        return None

    def apply_claim(self, state: GameState, move: ClaimCoin) -> None:
        coin(state).claimed = True

    def claim_options(self, state: GameState, seat: int) -> list[LegalMove]:
        if self.check_claim(state, ClaimCoin(seat)) is not None or coin(state).claimed:
            return []
        return [LegalMove("claim-coin", {"player": seat}, "Claim the Bean Coin")]

    # --- the holder's answer --------------------------------------------------------

    def check_answer(self, state: GameState, move: Any) -> RuleViolation | None:
        c = coin(state)
        if not c.claimed:
            return RuleViolation("bean-coin.no-claim", "Nobody is claiming the Bean Coin.")
        if move.player != c.holder:
            return RuleViolation("bean-coin.holder", f"Only the holder, {state.names[c.holder]}, answers the claim.")
        return None

    def apply_yield(self, state: GameState, move: YieldCoin) -> None:
        c = coin(state)
        c.claimed, c.holder = False, state.active

    def seeded_place(self, state: GameState) -> int:
        hand = state.players[coin(state).holder].hand
        return random.Random(f"{state.seed}:coin:{state.turn}").randrange(hand.size)

    def check_defend(self, state: GameState, move: DefendCoin) -> RuleViolation | None:
        if bad := self.check_answer(state, move) or checks.unknown_bean(state, [move.bean]):
            return bad
        hand = state.players[move.player].hand
        if hand.size == 0:
            return RuleViolation("bean-coin.empty-hand", "With no cards in hand the holder cannot defend the coin.")
        if not 0 <= move.at < hand.size:
            return RuleViolation("hand.too-few", f"There is no card at place {move.at + 1} of the hand.")
        if hand.cards is None:
            return checks.impossible(state, Counter([move.bean]))
        if move.at != self.seeded_place(state) or hand.cards[move.at] != move.bean:
            place = self.seeded_place(state)
            return RuleViolation("card.wrong", f"The card drawn is the {bean_name(hand.cards[place])} at place "
                                               f"{place + 1}, not what was recorded.")  # fmt: skip
        return None

    def apply_defend(self, state: GameState, move: DefendCoin) -> None:
        c = coin(state)
        state.players[move.player].hand.remove_at(move.at)
        state.unseen[move.bean] -= 1
        c.claimed, c.drawn = False, move.bean
        if move.bean == KEEPS_THE_COIN:
            c.tried_turn = state.turn
        else:
            c.holder = state.active

    def answer_options(self, state: GameState, seat: int) -> list[LegalMove]:
        c = coin(state)
        if not c.claimed or seat != c.holder:
            return []
        found = [LegalMove("yield-coin", {"player": seat}, f"Hand the Bean Coin to {state.names[state.active]}")]
        hand = state.players[seat].hand
        if hand.cards is not None and hand.size:
            at = self.seeded_place(state)
            found.append(LegalMove("defend-coin", {"player": seat, "bean": hand.cards[at], "at": at},
                                   "Defend: hold out the hand cards to be drawn from"))  # fmt: skip
        elif hand.size:
            found.append(LegalMove("defend-coin", {"player": seat}, "Defend: the card drawn from the hand was",
                                   {"bean": Choice(unseen_beans(state)), "at": Choice(tuple(range(hand.size)))}))
        return found

    # --- planting the drawn card ------------------------------------------------------

    def check_plant_drawn(self, state: GameState, move: PlantDrawn) -> RuleViolation | None:
        c = coin(state)
        if c.drawn is None or move.player != state.active:
            return RuleViolation("bean-coin.nothing-drawn", "No card drawn for the Bean Coin waits to be planted.")
        if not CATALOGUE[c.drawn].plantable:
            return None  # a card never planted (a magpie) is discarded instead
        return checks.check_field(state, Plant(move.player, c.drawn, field=move.field))

    def apply_plant_drawn(self, state: GameState, move: PlantDrawn) -> None:
        c = coin(state)
        assert c.drawn is not None
        if CATALOGUE[c.drawn].plantable:
            state.players[move.player].fields[move.field].plant(c.drawn)
        else:
            state.discard.append(c.drawn)
        c.drawn = None

    def plant_drawn_options(self, state: GameState, seat: int) -> list[LegalMove]:
        c = coin(state)
        if c.drawn is None or seat != state.active:
            return []
        where = field_choice(state, seat, c.drawn)
        if CATALOGUE[c.drawn].plantable and not where.options:
            return []
        return [LegalMove("plant-drawn", {"player": seat}, f"Plant the drawn {bean_name(c.drawn)}",
                          {"field": where if where.options else Choice((0,))})]  # fmt: skip

    # --- drawing and the end --------------------------------------------------------------

    def draw_count(self, state: GameState, seat: int, count: int) -> int:
        if coin(state).holder == seat:
            return 4
        return 2 if fields_worth(state, seat) < 1 else count

    def break_tie(self, state: GameState, tied: list[int]) -> tuple[list[int], str] | None:
        holder = coin(state).holder
        if holder not in tied:
            return None
        return [holder], f"{state.names[holder]} holds the AMIGO Bean Coin and wins the tie."


@wording("claim-coin")
def _claim(e: dict[str, Any], who: Names) -> str:
    return f"{who(e['player'])} claimed the Bean Coin"


@wording("yield-coin")
def _yield(e: dict[str, Any], who: Names) -> str:
    return f"{who(e['player'])} handed over the Bean Coin"


@wording("defend-coin")
def _defend(e: dict[str, Any], who: Names) -> str:
    kept = "keeps the coin" if e.get("bean") == KEEPS_THE_COIN else "loses the coin"
    return f"{who(e['player'])} defended the Bean Coin: a {bean_name(e.get('bean'))} was drawn, so {kept}"


@wording("plant-drawn")
def _plant_drawn(e: dict[str, Any], who: Names) -> str:
    return f"{who(e['player'])} planted the drawn card in field {e['field'] + 1}"
