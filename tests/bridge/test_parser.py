"""The pure parser on fixed byte strings: messages, every reject reason, the seq rules."""

from __future__ import annotations

import pytest

from firmware_bridge.framing import Reason, Rejected, frame
from firmware_bridge.messages import DeviceError, Heartbeat, Hello, Roll, Rolling, State, decode_host
from firmware_bridge.parser import Parser, is_newer


def feed(*chunks: bytes, parser: Parser | None = None) -> tuple[list, Parser]:
    parser = parser or Parser()
    return [item for chunk in chunks for item in parser.feed(chunk)], parser


def comparable(items: list) -> list:
    """Rejects as their reasons (exceptions do not compare equal)."""
    return [x.reason if isinstance(x, Rejected) else x for x in items]


def test_a_session_decodes_every_message_type(lines):
    stream = (
        lines.hello()
        + frame("STATE,0,6,6,6,6,6")
        + frame("ROLLING,1,31")
        + lines.roll(2, 1, 2, 3, 4, 5)
        + frame("HB,3,12345")
        + frame("ERR,4,7,die 3 tilted, retry")
    )
    out, parser = feed(stream)
    assert out == [
        Hello(1, "test-dice", "fw-1", 5),
        State(0, (6, 6, 6, 6, 6)),
        Rolling(1, 31),
        Roll(2, (1, 2, 3, 4, 5)),
        Heartbeat(3, 12345),
        DeviceError(4, 7, "die 3 tilted, retry"),
    ]
    assert not parser.rejects


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"$ROLL,5,1,2,3,4,5*12345\n", Reason.MALFORMED),
        (frame("ROLL,5,1,2,3,4,5")[:-3] + b"00\n", Reason.BAD_CRC),
        (frame("ROLL,5,1,2,0,4,5"), Reason.BAD_FACE),
        (frame("ROLL,5,1,2,7,4,5"), Reason.BAD_FACE),
        (frame("STATE,5,1,2,9,4,5"), Reason.BAD_FACE),
        (frame("ROLL,5,1,2,3,4"), Reason.MALFORMED),  # four faces from five dice
        (frame("ROLL,5,1,2,x,4,5"), Reason.MALFORMED),
        (frame("ROLL,5"), Reason.MALFORMED),
        (frame("ROLL,65536,1,2,3,4,5"), Reason.MALFORMED),  # seq out of range
        (frame("ROLL,-1,1,2,3,4,5"), Reason.MALFORMED),
        (frame("HB,5"), Reason.MALFORMED),
        (frame("HELLO,1,name,fw"), Reason.MALFORMED),
        (frame(b"ROLL,5,1,2,3,4,\xb5"), Reason.MALFORMED),
        (frame("FOO,5,1"), Reason.UNKNOWN_TYPE),
        (frame("PING"), Reason.UNKNOWN_TYPE),  # a host command is not a device message
        (b"$" + b"9" * 200 + b"\n", Reason.TOO_LONG),
    ],
)
def test_each_bad_line_is_rejected_and_counted(line, reason, lines):
    out, parser = feed(lines.hello(), line, lines.roll(9))
    assert [type(x).__name__ for x in out] == ["Hello", "Rejected", "Roll"]
    assert out[1].reason == reason
    assert parser.rejects == {reason: 1}


def test_rolls_before_any_hello_are_not_counted(lines):
    out, parser = feed(lines.roll(1) + frame("STATE,2,1,1,1,1,1") + frame("HB,3,10"))
    assert [x.reason for x in out[:2]] == [Reason.NO_HELLO, Reason.NO_HELLO]
    assert out[2] == Heartbeat(3, 10)
    assert parser.rejects == {Reason.NO_HELLO: 2}


def test_a_roll_not_newer_than_the_newest_seq_is_a_duplicate(lines):
    out, parser = feed(lines.hello(), lines.roll(5), lines.roll(5), frame("HB,6,1"), lines.roll(6), lines.roll(3),
                       lines.roll(7))
    assert [x.seq for x in out if isinstance(x, Roll)] == [5, 7]
    assert parser.rejects == {Reason.DUPLICATE: 3}


def test_seq_wraps_around(lines):
    out, _ = feed(lines.hello(), lines.roll(65534), lines.roll(65535), lines.roll(0), lines.roll(1), lines.roll(65535))
    assert [x.seq for x in out if isinstance(x, Roll)] == [65534, 65535, 0, 1]
    assert is_newer(0, 65535) and is_newer(100, 65000) and not is_newer(65000, 100)


def test_a_hello_starts_a_new_sequence(lines):
    out, parser = feed(lines.hello(), lines.roll(40), lines.roll(41), lines.hello(), lines.roll(1), lines.roll(1))
    assert [x.seq for x in out if isinstance(x, Roll)] == [40, 41, 1]
    assert parser.rejects == {Reason.DUPLICATE: 1}


def test_the_hello_sets_the_dice_count(lines):
    out, parser = feed(lines.hello(dice_count=3), lines.roll(1, 1, 2, 3), lines.roll(2, 1, 2, 3, 4, 5))
    assert [type(x).__name__ for x in out] == ["Hello", "Roll", "Rejected"]
    assert parser.rejects == {Reason.MALFORMED: 1}


def test_byte_at_a_time_gives_the_same_result(lines):
    stream = b"\x00junk" + lines.hello() + b"$ROLL,1," + lines.roll(2) + frame("HB,3,9")[:-1] + b"\r\n" + lines.roll(4)
    whole, _ = feed(stream)
    split, _ = feed(*(bytes([b]) for b in stream))
    assert comparable(whole) == comparable(split)
    assert Reason.MALFORMED in comparable(whole)
    assert [x.seq for x in whole if isinstance(x, Roll)] == [2, 4]


def test_disconnect_drops_the_half_line_and_needs_a_new_hello(lines):
    parser = Parser()
    feed(lines.hello(), lines.roll(1)[:8], parser=parser)
    parser.disconnected()
    out, _ = feed(lines.roll(2)[4:], lines.roll(3), parser=parser)  # the rest of a line from before, then a roll
    assert [x.reason for x in out if isinstance(x, Rejected)] == [Reason.NO_HELLO]
    assert parser.rejects == {Reason.MALFORMED: 1, Reason.NO_HELLO: 1}


def test_host_commands_decode():
    assert decode_host(b"STATE?") == "STATE?"
    with pytest.raises(Rejected) as caught:
        decode_host(b"ROLL?")
    assert caught.value.reason == Reason.UNKNOWN_TYPE
