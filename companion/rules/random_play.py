"""Random complete games of any rules, driven only by the legal-move generator.

Whoever must act picks one of their legal moves at random and fills its open choices;
now and then any player harvests or buys a field. Used by the property tests of every
combination the books allow and by the benchmarks, so a new edition or module is tested
without writing a player for it.
"""

from __future__ import annotations

import random
from typing import Any

from companion.rules.legal import Choice, LegalMove
from companion.rules.setup import Setup
from companion.rules.state import GameState
from companion.rules.violations import IllegalMove

ANY_TIME = ("harvest", "buy-field")
"""Moves a player may make out of turn: tried now and then, not only when needed."""


def play_randomly(setup: Setup, seed: int = 0, max_moves: int = 20_000) -> GameState:
    """Play a whole game of random legal moves from ``setup`` (which needs a known deck)."""
    rng = random.Random(seed)
    state = GameState(setup)
    for _ in range(max_moves):
        if state.game_over:
            return state
        step(state, rng)
    raise RuntimeError(f"no end after {max_moves} moves: the rules let the game run forever")


def step(state: GameState, rng: random.Random) -> None:
    """Make one random legal move; ``RuntimeError`` if whoever must act has none."""
    seat = state.to_act()[0]
    options = state.legal_moves(seat)
    if rng.random() < 0.1:
        other = rng.randrange(len(state.players))
        extra = [m for m in state.legal_moves(other) if m.type in ANY_TIME]
        if extra:
            options = extra
    rng.shuffle(options)
    main = [m for m in options if m.type not in ANY_TIME] + [m for m in options if m.type in ANY_TIME]
    for option in main:
        for _ in range(4):
            try:
                state.push(option.move(**fill(option, rng)))
                return
            except (IllegalMove, ValueError):
                continue
    raise RuntimeError(f"{state.names[seat]} must act but no legal move worked: {[m.text for m in options]}")


def fill(option: LegalMove, rng: random.Random) -> dict[str, Any]:
    """Random values for a move's open choices."""
    return {name: _pick(choice, rng) for name, choice in option.choose.items()}


def _pick(choice: Choice, rng: random.Random) -> Any:
    if not choice.many:
        return rng.choice(choice.options)
    if choice.exactly is not None:
        return [rng.choice(choice.options) for _ in range(choice.exactly)]
    return [rng.choice(choice.options) for _ in range(rng.randrange(2))] if choice.options else []
