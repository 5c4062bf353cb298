"""End-to-end contract: the bridge against the emulator over every backend.

The same tests run over a real pseudo-terminal and over ``socket://``; each asserts
the exact list of counted rolls against the rolls the emulator delivered intact.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.dice.config import DEFAULT_DICE
from firmware_bridge.bridge import DiceBridge
from firmware_bridge.driver import Timing
from firmware_bridge.emulator import Emulator, PtyEmulator, SocketEmulator
from firmware_bridge.transport import FixedPort
from firmware_bridge.virtual_dice import VirtualDice

# Real-time timers kept short for reconnects, long enough for a loaded machine.
FAST = Timing(hello_wait=0.5, handshake_timeout=5.0, backoff_initial=0.05, backoff_max=0.4)
BACKENDS = {"pty": PtyEmulator, "socket": SocketEmulator}


@pytest.fixture(params=sorted(BACKENDS))
def make_emulator(request) -> Iterator:
    started: list[Emulator] = []

    def make(**dice_options) -> Emulator:
        emulator = BACKENDS[request.param](VirtualDice(seed=7, **dice_options)).start()
        started.append(emulator)
        return emulator

    yield make
    for emulator in started:
        emulator.close()


@pytest.fixture
def emulator(make_emulator) -> Emulator:
    return make_emulator()


@pytest.fixture
def bridge(emulator, events) -> Iterator[DiceBridge]:
    with DiceBridge(FixedPort(emulator.url), events, timing=FAST) as bridge:
        events.wait_state("online")
        events.wait(lambda _: bridge.status.faces is not None, what="the STATE answer")
        yield bridge


def roll_and_wait(emulator: Emulator, events, times: int = 1) -> None:
    """Roll ``times`` times; wait until the bridge counted every delivered roll."""
    for _ in range(times):
        assert emulator.roll() is not None
    events.wait(lambda ev: len(ev.rolls) >= len(emulator.delivered), what=f"{len(emulator.delivered)} rolls")


def counted(events) -> list[tuple[int, tuple[int, ...]]]:
    return [(r.seq, r.faces) for r in events.rolls]


def delivered(emulator: Emulator) -> list[tuple[int, tuple[int, ...]]]:
    return [(r.seq, r.faces) for r in emulator.delivered]


def test_each_roll_is_counted_once_and_the_state_is_not_a_roll(emulator, bridge, events):
    assert bridge.status.faces == emulator.dice.faces and events.rolls == []
    status = bridge.status
    shown = (status.connected, status.device, status.firmware, status.port)
    assert shown == (True, "emulated-dice", "emu-1.0", emulator.url)
    roll_and_wait(emulator, events, times=5)
    assert counted(events) == delivered(emulator) and len(events.rolls) == 5
    assert [list(r.beans) for r in events.rolls] == [DEFAULT_DICE.beans(list(r.faces)) for r in events.rolls]
    assert bridge.status.rejects == {} and bridge.status.last_seen is not None


@pytest.mark.parametrize(
    ("fault", "rejects"),
    [
        ("bad_crc", {"bad_crc": 1}),
        ("truncated", {"malformed": 1}),
        ("duplicate", {"duplicate": 1}),
        ("junk", None),  # seeded noise: whatever it holds, it is no roll
    ],
)
def test_a_fault_is_rejected_and_counted_never_a_roll(emulator, bridge, events, fault, rejects):
    roll_and_wait(emulator, events)
    emulator.fault(fault)
    roll_and_wait(emulator, events)  # the marker: everything before it has been parsed
    assert counted(events) == delivered(emulator) and len(events.rolls) == 2
    assert bridge.status.connected
    if rejects is not None:
        assert bridge.status.rejects == rejects
        assert events.statuses[-1].rejects == rejects  # the change was published


def test_every_fault_mid_stream_including_a_reboot(emulator, bridge, events):
    for fault in ["junk", "bad_crc", "duplicate", "truncated", "reboot", "duplicate", "junk", "bad_crc"]:
        roll_and_wait(emulator, events)
        emulator.fault(fault)
    roll_and_wait(emulator, events, times=2)
    assert counted(events) == delivered(emulator) and len(events.rolls) == 10
    assert len(emulator.lost) == 3  # two bad CRCs and a cut-short line
    seqs = [seq for seq, _ in counted(events)]
    assert seqs[5] < seqs[4]  # the reboot restarted the sequence and its rolls still count
    rejects = bridge.status.rejects
    assert rejects["bad_crc"] >= 2 and rejects["malformed"] >= 1 and rejects["duplicate"] == 2


def test_unplug_and_replug_mid_stream(emulator, bridge, events):
    roll_and_wait(emulator, events, times=2)
    mark = len(events.statuses)
    emulator.fault("unplug")
    offline = events.wait_state("offline", after=mark)
    assert offline.message.startswith("dice offline") and not bridge.status.connected
    assert emulator.roll() is None  # rolled while unplugged: nobody to tell
    mark = len(events.statuses)
    emulator.fault("replug")
    events.wait_state("online", after=mark)
    roll_and_wait(emulator, events, times=2)
    assert counted(events) == delivered(emulator) and len(events.rolls) == 4
    assert len(emulator.lost) == 1


def test_silent_dice_are_pinged_then_offline_and_recover(make_emulator, events):
    emulator = make_emulator()
    timing = Timing(hello_wait=0.5, ping_after=0.3, offline_after=0.3, backoff_initial=0.05)
    with DiceBridge(FixedPort(emulator.url), events, timing=timing) as bridge:
        events.wait_state("online")
        roll_and_wait(emulator, events)
        mark = len(events.statuses)
        emulator.fault("hang")
        assert "silent" in events.wait_state("offline", after=mark).error
        events.wait_state("online", after=mark)  # the reopen resets the board
        roll_and_wait(emulator, events)
        assert counted(events) == delivered(emulator) and len(events.rolls) == 2
        assert bridge.status.connected


@pytest.mark.parametrize(
    ("dice_options", "message"), [({"major": 2}, "speaks protocol 2"), ({"dice_count": 6}, "has 6 dice")]
)
def test_an_incompatible_device_is_refused_with_a_clear_error(make_emulator, events, dice_options, message):
    emulator = make_emulator(**dice_options)
    with DiceBridge(FixedPort(emulator.url), events, timing=FAST) as bridge:
        status = events.wait_state("error")
        assert message in status.error and message in status.message
        emulator.roll()
        assert not bridge.status.connected and events.rolls == []


def test_a_failing_listener_does_not_stop_the_bridge(emulator, events):
    def flaky(event) -> None:
        events(event)
        raise RuntimeError("listener bug")

    with DiceBridge(FixedPort(emulator.url), flaky, timing=FAST):
        events.wait_state("online")
        roll_and_wait(emulator, events, times=2)
        assert counted(events) == delivered(emulator)


def test_usb_vid_pid_finds_the_dice_when_the_node_changes(events, tmp_path):
    from serial.tools.list_ports_common import ListPortInfo

    from firmware_bridge.transport import UsbPort

    def port(device: str, vid: int, pid: int) -> ListPortInfo:
        info = ListPortInfo(device, skip_link_detection=True)
        info.vid, info.pid = vid, pid
        return info

    with PtyEmulator(VirtualDice(seed=3), link=tmp_path / "ttyACM0") as emulator:
        comports = lambda: [port("/dev/ttyOTHER", 0x1234, 0x43), port(emulator.url, 0x2341, 0x43)]  # noqa: E731
        with DiceBridge(UsbPort(0x2341, 0x43, comports), events, timing=FAST) as bridge:
            events.wait_state("online")
            assert bridge.status.port == str(tmp_path / "ttyACM0")
            roll_and_wait(emulator, events)
            mark = len(events.statuses)
            emulator.fault("unplug")
            events.wait_state("offline", after=mark)
            emulator.link = tmp_path / "ttyACM1"  # the board comes back under another node
            emulator.fault("replug")
            events.wait_state("online", after=mark)
            roll_and_wait(emulator, events)
            assert bridge.status.port == str(tmp_path / "ttyACM1")
            assert not (tmp_path / "ttyACM0").exists()
            assert counted(events) == delivered(emulator) and len(events.rolls) == 2


def test_no_matching_usb_port_is_offline_and_says_so(events):
    from firmware_bridge.transport import UsbPort

    with DiceBridge(UsbPort(0x2341, 0x43, lambda: []), events, timing=FAST):
        status = events.wait_state("offline")
        events.wait(lambda ev: ev.statuses[-1].error is not None, what="an error")
        assert events.statuses[-1].message == "dice offline: no dice at usb:2341:0043"
        assert status.port == "usb:2341:0043"


def test_an_unknown_fault_is_refused(emulator):
    with pytest.raises(ValueError, match="unknown fault 'melt'; one of bad_crc"):
        emulator.fault("melt")
