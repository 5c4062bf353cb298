"""Property tests: random legal games end, never make or lose a card, and replay exactly."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import RULESETS, GameState, public_view
from companion.rules.simulate import random_game, random_setup

GAMES = st.sampled_from(
    [(name, n) for name, cls in RULESETS.items() for n in range(cls.min_players, cls.max_players + 1)
     if cls.turns == "standard"]
)


@settings(max_examples=25, deadline=None)
@given(game=GAMES, seed=st.integers(0, 2**32 - 1))
def test_random_legal_games_end_and_keep_every_card(game, seed):
    name, players = game
    setup = random_setup(name, players, seed)
    state = GameState(setup)
    total = sum(state.deck_counts.values())
    finished = random_game(setup, seed)
    assert finished.game_over
    assert finished.passes == finished.rules.end_pass()
    assert finished.total_cards() == total
    assert all(f.count == 0 for p in finished.players for f in p.fields)  # the final harvest
    # Replaying the log step by step keeps the count at every move.
    for move in finished.move_stack:
        state.push(move)
        assert state.total_cards() == total
        assert all(n >= 0 for n in state.unseen.values())


@settings(max_examples=15, deadline=None)
@given(game=GAMES, seed=st.integers(0, 2**32 - 1))
def test_a_real_table_accepts_every_real_game_and_sees_the_same(game, seed):
    """The hidden-information engine follows a full game from public events alone."""
    setup = random_setup(*game, seed)
    known = random_game(setup, seed)
    hidden = GameState.replayed(replace(setup, deck=None), known.move_stack)
    assert public_view(hidden) == public_view(known)


@settings(max_examples=10, deadline=None)
@given(game=GAMES, seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1))
def test_undo_returns_to_the_earlier_state(game, seed, cut):
    setup = random_setup(*game, seed)
    moves = random_game(setup, seed).move_stack
    keep = int(len(moves) * cut)
    state = GameState.replayed(setup, moves)
    state.pop(len(moves) - keep)
    assert public_view(state) == public_view(GameState.replayed(setup, moves[:keep]))
