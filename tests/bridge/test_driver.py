"""The driver's handshake, keep-alive and backoff, on an injected clock (no sleeping)."""

from __future__ import annotations

import pytest

from companion.dice.config import DEFAULT_DICE
from firmware_bridge.driver import Backoff, Driver, Incompatible, LinkLost, Timing
from firmware_bridge.framing import frame

HELLO_Q, STATE_Q, PING = frame("HELLO?"), frame("STATE?"), frame("PING")


@pytest.fixture
def driver() -> Driver:
    driver = Driver(DEFAULT_DICE)
    driver.opened(now=100.0)
    return driver


def online(driver: Driver, lines, now: float = 100.5) -> Driver:
    driver.received(lines.hello(), now)
    assert driver.take_outbox() == [STATE_Q]
    return driver


def test_waits_for_the_boot_hello_before_asking(driver):
    driver.poll(101.9)
    assert driver.take_outbox() == []
    driver.poll(102.0)
    assert driver.take_outbox() == [HELLO_Q]
    driver.poll(103.0)
    assert driver.take_outbox() == []
    driver.poll(104.0)
    assert driver.take_outbox() == [HELLO_Q]


def test_no_hello_within_the_handshake_timeout_loses_the_link(driver):
    driver.poll(105.9)
    with pytest.raises(LinkLost, match="no HELLO"):
        driver.poll(106.0)


def test_hello_brings_the_link_online_and_asks_for_the_state(driver, lines):
    online(driver, lines)
    assert driver.online and driver.hello.device == "test-dice"
    assert driver.received(frame("STATE,0,6,5,4,3,2"), 100.6) == []  # the state is not a roll
    assert driver.faces == (6, 5, 4, 3, 2)


def test_rolls_come_out_with_their_beans(driver, lines):
    online(driver, lines)
    [roll] = driver.received(lines.roll(3, 1, 2, 3, 4, 5) + lines.roll(3, 1, 2, 3, 4, 5), 101.0)
    assert (roll.seq, roll.faces) == (3, (1, 2, 3, 4, 5))
    assert list(roll.beans) == DEFAULT_DICE.beans([1, 2, 3, 4, 5])
    assert driver.faces == (1, 2, 3, 4, 5)


def test_ping_after_three_seconds_of_silence_then_offline_two_seconds_later(driver, lines):
    online(driver, lines, now=100.0)
    driver.poll(102.99)
    assert driver.take_outbox() == []
    driver.poll(103.0)
    assert driver.take_outbox() == [PING]
    driver.poll(104.0)
    assert driver.take_outbox() == []  # one PING per silence
    driver.poll(104.99)
    with pytest.raises(LinkLost, match="silent"):
        driver.poll(105.0)


def test_an_answer_to_the_ping_keeps_the_link(driver, lines):
    online(driver, lines, now=100.0)
    driver.poll(103.0)
    assert driver.take_outbox() == [PING]
    driver.received(frame("HB,1,3000"), 103.1)
    driver.poll(106.0)
    assert driver.take_outbox() == []
    driver.poll(106.1)
    assert driver.take_outbox() == [PING]
    driver.poll(108.0)  # 4.9 s after the heartbeat: still online


def test_garbage_does_not_count_as_a_sign_of_life(driver, lines):
    online(driver, lines, now=100.0)
    driver.received(b"$noise*0000\n" * 3, 104.0)
    with pytest.raises(LinkLost):
        driver.poll(105.0)


@pytest.mark.parametrize(
    ("hello", "message"),
    [((5, 2), "speaks protocol 2; this bridge speaks 1"), ((4, 1), "has 4 dice; the dice configuration has 5")],
)
def test_an_incompatible_device_is_refused(driver, lines, hello, message):
    with pytest.raises(Incompatible, match=message):
        driver.received(lines.hello(*hello), 100.2)
    assert not driver.online and driver.take_outbox() == []


def test_reconnect_needs_a_new_handshake_and_keeps_the_counts(driver, lines):
    online(driver, lines)
    driver.received(b"$bad*0000\n", 101.0)
    driver.closed()
    driver.opened(200.0)
    assert not driver.online
    assert driver.received(lines.roll(9), 200.1) == []
    online(driver, lines, now=200.2)
    assert driver.parser.rejects == {"bad_crc": 1, "no_hello": 1}


def test_backoff_doubles_up_to_the_maximum_and_resets():
    backoff = Backoff(Timing(backoff_initial=0.25, backoff_max=2.0))
    assert [backoff.next() for _ in range(6)] == [0.25, 0.5, 1.0, 2.0, 2.0, 2.0]
    backoff.reset()
    assert backoff.next() == 0.25
