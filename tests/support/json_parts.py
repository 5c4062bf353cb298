"""Fuzzing help: put a hostile value into any part of a JSON-like value."""

from __future__ import annotations

from typing import Any


def inject(value: Any, replacement: Any, pick: int) -> Any:
    """``value`` with ``replacement`` in place of one of its parts (chosen by ``pick``), or instead of it."""
    slots: list[tuple[Any, Any]] = []
    stack = [value]
    while stack:
        item = stack.pop()
        keys = list(item) if isinstance(item, dict) else range(len(item)) if isinstance(item, list) else []
        for key in keys:
            slots.append((item, key))
            stack.append(item[key])
    if not slots or pick % (len(slots) + 1) == len(slots):
        return replacement
    parent, key = slots[pick % (len(slots) + 1)]
    parent[key] = replacement
    return value
