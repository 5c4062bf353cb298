"""Reading and writing records as JSON Lines."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from companion.records.checked import JsonTextError, is_unicode, loads_checked
from companion.records.format import BadLine, Header, Record, RecordError


def loads_record(text: str) -> Record:
    """Parse a record; blank lines are skipped.

    ``RecordError`` for a bad header; a bad event line (invalid JSON, nested too deep, a
    number out of range, a lone surrogate) is kept as ``BadLine`` so that a replay can
    stop there with the state reached so far.
    """
    header: Header | None = None
    events: list[tuple[int, Any]] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            value = loads_checked(line)
        except JsonTextError as exc:
            if header is None:
                raise RecordError(number, str(exc)) from None
            value = BadLine(str(exc))
        if header is None:
            header = Header.from_dict(value, number)
        else:
            events.append((number, value))
    if header is None:
        raise RecordError(1, "the record is empty: it needs a header line")
    return Record(header, tuple(events))


def load_record(path: str | Path) -> Record:
    """Read a record file; ``OSError`` or ``RecordError`` on failure."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise RecordError(1, "the file is not UTF-8 text") from None
    return loads_record(text)


def dumps_record(header: Header, events: Iterable[dict[str, Any]]) -> str:
    """The text of a record: one compact JSON object per line."""
    lines = [_line(header.to_dict())] + [_line(e) for e in events]
    return "\n".join(lines) + "\n"


def _line(value: Any) -> str:
    """One compact JSON line; escaped to ASCII if it holds text that is not Unicode (from an older store)."""
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return text if is_unicode(text) else json.dumps(value, separators=(", ", ": "))


def write_record(path: str | Path, header: Header, events: Iterable[dict[str, Any]]) -> None:
    """Write a record atomically (a crash leaves the old file or the new one, never half)."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as out:
        out.write(dumps_record(header, events))
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, path)
