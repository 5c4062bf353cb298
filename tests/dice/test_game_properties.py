"""Random legal games: they end, and dollars only come from harvests."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dice.game import DiceGame, Phase
from companion.dice.moves import Harvest

MAX_STEPS = 5000


def harvest_cards_held(game: DiceGame) -> int:
    """Harvest cards on the deck, in front of players and as seen dollar cards."""
    on_table = sum((p.top is not None) + (p.bottom is not None) for p in game.players)
    dollars = sum(c is not None for p in game.players for c in p.dollar_cards)
    return len(game.deck or []) + on_table + dollars


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 5), st.sampled_from([3, 10]))
def test_random_legal_games_end_and_create_no_dollars(seed: int, players: int, target: int) -> None:
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(players)]
    game = DiceGame.new(names, seed % players, {"harvest_cards": "sample", "seed": seed, "target_dollars": target})
    for _ in range(MAX_STEPS):
        if game.game_over:
            break
        moves = game.legal_moves()
        if game.phase is Phase.ROLL and not game.pending_draws and (not moves or rng.random() < 0.7):
            move = game.random_roll(rng)
        else:
            move = rng.choice(moves)
        before = [p.dollars for p in game.players]
        expected = game.players[move.player].completed - 2 if isinstance(move, Harvest) else 0
        game.push(move)
        after = [p.dollars for p in game.players]
        assert all(b <= a for b, a in zip(before, after))
        if isinstance(move, Harvest) and not game.game_over:
            assert sum(after) - sum(before) == expected
        elif not game.game_over:
            assert after == before
        assert harvest_cards_held(game) == 55
    assert game.game_over
    assert max(game.scores().values()) >= target
    assert game.winners() == [n for n, d in game.scores().items() if d == max(game.scores().values())]
