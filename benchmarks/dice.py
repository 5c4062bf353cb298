"""Dice game timings, as ratios against baselines measured in the same run.

1. Exact odds of every order of the sample catalogue (target: all 275 in under
   50 ms), against enumerating all 6^5 rolls of the five dice.
2. Scoring one roll for five players (``DiceGame.push``), against checking each
   player's orders by trying every assignment of dice to slots.

Run: ``.venv/bin/python benchmarks/dice.py``
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable, Sequence

from companion.dice import odds
from companion.dice.catalogue import sample_catalogue
from companion.dice.config import DEFAULT_DICE
from companion.dice.game import DiceGame
from companion.dice.moves import Roll
from companion.dice.notation import Order

BRUTE_FORCE_ORDERS = 8
SCORED_ROLLS = 400


def best_of(repeats: int, run: Callable[[], object]) -> float:
    """The fastest of ``repeats`` runs, in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def all_odds(orders: Sequence[Order]) -> None:
    for order in orders:
        odds.probability(order, DEFAULT_DICE)


def cold_odds(orders: Sequence[Order]) -> None:
    odds._outcomes.cache_clear()
    all_odds(orders)


def permutation_meets(order: Order, beans: Sequence[str]) -> bool:
    """Baseline matcher: try every ordering of the dice against the slots."""
    for alt in order.alternatives:
        slots = [t.beans for t in alt.terms for _ in range(t.count)]
        if any(all(b in s for b, s in zip(p, slots)) for p in itertools.permutations(beans, len(slots))):
            return True
    return False


def baseline_score(game: DiceGame, roll: Roll) -> None:
    """Baseline scorer: each other player's bottom-most orders, by permutations."""
    rolled = [b for b in roll.beans if b is not None]
    for seat, player in enumerate(game.players):
        if seat == game.active or player.top is None:
            continue
        done = player.completed
        while done < 5 and permutation_meets(player.top.orders[done], rolled):
            done += 1


def five_player_game() -> DiceGame:
    game = DiceGame.new(["Ann", "Ben", "Cat", "Dan", "Eve"], 0, {"harvest_cards": "sample", "seed": 1})
    while game.pending_draws:
        game.push(game.deal())
    return game


def main() -> None:
    orders = [o for card in sample_catalogue().cards for o in card.orders]
    cold = best_of(5, lambda: cold_odds(orders))
    warm = best_of(5, lambda: all_odds(orders))
    sample = orders[:BRUTE_FORCE_ORDERS]
    brute = best_of(1, lambda: [odds.brute_force_probability(o, DEFAULT_DICE) for o in sample])
    brute_all = brute / len(sample) * len(orders)
    print(f"exact odds, all {len(orders)} sample orders")
    print(f"  exact, first call (outcomes built):  {cold * 1e3:8.2f} ms   target < 50 ms")
    print(f"  exact, outcomes cached:              {warm * 1e3:8.2f} ms   ({warm / len(orders) * 1e6:.0f} us/order)")
    print(f"  baseline 6^5 enumeration (est.):     {brute_all * 1e3:8.0f} ms"
          f"   ({brute / len(sample) * 1e3:.1f} ms/order,"
          f" {len(sample)} orders timed)")
    print(f"  speed-up over the baseline:          {brute_all / cold:8.0f}x first call, {brute_all / warm:.0f}x cached")

    rng = random.Random(7)
    base = five_player_game()
    rolls = [base.random_roll(rng) for _ in range(SCORED_ROLLS)]
    games = [five_player_game() for _ in rolls]
    start = time.perf_counter()
    for game, roll in zip(games, rolls):
        game.push(roll)
    scored = (time.perf_counter() - start) / len(rolls)
    start = time.perf_counter()
    for roll in rolls:
        baseline_score(base, roll)
    permuted = (time.perf_counter() - start) / len(rolls)
    completions = sum(len(g.last_completions) for g in games)
    print(f"scoring one roll for five players ({len(rolls)} random rolls, {completions} completions)")
    print(f"  DiceGame.push(roll):                 {scored * 1e6:8.1f} us/roll")
    print(f"  baseline permutation matcher:        {permuted * 1e6:8.1f} us/roll")
    print(f"  ratio baseline / push:               {permuted / scored:8.2f}x")


if __name__ == "__main__":
    main()
