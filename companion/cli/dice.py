"""``companion dice ...``: order notation, exact odds, dice faces and harvest card catalogues."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

from companion.dice.catalogue import (
    HarvestCard,
    HarvestCatalogue,
    catalogue_from_data,
    sample_catalogue,
    save_catalogue,
)
from companion.dice.config import DEFAULT_DICE, DiceSet, dice_from_data, dice_to_data
from companion.dice.game import check_dice_config
from companion.dice.matching import impossible_reason
from companion.dice.moves import checked_order, checked_percentage
from companion.dice.notation import OrderSyntaxError, parse_order
from companion.dice.odds import check_printed, probability
from companion.records.checked import JsonTextError, loads_checked


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``dice`` command group."""
    parser = subparsers.add_parser("dice", help="dice game: orders, odds, harvest cards")
    parser.set_defaults(func=lambda args: parser.print_help() or 2)
    commands = parser.add_subparsers(dest="dice_command", metavar="COMMAND")

    parse = commands.add_parser("parse", help="print an order canonically, or show where it is malformed")
    parse.add_argument("order", help='e.g. "(soy|green) + 2x(garden|red)"')
    parse.set_defaults(func=_parse)

    odds = commands.add_parser("odds", help="exact probability that one roll of all dice meets an order")
    odds.add_argument("order", help='e.g. "2x green or 2x soy"')
    odds.add_argument("--printed", metavar="PERCENT", help="the percentage printed on the card, to check")
    _dice_option(odds)
    odds.set_defaults(func=_odds)

    faces = commands.add_parser("faces", help="print the dice configuration as JSON (a template to edit)")
    _dice_option(faces)
    faces.set_defaults(func=lambda args: _guarded(lambda: print(json.dumps(dice_to_data(_dice(args)), indent=2))))

    cards = commands.add_parser("cards", help="the group's harvest card catalogue")
    cards.set_defaults(func=lambda args: cards.print_help() or 2)
    card_commands = cards.add_subparsers(dest="cards_command", metavar="COMMAND")
    check = card_commands.add_parser("check", help="list cards with computed odds, checking printed percentages")
    check.add_argument("catalogue", nargs="?", type=Path, help="catalogue file (default: the sample catalogue)")
    _dice_option(check)
    check.set_defaults(func=_cards_check)
    add = card_commands.add_parser("add", help="enter a harvest card as it is drawn (creates the file)")
    add.add_argument("catalogue", type=Path, help="catalogue file")
    add.add_argument("orders", nargs=5, metavar="ORDER", help="the five orders, bottom to top")
    add.add_argument("--printed", nargs=5, metavar="PERCENT", help="the five printed percentages, bottom to top")
    add.add_argument("--id", default="", help="the card's label (default: the next number)")
    add.add_argument("--name", default="Our table", help="the catalogue's name, for a new file")
    _dice_option(add)
    add.set_defaults(func=_cards_add)


def _dice_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dice", type=Path, metavar="FILE", help="dice configuration (default: the player aid's)")


def _dice(args: argparse.Namespace) -> DiceSet:
    if not args.dice:
        return DEFAULT_DICE
    data = _json_file(args.dice)
    try:
        check_dice_config(data)
        return dice_from_data(data)
    except ValueError as exc:
        raise ValueError(f"{args.dice}: {exc}") from None


def _catalogue(path: Path, dice: DiceSet) -> HarvestCatalogue:
    """A catalogue file, its orders and printed percentages checked before the catalogue reads them."""
    data = _json_file(path)
    cards = data.get("cards", []) if isinstance(data, dict) else None
    if not isinstance(cards, list) or not all(isinstance(c, dict) for c in cards):
        raise ValueError(f'{path}: not a harvest card catalogue (it needs a "cards" list of objects)')
    for number, card in enumerate(cards, start=1):
        orders, printed = card.get("orders"), card.get("printed") or []
        try:
            if not isinstance(orders, list) or not isinstance(printed, list):
                raise ValueError('a card has "orders" and optionally "printed", both lists')
            for text in orders:
                checked_order(text)
            for percentage in printed:
                if percentage is not None:
                    checked_percentage(percentage)
        except ValueError as exc:
            raise ValueError(f"{path}: card {number}: {exc}") from None
    try:
        return catalogue_from_data(data, dice)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None


def _json_file(path: Path) -> Any:
    """A JSON file, read with the limits of ``companion.records.checked``; ``ValueError`` names the file."""
    try:
        return loads_checked(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not UTF-8 text") from None
    except JsonTextError as exc:
        raise ValueError(f"{path}: {exc}") from None


def _guarded(action: Callable[[], int | None]) -> int:
    """Run ``action``; bad input prints its reason and exits 2."""
    try:
        result = action()
    except OrderSyntaxError as exc:
        print(f"error: {exc.reason} at position {exc.position + 1}:\n{exc.pointer()}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: cannot write {exc.filename or 'the file'}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return int(result or 0)


def _decimal(p: Fraction) -> str:
    return f"{float(p):.6f}"


def _parse(args: argparse.Namespace) -> int:
    return _guarded(lambda: print(parse_order(args.order)))


def _odds(args: argparse.Namespace) -> int:
    def run() -> int:
        dice = _dice(args)
        order = checked_order(args.order)
        reason = impossible_reason(order, dice)
        if reason:
            raise ValueError(reason)
        p = probability(order, dice)
        print(f"{_decimal(p)}  ({p}, {order})")
        if args.printed is None:
            return 0
        verdict = check_printed(order, checked_percentage(args.printed), dice)
        if verdict.agrees:
            print(f"printed {verdict.printed} %: agrees")
            return 0
        print(f"printed {verdict.printed} %: DISAGREES, computed {verdict.percent} %; check the dice configuration")
        return 1

    return _guarded(run)


def _cards_check(args: argparse.Namespace) -> int:
    def run() -> int:
        dice = _dice(args)
        catalogue = _catalogue(args.catalogue, dice) if args.catalogue else sample_catalogue()
        print(f"{catalogue.name}{' (SAMPLE)' if catalogue.sample else ''}: {len(catalogue.cards)} cards")
        mismatches = 0
        for card in catalogue.cards:
            print(f"card {card.id}")
            for number, order in enumerate(card.orders):
                printed = card.printed[number] if card.printed else None
                note = ""
                if printed is not None:
                    verdict = check_printed(order, printed, dice)
                    note = f"  printed {printed}" + ("" if verdict.agrees else f"  MISMATCH ({verdict.percent})")
                    mismatches += not verdict.agrees
                print(f"  {number + 1}. {order}  {_decimal(probability(order, dice))}{note}")
        if mismatches:
            print(f"{mismatches} printed percentage(s) disagree: check the dice configuration or the cards")
        return 1 if mismatches else 0

    return _guarded(run)


def _cards_add(args: argparse.Namespace) -> int:
    def run() -> None:
        dice = _dice(args)
        catalogue = _catalogue(args.catalogue, dice) if args.catalogue.exists() else HarvestCatalogue(args.name)
        percentages = tuple(checked_percentage(p) for p in args.printed or ())
        card = HarvestCard(tuple(checked_order(o) for o in args.orders), args.id, percentages)
        reason = card.impossible_reason(dice)
        if reason:
            raise ValueError(reason)
        for order, printed in zip(card.orders, percentages):
            verdict = check_printed(order, printed, dice)
            if not verdict.agrees:
                raise ValueError(f"'{order}' is printed {printed} % but computes to {verdict.percent} %")
        before = len(catalogue.cards)
        stored = catalogue.add(card)
        save_catalogue(catalogue, args.catalogue)
        print(f"card {stored.id} {'added' if len(catalogue.cards) > before else 'was already entered'}")

    return _guarded(run)
