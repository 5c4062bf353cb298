"""``companion rulesets``: every edition, turn structure, module and option, with its book."""

from __future__ import annotations

import argparse
import json
from typing import Any

from companion.rules.listing import rules_catalogue


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``rulesets``."""
    parser = subparsers.add_parser("rulesets", help="list the editions, turn structures, modules and options")
    parser.add_argument("--json", action="store_true", help="print the listing as one JSON object")
    parser.set_defaults(func=_rulesets)


def _rulesets(args: argparse.Namespace) -> int:
    listing = rules_catalogue()
    if args.json:
        print(json.dumps(listing, indent=1, ensure_ascii=False))
        return 0
    print("Editions (a record's \"ruleset\"):")
    for edition in listing["editions"]:
        players = f"{edition['min_players']}-{edition['max_players']}"
        print(f"  {edition['name']:<22} {players:>4} players  {edition['about']}")
        print(f"  {'':<22}      book: {edition['book']}; turn: {edition['turns']}"
              + (f"; modules to add: {', '.join(edition['modules'])}" if edition["modules"] else ""))
        _options(edition["options"])
    print("Turn structures:")
    for turns in listing["turns"]:
        print(f"  {turns['name']:<22} {turns['about']}")
    print("Modules (the record's options.modules):")
    for module in listing["modules"]:
        print(f"  {module['name']:<22} {module['about']}")
        print(f"  {'':<22} book: {module['book']}")
        _options(module["options"])
    return 0


def _options(options: list[dict[str, Any]]) -> None:
    for option in options:
        for choice in option["choices"]:
            default = " (default)" if choice["value"] == option["default"] else ""
            print(f"      {option['name']}={choice['value']}{default}: {choice['about']}")
