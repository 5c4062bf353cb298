"""Hypothesis: valid lines mixed with random bytes, split anywhere. Every valid message
comes out once and in order; nothing else does; nothing crashes."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_bridge.framing import Rejected, frame
from firmware_bridge.messages import SEQ_MODULO, Heartbeat, Hello, Roll
from firmware_bridge.parser import Parser
from firmware_bridge.virtual_dice import VirtualDice

faces = st.tuples(*[st.integers(1, 6)] * 5)
HELLO = Hello(1, "fuzz", "1.0", 5)


@st.composite
def streams(draw) -> tuple[list[bytes], list]:
    """(chunks of a byte stream, the valid messages in it that must come out)."""
    parts: list[bytes] = [frame(HELLO.body())]
    expected: list = [HELLO]
    seq = draw(st.integers(0, SEQ_MODULO - 1))
    sent: list[bytes] = []  # ROLL lines since the last HELLO
    for kind in draw(st.lists(st.sampled_from(["roll", "junk", "dup", "hb", "hello"]), max_size=40)):
        if kind == "junk":
            parts.append(draw(st.binary(max_size=300)))
        elif kind == "dup" and sent:
            parts.append(draw(st.sampled_from(sent)))
        elif kind == "hello":
            parts.append(frame(HELLO.body()))
            expected.append(HELLO)
            seq, sent = draw(st.integers(0, SEQ_MODULO - 1)), []
        elif kind in ("roll", "hb"):
            seq = (seq + draw(st.integers(1, 4))) % SEQ_MODULO
            message = Roll(seq, draw(faces)) if kind == "roll" else Heartbeat(seq, draw(st.integers(0, 10**9)))
            parts.append(frame(message.body()).replace(b"\n", draw(st.sampled_from([b"\n", b"\r\n"]))))
            expected.append(message)
            if kind == "roll":
                sent.append(parts[-1])
    stream = b"".join(parts)
    cuts = sorted(draw(st.lists(st.integers(0, len(stream)), max_size=12)))
    return [stream[a:b] for a, b in zip([0, *cuts], [*cuts, len(stream)])], expected


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(streams())
def test_valid_messages_come_out_exactly_once_among_garbage(case):
    chunks, expected = case
    parser = Parser()
    out = [item for chunk in chunks for item in parser.feed(chunk)]
    assert [x for x in out if not isinstance(x, Rejected)] == expected
    assert sum(parser.rejects.values()) == sum(isinstance(x, Rejected) for x in out)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=400), max_size=8))
def test_random_bytes_never_make_a_message(chunks):
    parser = Parser()
    parser.feed(frame(HELLO.body()))
    out = [item for chunk in chunks for item in parser.feed(chunk)]
    assert all(isinstance(x, Rejected) for x in out)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 2**32),
    st.lists(st.sampled_from(["roll", "roll", "bad_crc", "truncated", "junk", "duplicate", "reboot"]), max_size=30),
)
def test_the_emulated_faults_never_change_the_counted_rolls(seed, actions):
    dice, parser, intact = VirtualDice(seed), Parser(), []
    stream = dice.boot(0.0)
    for action in actions:
        if action == "roll":
            roll, data = dice.roll()
            intact.append(roll)
        elif action in ("bad_crc", "truncated"):
            _, data = getattr(dice, f"{action}_roll")()
        else:
            data = dice.reboot(1.0) if action == "reboot" else getattr(dice, action)()
        stream += data
    last, data = dice.roll()  # its "$" also ends any cut-short line before it
    rolls = [x for x in parser.feed(stream + data) if isinstance(x, Roll)]
    assert rolls == [*intact, last]
