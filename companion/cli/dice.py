"""``companion dice ...``: sub-commands of the dice area."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``dice`` command group."""
    parser = subparsers.add_parser("dice", help="dice commands")
    parser.set_defaults(func=lambda args: parser.print_help() or 2)
