"""Write examples/records/: one complete game per ruleset and player count, replayable by the CLI.

Games come from random legal play with a seeded deck; most are written as a real
table records them (no deck in the header: hands and the draw pile hidden), one
per ruleset keeps its known deck (full-information mode).
"""

from __future__ import annotations

from pathlib import Path

from companion.games import CardGame
from companion.records import Header, write_record
from companion.rules import RULESETS
from companion.rules.simulate import random_game, random_setup

OUT = Path(__file__).resolve().parent.parent / "examples" / "records"

def main() -> None:
    kind = CardGame()
    for name, cls in RULESETS.items():
        for players in range(cls.min_players, cls.max_players + 1):
            seed = 1000 + players
            setup = random_setup(name, players, seed)
            state = random_game(setup, seed)
            events = [kind.move_to_dict(m) for m in state.move_stack]
            known = players == 4
            header = Header(
                "bohnanza", name, setup.players, setup.start_player, {},
                {"seed": seed} if known else None,
                {"title": f"{cls.title}, {players} players (random legal play, seed {seed})"},
            )  # fmt: skip
            suffix = "-known-deck" if known else ""
            write_record(OUT / f"{name}-{players}p{suffix}.jsonl", header, events)
            print(f"{name} {players} players: {len(events)} events")

if __name__ == "__main__":
    main()
