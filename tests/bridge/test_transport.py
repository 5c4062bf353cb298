"""Transport over pyserial URLs, and the port locators."""

from __future__ import annotations

import pytest
from serial.tools.list_ports_common import ListPortInfo

from firmware_bridge.transport import FixedPort, SerialTransport, TransportError, UsbPort, locator_for


def test_loop_url_round_trips_bytes_and_read_times_out():
    transport = SerialTransport("loop://", poll_s=0.01)
    try:
        assert transport.read() == b""
        transport.write(b"$PING*6427\n" * 3)
        received = b""
        for _ in range(20):
            received += transport.read()
        assert received == b"$PING*6427\n" * 3
    finally:
        transport.close()
        transport.close()


def test_a_missing_port_is_a_transport_error(tmp_path):
    with pytest.raises(TransportError, match="cannot open .*nothing-here.*No such file"):
        SerialTransport(str(tmp_path / "nothing-here"))


def test_locator_specs():
    assert locator_for("/dev/ttyACM0") == FixedPort("/dev/ttyACM0")
    assert locator_for("socket://dice.local:7000").find() == "socket://dice.local:7000"
    usb = locator_for("usb:2341:8036")
    assert (usb.vid, usb.pid, str(usb)) == (0x2341, 0x8036, "usb:2341:8036")
    for bad in ("usb:2341", "usb:xyz:1", "usb:1:2:3"):
        with pytest.raises(ValueError, match="usb:VID:PID"):
            locator_for(bad)


def test_usb_locator_picks_the_matching_port_each_time():
    ports: list[ListPortInfo] = []

    def port(device: str, vid: int | None, pid: int | None) -> ListPortInfo:
        info = ListPortInfo(device, skip_link_detection=True)
        info.vid, info.pid = vid, pid
        return info

    usb = UsbPort(0x2341, 0x43, lambda: ports)
    assert usb.find() is None
    ports[:] = [port("/dev/ttyS0", None, None), port("/dev/ttyACM3", 0x2341, 0x43), port("/dev/ttyACM1", 0x2341, 0x44)]
    assert usb.find() == "/dev/ttyACM3"
    ports[1] = port("/dev/ttyACM0", 0x2341, 0x43)  # replugged: a new node
    assert usb.find() == "/dev/ttyACM0"
