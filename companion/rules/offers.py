"""The standard turn's legal moves: what each seat may do now, as controls are drawn from it."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from companion.cards import CATALOGUE
from companion.rules.legal import Choice, LegalMove
from companion.rules.moves import BuyField, Harvest, Source
from companion.rules.phases import Phase
from companion.rules.wording import bean_name, cards

if TYPE_CHECKING:
    from companion.rules.state import GameState

_WHERE = {Source.FACE_UP: "turned-over", Source.RECEIVED: "received"}


def unseen_beans(state: GameState, extra: Counter[str] | None = None) -> tuple[str, ...]:
    """Beans that a hidden card could still be, in deck order."""
    pool = state.unseen + (extra or Counter())
    return tuple(b for b in state.deck_counts if pool[b] > 0)


def field_choice(state: GameState, seat: int, bean: str | None) -> Choice:
    """The fields ``seat`` could plant ``bean`` in (every field when the bean is not known yet)."""
    fields = range(len(state.players[seat].fields))
    return Choice(tuple(i for i in fields if bean is None or state.rules.accepts(state, seat, i, bean)))


def plant_options(state: GameState, seat: int) -> list[LegalMove]:
    player = state.players[seat]
    found = []
    if state.phase is Phase.PLANT and seat == state.active and player.hand.size > 0 \
            and state.plants_this_turn < state.rules.hand_plants(state, seat):  # fmt: skip
        front = player.hand.front()
        if front is not None:
            if CATALOGUE[front].plantable and (where := field_choice(state, seat, front)).options:
                found.append(LegalMove("plant", {"player": seat, "bean": front, "source": "hand"},
                                       f"Plant the {bean_name(front)} from the front of the hand",
                                       {"field": where}))  # fmt: skip
        else:
            beans = tuple(b for b in unseen_beans(state) if CATALOGUE[b].plantable)
            found.append(LegalMove("plant", {"player": seat, "source": "hand"}, "Plant the front card of the hand",
                                   {"bean": Choice(beans), "field": field_choice(state, seat, None)}))
    if state.phase is Phase.PLANT_TRADED:
        waiting = [(Source.RECEIVED, player.received)]
        if seat == state.active:
            waiting.insert(0, (Source.FACE_UP, state.face_up))
        for source, beans_waiting in waiting:
            for bean in dict.fromkeys(beans_waiting):
                if (where := field_choice(state, seat, bean)).options:
                    found.append(LegalMove("plant", {"player": seat, "bean": bean, "source": source.value},
                                           f"Plant the {_WHERE[source]} {bean_name(bean)}", {"field": where}))
    return found


def turn_over_options(state: GameState, seat: int) -> list[LegalMove]:
    player = state.players[seat]
    if seat != state.active or state.phase is not Phase.PLANT:
        return []
    if state.plants_this_turn == 0 and player.hand.size > 0:
        return []
    plan = state.plan_take(state.rules.turn_over_count())
    text = f"Turn over {cards(len(plan.cards))}"
    if state.known:
        return [LegalMove("turn-over", {"player": seat, "beans": list(plan.cards)}, text)]
    beans = unseen_beans(state, Counter(plan.reshuffled))
    return [LegalMove("turn-over", {"player": seat}, text, {"beans": Choice(beans, True, len(plan.cards))})]


def trade_options(state: GameState, seat: int) -> list[LegalMove]:
    if seat != state.active or state.phase is not Phase.TRADE:
        return []
    found = []
    own = state.players[seat].hand
    for partner, other in enumerate(state.players):
        if partner == seat:
            continue
        choose = {
            "give_face_up": Choice(tuple(dict.fromkeys(state.face_up)), True),
            "give_hand": Choice(_hand_beans(state, own.cards), True),
            "receive": Choice(_hand_beans(state, other.hand.cards), True),
        }
        found.append(LegalMove("trade", {"player": seat, "partner": partner},
                               f"Trade or give with {other.name}", choose))  # fmt: skip
    return found


def _hand_beans(state: GameState, hand: list[str] | None) -> tuple[str, ...]:
    return tuple(dict.fromkeys(hand)) if hand is not None else unseen_beans(state)


def end_trading_options(state: GameState, seat: int) -> list[LegalMove]:
    if seat != state.active or state.phase is not Phase.TRADE:
        return []
    return [LegalMove("end-trading", {"player": seat}, "End trading")]


def harvest_options(state: GameState, seat: int) -> list[LegalMove]:
    fields = state.players[seat].fields
    return [
        LegalMove("harvest", {"player": seat, "field": i},
                  f"Harvest field {i + 1} ({f.count} {bean_name(f.bean)}{'s' if f.count != 1 else ''}, "
                  f"{state.rules.harvest_value(state, seat, i)} coins)")
        for i, f in enumerate(fields)
        if f.count and state.check(Harvest(seat, i)) is None
    ]  # fmt: skip


def buy_field_options(state: GameState, seat: int) -> list[LegalMove]:
    if state.check(BuyField(seat)) is not None:
        return []
    return [LegalMove("buy-field", {"player": seat}, f"Buy a third field for {state.rules.third_field_price()} coins")]


def draw_options(state: GameState, seat: int) -> list[LegalMove]:
    if state.phase is not Phase.DRAW or not state.draws_due or state.draws_due[0][0] != seat:
        return []
    count = state.draws_due[0][1]
    return [LegalMove("draw", {"player": seat, "count": count}, f"Draw {cards(count)}")]
