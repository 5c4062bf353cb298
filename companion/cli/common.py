"""Helpers shared by the sub-commands: the store location and the text table."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any


def default_db() -> Path:
    """``$COMPANION_DB``, else the user's data folder."""
    if env := os.environ.get("COMPANION_DB"):
        return Path(env)
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "bohnanza-companion" / "companion.sqlite3"


def default_instance() -> Path:
    """The web app's folder (session key, logins, deck profiles): the user's data folder, wherever the store is."""
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "bohnanza-companion"


def add_db_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=Path, default=None,
                        help="game store (default: $COMPANION_DB or the user data folder)")


def db_path(args: argparse.Namespace) -> Path:
    return args.db or default_db()




def table_text(summary: dict[str, Any]) -> str:
    """The card game's table as lines of text."""
    lines = []
    for seat, p in enumerate(summary["players"]):
        marker = ">" if seat == summary["active_player"] and not summary["game_over"] else " "
        fields = "  ".join(
            f"[{i + 1}] {f['bean']} x{f['count']}" if f else f"[{i + 1}] -" for i, f in enumerate(p["fields"])
        )
        waiting = f"  to plant: {', '.join(p['received'])}" if p["received"] else ""
        counts = f"coins {p['coins']:>2}  hand {p['hand_size']:>2}"
        lines.append(f"{marker} {seat}: {p['name']:<10} {counts}  {fields}{waiting}")
    if summary["face_up"]:
        lines.append(f"  turned over: {', '.join(summary['face_up'])}")
    if summary.get("offer"):
        lines.append(f"  offered: {', '.join(summary['offer'])}")
    lines += [f"  {note}" for note in summary.get("notes", [])]  # what the variants show: coin, buildings, ...
    lines.append(
        f"  draw pile {summary['draw_pile']}, discard pile {summary['discard_pile']}, "
        f"passes {summary['passes']} of {summary['end_pass']}"
    )
    if summary["game_over"]:
        lines.append(f"  game over: {summary['result']}")
    else:
        active = summary["players"][summary["active_player"]]["name"]
        lines.append(f"  turn {summary['turn']}: {active}, {summary['phase_text']}")
        if summary["forecast"]:
            lines.append(f"  {summary['forecast']['text']}")
    return "\n".join(lines)



def fail(message: str) -> int:
    """Say ``message`` as an error on standard error; the exit status of bad input (2)."""
    print(f"error: {message}", file=sys.stderr)
    return 2
