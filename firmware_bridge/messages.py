"""The messages of protocol v1 as values, with their body encoding and decoding.

Device to host: HELLO, ROLLING, ROLL, STATE, HB, ERR. Host to device: HELLO?, STATE?, PING.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, cast

from firmware_bridge.framing import Reason, Rejected

PROTOCOL_MAJOR = 1
SEQ_MODULO = 1 << 16
FACES = range(1, 7)

HELLO_QUERY = "HELLO?"
STATE_QUERY = "STATE?"
PING = "PING"
HOST_COMMANDS = frozenset({HELLO_QUERY, STATE_QUERY, PING})


class Message:
    """Base of the device messages: ``body()`` is the type, then the fields in order."""

    __slots__ = ()
    TYPE: ClassVar[str]

    def body(self) -> str:
        fields: list[str] = [self.TYPE]
        for value in (getattr(self, f.name) for f in dataclasses.fields(cast(Any, self))):
            fields.extend(map(str, value) if isinstance(value, tuple) else [str(value)])
        return ",".join(fields)


@dataclass(frozen=True, slots=True)
class Hello(Message):
    """The device introduces itself (at boot and in answer to ``HELLO?``); no seq."""

    TYPE = "HELLO"

    major: int
    device: str
    firmware: str
    dice_count: int


@dataclass(frozen=True, slots=True)
class Rolling(Message):
    """Some dice are moving; bit ``i`` of ``moving`` is die ``i`` (die order, first = bit 0)."""

    TYPE = "ROLLING"

    seq: int
    moving: int


@dataclass(frozen=True, slots=True)
class Roll(Message):
    """The dice came to rest: a new roll, one face index (1-6) per die in die order."""

    TYPE = "ROLL"

    seq: int
    faces: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class State(Message):
    """What the dice show now, in answer to ``STATE?``; never a new roll."""

    TYPE = "STATE"

    seq: int
    faces: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Heartbeat(Message):
    """The device is alive (the answer to ``PING``)."""

    TYPE = "HB"

    seq: int
    uptime_ms: int


@dataclass(frozen=True, slots=True)
class DeviceError(Message):
    """The device reports a problem (e.g. a die that does not settle)."""

    TYPE = "ERR"

    seq: int
    code: int
    text: str


DeviceMessage = Hello | Rolling | Roll | State | Heartbeat | DeviceError


def decode_device(body: bytes) -> DeviceMessage:
    """The device message in a checked body; ``Rejected`` when it is not one."""
    try:
        text = body.decode("ascii")
    except UnicodeDecodeError:
        raise Rejected(Reason.MALFORMED, "body is not ASCII") from None
    kind, _, rest = text.partition(",")
    if kind == "HELLO":
        fields = rest.split(",")
        _expect(len(fields) == 4 and all(fields), text)
        return Hello(_number(fields[0], text), fields[1], fields[2], _number(fields[3], text))
    if kind == "ERR":
        fields = rest.split(",", 2)
        _expect(len(fields) == 3, text)
        return DeviceError(_seq(fields[0], text), _number(fields[1], text), fields[2])
    if kind not in _SEQUENCED:
        raise Rejected(Reason.UNKNOWN_TYPE, f"{kind[:16]!r}")
    fields = rest.split(",")
    seq = _seq(fields[0], text)
    if kind in ("ROLL", "STATE"):
        _expect(len(fields) > 1, text)
        if _FACE_FIELDS.issuperset(fields[1:]):  # the usual case, checked fast
            faces = tuple(map(int, fields[1:]))
        else:
            faces = tuple(_number(f, text) for f in fields[1:])
            if any(face not in FACES for face in faces):
                raise Rejected(Reason.BAD_FACE, text)
        return (Roll if kind == "ROLL" else State)(seq, faces)
    _expect(len(fields) == 2, text)
    return _SEQUENCED[kind](seq, _number(fields[1], text))


def decode_host(body: bytes) -> str:
    """The host command in a checked body (for device firmware and the emulator)."""
    text = body.decode("ascii", "replace")
    if text not in HOST_COMMANDS:
        raise Rejected(Reason.UNKNOWN_TYPE, f"{text[:16]!r}")
    return text


_FACE_FIELDS = frozenset(map(str, FACES))
_SEQUENCED: dict[str, Callable[[int, Any], DeviceMessage]] = {
    cls.TYPE: cls for cls in (Rolling, Roll, State, Heartbeat)
}


def _expect(condition: bool, text: str) -> None:
    if not condition:
        raise Rejected(Reason.MALFORMED, text)


def _number(field: str, text: str) -> int:
    """A decimal field: 1 to 10 ASCII digits (the body is already known to be ASCII)."""
    _expect(len(field) <= 10 and field.isdigit(), text)
    return int(field)


def _seq(field: str, text: str) -> int:
    seq = _number(field, text)
    _expect(seq < SEQ_MODULO, text)
    return seq
