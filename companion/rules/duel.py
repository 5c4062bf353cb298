"""The Duel for two players, as each book tells it: no trading; what the active player leaves is an offer.

A turn (``duel-amigo``, book 000 variant 3):
0. use the opponent's offer: for each bean type, plant all its cards in one field or discard them;
1. plant the front card, may plant the next, and may discard any one hand card at any point;
2. turn over three cards, then add the discard pile's top card while it matches a type among them;
3. plant turned-over cards (all of a type in the same field) or leave them, by type, as the offer;
4. draw two. Only the active player harvests; the game ends as soon as the draw pile runs out.

``duel-classic`` (book 001, "The bean duel for 2 players") has four steps: 1. plant or discard the
offered cards; 2. plant one or two from the hand, then may discard one hand card; 3. turn over three
(and the matching discard-pile cards), plant any of them, leave the rest as the offer; 4. draw two.
Otherwise the game's usual rules hold: cards are planted one by one, anybody harvests at any time.

The matching cards of the discard pile lay face up, so a ``turn-over`` event names only the cards
from the draw pile and the engine adds the discard pile's matches itself, at a real table too.
The offered and turned-over cards of one type are planted one ``plant`` event each; in the AMIGO
Duel, once the first is planted, the rest of that type must follow into the same field before
anything else is done.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from companion.rules import checks, effects, offers
from companion.rules.duel_moves import Discard, DiscardOffer
from companion.rules.editions import (
    BASE_BEANS,
    CLASSIC_BEANS,
    PROTECTION_LENIENT,
    PROTECTION_STRICT,
    TIE_FURTHEST,
    TIE_MOST_CARDS,
    Edition,
    register_edition,
)
from companion.rules.legal import Choice, LegalMove
from companion.rules.moves import BuyField, Draw, Harvest, Plant, Source, Trade, TurnOver
from companion.rules.parts import MoveRule, Part, register_turns
from companion.rules.phases import Phase
from companion.rules.violations import RuleViolation
from companion.rules.wording import bean_name, beans, cards

if TYPE_CHECKING:
    from companion.rules.state import GameState


@dataclass(slots=True)
class DuelState:
    """The offer on the table, and what this turn has done so far."""

    offer: list[str] = field(default_factory=list)
    group: tuple[str, int] | None = None
    """(bean, field): a type whose cards are going into one field, some still to plant (AMIGO)."""
    discarded: bool = False
    """A hand card was discarded this turn."""


def duel(state: GameState) -> DuelState:
    found: DuelState = state.parts.setdefault("duel", DuelState())
    return found


def waiting(state: GameState) -> list[str]:
    """The cards the active player now plants or leaves: the offer in phase 0, else the turned-over cards."""
    return duel(state).offer if state.phase is Phase.OFFER else state.face_up


class DuelTurns(Part):
    """The steps both Duels share; the flags say where the books differ."""

    same_field: bool = True
    """All cards of one type, offered or turned over, go together into the same field (000)."""
    harvest_any_time: bool = False
    discard_after_planting: bool = False
    """The hand card is discarded after planting, which ends planting from the hand (001)."""
    ends_at_once: bool = True
    """The game ends as soon as the draw pile runs out, even while turning over (000)."""
    steps: ClassVar[Mapping[Phase, str]] = {}
    """The turn structure's words for each phase."""

    def allows(self, rules: Any) -> str | None:
        return None if rules.players == 2 else "the Duel is for two players"

    def move_rules(self) -> Mapping[type, MoveRule]:
        return {
            Plant: MoveRule(self.check_plant, self.apply_plant, self.plant_options),
            Discard: MoveRule(self.check_discard, self.apply_discard, self.discard_options),
            DiscardOffer: MoveRule(self.check_discard_offer, self.apply_discard_offer, self.discard_offer_options),
            TurnOver: MoveRule(checks.check_turn_over, self.apply_turn_over, offers.turn_over_options),
            Trade: MoveRule(self.check_trade, effects.trade),
            Harvest: MoveRule(checks.check_harvest, effects.harvest, offers.harvest_options),
            BuyField: MoveRule(checks.check_buy_field, effects.buy_field, offers.buy_field_options),
            Draw: MoveRule(self.check_draw, self.apply_draw, self.draw_options),
        }

    def to_act(self, state: GameState, seats: tuple[int, ...]) -> tuple[int, ...]:
        return (state.active,)

    def phase_text(self, state: GameState) -> str | None:
        return self.steps.get(state.phase)

    def cards_held(self, state: GameState) -> int:
        return len(duel(state).offer)

    def public(self, state: GameState) -> dict[str, Any]:
        return {"offer": list(duel(state).offer)}

    def notes(self, state: GameState) -> list[str]:
        offer = duel(state).offer
        return [f"Offered to {state.names[state.active]}: {beans(offer)}"] if offer else []

    def veto(self, state: GameState, move: Any) -> RuleViolation | None:
        if isinstance(move, Harvest) and not self.harvest_any_time and move.player != state.active:
            return RuleViolation("duel.harvest-active", "In the Duel you can only harvest your beans when you're "
                                                        "the active player.")  # fmt: skip
        if (group := duel(state).group) is not None and not self._completes(move, group):
            bean, into = group
            return RuleViolation("duel.same-field", f"All the {bean_name(bean)}s go into the same field: plant the "
                                                    f"rest of them in field {into + 1} first.")  # fmt: skip
        if state.phase is Phase.OFFER and move.player == state.active and not self._uses_offer(move):
            return RuleViolation("duel.offer-first", "First plant or discard the cards your opponent left as an "
                                                     "offer.")  # fmt: skip
        return None

    @staticmethod
    def _completes(move: Any, group: tuple[str, int]) -> bool:
        return isinstance(move, Plant) and move.source is not Source.HAND and (move.bean, move.field) == group

    @staticmethod
    def _uses_offer(move: Any) -> bool:
        """Whether ``move`` may be made while the offer is still on the table."""
        return isinstance(move, (DiscardOffer, Harvest, BuyField)) or isinstance(move, Plant) and \
            move.source is Source.OFFER  # fmt: skip

    # --- planting ------------------------------------------------------------

    def check_plant(self, state: GameState, move: Plant) -> RuleViolation | None:
        if move.source is Source.RECEIVED:
            return RuleViolation("duel.no-trade", "The Duel has no trading, so no cards are received.")
        if move.source is Source.HAND:
            if self.discard_after_planting and duel(state).discarded and move.player == state.active:
                return RuleViolation("duel.discarded", "The hand card is discarded after planting: no more cards "
                                                       "are planted from the hand this turn.")  # fmt: skip
            return checks.check_plant(state, move)
        if bad := checks.unknown_bean(state, [move.bean]) or checks.active_only(state, move, "plants these cards"):
            return bad
        wanted = Phase.OFFER if move.source is Source.OFFER else Phase.PLANT_TRADED
        if state.phase is not wanted:
            return RuleViolation("duel.phase", "Offered cards are used before planting from the hand; turned-over "
                                               "cards are planted after turning them over.")  # fmt: skip
        if move.bean not in waiting(state):
            return RuleViolation("duel.not-there", f"No {bean_name(move.bean)} is left there to plant.")
        return checks.check_field(state, move)

    def apply_plant(self, state: GameState, move: Plant) -> None:
        if move.source is Source.HAND:
            effects.plant(state, move)
            return
        assert move.field is not None
        pile = waiting(state)
        pile.remove(move.bean)
        state.players[move.player].fields[move.field].plant(move.bean)
        duel(state).group = (move.bean, move.field) if self.same_field and move.bean in pile else None
        self._offer_done(state)

    def plant_options(self, state: GameState, seat: int) -> list[LegalMove]:
        if seat != state.active:
            return []
        if state.phase is Phase.PLANT:
            return [] if self.discard_after_planting and duel(state).discarded else offers.plant_options(state, seat)
        if state.phase not in (Phase.OFFER, Phase.PLANT_TRADED):
            return []
        offered = state.phase is Phase.OFFER
        source, where_from = (Source.OFFER, "offered") if offered else (Source.FACE_UP, "turned-over")
        group = duel(state).group
        found = []
        for bean in dict.fromkeys(waiting(state)):
            where = offers.field_choice(state, seat, bean)
            if group is not None:
                where = Choice(tuple(f for f in where.options if (bean, f) == group))
            if where.options:
                found.append(LegalMove("plant", {"player": seat, "bean": bean, "source": source.value},
                                       f"Plant the {where_from} {bean_name(bean)}", {"field": where}))  # fmt: skip
        return found

    # --- the offer, used at the start of the turn --------------------------------

    def check_discard_offer(self, state: GameState, move: DiscardOffer) -> RuleViolation | None:
        if bad := checks.active_only(state, move, "uses the offer"):
            return bad
        if state.phase is not Phase.OFFER or move.bean not in duel(state).offer:
            return RuleViolation("duel.not-there", f"No offered {bean_name(move.bean)} is on the table.")
        return None

    def apply_discard_offer(self, state: GameState, move: DiscardOffer) -> None:
        offer = duel(state).offer
        state.discard.extend(b for b in offer if b == move.bean)
        offer[:] = [b for b in offer if b != move.bean]
        self._offer_done(state)

    def discard_offer_options(self, state: GameState, seat: int) -> list[LegalMove]:
        if seat != state.active or state.phase is not Phase.OFFER or duel(state).group is not None:
            return []
        offer = Counter(duel(state).offer)
        return [LegalMove("discard-offer", {"player": seat, "bean": bean},
                          f"Discard the offered {bean_name(bean)}{'s' if n > 1 else ''}")
                for bean, n in offer.items()]  # fmt: skip

    @staticmethod
    def _offer_done(state: GameState) -> None:
        if state.phase is Phase.OFFER and not duel(state).offer:
            state.phase = Phase.PLANT

    # --- one hand card may be discarded ---------------------------------------------

    def check_discard(self, state: GameState, move: Discard) -> RuleViolation | None:
        if bad := checks.active_only(state, move, "discards from the hand"):
            return bad
        if state.phase is not Phase.PLANT:
            return RuleViolation("duel.discard-phase", "A hand card may be discarded only while planting from the "
                                                       "hand, before cards are turned over.")  # fmt: skip
        if duel(state).discarded:
            return RuleViolation("duel.discard-once", "Only one hand card may be discarded each turn.")
        hand = state.players[move.player].hand
        if self.discard_after_planting and state.plants_this_turn == 0 and hand.size:
            return RuleViolation("duel.discard-after-planting", "Plant from your hand first; then you may discard "
                                                                "one card.")  # fmt: skip
        if bad := checks.unknown_bean(state, [move.bean]):
            return bad
        if move.at is not None and not 0 <= move.at < hand.size:
            return RuleViolation("hand.too-few", f"There is no card at place {move.at + 1} of the hand.")
        if hand.cards is None:
            return checks.impossible(state, Counter([move.bean])) or checks.held_in_hand(
                state.players[move.player], (move.bean,))
        if (hand.cards[move.at] if move.at is not None else move.bean) != move.bean or move.bean not in hand.cards:
            return RuleViolation("hand.not-held", f"That card is not a {bean_name(move.bean)}.")
        return None

    def apply_discard(self, state: GameState, move: Discard) -> None:
        hand = state.players[move.player].hand
        if move.at is not None:
            hand.remove_at(move.at)
        else:
            hand.remove((move.bean,))
        state.unseen[move.bean] -= 1
        state.discard.append(move.bean)
        duel(state).discarded = True

    def discard_options(self, state: GameState, seat: int) -> list[LegalMove]:
        hand = state.players[seat].hand
        if seat != state.active or state.phase is not Phase.PLANT or duel(state).discarded or hand.size == 0:
            return []
        if self.discard_after_planting and state.plants_this_turn == 0:
            return []
        if hand.cards is None:
            return [LegalMove("discard", {"player": seat}, "Discard one hand card",
                              {"bean": Choice(offers.unseen_beans(state)), "at": Choice(tuple(range(hand.size)))})]
        return [LegalMove("discard", {"player": seat, "bean": bean, "at": at},
                          f"Discard the {bean_name(bean)} at place {at + 1} of the hand")
                for at, bean in enumerate(hand.cards)]  # fmt: skip

    # --- three cards and the discard pile's matches ------------------------------------

    def apply_turn_over(self, state: GameState, move: TurnOver) -> None:
        effects.turn_over(state, move)
        while state.discard and state.discard[-1] in state.face_up:
            state.face_up.append(state.discard.pop())
        state.phase = Phase.PLANT_TRADED
        if state.last_pass and self.ends_at_once:
            effects.finish_game(state)

    def check_trade(self, state: GameState, move: Trade) -> RuleViolation | None:
        return RuleViolation("duel.no-trade", "There is no trading in the Duel: what you do not plant is left "
                                              "as an offer to your opponent.")  # fmt: skip

    # --- draw two; what is left is the offer ------------------------------------------------

    def check_draw(self, state: GameState, move: Draw) -> RuleViolation | None:
        if bad := checks.active_only(state, move, "draws cards at the end of the turn"):
            return bad
        if state.phase is not Phase.PLANT_TRADED:
            return RuleViolation("phase4.too-early", "Cards are drawn at the end of the turn, after turning over "
                                                     "and planting.")  # fmt: skip
        due = state.rules.draws(state)[0][1]
        if move.count is not None and move.count != due:
            return RuleViolation("phase4.count", f"The active player draws {due} cards, not {move.count}.")
        return None

    def apply_draw(self, state: GameState, move: Draw) -> None:
        kept = duel(state)
        kept.offer, state.face_up = list(state.face_up), []
        kept.group, kept.discarded = None, False
        if state.last_pass:  # the pile ran out while turning over: the turn's planting was the last
            effects.finish_game(state)
            return
        state.draws_due = state.rules.draws(state)
        state.phase = Phase.DRAW
        effects.draw(state, move)
        if not state.game_over:
            state.phase = Phase.OFFER if kept.offer else Phase.PLANT

    def draw_options(self, state: GameState, seat: int) -> list[LegalMove]:
        if seat != state.active or state.phase is not Phase.PLANT_TRADED or state.check(Draw(seat)) is not None:
            return []
        count = state.rules.draws(state)[0][1]
        if state.last_pass:
            text = "End the game: the draw pile has run out"
        else:
            text = f"Draw {cards(count)}" + (f", leaving {len(state.face_up)} as the offer" if state.face_up else "")
        return [LegalMove("draw", {"player": seat, "count": count}, text)]


@register_turns
class DuelAmigo(DuelTurns):
    name = "duel-amigo"
    title = "The Duel's turn (AMIGO edition)"
    book = "000_7919b706fb618356.txt, variant 3"
    about = ("Use the opponent's offer, plant from your hand and may discard one card, turn over three (and matching "
             "cards from the discard pile), plant or offer them by type, draw two.")
    steps = {
        Phase.OFFER: "Phase 0 · plant or discard the offered cards, one bean type at a time",
        Phase.PLANT: "Phase 1 · plant from hand (you may discard one card), then turn over 3",
        Phase.PLANT_TRADED: "Phase 3 · plant turned-over cards by type or leave them as the offer, then draw 2",
    }


@register_turns
class DuelClassic(DuelTurns):
    name = "duel-classic"
    title = "The bean duel's turn (classic edition)"
    book = "001_4672c0781fb6202e.txt, the bean duel for 2 players"
    about = ("Plant or discard the offered cards, plant from your hand then may discard one card, draw three (and "
             "matching cards from the discard pile) and plant any, leave the rest as an offer, draw two.")
    same_field = False
    harvest_any_time = True
    discard_after_planting = True
    ends_at_once = False
    steps = {
        Phase.OFFER: "Step 1 · plant or discard the offered cards",
        Phase.PLANT: "Step 2 · plant from hand, then you may discard one card; then turn over 3",
        Phase.PLANT_TRADED: "Step 3 · plant any of the drawn cards, leave the rest as the offer, then draw 2",
    }


@register_edition
class AmigoDuel(Edition):
    """000 variant 3: garden removed, brandy and coffee added; three fields; draw two; ends at the first pass.

    The Duel names no tie-break: the edition's (furthest from the start player) by default.
    """

    name = "amigo-25-duel"
    title = "Bohnanza, AMIGO 25th-anniversary edition: variant 3, the Duel"
    book = "000_7919b706fb618356.txt, variant 3"
    about = "Two players, no trading: what you do not plant is offered to your opponent."
    min_players = max_players = 2
    turns = "duel-amigo"
    defaults = {"protection": PROTECTION_LENIENT, "tie_break": TIE_FURTHEST}

    def beans_in_play(self) -> tuple[str, ...]:
        return ("coffee", "brandy", *(b for b in BASE_BEANS if b != "garden"))

    def starting_fields(self) -> int:
        return 3

    def turn_over_count(self) -> int:
        return 3

    def draws(self, active: int) -> list[tuple[int, int]]:
        return [(active, 2)]

    def end_pass(self) -> int:
        return 1


@register_edition
class ClassicDuel(Edition):
    """001's bean duel: "the same rules as the game for three to seven players" with its own four steps.

    The duel changes only the turn, and the book's variations by player count name three, four or five,
    and six or seven players, never two; so everything else is the general rules as printed: all 154
    cards (no bean removed), five cards dealt, two fields with a third to buy once for three coins, harvests
    at any time, the end at the third time the draw pile runs out (after the turn's planting when it runs
    out while turning over, at once while drawing), the strict bean protection and most cards in hand
    breaking a tie.
    """

    name = "classic-duel"
    title = "Bohnanza, classic English edition: the bean duel"
    book = "001_4672c0781fb6202e.txt, the bean duel for 2 players"
    about = "Two players, no trading: plant what you like of three cards drawn, offer the rest to your opponent."
    min_players = max_players = 2
    turns = "duel-classic"
    defaults = {"protection": PROTECTION_STRICT, "tie_break": TIE_MOST_CARDS}

    def beans_in_play(self) -> tuple[str, ...]:
        return CLASSIC_BEANS

    def third_field_price(self) -> int | None:
        return 3

    def turn_over_count(self) -> int:
        return 3

    def draws(self, active: int) -> list[tuple[int, int]]:
        return [(active, 2)]
