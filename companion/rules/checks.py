"""Is a move legal under the standard turn? Each check returns None or the rule it breaks.

Checks never change the state. Rule ids are stable; the sentences quote the rule books.
Other turn structures and modules reuse these checks or replace them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from companion.cards import CATALOGUE
from companion.rules.drawing import TakePlan
from companion.rules.editions import PROTECTION_LENIENT
from companion.rules.hidden import SinceReshuffle, take
from companion.rules.moves import BuyField, Draw, EndTrading, Harvest, Move, Plant, Source, Trade, TurnOver
from companion.rules.phases import Phase
from companion.rules.violations import RuleViolation

if TYPE_CHECKING:
    from companion.rules.state import GameState, PlayerState


def check_common(state: GameState, move: Move) -> RuleViolation | None:
    """What every move needs: a game still running and players who sit at the table."""
    if state.game_over:
        return RuleViolation("game.over", "The game is over: no more moves.")
    for seat in (move.player, getattr(move, "partner", move.player)):
        if not 0 <= seat < len(state.players):
            return RuleViolation("record.player", f"There is no player in seat {seat}.")
    return None


def bean_name(bean: str) -> str:
    """A bean's name for messages, plural-neutral ("Blue Bean")."""
    return CATALOGUE[bean].name if bean in CATALOGUE else repr(bean)


def unknown_bean(state: GameState, beans: Iterable[str]) -> RuleViolation | None:
    for bean in beans:
        if bean not in CATALOGUE:
            return RuleViolation("bean.unknown", f"{bean!r} is not a bean; known beans: {', '.join(CATALOGUE)}.")
        if bean not in state.deck_counts:
            return RuleViolation(
                "bean.not-in-game",
                f"{bean_name(bean)}s are not in this game ({state.rules.name} with {len(state.players)} players).",
            )
    return None


def impossible(state: GameState, beans: Counter[str]) -> RuleViolation | None:
    """Cards revealed from hidden hands must be among the cards nobody has seen yet."""
    for bean, count in beans.items():
        if count > state.unseen[bean]:
            return _cannot_be(state, bean)
    if state.hidden is not None and (odd := state.hidden.impossible(state.unseen - beans)) is not None:
        return _since_reshuffle(state.hidden, odd)
    return None


def _cannot_be(state: GameState, bean: str) -> RuleViolation:
    total, left = state.deck_counts[bean], max(0, state.unseen[bean])
    return RuleViolation("card.impossible", f"That cannot be: the game has {total} {bean_name(bean)}s and only "
                                            f"{left} {'is' if left == 1 else 'are'} still unseen.")  # fmt: skip


def _since_reshuffle(hidden: SinceReshuffle, bean: str) -> RuleViolation:
    back = hidden.pile[bean]
    went = f"only {back} {bean_name(bean)}{'' if back == 1 else 's'}" if back else f"no {bean_name(bean)}"
    return RuleViolation("card.impossible", f"That cannot be: {went} went back into the draw pile when the discard "
                                            "pile was reshuffled, and the cards seen since leave none to be "
                                            "this card.")  # fmt: skip


def take_problem(state: GameState, plan: TakePlan, beans: tuple[str, ...]) -> RuleViolation | None:
    """Cards turned over from a hidden draw pile must be cards it can hold."""
    hidden, unseen, bean = take(state.hidden, state.unseen, plan.piles, beans)
    if bean is None:
        return None
    if hidden is None or unseen[bean] < 0:
        return _cannot_be(state, bean)
    return _since_reshuffle(hidden, bean)


def held_in_hand(player: PlayerState, beans: tuple[str, ...]) -> RuleViolation | None:
    """Cards taken from ``player``'s hand: it must hold that many, and these beans if it is known."""
    if player.hand.size < len(beans):
        return RuleViolation(
            "hand.too-few", f"{player.name} has only {player.hand.size} card(s) in hand, not {len(beans)}."
        )
    wanted = Counter(beans)
    if player.hand.known:
        for bean, count in wanted.items():
            if player.hand.count(bean) < count:
                return RuleViolation("hand.not-held", f"{player.name} has no {bean_name(bean)} in hand to give.")
    return None


def active_only(state: GameState, move: Any, doing: str) -> RuleViolation | None:
    if move.player != state.active:
        return RuleViolation(
            "turn.out-of-turn",
            f"It is {state.names[state.active]}'s turn: only the active player {doing}.",
        )
    return None


def check_plant(state: GameState, move: Plant) -> RuleViolation | None:
    if bad := unknown_bean(state, [move.bean]):
        return bad
    if not CATALOGUE[move.bean].plantable:
        return RuleViolation("bean.not-plantable", f"{bean_name(move.bean)}s are never planted in a field.")
    player = state.players[move.player]
    return check_plant_source(state, player, move) or check_field(state, move)


def check_field(state: GameState, move: Plant) -> RuleViolation | None:
    """The field a card is planted in: there, and holding no other bean."""
    player = state.players[move.player]
    if move.field is None:
        return RuleViolation(
            "field.none-free",
            f"{player.name} has no field for a {bean_name(move.bean)}: harvest a field first "
            "(each field holds one kind of bean).",
        )
    if not 0 <= move.field < len(player.fields):
        return RuleViolation("field.missing", f"{player.name} has no field {move.field + 1}.")
    field = player.fields[move.field]
    if not state.rules.accepts(state, move.player, move.field, move.bean):
        return RuleViolation(
            "field.one-kind",
            f"Field {move.field + 1} of {player.name} holds {bean_name(field.bean or move.bean)}s: only one kind of "
            "bean may grow in a field. Harvest it first or plant elsewhere.",
        )
    return None


def check_plant_source(state: GameState, player: PlayerState, move: Plant) -> RuleViolation | None:
    """Whether the card planted is there to plant, now, by this player."""
    if move.source is Source.OFFER:
        return RuleViolation("plant.no-offer", "Only the Duel leaves cards as an offer to the opponent.")
    if move.source is Source.HAND:
        if bad := active_only(state, move, "plants from hand"):
            return bad
        if state.phase is not Phase.PLANT:
            return RuleViolation("phase1.hand-only", "Cards from the hand are planted only in phase 1.")
        limit = state.rules.hand_plants(state, move.player)
        if state.plants_this_turn >= limit:
            return RuleViolation("phase1.third-plant", _plant_limit_text(limit))
        if player.hand.size == 0:
            return RuleViolation("hand.empty", f"{player.name} has no cards in hand.")
        front = player.hand.front()
        if front is not None and front != move.bean:
            return RuleViolation(
                "hand.order",
                f"{player.name}'s front card is a {bean_name(front)}, not a {bean_name(move.bean)}: "
                "cards are planted in the order of the hand, which never changes.",
            )
        return None if player.hand.known else impossible(state, Counter([move.bean]))
    if state.phase is not Phase.PLANT_TRADED:
        return RuleViolation(
            "phase3.after-trading", "Turned-over and traded cards are planted in phase 3, once trading has ended."
        )
    if move.source is Source.FACE_UP:
        if bad := active_only(state, move, "plants the turned-over cards"):
            return bad
        if move.bean not in state.face_up:
            return RuleViolation("face-up.missing", f"No {bean_name(move.bean)} is left among the turned-over cards.")
    elif move.bean not in player.received:
        return RuleViolation("received.missing", f"{player.name} has received no {bean_name(move.bean)} to plant.")
    return None


def _plant_limit_text(limit: int) -> str:
    if limit == 2:
        return "You may plant at most two cards from your hand: never a third."
    if limit == 1:
        return "Only one card may be planted from the hand this turn."
    return f"You may plant at most {limit} cards from your hand this turn."


def check_turn_over(state: GameState, move: TurnOver) -> RuleViolation | None:
    if bad := active_only(state, move, "turns over cards"):
        return bad
    if state.phase is not Phase.PLANT:
        return RuleViolation("phase2.once", "Cards are turned over once a turn, at the start of phase 2.")
    player = state.players[move.player]
    if state.plants_this_turn == 0 and player.hand.size > 0:
        return RuleViolation(
            "phase1.must-plant", f"{player.name} must first plant the first card in hand (phase 1)."
        )
    if bad := unknown_bean(state, move.beans):
        return bad
    plan = state.plan_take(state.rules.turn_over_count())
    if len(move.beans) != len(plan.cards):
        return RuleViolation(
            "phase2.count",
            f"{len(plan.cards)} card(s) must be turned over now, not {len(move.beans)}"
            + (" (the draw pile runs out for the last time)." if plan.last_pass else "."),
        )
    if state.known:
        if list(move.beans) != plan.cards:
            shown = ", ".join(bean_name(b) for b in plan.cards if b)
            return RuleViolation("card.wrong", f"The top of the draw pile is {shown}, not what was recorded.")
        return None
    return take_problem(state, plan, move.beans)


def check_trade(state: GameState, move: Trade) -> RuleViolation | None:
    if move.player != state.active:
        return RuleViolation(
            "trade.with-active",
            f"Only the active player ({state.names[state.active]}) trades; other players cannot trade "
            "with each other.",
        )
    if move.partner == move.player:
        return RuleViolation("trade.partner", "A trade needs a partner other than the active player.")
    if state.phase is not Phase.TRADE:
        return RuleViolation("phase2.trade", "Trading happens in phase 2, after the cards are turned over.")
    if not (move.give_face_up or move.give_hand or move.receive):
        return RuleViolation("trade.empty", "A trade or gift moves at least one card.")
    if bad := unknown_bean(state, move.give_face_up + move.give_hand + move.receive):
        return bad
    missing = Counter(move.give_face_up) - Counter(state.face_up)
    if missing:
        bean = next(iter(missing))
        return RuleViolation(
            "trade.face-up",
            f"No {bean_name(bean)} is left among the turned-over cards; cards received in a trade "
            "cannot be traded on, and cards in fields are never traded.",
        )
    active, partner = state.players[move.player], state.players[move.partner]
    if bad := held_in_hand(active, move.give_hand) or held_in_hand(partner, move.receive):
        return bad
    if bad := held_at(active, move.give_hand, move.give_hand_at) or held_at(partner, move.receive, move.receive_at):
        return bad
    if not (active.hand.known and partner.hand.known):
        return impossible(state, Counter(move.give_hand + move.receive))
    return None


def held_at(player: PlayerState, beans: tuple[str, ...], places: tuple[int, ...]) -> RuleViolation | None:
    """Places named for the cards taken from a hand: one per card, different, within the hand, that bean there."""
    if not places:
        return None
    if len(places) != len(beans) or len(set(places)) != len(places):
        return RuleViolation("hand.places", "Name one different place in the hand for each card taken from it.")
    for place, bean in zip(places, beans):
        if place >= player.hand.size:
            return RuleViolation("hand.places", f"{player.name} has no card at place {place + 1} of the hand.")
        if player.hand.cards is not None and player.hand.cards[place] != bean:
            return RuleViolation("hand.not-held", f"{player.name}'s card at place {place + 1} is a "
                                                  f"{bean_name(player.hand.cards[place])}, not a {bean_name(bean)}.")
    return None


def check_end_trading(state: GameState, move: EndTrading) -> RuleViolation | None:
    if bad := active_only(state, move, "ends trading"):
        return bad
    if state.phase is not Phase.TRADE:
        return RuleViolation("phase2.not-trading", "Trading has not started: turn over cards first (phase 2).")
    return None


def check_harvest(state: GameState, move: Harvest) -> RuleViolation | None:
    player = state.players[move.player]
    if not 0 <= move.field < len(player.fields):
        return RuleViolation("field.missing", f"{player.name} has no field {move.field + 1}.")
    if player.fields[move.field].count == 0:
        return RuleViolation("harvest.empty", f"Field {move.field + 1} of {player.name} is empty.")
    return protection_violation(state, player, move.field)


def protection_violation(state: GameState, player: PlayerState, field: int) -> RuleViolation | None:
    """The bean protection rule, in the reading the ruleset uses."""
    counts = [f.count for f in player.fields]
    if counts[field] != 1:
        return None
    others = counts[:field] + counts[field + 1 :]
    if state.rules.protection == PROTECTION_LENIENT:
        if any(c > 1 for c in others):
            return RuleViolation(
                "harvest.protection",
                f"Bean protection rule: field {field + 1} holds a single card and cannot be harvested "
                "while another field holds more than one.",
            )
    elif any(c != 1 for c in others):
        return RuleViolation(
            "harvest.protection",
            f"Bean protection rule: field {field + 1} holds a single card, which may be harvested only "
            "when every field holds just one card.",
        )
    return None


def check_buy_field(state: GameState, move: BuyField) -> RuleViolation | None:
    player = state.players[move.player]
    price = state.rules.third_field_price()
    if price is None:
        reason = (
            "with three players everyone starts with a third field and may not buy another"
            if len(state.players) == 3 and state.rules.starting_fields() == 3
            else "this edition has no third-field purchase"
        )
        return RuleViolation("field.no-purchase", f"A third field cannot be bought: {reason}.")
    if player.bought_field or len(player.fields) >= 3:
        return RuleViolation("field.bought-once", f"{player.name} already has a third field.")
    if len(player.coins) < price:
        return RuleViolation(
            "field.price", f"A third field costs {price} coins; {player.name} has {len(player.coins)}."
        )
    if move.coins and len(move.coins) != price:
        return RuleViolation("field.price", f"A third field costs {price} coins, not {len(move.coins)}.")
    if missing := Counter(move.coins) - Counter(player.coins):
        return RuleViolation("field.coins", f"{player.name} has no {bean_name(next(iter(missing)))} coin to pay with.")
    return None


def check_draw(state: GameState, move: Draw) -> RuleViolation | None:
    if state.phase in (Phase.PLANT_TRADED, Phase.DRAW):
        waiting = [(state.names[state.active], state.face_up)] + [(p.name, p.received) for p in state.players]
        for who, cards in waiting:
            if cards:
                return RuleViolation(
                    "phase3.plant-all",
                    f"Every turned-over and received card must be planted before drawing: {who} still has "
                    f"a {bean_name(cards[0])} to plant.",
                )
    if state.phase is not Phase.DRAW or not state.draws_due:
        return RuleViolation("phase4.too-early", "Cards are drawn in phase 4, after trading and planting.")
    seat, expected = state.draws_due[0]
    if move.player != seat:
        return RuleViolation("phase4.order", f"It is {state.names[seat]}'s turn to draw.")
    if move.count is not None and move.count != expected:
        return RuleViolation("phase4.count", f"{state.names[seat]} draws {expected} cards now, not {move.count}.")
    return None
