"""The Magpie bean (book 000): six magpies that steal from other players' fields.

A magpie is never planted. Played as one of the first two hand cards in phase 1 it goes to
the discard pile, and its player takes one card each from the fields of up to two other
players and plants them in their own fields; the victims cannot harvest until the theft is
over. A magpie received in phase 2 goes to the back of the receiver's hand; so does one the
active player turned over and kept (the book speaks of received magpies; the turned-over one
is the active player's own card, and it cannot be planted either).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.rules import checks, effects
from companion.rules.legal import Choice, LegalMove
from companion.rules.moves import EndTrading, Harvest, Plant, register_move
from companion.rules.parts import MoveRule, Part, register_module
from companion.rules.phases import Phase
from companion.rules.violations import RuleViolation
from companion.rules.wording import Names, bean_name, wording

if TYPE_CHECKING:
    from companion.rules.state import GameState

MAGPIE = "magpie"
MAGPIES = 6
VICTIMS = 2


@register_move("play-magpie")
@dataclass(frozen=True, slots=True)
class PlayMagpie:
    """Phase 1: the front card is a magpie: discard it and start a theft."""

    player: int


@register_move("steal")
@dataclass(frozen=True, slots=True)
class Steal:
    """Take the top card of ``victim``'s field ``field`` and plant it in the thief's field ``to_field``."""

    player: int
    victim: int
    field: int
    to_field: int


@register_move("end-theft")
@dataclass(frozen=True, slots=True)
class EndTheft:
    """The thief stops stealing (after fewer than two victims)."""

    player: int


@dataclass(slots=True)
class Theft:
    victims: list[int] = field(default_factory=list)


def theft(state: GameState) -> Theft | None:
    found: Theft | None = state.parts.get("magpie")
    return found


@register_module
class Magpie(Part):
    name = "magpie"
    title = "The Magpie bean"
    book = "000_7919b706fb618356.txt, the Magpie bean"
    about = ("Six magpies in the deck: play one from the front of your hand to steal a card from the fields of up "
             "to two other players.")

    def adjust_deck(self, deck: dict[str, int]) -> dict[str, int]:
        return {**deck, MAGPIE: MAGPIES}

    def public(self, state: GameState) -> dict[str, Any]:
        current = theft(state)
        return {"theft": None if current is None else {"thief": state.active, "victims": list(current.victims)}}

    def notes(self, state: GameState) -> list[str]:
        current = theft(state)
        if current is None:
            return []
        return [f"{state.names[state.active]} is stealing with a magpie ({len(current.victims)} of {VICTIMS} taken)"]

    def move_rules(self) -> Mapping[type, MoveRule]:
        return {
            PlayMagpie: MoveRule(self.check_play, self.apply_play, self.play_options),
            Steal: MoveRule(self.check_steal, self.apply_steal, self.steal_options),
            EndTheft: MoveRule(self.check_end, self.apply_end, self.end_options),
        }

    def veto(self, state: GameState, move: Any) -> RuleViolation | None:
        if theft(state) is None or isinstance(move, (Steal, EndTheft)):
            return None
        if isinstance(move, Harvest) and move.player == state.active:
            return None
        if isinstance(move, Harvest):
            return RuleViolation("magpie.no-escape", "The other players can't stop the magpie by harvesting their "
                                                     "fields before it gets to them.")  # fmt: skip
        return RuleViolation("magpie.theft", f"{state.names[state.active]} is stealing with a magpie: steal, "
                                             "or end the theft first.")  # fmt: skip

    def to_act(self, state: GameState, seats: tuple[int, ...]) -> tuple[int, ...]:
        return (state.active,) if theft(state) is not None else seats

    # --- playing the magpie ------------------------------------------------------------

    def check_play(self, state: GameState, move: PlayMagpie) -> RuleViolation | None:
        if bad := checks.active_only(state, move, "plays a magpie from the hand"):
            return bad
        if state.phase is not Phase.PLANT:
            return RuleViolation("phase1.hand-only", "A magpie is played from the hand in phase 1.")
        if state.plants_this_turn >= state.rules.hand_plants(state, move.player):
            return RuleViolation("magpie.first-two", "A magpie steals only as one of the first two hand cards.")
        hand = state.players[move.player].hand
        if hand.size == 0:
            return RuleViolation("hand.empty", f"{state.names[move.player]} has no cards in hand.")
        if hand.cards is not None:
            if hand.front() != MAGPIE:
                return RuleViolation("hand.order", f"The front card is a {bean_name(hand.front())}, not a magpie.")
            return None
        return checks.impossible(state, Counter([MAGPIE]))

    def apply_play(self, state: GameState, move: PlayMagpie) -> None:
        state.players[move.player].hand.remove_front()
        state.unseen[MAGPIE] -= 1
        state.plants_this_turn += 1
        state.discard.append(MAGPIE)
        state.parts[self.name] = Theft()

    def play_options(self, state: GameState, seat: int) -> list[LegalMove]:
        if theft(state) is not None or self.check_play(state, PlayMagpie(seat)) is not None:
            return []
        return [LegalMove("play-magpie", {"player": seat}, "Play the magpie: steal from up to two players")]

    # --- stealing ---------------------------------------------------------------------

    def check_steal(self, state: GameState, move: Steal) -> RuleViolation | None:
        current = theft(state)
        if current is None or move.player != state.active:
            return RuleViolation("magpie.no-theft", "Only a magpie just played steals.")
        if move.victim == move.player or not 0 <= move.victim < len(state.players):
            return RuleViolation("magpie.victim", "A magpie steals from the fields of other players.")
        if move.victim in current.victims:
            return RuleViolation("magpie.one-each", "A magpie takes one card from each player.")
        fields = state.players[move.victim].fields
        if not 0 <= move.field < len(fields) or fields[move.field].count == 0:
            return RuleViolation("magpie.empty", f"{state.names[move.victim]} has no card in field {move.field + 1}.")
        bean = fields[move.field].bean
        assert bean is not None
        return checks.check_field(state, Plant(move.player, bean, field=move.to_field))

    def apply_steal(self, state: GameState, move: Steal) -> None:
        current = theft(state)
        assert current is not None
        bean = state.players[move.victim].fields[move.field].take()
        state.players[move.player].fields[move.to_field].plant(bean)
        current.victims.append(move.victim)
        if len(current.victims) == VICTIMS:
            del state.parts[self.name]

    def steal_options(self, state: GameState, seat: int) -> list[LegalMove]:
        current = theft(state)
        if current is None or seat != state.active:
            return []
        found = []
        for victim, player in enumerate(state.players):
            if victim == seat or victim in current.victims:
                continue
            for index, f in enumerate(player.fields):
                if f.bean is None:
                    continue
                own = state.players[seat].fields
                to = tuple(i for i, mine in enumerate(own) if mine.accepts(f.bean))
                if to:
                    found.append(LegalMove("steal", {"player": seat, "victim": victim, "field": index},
                                           f"Steal a {bean_name(f.bean)} from {player.name}'s field {index + 1}",
                                           {"to_field": Choice(to)}))  # fmt: skip
        return found

    def check_end(self, state: GameState, move: EndTheft) -> RuleViolation | None:
        if theft(state) is None or move.player != state.active:
            return RuleViolation("magpie.no-theft", "No magpie theft is under way.")
        return None

    def apply_end(self, state: GameState, move: EndTheft) -> None:
        del state.parts[self.name]

    def end_options(self, state: GameState, seat: int) -> list[LegalMove]:
        if theft(state) is None or seat != state.active:
            return []
        return [LegalMove("end-theft", {"player": seat}, "Stop stealing")]

    # --- received and turned-over magpies go to the back of the hand ------------------------

    def after(self, state: GameState, move: Any) -> None:
        if not isinstance(move, EndTrading):
            return
        for seat, player in enumerate(state.players):
            mine: list[str | None] = [b for b in player.received if b == MAGPIE]
            if seat == state.active:
                mine += [b for b in state.face_up if b == MAGPIE]
                state.face_up = [b for b in state.face_up if b != MAGPIE]
            player.received = [b for b in player.received if b != MAGPIE]
            if mine:
                player.hand.add(mine)
                state.unseen[MAGPIE] += len(mine)  # back among the hidden cards of a hand
        if not state.game_over:
            effects.end_phase_three_when_planted(state)


@wording("play-magpie")
def _play(e: dict[str, Any], who: Names) -> str:
    return f"{who(e['player'])} played a magpie"


@wording("steal")
def _steal(e: dict[str, Any], who: Names) -> str:
    return f"{who(e['player'])} stole from {who(e['victim'])}'s field {e['field'] + 1} into field {e['to_field'] + 1}"


@wording("end-theft")
def _end(e: dict[str, Any], who: Names) -> str:
    return f"{who(e['player'])} stopped stealing"
