"""``companion replay`` and ``companion records``: check, replay, export and import game records."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.cli.common import add_db_option, db_path, table_text
from companion.games import game_kind
from companion.records import RecordError, dumps_record, load_record, replay, write_record
from companion.storage import GameStore, StoreError


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``replay`` and ``records``."""
    rp = subparsers.add_parser("replay", help="validate and replay a game record")
    rp.add_argument("record", type=Path, help="a .jsonl game record")
    rp.add_argument("--json", action="store_true", help="print the final state as one JSON object")
    rp.set_defaults(func=_replay)

    records = subparsers.add_parser("records", help="list, export and import stored games")
    sub = records.add_subparsers(dest="records_command", metavar="ACTION", required=True)
    ls = sub.add_parser("list", help="list stored games")
    add_db_option(ls)
    ls.set_defaults(func=_list)
    ex = sub.add_parser("export", help="write a stored game as a record")
    ex.add_argument("game_id", type=int)
    ex.add_argument("-o", "--out", type=Path, help="file to write (default: standard output)")
    add_db_option(ex)
    ex.set_defaults(func=_export)
    im = sub.add_parser("import", help="validate a record and store it as a game")
    im.add_argument("record", type=Path)
    add_db_option(im)
    im.set_defaults(func=_import)


def _replay(args: argparse.Namespace) -> int:
    try:
        record = load_record(args.record)
        result = replay(record)
    except OSError as exc:
        print(f"companion: cannot read {args.record}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except RecordError as exc:
        print(f"companion: {args.record}: {exc}", file=sys.stderr)
        return 2
    summary = game_kind(record.header.game).summary(result.state)
    summary["events"] = len(result.moves)
    if args.json:
        print(json.dumps(summary))
    else:
        print(table_text(summary) if record.header.game == "bohnanza" else json.dumps(summary, indent=2))
    if result.error is not None:
        rule = f" [rule: {result.rule}]" if result.rule else ""
        print(f"companion: {args.record}: {result.error}{rule}", file=sys.stderr)
        return 1
    return 0


def _list(args: argparse.Namespace) -> int:
    try:
        with GameStore(db_path(args)) as store:
            games = store.games()
    except (StoreError, RecordError) as exc:
        print(f"companion: cannot list the games in {db_path(args)}: {exc}", file=sys.stderr)
        return 2
    for game in games:
        state = "finished" if game.finished else "running"
        h = game.header
        if h is None:
            print(f"{game.id:>4}  {game.problem}")
            continue
        print(f"{game.id:>4}  {h.game:<8} {h.ruleset:<10} {', '.join(h.players):<30} {game.events:>4} events  {state}")
    return 0


def _export(args: argparse.Namespace) -> int:
    try:
        with GameStore(db_path(args)) as store:
            header, events = store.header(args.game_id), store.events(args.game_id)
        text = dumps_record(header, events)
        if args.out:
            write_record(args.out, header, events)
    except KeyError as exc:
        print(f"companion: {exc.args[0]}", file=sys.stderr)
        return 2
    except StoreError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"companion: cannot write {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    if not args.out:
        sys.stdout.write(text)
    return 0


def _import(args: argparse.Namespace) -> int:
    try:
        record = load_record(args.record)
        result = replay(record)
    except (OSError, RecordError) as exc:
        print(f"companion: cannot import {args.record}: {exc}", file=sys.stderr)
        return 2
    if result.error is not None:
        print(f"companion: not imported, {args.record}: {result.error}", file=sys.stderr)
        return 1
    try:
        kind = game_kind(record.header.game)
        with GameStore(db_path(args)) as store:
            game_id = store.import_game(record.header, [kind.move_to_dict(m) for m in result.moves])
            store.set_finished(game_id, bool(result.state.game_over))
    except StoreError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2
    print(f"imported as game {game_id} ({len(result.moves)} events)")
    return 0
