"""The ``firmware-bridge`` command: ``emulate`` (virtual dice on a pty) and ``listen``."""

from __future__ import annotations

import argparse
import json
import os
import select
import signal
import sys
import termios
import threading
import tty
from collections.abc import Sequence
from typing import Any

from companion.dice.config import DEFAULT_DICE, load_dice
from firmware_bridge.bridge import EMULATE, open_dice
from firmware_bridge.emulator import Emulator, PtyEmulator, SocketEmulator
from firmware_bridge.events import DiceRoll, Event
from firmware_bridge.messages import PROTOCOL_MAJOR
from firmware_bridge.transport import BAUDRATE
from firmware_bridge.virtual_dice import VirtualDice

KEYS = {
    "r": "roll", " ": "roll", "\n": "roll", "\r": "roll",
    "c": "bad_crc", "j": "junk", "t": "truncated", "d": "duplicate",
    "b": "reboot", "h": "hang", "u": "unplug", "p": "replug", "q": "quit",
}  # fmt: skip
KEY_HELP = ("keys: r/space/enter roll, c bad CRC, j junk, t truncated, d duplicate, b reboot, h hang,"
            " u unplug, p plug in, q quit")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="firmware-bridge", description="Electronic bean dice: emulator and listener.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    emulate = commands.add_parser("emulate", help="virtual dice on a pseudo-terminal (or TCP port)")
    emulate.add_argument("--seed", type=int, help="random seed for the rolls")
    emulate.add_argument("--interval", type=float, help="roll every INTERVAL seconds")
    emulate.add_argument("--link", help="path of the symlink to the pty (default: a temporary one)")
    emulate.add_argument("--tcp", type=int, metavar="PORT", help="serve on socket://127.0.0.1:PORT instead of a pty")
    emulate.add_argument("--dice", type=int, default=len(DEFAULT_DICE.dice), help="number of dice")
    emulate.add_argument("--device", default="emulated-dice", help="device name in the HELLO")
    emulate.add_argument("--firmware", default="emu-1.0", help="firmware version in the HELLO")
    emulate.add_argument("--major", type=int, default=PROTOCOL_MAJOR, help="protocol major in the HELLO")
    emulate.set_defaults(func=run_emulate)

    listen = commands.add_parser("listen", help="print the rolls of dice on PORT")
    listen.add_argument("port", metavar="PORT", help=f"path, pyserial URL, usb:VID:PID or {EMULATE!r}")
    listen.add_argument("--json", action="store_true", help="one JSON object per line")
    listen.add_argument("--dice-config", help="dice configuration JSON (default: the standard dice)")
    listen.add_argument("--baud", type=int, default=BAUDRATE, help="baud rate of a real port")
    listen.add_argument("--seed", type=int, help=f"with {EMULATE!r}: random seed")
    listen.add_argument("--interval", type=float, help=f"with {EMULATE!r}: roll every INTERVAL seconds")
    listen.set_defaults(func=run_listen)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``firmware-bridge`` console script."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except ValueError as exc:
        print(f"firmware-bridge: {exc}", file=sys.stderr)
        return 2


def stop_on_signals() -> threading.Event:
    """An event set by SIGTERM or SIGINT (instead of dying mid-write)."""
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    return stop


def run_listen(args: argparse.Namespace) -> int:
    dice = load_dice(args.dice_config) if args.dice_config else DEFAULT_DICE
    stop = stop_on_signals()
    lock = threading.Lock()

    def show(event: Event) -> None:
        line = json.dumps(event.to_json()) if args.json else describe(event)
        with lock:
            print(line, flush=True)

    bridge = open_dice(args.port, show, dice=dice, baudrate=args.baud, seed=args.seed, interval=args.interval)
    if bridge.emulator is not None:
        print(f"emulated dice on {bridge.emulator.url}", file=sys.stderr, flush=True)
    while not stop.wait(0.2):
        pass
    bridge.close()
    sys.stdout.flush()
    return 0


def describe(event: Event) -> str:
    """A line for people."""
    if isinstance(event, DiceRoll):
        return f"roll {event.seq}: {' '.join(map(str, event.faces))} = {', '.join(event.beans)}"
    rejects = ", ".join(f"{reason} {count}" for reason, count in sorted(event.rejects.items()))
    return event.message + (f" (rejected: {rejects})" if rejects else "")


def run_emulate(args: argparse.Namespace) -> int:
    stop = stop_on_signals()  # before the pty emulator makes its temporary folder, so a SIGTERM removes it too
    dice = VirtualDice(args.seed, args.dice, args.device, args.firmware, args.major)
    emulator: Emulator
    if args.tcp is not None:
        emulator = SocketEmulator(dice, port=args.tcp, interval=args.interval)
    else:
        emulator = PtyEmulator(dice, link=args.link, interval=args.interval)
    with emulator:
        print(emulator.url, flush=True)
        print(KEY_HELP, file=sys.stderr, flush=True)
        with KeyReader(sys.stdin.fileno()) as keys:
            while not stop.is_set():
                for key in keys.read(0.1):
                    action = KEYS.get(key)
                    if action == "quit":
                        stop.set()
                    elif action:
                        print(_act(emulator, action), flush=True)
    return 0


def _act(emulator: Emulator, action: str) -> str:
    if action != "roll":
        emulator.fault(action)
        return f"fault: {action}"
    roll = emulator.roll()
    if roll is None:
        return f"rolled {' '.join(map(str, emulator.lost[-1].faces))} (not delivered: no host connected)"
    return f"rolled seq {roll.seq}: {' '.join(map(str, roll.faces))}"


class KeyReader:
    """Keypresses from a terminal (unbuffered) or characters from a pipe."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._saved: list[Any] | None = None
        self._eof = False

    def __enter__(self) -> KeyReader:
        if os.isatty(self._fd):
            self._saved = termios.tcgetattr(self._fd)
            tty.setcbreak(self._fd)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._saved is not None:
            termios.tcsetattr(self._fd, termios.TCSADRAIN, self._saved)

    def read(self, timeout: float) -> str:
        """The keys pressed within ``timeout`` seconds."""
        if self._eof:
            threading.Event().wait(timeout)
            return ""
        if not select.select([self._fd], [], [], timeout)[0]:
            return ""
        data = os.read(self._fd, 64)
        self._eof = not data
        return data.decode("utf-8", "replace")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
