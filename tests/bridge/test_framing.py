"""Framing: CRC, ``$BODY*CRC`` lines and the stream splitter's resynchronisation."""

from __future__ import annotations

import pytest

from firmware_bridge.framing import MAX_LINE, LineSplitter, Reason, Rejected, crc16, frame, unframe


def test_crc_is_ccitt_false():
    assert crc16(b"123456789") == 0x29B1  # the catalogue check value of CRC-16/CCITT-FALSE
    assert crc16(b"") == 0xFFFF


def test_frame_round_trips_with_uppercase_hex_crc():
    line = frame("ROLL,7,1,2,3,4,5")
    assert line == b"$ROLL,7,1,2,3,4,5*%04X\n" % crc16(b"ROLL,7,1,2,3,4,5")
    assert line[-5:-1].upper() == line[-5:-1]
    assert unframe(line) == b"ROLL,7,1,2,3,4,5"
    assert unframe(line[:-1] + b"\r\n") == b"ROLL,7,1,2,3,4,5"


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"$ROLL,7,1,2,3,4,5\n", Reason.MALFORMED),  # no CRC
        (b"$ROLL,7,1,2,3,4,5*12G4\n", Reason.MALFORMED),  # not hex
        (frame("HB,1,5").lower(), Reason.MALFORMED),  # lowercase hex digits
        (b"$HB,1,5*123\n", Reason.MALFORMED),
        (frame("HB,1,5").replace(b"HB,1,5", b"HB,1,6"), Reason.BAD_CRC),
        (b"$" + b"A" * MAX_LINE + b"*0000\n", Reason.TOO_LONG),
    ],
)
def test_unframe_rejects(line, reason):
    with pytest.raises(Rejected) as caught:
        unframe(line)
    assert caught.value.reason == reason


def test_splitter_skips_junk_and_resynchronises_on_dollar():
    good = frame("HB,1,5")
    out = LineSplitter().feed(b"noise\n\x00\xff" + b"$HALF LINE" + good + b"more junk" + good)
    assert [x if isinstance(x, bytes) else x.reason for x in out] == [Reason.MALFORMED, good, good]


def test_splitter_joins_lines_across_chunks():
    splitter, good = LineSplitter(), frame("HB,1,5")
    out = [item for byte in good for item in splitter.feed(bytes([byte]))]
    assert out == [good]


def test_splitter_caps_a_flood_without_newline_and_recovers():
    splitter, good = LineSplitter(), frame("HB,1,5")
    out = splitter.feed(b"$" + b"x" * 10_000)
    out += splitter.feed(b"y" * 10_000 + b"\n" + good)
    assert [x if isinstance(x, bytes) else x.reason for x in out] == [Reason.TOO_LONG, good]


def test_line_length_limit_counts_dollar_to_newline():
    body = "ERR,1,9," + "x" * (MAX_LINE - 6 - len("ERR,1,9,") - 1)
    longest = frame(body)
    assert len(longest) == MAX_LINE
    assert LineSplitter().feed(longest) == [longest]
    assert unframe(longest) == body.encode()
    [reject] = LineSplitter().feed(frame(body + "x"))
    assert reject.reason == Reason.TOO_LONG


def test_reset_counts_a_half_line_only():
    splitter = LineSplitter()
    splitter.feed(b"junk without a start")
    assert splitter.reset() is None
    splitter.feed(b"$ROLL,1,2")
    assert splitter.reset().reason == Reason.MALFORMED
    assert splitter.feed(frame("HB,1,5")) == [frame("HB,1,5")]
