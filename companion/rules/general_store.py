"""High Bohn's general store (book 004): beans kept on the card, only to be traded or given away.

The owner of the 2, 3 or 4 General Store keeps up to 1, 2 or 3 beans on it (``store``): the
front card of the hand in phase 1 instead of planting it (it counts as one of the cards played
in phase 1), a turned-over card in phases 2 and 3 (the active player), or a card received in a
trade or gift — never one received from another player's store, which must be planted. The
owner never plants a stored bean; in phase 2 a stored bean may go to or from the active player
(``give-stored``, one bean, as a trade or a gift), and whoever takes it plants it in phase 3.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.rules import checks, effects
from companion.rules.buildings import card_name
from companion.rules.high_bohn import HIGH_BOHN
from companion.rules.legal import Choice, LegalMove
from companion.rules.moves import Plant, Source, register_move
from companion.rules.offers import unseen_beans
from companion.rules.parts import MoveRule, Part, register_module
from companion.rules.phases import Phase
from companion.rules.town import owned_price
from companion.rules.violations import RuleViolation
from companion.rules.wording import Names, bean_name, wording

if TYPE_CHECKING:
    from companion.rules.rulesets import Rules
    from companion.rules.state import GameState

CAPACITY = {2: 1, 3: 2, 4: 3}
"""General store price -> beans it keeps."""


@register_move("store")
@dataclass(frozen=True, slots=True)
class Store:
    """Put a bean on the general store: the front card of the hand, a turned-over or a received card."""

    player: int
    bean: str
    source: Source = Source.HAND


@register_move("give-stored")
@dataclass(frozen=True, slots=True)
class GiveStored:
    """Trade or give a bean from ``player``'s general store to ``partner`` (one of them the active player)."""

    player: int
    partner: int
    bean: str


@dataclass(slots=True)
class Stores:
    stored: list[list[str]]
    """Per seat: the beans lying on the general store."""
    from_store: list[list[str]]
    """Per seat: received beans that came from a store (they must be planted)."""


def stores(state: GameState) -> Stores:
    found: Stores = state.parts["general-store"]
    return found


def capacity(state: GameState, seat: int) -> int:
    """How many beans ``seat``'s general store keeps (0 without one that keeps beans)."""
    return CAPACITY.get(owned_price(state, seat, "general-store") or 0, 0)


@register_module
class GeneralStore(Part):
    name = "general-store"
    title = "High Bohn: the general store"
    book = "004_e13a5e0396bac44f.txt, High Bohn: Stink bean, General Store"
    about = "The 2, 3 or 4 General Store keeps 1, 2 or 3 beans its owner does not want to plant, to trade away later."

    def allows(self, rules: Rules) -> str | None:
        return None if rules.edition.name == HIGH_BOHN else "the buildings are played with High Bohn"

    def setup(self, state: GameState) -> None:
        state.parts[self.name] = Stores([[] for _ in state.players], [[] for _ in state.players])

    def move_rules(self) -> Mapping[type, MoveRule]:
        return {
            Store: MoveRule(self.check_store, self.apply_store, self.store_options),
            GiveStored: MoveRule(self.check_give, self.apply_give, self.give_options),
        }

    # --- storing ----------------------------------------------------------------------------

    def check_store(self, state: GameState, move: Store) -> RuleViolation | None:
        player, keeps = state.players[move.player], capacity(state, move.player)
        if not keeps:
            return RuleViolation("store.none", f"{player.name} owns no general store that keeps beans "
                                               "(the 2, 3 or 4 General Store).")  # fmt: skip
        held = stores(state).stored[move.player]
        if len(held) >= keeps:
            card = card_name("general-store", owned_price(state, move.player, "general-store") or 0, starts=True)
            return RuleViolation("store.full", f"{card} keeps at most {keeps} "
                                               f"bean{'s' if keeps > 1 else ''}; it is full.")  # fmt: skip
        if bad := checks.unknown_bean(state, [move.bean]):
            return bad
        if move.source is Source.HAND:
            return checks.check_plant_source(state, player, Plant(move.player, move.bean, Source.HAND))
        if state.phase not in (Phase.TRADE, Phase.PLANT_TRADED):
            return RuleViolation("store.phase", "Turned-over and received cards are stored in phases 2 and 3.")
        if move.source is Source.FACE_UP:
            if bad := checks.active_only(state, move, "stores the turned-over cards"):
                return bad
            if move.bean not in state.face_up:
                return RuleViolation("face-up.missing", f"No {bean_name(move.bean)} is left among the turned-over "
                                                        "cards.")  # fmt: skip
            return None
        if move.source is Source.RECEIVED:
            mine = player.received.count(move.bean) - stores(state).from_store[move.player].count(move.bean)
            if mine <= 0:
                return RuleViolation("store.from-store", f"{player.name} has received no {bean_name(move.bean)} to "
                                                         "store: a bean from another player's general store must be "
                                                         "planted.")  # fmt: skip
            return None
        return RuleViolation("store.source", "Only the front card of the hand, a turned-over or a received card is "
                                             "stored.")  # fmt: skip

    def apply_store(self, state: GameState, move: Store) -> None:
        player = state.players[move.player]
        if move.source is Source.HAND:
            player.hand.remove_front()
            state.unseen[move.bean] -= 1
            state.plants_this_turn += 1
        elif move.source is Source.FACE_UP:
            state.face_up.remove(move.bean)
        else:
            player.received.remove(move.bean)
        stores(state).stored[move.player].append(move.bean)
        effects.end_phase_three_when_planted(state)

    def store_options(self, state: GameState, seat: int) -> list[LegalMove]:
        found: list[LegalMove] = []
        player, pile = state.players[seat], stores(state)
        if len(pile.stored[seat]) >= capacity(state, seat):
            return found
        if seat == state.active and state.phase is Phase.PLANT and player.hand.size \
                and state.plants_this_turn < state.rules.hand_plants(state, seat):  # fmt: skip
            front = player.hand.front()
            beans = (front,) if front is not None else unseen_beans(state)
            found.append(LegalMove("store", {"player": seat, "source": "hand"},
                                   "Put the front card of the hand on the general store", {"bean": Choice(beans)}))
        if state.phase in (Phase.TRADE, Phase.PLANT_TRADED):
            waiting = [(Source.RECEIVED, [b for b in dict.fromkeys(player.received)
                                          if self.check_store(state, Store(seat, b, Source.RECEIVED)) is None])]
            if seat == state.active:
                waiting.insert(0, (Source.FACE_UP, list(dict.fromkeys(state.face_up))))
            for source, candidates in waiting:
                if candidates:
                    found.append(LegalMove("store", {"player": seat, "source": source.value},
                                           f"Put a {'turned-over' if source is Source.FACE_UP else 'received'} "
                                           "card on the general store", {"bean": Choice(tuple(candidates))}))
        return found

    # --- trading stored beans -------------------------------------------------------------------

    def check_give(self, state: GameState, move: GiveStored) -> RuleViolation | None:
        if state.phase is not Phase.TRADE:
            return RuleViolation("phase2.trade", "Trading happens in phase 2, after the cards are turned over.")
        if move.partner == move.player:
            return RuleViolation("trade.partner", "A trade needs a partner other than the active player.")
        if state.active not in (move.player, move.partner):
            return RuleViolation("trade.with-active", f"Only the active player ({state.names[state.active]}) trades; "
                                                      "other players cannot trade with each other.")  # fmt: skip
        if move.bean not in stores(state).stored[move.player]:
            return RuleViolation("store.missing", f"{state.names[move.player]}'s general store holds no "
                                                  f"{bean_name(move.bean)}.")  # fmt: skip
        return None

    def apply_give(self, state: GameState, move: GiveStored) -> None:
        pile = stores(state)
        pile.stored[move.player].remove(move.bean)
        state.players[move.partner].received.append(move.bean)
        pile.from_store[move.partner].append(move.bean)

    def give_options(self, state: GameState, seat: int) -> list[LegalMove]:
        held = stores(state).stored[seat]
        if state.phase is not Phase.TRADE or not held:
            return []
        partners = [p for p in range(len(state.players)) if p != seat] if seat == state.active else [state.active]
        beans = Choice(tuple(dict.fromkeys(held)))
        return [LegalMove("give-stored", {"player": seat, "partner": p},
                          f"Trade or give a stored bean to {state.names[p]}", {"bean": beans}) for p in partners]

    # --- keeping track -----------------------------------------------------------------------

    def after(self, state: GameState, move: Any) -> None:
        if isinstance(move, Plant) and move.source is Source.RECEIVED:
            came = stores(state).from_store[move.player]
            if came.count(move.bean) > state.players[move.player].received.count(move.bean):
                came.remove(move.bean)

    def cards_held(self, state: GameState) -> int:
        return sum(len(pile) for pile in stores(state).stored)

    def notes(self, state: GameState) -> list[str]:
        return [f"{state.names[s]}'s general store holds " + ", ".join(bean_name(b) for b in held)
                for s, held in enumerate(stores(state).stored) if held]  # fmt: skip

    def public(self, state: GameState) -> dict[str, Any]:
        return {"stored": [list(held) for held in stores(state).stored]}


@wording("store")
def _store(e: dict[str, Any], who: Names) -> str:
    where = {"hand": "from the hand", "face-up": "turned over", "received": "received"}.get(e.get("source", "hand"), "")
    return f"{who(e['player'])} put a {bean_name(e['bean'])} ({where}) on the general store"


@wording("give-stored")
def _give_stored(e: dict[str, Any], who: Names) -> str:
    return f"{who(e['player'])} gave a {bean_name(e['bean'])} from the general store to {who(e['partner'])}"
