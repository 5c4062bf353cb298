"""Dice bridge benchmark: parser throughput and pty-to-event roll latency.

Machines are shared and noisy, so each figure is printed next to a baseline measured
in the same run, and as a ratio to it:

- parser: lines per second through ``Parser.feed`` vs. a bare ``bytes.split`` loop over
  the same chunks (the least any line parser must do);
- latency: from a ROLL written on the emulator's pty to the ``DiceRoll`` event the
  companion receives from the bridge, vs. a bare pty write-to-read by a waiting thread.

Target: median latency under 20 ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time
import tty
from collections.abc import Callable

from firmware_bridge.bridge import open_dice
from firmware_bridge.events import DiceRoll, Event
from firmware_bridge.framing import frame
from firmware_bridge.messages import Heartbeat, Hello, Roll
from firmware_bridge.parser import Parser

CHUNK = 4096


def make_stream(lines: int) -> list[bytes]:
    """A device stream of ``lines`` lines (mostly ROLL, some HB), cut into serial-sized chunks."""
    data = bytearray(frame(Hello(1, "bench", "1.0", 5).body()))
    for seq in range(lines - 1):
        faces = tuple(1 + (seq + die) % 6 for die in range(5))
        message = Heartbeat(seq % 65536, seq) if seq % 10 == 9 else Roll(seq % 65536, faces)
        data += frame(message.body())
    return [bytes(data[i : i + CHUNK]) for i in range(0, len(data), CHUNK)]


def best_time(run: Callable[[], int], repeats: int) -> tuple[float, int]:
    """The fastest of ``repeats`` runs, and what the run returned."""
    times, result = [], 0
    for _ in range(repeats):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return min(times), result


def bench_parser(lines: int, repeats: int) -> None:
    chunks = make_stream(lines)

    def split_loop() -> int:
        count = 0
        for chunk in chunks:
            for _ in chunk.split(b"\n"):
                count += 1
        return count

    def parse() -> int:
        parser = Parser()
        return sum(len(parser.feed(chunk)) for chunk in chunks)

    base_s, _ = best_time(split_loop, repeats)
    parse_s, parsed = best_time(parse, repeats)
    assert parsed == lines, f"parsed {parsed} of {lines} lines"
    print(f"parser: {lines / parse_s:,.0f} lines/s ({lines} lines, best of {repeats})")
    print(f"  baseline bytes.split loop: {lines / base_s:,.0f} lines/s")
    print(f"  ratio parser/baseline: {parse_s / base_s:.1f}x the time of a bare split")


def pty_baseline(samples: int, gap_s: float) -> list[float]:
    """Seconds from a line written on a pty master to a waiting reader having it."""
    master, slave = os.openpty()
    tty.setraw(slave)
    got, stamps, line = threading.Event(), [], frame("ROLL,1,1,2,3,4,5")

    def reader() -> None:
        received = b""
        while len(stamps) < samples:
            received += os.read(slave, 4096)
            while b"\n" in received:
                _, _, received = received.partition(b"\n")
                stamps.append(time.perf_counter())
                got.set()

    threading.Thread(target=reader, daemon=True).start()
    latencies = []
    for _ in range(samples):
        got.clear()
        start = time.perf_counter()
        os.write(master, line)
        if not got.wait(5):
            raise TimeoutError("pty baseline line never arrived")
        latencies.append(stamps[-1] - start)
        time.sleep(gap_s)
    os.close(master)
    os.close(slave)
    return latencies


def bridge_latency(samples: int, gap_s: float) -> list[float]:
    """Seconds from a ROLL written on the emulator's pty to the bridge's roll event."""
    got, stamps, online = threading.Event(), [], threading.Event()

    def on_event(event: Event) -> None:
        if isinstance(event, DiceRoll):
            stamps.append(time.perf_counter())
            got.set()
        elif event.connected:
            online.set()

    bridge = open_dice("emulate", on_event, seed=1)
    try:
        if not online.wait(10):
            raise TimeoutError("the emulated dice did not come online")
        latencies = []
        for _ in range(samples):
            got.clear()
            start = time.perf_counter()
            if bridge.emulator.roll() is None:
                raise RuntimeError("roll not delivered")
            if not got.wait(5):
                raise TimeoutError("roll event never arrived")
            latencies.append(stamps[-1] - start)
            time.sleep(gap_s)
        return latencies
    finally:
        bridge.close()


def describe(name: str, latencies: list[float]) -> float:
    median = statistics.median(latencies)
    p95 = statistics.quantiles(latencies, n=20)[-1]
    print(f"  {name}: median {median * 1000:.3f} ms, p95 {p95 * 1000:.3f} ms ({len(latencies)} rolls)")
    return median


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--lines", type=int, default=200_000, help="lines for the parser benchmark")
    args.add_argument("--rolls", type=int, default=200, help="rolls for the latency benchmark")
    args.add_argument("--repeats", type=int, default=3)
    options = args.parse_args()
    bench_parser(options.lines, options.repeats)
    print("latency: ROLL written on the pty -> roll event")
    base = describe("baseline bare pty write->read", pty_baseline(options.rolls, 0.002))
    bridge = describe("bridge (emulator pty -> DiceRoll callback)", bridge_latency(options.rolls, 0.002))
    verdict = "meets" if bridge < 0.020 else "MISSES"
    print(f"  ratio bridge/baseline median: {bridge / base:.1f}x; {verdict} the 20 ms median target")


if __name__ == "__main__":
    main()
