"""High Bohn's buildings (book 004): buying them, the removal rules, the final buying round, the score.

A building is paid only with thalers of its bean (the bean on the coin card's other side);
the thalers go to the discard pile, so they come back with the next reshuffle. A player owns
at most one building of each type, bought at any time, in any order of price. With three
players a type is closed once two players own one (the other cards leave the game), with
four once three do; with five all four cards may be bought.

When the game ends every field is harvested at once (as in the basic game; the jail's and the
distillery's texts speak of harvests at game end), so that the last harvest can pay for
buildings. Then, from the player whose turn it was, clockwise, each player may buy more
buildings (``build``) and says when done (``end-building``); a player who can pay for none
is passed over. The score adds each building's price and a bonus for four or more buildings.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.rules import effects
from companion.rules.buildings import (
    BONUS_GAME_END,
    BONUS_SUMMARY_CARD,
    BUILDINGS,
    COGNAC_BUILDING,
    PRICES,
    bonus,
    card_name,
)
from companion.rules.card_data import to_json
from companion.rules.high_bohn import BONUS_SUMMARY, COGNAC, HIGH_BOHN
from companion.rules.legal import LegalMove
from companion.rules.moves import MAX_BEAN_ID, register_move
from companion.rules.parts import MoveRule, Part, register_module
from companion.rules.violations import RuleViolation
from companion.rules.wording import Names, bean_name, wording

if TYPE_CHECKING:
    from companion.rules.rulesets import Rules
    from companion.rules.state import GameState


def _building_id(kind: str, value: Any) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= MAX_BEAN_ID:
        raise ValueError(f"'building' of a {kind} event must be a building id")
    return value


@register_move("build", {"building": _building_id})
@dataclass(frozen=True, slots=True)
class Build:
    """Buy the building card ``building`` priced ``price``, paid with that many thalers of its bean."""

    player: int
    building: str
    price: int


@register_move("end-building")
@dataclass(frozen=True, slots=True)
class EndBuilding:
    """The final buying round: this player buys no more buildings."""

    player: int


@dataclass(slots=True)
class Town:
    """Who owns which building card, what is left to buy, and the final buying round."""

    owned: list[dict[str, int]]
    """Per seat: building type -> the price of the card owned."""
    left: dict[str, list[int]]
    """Per building type in the game: the prices still to be bought."""
    stew: list[list[str]]
    """Per seat: the thalers of bean stews, kept under the saloon (not spendable; they count at the end)."""
    distilled: list[list[str]]
    """Per seat: the thalers the 3 Distillery took from stews, kept under it until the end."""
    last_round: list[int] | None = None
    """Once the game has ended: the seats still to have their chance to buy, next first."""


def town(state: GameState) -> Town:
    found: Town = state.parts["buildings"]
    return found


def owns(state: GameState, seat: int, building: str, price: int | None = None) -> bool:
    """Whether ``seat`` owns a building of the type (the card priced ``price``, if given)."""
    owned = town(state).owned[seat].get(building)
    return owned is not None and price in (None, owned)


def owned_price(state: GameState, seat: int, building: str) -> int | None:
    """The price of ``seat``'s building of this type, None if it owns none."""
    return town(state).owned[seat].get(building)


def owner_of(state: GameState, building: str, price: int) -> int | None:
    """The seat that owns this building card, if any."""
    return next((seat for seat, owned in enumerate(town(state).owned) if owned.get(building) == price), None)


def pay(state: GameState, seat: int, coins: list[str]) -> None:
    """Spend coins (the topmost copy of each) onto the discard pile."""
    pile = state.players[seat].coins
    for coin in reversed(coins):
        del pile[len(pile) - 1 - pile[::-1].index(coin)]
    state.discard.extend(coins)


def affordable(state: GameState, seat: int) -> list[tuple[str, int]]:
    """The building cards ``seat`` may buy now with its thalers."""
    t, coins = town(state), state.players[seat].coins
    return [(b, p) for b, prices in t.left.items() if b not in t.owned[seat]
            for p in prices if p <= coins.count(BUILDINGS[b].bean)]  # fmt: skip


@register_module
class Buildings(Part):
    name = "buildings"
    title = "High Bohn: the buildings"
    book = "004_e13a5e0396bac44f.txt, High Bohn: buying building cards, game end"
    about = (
        "Buy one building of each type with thalers of its bean; buildings score their price, and four or more a bonus."
    )

    def allows(self, rules: Rules) -> str | None:
        if rules.edition.name != HIGH_BOHN:
            return "the buildings are played with High Bohn"
        others = [m.title for m in rules.modules if m.name not in (*rules.edition.always_modules, COGNAC)]
        return f"High Bohn is played with the basic game only, not with {others[0]}" if others else None

    def setup(self, state: GameState) -> None:
        kinds = [b for b in BUILDINGS if b != COGNAC_BUILDING or COGNAC in state.deck_counts]
        seats = range(len(state.players))
        state.parts[self.name] = Town([{} for _ in seats], {b: list(PRICES) for b in kinds},
                                      [[] for _ in seats], [[] for _ in seats])  # fmt: skip

    def move_rules(self) -> Mapping[type, MoveRule]:
        return {
            Build: MoveRule(self.check_build, self.apply_build, self.build_options),
            EndBuilding: MoveRule(self.check_end, self.apply_end, self.end_options),
        }

    # --- buying ---------------------------------------------------------------------

    def check_build(self, state: GameState, move: Build) -> RuleViolation | None:
        t, who = town(state), state.names[move.player]
        if move.building not in t.left:
            return RuleViolation("building.not-in-game", f"There is no building {move.building!r} in this game; "
                                                         f"buildings: {', '.join(t.left)}.")  # fmt: skip
        if move.price not in PRICES:
            return RuleViolation("building.price", "Each building type has four cards, priced 1 to 4 thalers.")
        if bad := self._final_round_turn(state, move.player):
            return bad
        kind, card = BUILDINGS[move.building], card_name(move.building, move.price)
        starting = card_name(move.building, move.price, starts=True)
        if move.building in t.owned[move.player]:
            return RuleViolation(
                "building.one-of-each",
                f"{who} already owns "
                f"{card_name(move.building, t.owned[move.player][kind.id])}: "
                f"a player may buy only one building of each type.",
            )
        if move.price not in t.left[move.building]:
            owner = next((s for s, o in enumerate(t.owned) if o.get(move.building) == move.price), None)
            if owner is not None:
                return RuleViolation("building.taken", f"{state.names[owner]} already owns {card} (when several "
                                                       "want one card at once, the active player goes first, then "
                                                       "clockwise: undo and enter it again if the table settled it "
                                                       "so).")  # fmt: skip
            return RuleViolation("building.removed", f"{starting} has left the game: with "
                                                     f"{len(state.players)} players, once {len(state.players) - 1} "
                                                     f"players own a {kind.name}, the other {kind.name} cards are "
                                                     "removed.")  # fmt: skip
        have = state.players[move.player].coins.count(kind.bean)
        if have < move.price:
            return RuleViolation("building.thalers", f"{starting} costs {move.price} thalers with a "
                                                     f"{bean_name(kind.bean)} on the other side; {who} has {have}: "
                                                     "a building is paid only with thalers of its bean.")  # fmt: skip
        return None

    def apply_build(self, state: GameState, move: Build) -> None:
        t = town(state)
        pay(state, move.player, [BUILDINGS[move.building].bean] * move.price)
        t.owned[move.player][move.building] = move.price
        t.left[move.building].remove(move.price)
        if sum(move.building in o for o in t.owned) >= len(state.players) - 1:
            t.left[move.building] = []  # the other cards of this type leave the game
        self._next_in_round(state)

    def build_options(self, state: GameState, seat: int) -> list[LegalMove]:
        if self._final_round_turn(state, seat) is not None:
            return []
        return [LegalMove("build", {"player": seat, "building": b, "price": p},
                          f"Build {card_name(b, p)} ({p} {bean_name(BUILDINGS[b].bean)} thalers)")
                for b, p in affordable(state, seat)]  # fmt: skip

    # --- the final buying round ---------------------------------------------------------

    def delay_end(self, state: GameState) -> bool:
        t = town(state)
        if t.last_round is None:
            for seat, player in enumerate(state.players):
                for index, bean_field in enumerate(player.fields):
                    if bean_field.count:
                        effects.harvest_field(state, seat, index)
            n = len(state.players)
            t.last_round = [(state.active + i) % n for i in range(n)]
            self._pass_over(state)
        return bool(t.last_round)

    def _pass_over(self, state: GameState) -> None:
        """Leave out of the final round the next players who can pay for no building."""
        t = town(state)
        while t.last_round and not affordable(state, t.last_round[0]):
            t.last_round.pop(0)

    def _next_in_round(self, state: GameState) -> None:
        if town(state).last_round is None:
            return
        self._pass_over(state)
        if not town(state).last_round:
            effects.finish_game(state)

    def _final_round_turn(self, state: GameState, seat: int) -> RuleViolation | None:
        waiting = town(state).last_round
        if waiting is None or waiting[:1] == [seat]:
            return None
        nxt = f"it is {state.names[waiting[0]]}'s chance" if waiting else "it is over"
        return RuleViolation("building.final-round", f"After the game ends the players buy buildings in turn "
                                                     f"from the player whose turn it was: {nxt}.")  # fmt: skip

    def check_end(self, state: GameState, move: EndBuilding) -> RuleViolation | None:
        if town(state).last_round is None:
            return RuleViolation("building.not-ended", "The final buying round starts when the game ends.")
        return self._final_round_turn(state, move.player)

    def apply_end(self, state: GameState, move: EndBuilding) -> None:
        waiting = town(state).last_round
        assert waiting
        waiting.pop(0)
        self._next_in_round(state)

    def end_options(self, state: GameState, seat: int) -> list[LegalMove]:
        if town(state).last_round is None or self._final_round_turn(state, seat) is not None:
            return []
        return [LegalMove("end-building", {"player": seat}, "Buy no more buildings")]

    def veto(self, state: GameState, move: Any) -> RuleViolation | None:
        if town(state).last_round and not isinstance(move, (Build, EndBuilding)):
            return RuleViolation("building.final-round", "The game is over: the players buy their last buildings "
                                                         "in turn, then the game is scored.")  # fmt: skip
        return None

    def to_act(self, state: GameState, seats: tuple[int, ...]) -> tuple[int, ...]:
        waiting = town(state).last_round
        return (waiting[0],) if waiting else seats

    def phase_text(self, state: GameState) -> str | None:
        return "The end · buying the last buildings" if town(state).last_round else None

    # --- what everyone sees, and the score ------------------------------------------------

    def notes(self, state: GameState) -> list[str]:
        t = town(state)
        found = [f"{state.names[s]}'s thalers: " + ", ".join(f"{n} {bean_name(bean)}" for bean, n in
                 sorted(Counter(p.coins).items(), key=lambda item: (-item[1], item[0])))
                 for s, p in enumerate(state.players) if p.coins]  # fmt: skip
        found += [f"{state.names[s]} owns " + ", ".join(card_name(b, p) for b, p in o.items())
                  for s, o in enumerate(t.owned) if o]  # fmt: skip
        if t.last_round:
            found.append(f"The game is over: {state.names[t.last_round[0]]} may buy buildings before the scoring")
        return found

    def public(self, state: GameState) -> dict[str, Any]:
        t = town(state)
        return {
            "buildings": {
                "kinds": {b: {"name": BUILDINGS[b].name, "bean": BUILDINGS[b].bean} for b in BUILDINGS
                          if b != COGNAC_BUILDING or COGNAC in state.deck_counts},
                "owned": [dict(o) for o in t.owned],
                "left": {b: list(p) for b, p in t.left.items()},
                "final_round": list(t.last_round) if t.last_round is not None else None,
                "stew": [list(pile) for pile in t.stew],
                "distilled": [list(pile) for pile in t.distilled],
                "card_data": to_json(state.rules.cards),
            }
        }

    def score(self, state: GameState, seat: int) -> dict[str, int]:
        t = town(state)
        owned = t.owned[seat]
        table = BONUS_SUMMARY_CARD if state.rules.options["building_bonus"] == BONUS_SUMMARY else BONUS_GAME_END
        found = {"stew": len(t.stew[seat])}
        if COGNAC_BUILDING in t.left:
            found["distillery"] = len(t.distilled[seat])
        return {**found, "buildings": sum(owned.values()), "bonus": bonus(table, len(owned))}

    def cards_held(self, state: GameState) -> int:
        t = town(state)
        return sum(len(pile) for piles in (t.stew, t.distilled) for pile in piles)


@wording("build")
def _build(e: dict[str, Any], who: Names) -> str:
    building, price = e.get("building"), e.get("price")
    if building not in BUILDINGS or not isinstance(price, int):
        return f"{who(e['player'])} built {building}"
    return (
        f"{who(e['player'])} built {card_name(building, price)} with {price} "
        f"{bean_name(BUILDINGS[building].bean)} thalers"
    )


@wording("end-building")
def _end_building(e: dict[str, Any], who: Names) -> str:
    return f"{who(e['player'])} buys no more buildings"
