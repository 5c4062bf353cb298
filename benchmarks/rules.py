"""Rules engine speed: replaying records and playing random complete games, on one core.

Figures are also given as ratios against a baseline measured in the same run
(decoding the same record's JSON lines), since the machines are shared and noisy.
Targets (issue 2): a 400-event record replays in under 10 ms; at least 100 random
complete 4-player games per second. The same figures follow for each Duel, High Bohn
(with and without Cognac) and the largest module set the books allow, played by the
generic legal-move player, beside the base game played by that same player.
"""

from __future__ import annotations

import json
import statistics
import time

from companion.games import CardGame
from companion.records import Header, Record, dumps_record, loads_record, replay
from companion.rules.listing import combinations
from companion.rules.random_play import play_randomly
from companion.rules.setup import KnownDeck, Setup
from companion.rules.simulate import NAMES, random_game, random_setup


def best_of(repeats: int, fn) -> float:
    """Median seconds of ``repeats`` runs of ``fn``."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def record_of_about(events: int) -> tuple[str, Record]:
    """A real-table record (hidden deck) of a 4-player game cut to ``events`` events."""
    seed = 0
    while len(moves := random_game(setup := random_setup("amigo-25", 4, seed), seed).move_stack) < events:
        seed += 1
    moves = moves[:events]
    header = Header("bohnanza", "amigo-25", setup.players, setup.start_player)
    text = dumps_record(header, [CardGame().move_to_dict(m) for m in moves])
    return text, loads_record(text)


def main() -> None:
    text, record = record_of_about(400)
    n = len(record.events)
    baseline = best_of(30, lambda: [json.loads(line) for line in text.splitlines()])
    replay_s = best_of(30, lambda: replay(record))
    parse_and_replay_s = best_of(30, lambda: replay(loads_record(text)))
    print(f"record of {n} events (real-table mode)")
    print(f"  baseline, JSON-decode its lines: {baseline * 1e3:7.2f} ms")
    print(f"  replay (validate every event):   {replay_s * 1e3:7.2f} ms  = {replay_s / baseline:5.1f}x baseline"
          f"  ({n / replay_s:,.0f} events/s; target < 10 ms)")
    print(f"  read + replay from text:         {parse_and_replay_s * 1e3:7.2f} ms"
          f"  = {parse_and_replay_s / baseline:5.1f}x baseline")

    games = 100
    start = time.perf_counter()
    events = 0
    for seed in range(games):
        events += len(random_game(random_setup("amigo-25", 4, seed), seed).move_stack)
    elapsed = time.perf_counter() - start
    per_game = elapsed / games
    print(f"random complete 4-player games: {games / elapsed:6.1f} games/s ({events / games:.0f} events/game,"
          f" {per_game * 1e3:.2f} ms/game = {per_game / baseline:.1f}x baseline; target >= 100 games/s)")
    variants(baseline)


def variants(baseline: float) -> None:
    """Replay and random-play figures for the Duels and every module together, by the legal-move player."""
    found = combinations()
    duels = [c for c in found if not c[2] and c[1] == 2]
    most = max(found, key=lambda c: (len(c[2]), c[1] == 4))
    print("generic legal-move player (plays any rules):")
    high_bohn = [("high-bohn", 4, ()), ("high-bohn", 4, ("cognac",))]
    for name, players, modules in [("amigo-25", 4, ()), *duels, *high_bohn, most]:
        label = f"{name}, {players} players" + (f" + {', '.join(modules)}" if modules else "")
        games, events = 20, 0
        options = {"modules": list(modules)} if modules else {}
        start = time.perf_counter()
        for seed in range(games):
            setup = Setup(name, NAMES[:players], seed % players, options, KnownDeck(seed))
            state = play_randomly(setup, seed)
            events += len(state.move_stack)
        elapsed = time.perf_counter() - start
        header = Header("bohnanza", name, setup.players, setup.start_player, options, {"seed": seed})
        record = loads_record(dumps_record(header, [CardGame().move_to_dict(m) for m in state.move_stack]))
        replay_s = best_of(10, lambda record=record: replay(record))
        print(f"  {label}: {games / elapsed:6.1f} games/s ({events / games:.0f} events/game);"
              f" replay of a {len(record.events)}-event record {replay_s * 1e3:.2f} ms"
              f" = {replay_s / baseline:.1f}x baseline")


if __name__ == "__main__":
    main()
