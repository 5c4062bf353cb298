"""``companion play``: referee a real table by typing what happens (no camera, no dice needed)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from companion.cli.choices import chosen_move, menu
from companion.cli.commands import HELP, parse_command
from companion.cli.common import add_db_option, db_path, table_text
from companion.records import Header
from companion.rules import RULESETS, IllegalMove
from companion.rules.parts import MODULES
from companion.rules.wording import describe
from companion.session import GameSession
from companion.storage import GameStore, StaleLog, StoreError


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``play``."""
    parser = subparsers.add_parser("play", help="referee a card game by manual entry, stored as you go")
    parser.add_argument("--game", type=int, help="resume this stored game")
    parser.add_argument("--new", action="store_true", help="start a new game even if one is running")
    add_db_option(parser)
    parser.set_defaults(func=_play)


def _play(args: argparse.Namespace) -> int:
    ask = _prompter()
    try:
        store = GameStore(db_path(args))
    except StoreError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2
    with store:
        print(f"Bohnanza companion: manual entry (no camera or dice attached). Games are stored in {store.path}.")
        try:
            session = _open_game(store, args, ask)
            if session is not None:
                _loop(session, ask)
        except EOFError:
            print()
        except KeyError as exc:  # --game names no stored game
            print(f"companion play: {exc.args[0]}; `companion records list` lists the stored games", file=sys.stderr)
            return 2
        except StoreError as exc:
            print(f"companion play: {exc}", file=sys.stderr)
            return 2
    return 0


def _prompter() -> Callable[[str], str]:
    def ask(prompt: str) -> str:
        line = input(prompt)
        if not sys.stdin.isatty():
            print(line)
        return line.strip()

    return ask


def _open_game(store: GameStore, args: argparse.Namespace, ask: Callable[[str], str]) -> GameSession | None:
    if args.game is not None:
        return GameSession.resume(store, args.game)
    running = [g for g in store.games() if not g.finished and g.header is not None and g.header.game == "bohnanza"]
    if running and not args.new:
        game, names = running[0], ", ".join(running[0].header.players if running[0].header else ())
        if ask(f"Resume game {game.id} ({names}, {game.events} events)? [Y/n] ").lower() != "n":
            return GameSession.resume(store, game.id)
    return _new_game(store, ask)


def _new_game(store: GameStore, ask: Callable[[str], str]) -> GameSession:
    names = list(RULESETS)
    for rs in names:
        cls = RULESETS[rs]
        print(f"  {rs:<20} {cls.title} ({cls.min_players}-{cls.max_players} players)")
    print("  modules, added as +NAME after the ruleset: " + ", ".join(MODULES) + " (`companion rulesets` says more)")
    while True:
        words = (ask(f"Ruleset [{names[0]}]: ") or names[0]).split()
        chosen, modules = words[0], [w.removeprefix("+") for w in words[1:]]
        typed = ask("Players in seating order, clockwise, comma-separated: ")
        players = [p.strip() for p in typed.split(",") if p.strip()]
        start = ask(f"Start player [{players[0] if players else ''}]: ") or (players[0] if players else "")
        try:
            seat = players.index(start) if start in players else 0
            header = Header("bohnanza", chosen, tuple(players), seat, {"modules": modules} if modules else {})
            session = GameSession.start(store, header)
        except ValueError as exc:
            print(f"  ! {exc}")
            continue
        print(f"Game {session.game_id} started.")
        return session


def _loop(session: GameSession, ask: Callable[[str], str]) -> None:
    _show(session)
    while True:
        line = ask("> ")
        word = line.split()[0].lower() if line else ""
        if word in ("quit", "exit", "q"):
            return
        if word in ("help", "?", ""):
            print(HELP)
            continue
        if session.refresh():
            print("  (the game was changed elsewhere, on the tablet or another terminal: this is where it stands)")
            _show(session)
        if word == "show":
            _show(session)
            continue
        if word in ("undo", "repair"):
            _undo(session, line)
            continue
        try:
            words = line.split()
            move = chosen_move(session.state, words[1:], ask) if word == "do" else parse_command(session.state, line)
            event = session.push(move)
        except IllegalMove as exc:
            print(f"  ! refused: {exc.violation.message}")
            continue
        except StaleLog as exc:
            print(f"  ! {exc}")
            continue
        except ValueError as exc:
            print(f"  ! {exc}")
            continue
        print(f"  {describe(event, session.header.players)}")
        _show(session)
        if session.finished:
            print("The game is over.")
            return


def _show(session: GameSession) -> None:
    """The table, and what stops a broken game from going on."""
    print(table_text(session.summary()))
    if session.broken is not None:
        print(f"  ! this game stops at its last good event: {session.broken.message}. Type 'repair' to do so.")
    elif not session.finished:
        print(menu(session.state))


def _undo(session: GameSession, line: str) -> None:
    """``undo [N]`` or ``repair``, refused when the game changed since it was last shown."""
    words = line.split()
    try:
        if words[0].lower() == "repair":
            undone = session.repair()
        else:
            undone = session.undo(int(words[1]) if len(words) > 1 and words[1].isdecimal() else 1)
    except StaleLog as exc:
        print(f"  ! nothing undone: {exc}")
        _show(session)
        return
    print(f"  undid {undone} event(s)")
    _show(session)
