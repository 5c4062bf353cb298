"""Property tests for every edition, player count and module set the books allow.

Random games driven only by the legal-move generator end, never make or lose a card,
look the same to a real table that sees only public events, and undo exactly.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from enum import Enum
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import GameState, KnownDeck, Setup, public_view
from companion.rules.listing import combinations
from companion.rules.random_play import play_randomly
from companion.rules.rulesets import Rules

NAMES = ("Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus")
COMBINATIONS = st.sampled_from(combinations())


def known_setup(combination: tuple[str, int, tuple[str, ...]], seed: int) -> Setup:
    name, players, modules = combination
    options = {"modules": list(modules)} if modules else {}
    return Setup(name, NAMES[:players], seed % players, options, KnownDeck(seed))


def test_every_edition_is_playable_with_no_module() -> None:
    from companion.rules.editions import EDITIONS

    assert {name for name, _, modules in combinations() if not modules} == set(EDITIONS)


@settings(max_examples=30, deadline=None)
@given(combination=COMBINATIONS, seed=st.integers(0, 2**32 - 1))
def test_random_games_end_and_keep_every_card(combination, seed) -> None:
    setup = known_setup(combination, seed)
    finished = play_randomly(setup, seed)
    assert finished.game_over and finished.to_act() == ()
    assert finished.passes == finished.rules.end_pass()
    state = GameState(setup)
    total = state.total_cards()
    for move in finished.move_stack:
        state.push(move)
        assert state.total_cards() == total
        assert all(n >= 0 for n in state.unseen.values())
    assert all(f.count == 0 for p in finished.players for f in p.fields)


@settings(max_examples=20, deadline=None)
@given(combination=COMBINATIONS, seed=st.integers(0, 2**32 - 1))
def test_a_real_table_follows_every_game_from_public_events(combination, seed) -> None:
    setup = known_setup(combination, seed)
    known = play_randomly(setup, seed)
    hidden = GameState.replayed(replace(setup, deck=None), known.move_stack)
    assert public_view(hidden) == public_view(known)


@settings(max_examples=10, deadline=None)
@given(combination=COMBINATIONS, seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1))
def test_undo_returns_to_the_earlier_state(combination, seed, cut) -> None:
    setup = known_setup(combination, seed)
    moves = play_randomly(setup, seed).move_stack
    keep = int(len(moves) * cut)
    state = GameState.replayed(setup, moves)
    state.pop(len(moves) - keep)
    assert public_view(state) == public_view(GameState.replayed(setup, moves[:keep]))


@settings(max_examples=20, deadline=None)
@given(combination=COMBINATIONS, seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1))
def test_every_offered_move_names_who_must_act_or_may_act_any_time(combination, seed, cut) -> None:
    """Whoever must act has a legal move; every seat's offers are well-formed."""
    setup = known_setup(combination, seed)
    moves = play_randomly(setup, seed).move_stack
    state = GameState.replayed(setup, moves[: int(len(moves) * cut)])
    if state.game_over:
        return
    assert state.to_act() and state.legal_moves(state.to_act()[0])
    for seat in range(len(state.players)):
        for option in state.legal_moves(seat):
            assert option.fields.get("player") == seat and option.text


def everything(value: Any) -> Any:
    """All a game state holds, as plain values, object by object (its ruleset by name only)."""
    if value is None or isinstance(value, (str, int, float, Enum)):
        return value
    if isinstance(value, Rules):
        return "rules"
    if isinstance(value, dict):
        return {key: everything(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value).__name__, [everything(item) for item in value]
    held = vars(value) if hasattr(value, "__dict__") else {
        name: getattr(value, name) for name in type(value).__slots__ if hasattr(value, name)}
    return type(value).__name__, everything(held)


@settings(max_examples=20, deadline=None)
@given(combination=COMBINATIONS, seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1), hidden=st.booleans())
def test_a_copy_of_the_game_plays_on_apart_from_it(combination, seed, cut, hidden) -> None:
    """The tracker plays every move it tries on a copy: the copy ends as the game did, and the game it was copied from
    is left just as it was."""
    setup = known_setup(combination, seed)
    moves = play_randomly(setup, seed).move_stack
    keep = int(len(moves) * cut)
    setup = replace(setup, deck=None) if hidden else setup
    state = GameState.replayed(setup, moves[:keep])
    twin = copy.deepcopy(state)
    for move in moves[keep:]:
        twin.push(move)
    assert everything(state) == everything(GameState.replayed(setup, moves[:keep]))
    assert everything(twin) == everything(GameState.replayed(setup, moves))
