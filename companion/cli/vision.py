"""``companion vision ...``: sub-commands of the vision area."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``vision`` command group."""
    parser = subparsers.add_parser("vision", help="vision commands")
    parser.set_defaults(func=lambda args: parser.print_help() or 2)
