"""The ``companion`` command: one sub-command module per area.

Each module in ``COMMAND_MODULES`` exposes ``register(subparsers)``, which adds its
sub-commands and sets ``func(args) -> int`` on each of them. Bad input exits 2 with one
line on standard error; a failure no command foresaw exits 70 (EX_SOFTWARE) with one
line too, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

FAILED = 70
"""Exit status of a failure no command foresaw (EX_SOFTWARE)."""

COMMAND_MODULES: tuple[str, ...] = (
    "companion.cli.records",
    "companion.cli.play",
    "companion.cli.rulesets",
    "companion.cli.dice",
    "companion.cli.vision",
    "companion.cli.serve",
)


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, with every area's sub-commands."""
    parser = argparse.ArgumentParser(prog="companion", description="Bohnanza table companion.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``companion`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "func"):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        sys.stderr.close()
        return 0
    except Exception as exc:  # a bug, not bad input: still one line, and an exit status that says so
        reason = str(exc)[:200].encode("utf-8", "backslashreplace").decode("utf-8")
        print(f"companion: {args.command} failed unexpectedly ({type(exc).__name__}: {reason}); please report this",
              file=sys.stderr)  # fmt: skip
        return FAILED


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
