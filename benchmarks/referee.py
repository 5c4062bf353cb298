"""The table tracker's cost per settled change of the table, on one core: the rules' search for the moves that explain
it, the check of whether the camera may be sure of them, and setting aside a part of the table the camera misreads.

    .venv/bin/python benchmarks/referee.py

Each visible event of a recorded 4-player game (its first 200 events) is a settled change: the camera sees the table as
the game has it after the event. "A part misread" sees, besides, one column of a seat the event leaves alone lost (so
no move explains the whole table and the search tries each part that disagrees told as the game has it). "A plant named
unsurely" sees each plant's column of another game, whose hands are hidden, with its bean open, taken for the bean at
0.6 beside two others (as a group's own deck is named), and offers the other readings the rules allow
(:mod:`companion.tracker.alternatives`). Baseline: a
deep copy of the record's events as plain data (a yardstick of the machine's speed that none of the project's code
changes). The game state's own copy, which the search makes for every move it tries, is printed beside it. A change is
explained once, when the table settles, not every frame; the camera's frame period (33 ms) is printed beside it.
"""

from __future__ import annotations

import copy
import statistics
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from companion.records.jsonl import Record, load_record
from companion.rules.moves import move_from_dict, move_to_dict
from companion.rules.setup import Setup
from companion.rules.state import GameState
from companion.tracker.alternatives import alternatives
from companion.tracker.explain import explained, explanations, game_view, likeliest
from companion.tracker.table import by_rules
from companion.tracker.view import TableView

RECORDS = Path(__file__).resolve().parent.parent / "examples" / "records"
RECORD = RECORDS / "amigo-25-4p-known-deck.jsonl"
HIDDEN = RECORDS / "amigo-25-4p+bean-coin.jsonl"
"""A game whose hands are hidden, as a table's are: a plant from the hand may be any bean still unseen."""
EVENTS = 200
FRAME_PERIOD_MS = 1000 / 30


def changes(record: Record) -> list[tuple[GameState, TableView, TableView]]:
    """Each visible event's game before it, the table after it, and that table with a column lost elsewhere."""
    header = record.header
    state = GameState(Setup(header.ruleset, tuple(header.players), header.start_player, dict(header.options)))
    seats = tuple(range(len(header.players)))
    found = []
    for _, event in record.events[:EVENTS]:
        before = copy.deepcopy(state)
        state.push(move_from_dict(event))
        seen, was = game_view(state, seats), game_view(before, seats)
        if seen == was:
            continue
        touched = {seat for seat, columns in seen.fields if columns != was.seats()[seat]}
        lost = next(((seat, columns[1:]) for seat, columns in seen.fields if seat not in touched and columns), None)
        misread = seen if lost is None else seen.telling(lost[0], lost[1])
        found.append((before, seen, misread))
    return found


def unsure_plants(cases: list[tuple[GameState, TableView, TableView]]) -> list[tuple[GameState, TableView]]:
    """Each plant's game before it and the table after it, the column it grew named unsurely (see the module)."""
    found = []
    for before, seen, _ in cases:
        was = game_view(before, tuple(seat for seat, _ in seen.fields)).seats()
        grown = [(seat, column) for seat, columns in seen.fields for column in columns if column not in was[seat]]
        if len(grown) != 1 or not grown[0][1][0]:
            continue
        (seat, (bean, count)), others = grown[0], [b for b in sorted(before.deck_counts) if b != grown[0][1][0]][:2]
        columns = tuple(sorted(((None, count) if c == (bean, count) else c for c in seen.seats()[seat]),
                               key=lambda c: (c[0] or "", c[1])))
        likely = ((bean, 0.6), (others[0], 0.25), (others[1], 0.15))
        found.append((before, replace(seen.telling(seat, columns), guesses=((seat, ((bean, count),)),),
                                      likely=((seat, ((count, likely),)),))))
    return found


def offered(state: GameState, seen: TableView) -> None:
    """A change explained and checked, and the other readings of it the rules allow worked out."""
    if (explaining := explained(state, seen)) is not None:
        by_rules(explaining[1], explaining[0], state)
        after, moves = likeliest(explaining[1], explaining[0])
        alternatives(explaining[1], (after, [move_to_dict(m) for m in moves]), explaining[0], state)


def ms(work: Callable[..., object], *args: object) -> float:
    """Milliseconds ``work(*args)`` takes once."""
    start = time.perf_counter()
    work(*args)
    return (time.perf_counter() - start) * 1000


def checked(state: GameState, seen: TableView) -> None:
    """What the tracker asks of the rules for one settled change: its explanations, and whether it may be sure."""
    if (explaining := explained(state, seen)) is not None:
        by_rules(explaining[1], explaining[0], state)


def main() -> None:
    record = load_record(RECORD)
    cases = changes(record)
    events = [event for _, event in record.events[:EVENTS]]
    base = statistics.median(ms(copy.deepcopy, events) for _ in range(200))
    state = cases[len(cases) // 2][0]
    copying = statistics.median(ms(copy.deepcopy, state) for _ in range(200))
    whole = [ms(checked, before, seen) for before, seen, _ in cases]
    misread = [(before, lost) for before, seen, lost in cases if lost != seen]
    failed = [ms(explanations, before, lost) for before, lost in misread]
    aside = [ms(checked, before, lost) for before, lost in misread]
    plants = unsure_plants(changes(load_record(HIDDEN)))
    unsure = [ms(checked, before, seen) for before, seen in plants]
    offering = [ms(offered, before, seen) for before, seen in plants]
    print(f"referee: {RECORD.name}, {len(cases)} settled changes ({len(misread)} with a part misread); "
          f"{HIDDEN.name}, {len(plants)} plants named unsurely; one core")
    print(f"  {'deep copy of the events (plain data)':<38}: {base:.3f} ms (baseline)")
    print(f"  {'deep copy of the game state':<38}: {copying:.3f} ms ({copying / base:.2f} x)")
    for what, times in (("a change explained and checked", whole), ("a part misread: the search that fails", failed),
                        ("a part misread: then set aside", aside), ("a plant named unsurely", unsure),
                        ("... and its other readings offered", offering)):
        median, worst = statistics.median(times), max(times)
        print(f"  {what:<38}: median {median:.2f} ms ({median / base:.0f} x, {median / FRAME_PERIOD_MS:.2f} of a "
              f"frame period), worst {worst:.1f} ms ({worst / FRAME_PERIOD_MS:.2f})")


if __name__ == "__main__":
    main()
