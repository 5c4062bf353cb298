"""Write examples/records/: a complete game for every edition and player count, and every module.

Games come from random legal play (the legal-move player) with a seeded deck. Most are
written as a real table records them (no deck in the header: hands and the draw pile
hidden); the four-player game of each edition (or its smallest count) keeps its known
deck (full-information mode). Each module is played once with each edition it combines with.
"""

from __future__ import annotations

from pathlib import Path

from companion.games import CardGame
from companion.records import Header, write_record
from companion.rules.editions import EDITIONS
from companion.rules.listing import combinations
from companion.rules.random_play import play_randomly
from companion.rules.setup import KnownDeck, Setup
from companion.rules.simulate import NAMES

OUT = Path(__file__).resolve().parent.parent / "examples" / "records"


def chosen() -> list[tuple[str, int, tuple[str, ...]]]:
    """Every edition at every count with no module; each module set once per edition, at four players if allowed."""
    found = combinations()
    picked = [c for c in found if not c[2]]
    for name in EDITIONS:
        for modules in dict.fromkeys(c[2] for c in found if c[0] == name and c[2]):
            counts = [c[1] for c in found if c[0] == name and c[2] == modules]
            picked.append((name, 4 if 4 in counts else counts[0], modules))
    return picked


def main() -> None:
    kind = CardGame()
    for old in OUT.glob("*.jsonl"):
        if not old.name.startswith("dice"):
            old.unlink()
    for name, players, modules in chosen():
        seed = 1000 + players + 10 * len(modules)
        options = {"modules": list(modules)} if modules else {}
        known = not modules and players == (4 if EDITIONS[name].min_players <= 4 else EDITIONS[name].min_players)
        setup = Setup(name, NAMES[:players], seed % players, options, KnownDeck(seed))
        state = play_randomly(setup, seed)
        events = [kind.move_to_dict(m) for m in state.move_stack]
        title = f"{EDITIONS[name].title}, {players} players" + (f", with {', '.join(modules)}" if modules else "")
        header = Header("bohnanza", name, setup.players, setup.start_player, options,
                        {"seed": seed} if known else None,
                        {"title": f"{title} (random legal play, seed {seed})"})  # fmt: skip
        stem = f"{name}-{players}p" + "".join(f"+{m}" for m in modules) + ("-known-deck" if known else "")
        write_record(OUT / f"{stem}.jsonl", header, events)
        print(f"{stem}: {len(events)} events")


if __name__ == "__main__":
    main()
