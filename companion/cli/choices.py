"""What may happen now, numbered for the terminal, and ``do N`` to make one of those moves.

The moves and their sentences come from the engine (``GameState.legal_moves``), so a
variant's or a module's moves can be entered without a command of their own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.rules import GameState, LegalMove
from companion.rules.legal import Choice

ANY_TIME = ("harvest", "buy-field")
"""Moves any player may make at any time: left out of the list (``harvest`` and ``buy`` enter them)."""


def listed_moves(state: GameState) -> list[LegalMove]:
    """The moves of whoever must act now, in the engine's order."""
    return [m for seat in state.to_act() for m in state.legal_moves(seat) if m.type not in ANY_TIME]


def menu(state: GameState) -> str:
    """The numbered list ``do N`` picks from."""
    moves = listed_moves(state)
    if not moves:
        return ""
    names = state.names
    lines = ["  now:"] + [f"   do {i + 1}: {names[m.fields['player']]}: {m.text}" for i, m in enumerate(moves)]
    return "\n".join(lines)


def chosen_move(state: GameState, words: list[str], ask: Callable[[str], str]) -> dict[str, Any]:
    """The event for ``do N``, asking for each open choice; ``ValueError`` says what is wrong."""
    moves = listed_moves(state)
    if len(words) != 1 or not words[0].isdecimal() or not 1 <= int(words[0]) <= len(moves):
        raise ValueError(f"do N, with N from 1 to {len(moves)}" if moves else "nothing to do now")
    move = moves[int(words[0]) - 1]
    event: dict[str, Any] = {"type": move.type, **move.fields}
    for name, choice in move.choose.items():
        event[name] = _answer(name, choice, ask)
    return event


def _answer(name: str, choice: Choice, ask: Callable[[str], str]) -> Any:
    shown = ", ".join(_shown(name, o) for o in choice.options)
    if not choice.many:
        return _one(name, choice, ask(f"  {name} ({shown}): "))
    count = f"{choice.exactly} " if choice.exactly is not None else ""
    typed = ask(f"  {name}: {count}of {shown}, separated by spaces: ").split()
    return [_one(name, choice, word) for word in typed]


def _shown(name: str, option: Any) -> str:
    return str(option + 1) if isinstance(option, int) and (name.endswith("field") or name == "at") else str(option)


def _one(name: str, choice: Choice, word: str) -> Any:
    for option in choice.options:
        if word.strip().lower() == _shown(name, option).lower():
            return option
    raise ValueError(f"{name} must be one of {', '.join(_shown(name, o) for o in choice.options)}, not {word!r}")
