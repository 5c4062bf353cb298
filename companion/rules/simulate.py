"""Random legal games of the standard turn with a known deck: a fast player for tests and benchmarks.

:mod:`companion.rules.random_play` plays any rules; this one knows the base game's turn and is
several times faster, so the base game's benchmark and the web tests use it.
"""

from __future__ import annotations

import random

from companion.rules.moves import BuyField, Draw, EndTrading, Harvest, Plant, Source, Trade, TurnOver
from companion.rules.phases import Phase
from companion.rules.random_play import step
from companion.rules.setup import KnownDeck, Setup
from companion.rules.state import GameState

NAMES = ("Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus")


def random_setup(ruleset: str, players: int, seed: int, options: dict[str, str] | None = None) -> Setup:
    """A known-deck set-up with a random start player."""
    rng = random.Random(seed)
    return Setup(ruleset, NAMES[:players], rng.randrange(players), dict(options or {}), KnownDeck(seed))


def random_game(setup: Setup, seed: int = 0) -> GameState:
    """Play a whole game of random legal moves from ``setup`` (which needs a known deck)."""
    rng = random.Random(seed)
    state = GameState(setup)
    while not state.game_over:
        if _end_waits(state):
            step(state, rng)  # moves a part asks for once the game has ended (High Bohn's last buildings)
        else:
            _play_turn(state, rng)
    return state


def _end_waits(state: GameState) -> bool:
    """The game has ended but waits for moves of a part before it is over."""
    ended = state.phase is Phase.DRAW or (state.phase is Phase.PLANT_TRADED and not state.pending_cards())
    return state.last_pass and ended


def _play_turn(state: GameState, rng: random.Random) -> None:
    seat = state.active
    player = state.players[seat]
    _maybe_harvest_or_buy(state, rng)
    for planted in range(state.rules.hand_plants(state, seat)):
        if player.hand.size == 0 or (planted and rng.random() < 0.5):
            break
        _plant(state, rng, seat, player.hand.front(), Source.HAND)  # type: ignore[arg-type]
    plan = state.plan_take(state.rules.turn_over_count())
    state.push(TurnOver(seat, tuple(plan.cards)))  # type: ignore[arg-type]
    for _ in range(rng.randrange(3)):
        _maybe_trade(state, rng)
    state.push(EndTrading(seat))
    while state.face_up and not state.game_over:
        _plant(state, rng, seat, state.face_up[0], Source.FACE_UP)
    for other, p in enumerate(state.players):
        while p.received and not state.game_over:
            _plant(state, rng, other, p.received[0], Source.RECEIVED)
    while not state.game_over and state.draws_due:
        state.push(Draw(state.draws_due[0][0]))


def _plant(state: GameState, rng: random.Random, seat: int, bean: str, source: Source) -> None:
    move = state.resolve(Plant(seat, bean, source))
    if getattr(move, "field", None) is None:
        legal = [i for i in range(len(state.players[seat].fields)) if state.is_legal(Harvest(seat, i))]
        state.push(Harvest(seat, rng.choice(legal)))
    state.push(Plant(seat, bean, source))


def _maybe_harvest_or_buy(state: GameState, rng: random.Random) -> None:
    seat = rng.randrange(len(state.players))
    if rng.random() < 0.15:
        fields = state.players[seat].fields
        legal = [i for i in range(len(fields)) if state.is_legal(Harvest(seat, i))]
        if legal:
            state.push(Harvest(seat, rng.choice(legal)))
    if rng.random() < 0.3 and state.is_legal(BuyField(seat)):
        state.push(BuyField(seat))


def _maybe_trade(state: GameState, rng: random.Random) -> None:
    seat = state.active
    partner = rng.choice([s for s in range(len(state.players)) if s != seat])
    own, theirs = state.players[seat].hand.cards or [], state.players[partner].hand.cards or []
    give_face_up = (rng.choice(state.face_up),) if state.face_up and rng.random() < 0.7 else ()
    give_hand = (rng.choice(own),) if own and rng.random() < 0.3 else ()
    receive = (rng.choice(theirs),) if theirs and rng.random() < 0.5 else ()
    if give_face_up or give_hand or receive:
        state.push(Trade(seat, partner, give_face_up, give_hand, receive))
