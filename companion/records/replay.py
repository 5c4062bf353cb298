"""Replaying a record: every event checked against the rules, in order."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.records.format import BadLine, Header, Record, RecordError
from companion.rules.violations import IllegalMove


@dataclass(slots=True)
class Replay:
    """The outcome of a replay: the state reached, the moves accepted and the first error, if any."""

    state: Any
    moves: list[Any] = field(default_factory=list)
    error: RecordError | None = None
    rule: str | None = None
    """Id of the broken rule when the error is an illegal move."""


def replay(record: Record) -> Replay:
    """Replay ``record``; stops at the first bad event, keeping the state up to it.

    ``RecordError`` (line 1) if the header cannot start a game.
    """
    from companion.games import game_kind

    header = record.header
    try:
        kind = game_kind(header.game)
        state = kind.new_state(header)
    except ValueError as exc:
        raise RecordError(1, str(exc)) from None
    result = Replay(state)
    for line, data in record.events:
        if isinstance(data, BadLine):
            result.error = RecordError(line, data.message)
            break
        try:
            move = kind.move_from_dict(data)
            result.moves.append(kind.push(state, move))
        except IllegalMove as exc:
            result.error, result.rule = RecordError(line, exc.violation.message), exc.violation.rule
            break
        except ValueError as exc:
            result.error = RecordError(line, str(exc))
            break
    return result


def replay_log(header: Header, events: list[dict[str, Any]]) -> Replay:
    """Replay a stored event log, numbering events as the lines of its record (the header is line 1)."""
    return replay(Record(header, tuple(enumerate(events, start=2))))
