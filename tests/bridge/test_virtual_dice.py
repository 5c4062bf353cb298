"""The virtual dice (the emulator's core), checked through the host's own parser."""

from __future__ import annotations

from firmware_bridge.framing import frame
from firmware_bridge.messages import DeviceError, Heartbeat, Hello, Roll, Rolling, State
from firmware_bridge.parser import Parser
from firmware_bridge.virtual_dice import VirtualDice


def test_the_dice_answer_every_host_command():
    dice, parser = VirtualDice(seed=1, device="d", firmware="f"), Parser()
    assert parser.feed(dice.boot(now=10.0)) == [Hello(1, "d", "f", 5)]
    faces = dice.faces
    replies = dice.answer(frame("STATE?") + frame("PING") + frame("ROLL?") + b"$PING*0000\n", now=12.5)
    assert parser.feed(replies) == [
        State(0, faces),
        Heartbeat(1, 2500),
        DeviceError(2, 1, "unknown_type"),
        DeviceError(3, 2, "bad_crc"),
    ]
    assert parser.feed(dice.answer(frame("HELLO?"), now=13.0) + dice.answer(frame("PING"), now=13.0)) == [
        Hello(1, "d", "f", 5),
        Heartbeat(0, 3000),  # a HELLO restarts the sequence
    ]


def test_same_seed_same_rolls_and_each_roll_is_announced():
    first, second = VirtualDice(seed=42), VirtualDice(seed=42)
    first.boot(0.0)
    second.boot(0.0)
    rolls = [first.roll() for _ in range(20)]
    assert rolls == [second.roll() for _ in range(20)]
    assert len({roll.faces for roll, _ in rolls}) > 1
    parser = Parser()
    parser.feed(frame(first.hello.body()))
    roll, data = rolls[0]
    assert parser.feed(data) == [Rolling(0, 0b11111), roll]
    assert isinstance(roll, Roll) and all(1 <= face <= 6 for face in roll.faces)


def test_after_a_hello_the_last_roll_is_not_resent():
    dice = VirtualDice(seed=5)
    dice.boot(0.0)
    _, data = dice.roll()
    assert dice.duplicate() == data[data.rindex(b"$") :]
    dice.answer(frame("HELLO?"), now=1.0)
    assert dice.duplicate() == b""
