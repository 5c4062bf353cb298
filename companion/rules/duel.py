"""The Duel for two players, as each book tells it: no trading; what the active player leaves is an offer.

A turn (``duel-amigo``, book 000 variant 3):
0. use the opponent's offer: for each bean type, plant all its cards in one field or discard them;
1. plant the front card, may plant the next, and may discard any one hand card;
2. turn over three cards, then add the discard pile's top card while it matches a type among them;
3. plant turned-over cards (all of a type in the same field) or leave them, by type, as the offer;
4. draw two. Only the active player harvests; the game ends as soon as the draw pile runs out.

``duel-classic`` (book 001, "The bean duel for 2 players") follows the same steps with the
game's usual rules otherwise: offered and drawn cards may be planted one by one, the hand discard
comes after planting, anybody may harvest at any time, and the end is the usual one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

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
    """The offer on the table, and what this turn has committed to."""

    offer: list[str] = field(default_factory=list)
    committed: dict[str, int] = field(default_factory=dict)
    """Bean type -> the field its offered or turned-over cards all go to (once one is planted)."""
    discarded: bool = False
    """A hand card was discarded this turn."""


def duel(state: GameState) -> DuelState:
    found: DuelState = state.parts.setdefault("duel", DuelState())
    return found


class DuelTurns(Part):
    """The steps both Duels share; the flags say where the books differ."""

    same_field: bool = True
    """All cards of one type, offered or turned over, go into the same field (000)."""
    harvest_any_time: bool = False
    discard_after_planting: bool = False
    ends_at_once: bool = True
    """The game ends as soon as the draw pile runs out (000)."""

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
        return {
            Phase.OFFER: "Phase 0 · plant or discard the offered cards",
            Phase.PLANT: "Phase 1 · plant from hand (one card may be discarded), then turn over 3",
            Phase.PLANT_TRADED: "Phase 3 · plant turned-over cards or leave them as the offer, then draw",
        }.get(state.phase)

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
        return None

    # --- planting ------------------------------------------------------------

    def check_plant(self, state: GameState, move: Plant) -> RuleViolation | None:
        if move.source is Source.RECEIVED:
            return RuleViolation("duel.no-trade", "The Duel has no trading, so no cards are received.")
        if move.source is Source.HAND:
            return checks.check_plant(state, move)
        if bad := checks.unknown_bean(state, [move.bean]) or checks.active_only(state, move, "plants these cards"):
            return bad
        wanted = Phase.OFFER if move.source is Source.OFFER else Phase.PLANT_TRADED
        pile = duel(state).offer if move.source is Source.OFFER else state.face_up
        if state.phase is not wanted:
            return RuleViolation("duel.phase", "Offered cards are used in phase 0; turned-over cards are planted "
                                               "in phase 3.")  # fmt: skip
        if move.bean not in pile:
            return RuleViolation("duel.not-there", f"No {bean_name(move.bean)} is left there to plant.")
        committed = duel(state).committed.get(move.bean)
        if self.same_field and committed is not None and move.field != committed:
            return RuleViolation("duel.same-field", f"All the {bean_name(move.bean)}s must go into the same field: "
                                                    f"field {committed + 1}.")  # fmt: skip
        return checks.check_field(state, move)

    def apply_plant(self, state: GameState, move: Plant) -> None:
        if move.source is Source.HAND:
            effects.plant(state, move)
            return
        assert move.field is not None
        pile = duel(state).offer if move.source is Source.OFFER else state.face_up
        pile.remove(move.bean)
        state.players[move.player].fields[move.field].plant(move.bean)
        if move.bean in pile:
            duel(state).committed[move.bean] = move.field
        else:
            duel(state).committed.pop(move.bean, None)
        self._offer_done(state)

    def plant_options(self, state: GameState, seat: int) -> list[LegalMove]:
        if seat != state.active:
            return []
        if state.phase is Phase.PLANT:
            return offers.plant_options(state, seat)
        source = {Phase.OFFER: Source.OFFER, Phase.PLANT_TRADED: Source.FACE_UP}.get(state.phase)
        if source is None:
            return []
        pile = duel(state).offer if source is Source.OFFER else state.face_up
        found = []
        for bean in dict.fromkeys(pile):
            where = offers.field_choice(state, seat, bean)
            committed = duel(state).committed.get(bean)
            if self.same_field and committed is not None:
                where = Choice(tuple(f for f in where.options if f == committed))
            if where.options:
                text = f"Plant the {'offered' if source is Source.OFFER else 'turned-over'} {bean_name(bean)}"
                found.append(LegalMove("plant", {"player": seat, "bean": bean, "source": source.value}, text,
                                       {"field": where}))  # fmt: skip
        return found

    # --- phase 0: the offer ----------------------------------------------------

    def check_discard_offer(self, state: GameState, move: DiscardOffer) -> RuleViolation | None:
        if bad := checks.active_only(state, move, "uses the offer"):
            return bad
        if state.phase is not Phase.OFFER or move.bean not in duel(state).offer:
            return RuleViolation("duel.not-there", f"No offered {bean_name(move.bean)} is on the table.")
        if self.same_field and move.bean in duel(state).committed:
            return RuleViolation("duel.same-field", f"The {bean_name(move.bean)}s are being planted: all of them "
                                                    "go into the same field.")  # fmt: skip
        return None

    def apply_discard_offer(self, state: GameState, move: DiscardOffer) -> None:
        offer = duel(state).offer
        state.discard.extend(b for b in offer if b == move.bean)
        offer[:] = [b for b in offer if b != move.bean]
        self._offer_done(state)

    def discard_offer_options(self, state: GameState, seat: int) -> list[LegalMove]:
        if seat != state.active or state.phase is not Phase.OFFER:
            return []
        return [LegalMove("discard-offer", {"player": seat, "bean": bean},
                          f"Discard the offered {bean_name(bean)}s")
                for bean in dict.fromkeys(duel(state).offer)
                if not (self.same_field and bean in duel(state).committed)]  # fmt: skip

    def _offer_done(self, state: GameState) -> None:
        if state.phase is Phase.OFFER and not duel(state).offer:
            state.phase = Phase.PLANT
            duel(state).committed.clear()

    # --- phase 1: one hand card may be discarded ----------------------------------

    def check_discard(self, state: GameState, move: Discard) -> RuleViolation | None:
        if bad := checks.active_only(state, move, "discards from the hand"):
            return bad
        if state.phase is not Phase.PLANT:
            return RuleViolation("duel.discard-phase", "A hand card may be discarded only in phase 1.")
        if duel(state).discarded:
            return RuleViolation("duel.discard-once", "Only one hand card may be discarded each turn.")
        if self.discard_after_planting and state.plants_this_turn == 0 and state.players[move.player].hand.size:
            return RuleViolation("duel.discard-after-planting", "Plant from your hand first; then you may discard "
                                                                "one card.")  # fmt: skip
        if bad := checks.unknown_bean(state, [move.bean]):
            return bad
        hand = state.players[move.player].hand
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

    # --- phase 2: three cards and the discard pile's matches ------------------------

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

    # --- phase 4 ------------------------------------------------------------------

    def check_draw(self, state: GameState, move: Draw) -> RuleViolation | None:
        if bad := checks.active_only(state, move, "draws cards in phase 4"):
            return bad
        if state.phase is not Phase.PLANT_TRADED:
            return RuleViolation("phase4.too-early", "Cards are drawn in phase 4, after turning over and planting.")
        if self.same_field and (left := [b for b in duel(state).committed if b in state.face_up]):
            return RuleViolation("duel.same-field", f"All the turned-over {bean_name(left[0])}s must be planted "
                                                    "together, in the same field.")  # fmt: skip
        due = state.rules.draws(state)[0][1]
        if move.count is not None and move.count != due:
            return RuleViolation("phase4.count", f"The active player draws {due} cards, not {move.count}.")
        return None

    def apply_draw(self, state: GameState, move: Draw) -> None:
        offer = duel(state)
        offer.offer, state.face_up = list(state.face_up), []
        offer.committed.clear()
        offer.discarded = False
        if state.last_pass:  # the pile ran out while turning over: the turn's planting was the last
            effects.finish_game(state)
            return
        state.draws_due = state.rules.draws(state)
        state.phase = Phase.DRAW
        effects.draw(state, move)
        if not state.game_over:
            state.phase = Phase.OFFER if offer.offer else Phase.PLANT

    def draw_options(self, state: GameState, seat: int) -> list[LegalMove]:
        if seat != state.active or state.phase is not Phase.PLANT_TRADED or self.check_draw(state, Draw(seat)):
            return []
        count = state.rules.draws(state)[0][1]
        text = f"Draw {cards(count)}" + (f", leaving {len(state.face_up)} as the offer" if state.face_up else "")
        return [LegalMove("draw", {"player": seat, "count": count}, text)]


@register_turns
class DuelAmigo(DuelTurns):
    name = "duel-amigo"
    title = "The Duel's turn (AMIGO edition)"
    book = "000_7919b706fb618356.txt, variant 3"
    about = ("Use the opponent's offer, plant from your hand and may discard one card, turn over three (and matching "
             "cards from the discard pile), plant or offer them by type, draw two.")


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


@register_edition
class AmigoDuel(Edition):
    """000 variant 3: garden removed, brandy and coffee added; three fields; draw two; ends at the first pass."""

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

    The book names no deck, fields or end for two: as with three players, the cocoa beans are removed;
    as with four or more, each player starts with two fields and may buy a third for three coins;
    the game ends at the third pass, as the book's general rule says.
    """

    name = "classic-duel"
    title = "Bohnanza, classic English edition: the bean duel"
    book = "001_4672c0781fb6202e.txt, the bean duel for 2 players"
    about = "Two players, no trading: plant what you like of three cards drawn, offer the rest to your opponent."
    min_players = max_players = 2
    turns = "duel-classic"
    defaults = {"protection": PROTECTION_STRICT, "tie_break": TIE_MOST_CARDS}

    def beans_in_play(self) -> tuple[str, ...]:
        return tuple(b for b in CLASSIC_BEANS if b != "cocoa")

    def starting_fields(self) -> int:
        return 2

    def third_field_price(self) -> int | None:
        return 3

    def turn_over_count(self) -> int:
        return 3

    def draws(self, active: int) -> list[tuple[int, int]]:
        return [(active, 2)]
