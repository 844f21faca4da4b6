"""The machine's own speed while a benchmark runs.

    python benchmarks/speed_probe.py [--every 0.5] [--log FILE] -- python benchmarks/load_model.py ...
    python benchmarks/speed_probe.py --seconds 60      # the machine alone
    python benchmarks/speed_probe.py --calibrate       # count the unit's instructions again (valgrind)

This machine is a shared virtual one: the same code's CPU time moves by up to 50 % between runs minutes
apart (the engine's games per CPU-second, the load model's CPU a click), because the core itself gives
more or fewer instructions a CPU-second as its neighbours work. A CPU-time figure therefore says as much
about the machine as about the code. This probe measures the machine: in a process of its own, every
``--every`` seconds, it runs one fixed unit of pure-Python work (interpreter loop, calls, attribute and
dict lookups, small allocations, as the bot's and the engine's Python are) whose instructions were counted
once under cachegrind (``UNIT_INSTRUCTIONS``), and times it by its own CPU clock: instructions over CPU
seconds is the rate the machine gave Python at that moment. It runs beside the benchmark (≈ 0.5 % of a
core), so it sees the same neighbours and the same contention for the two cores; at the end it prints the
rate's median and spread over the command's run. A figure in CPU time can then be put at a stated speed:
CPU time × (rate measured ÷ reference rate).

How well it follows the code's own speed, measured (2026-12-06, a busy machine, load 3–6): the unit's
rate and 20 random simple games' rate, taken one after the other 240 times in a minute, correlate 0.73–0.77,
and the games' rate over the probe's swings 12–13 % (coefficient of variation) where the games' own rate
swings 17–20 %: it explains part of the swing, at each sample's ≈ 2 ms; a run's median of hundreds of
samples is the figure to read, not one sample.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass

# The unit's instructions on CPython 3.11 (`--calibrate`: cachegrind, PYTHONHASHSEED=0, 200 units less
# none, divided by 200). Another Python counts again.
UNIT_INSTRUCTIONS = 5_922_859
CALIBRATED_ON = (3, 11)


@dataclass(slots=True)
class _Seat:
    number: int
    alive: bool = True
    votes: int = 0


# A working set larger than the core's caches (≈ 20 MB of small records), part of every unit: a
# neighbour that takes the shared cache or the memory's bandwidth slows a large process (the bot holds
# ≈ 220 MiB at 1,000 tables) more than a loop that fits in the cache.
_HEAP = [{"seat": n, "votes": n % 7} for n in range(100_000)]
_STRIDE = 4_099  # (prime: each unit's reads land far apart, in other cache lines and pages)
_turn = 0


def unit() -> int:
    """A fixed piece of work: a few hundred small records and dictionaries made, looked up, counted and
    dropped, by calls, loops and attribute access, and 2,000 reads scattered over the large heap —
    deterministic in its instructions (integers only, no hashing of str; each unit reads other places)."""
    global _turn
    _turn += 1
    total = 0
    at = _turn * 7_919
    for _ in range(2_000):
        at = (at + _STRIDE) % len(_HEAP)
        total += _HEAP[at]["votes"]
    for round_ in range(40):
        seats = [_Seat(n) for n in range(1, 13)]
        by_number = {seat.number: seat for seat in seats}
        for n in range(1, 13):
            target = by_number[(n * 7 + round_) % 12 + 1]
            if target.alive:
                target.votes += 1
        ordered = sorted(seats, key=lambda s: (-s.votes, s.number))
        leader = ordered[0]
        leader.alive = False
        tally: dict[int, int] = {}
        for seat in seats:
            tally[seat.votes] = tally.get(seat.votes, 0) + 1
        total += leader.number + len(tally) + sum(1 for s in seats if s.alive)
    return total


def rate(units: int = 1) -> float:
    """G instructions a CPU-second, measured once now."""
    began = time.process_time()
    for _ in range(units):
        unit()
    spent = time.process_time() - began
    return UNIT_INSTRUCTIONS * units / spent / 1e9 if spent > 0 else float("nan")


def summary(rates: list[float]) -> str:
    if not rates:
        return "no samples"
    ordered = sorted(rates)
    tenth, ninetieth = ordered[len(ordered) // 10], ordered[(len(ordered) * 9) // 10 - (len(ordered) < 10)]
    return (
        f"median {statistics.median(ordered):.2f} G instructions a CPU-second (p10 {tenth:.2f}, p90 "
        f"{ninetieth:.2f}, lowest {ordered[0]:.2f}, highest {ordered[-1]:.2f}; {len(ordered)} samples)"
    )


def calibrate() -> int:
    """The unit's instructions under cachegrind: 200 units less none, the interpreter's start-up out."""

    def count(units: int) -> int:
        cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
        cmd += [sys.executable, __file__, "--units", str(units)]
        done = subprocess.run(
            cmd, capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"}, check=True
        )
        found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
        assert found, done.stderr
        return int(found.group(1).replace(",", ""))

    return (count(200) - count(0)) // 200


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--every", type=float, default=0.5, help="seconds between samples")
    parser.add_argument("--seconds", type=float, help="sample the machine alone this long")
    parser.add_argument("--log", help="every sample as 'unix-time rate' lines")
    parser.add_argument("--calibrate", action="store_true", help="count the unit's instructions")
    parser.add_argument("--units", type=int, help=argparse.SUPPRESS)  # (the calibration's runs)
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- the benchmark to run")
    args = parser.parse_args()
    if args.units is not None:
        for _ in range(args.units):
            unit()
        return 0
    if args.calibrate:
        print(f"{calibrate():,} instructions a unit on Python {sys.version.split()[0]}")
        return 0
    if sys.version_info[:2] != CALIBRATED_ON:
        print(f"(the unit was counted on Python {CALIBRATED_ON}: run --calibrate)", file=sys.stderr)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    child = subprocess.Popen(command) if command else None
    stop_at = time.monotonic() + (args.seconds or 0.0)
    rates: list[float] = []
    log = open(args.log, "w") if args.log else None  # noqa: SIM115  (kept open through the run)
    try:
        while (child.poll() is None) if child else time.monotonic() < stop_at:
            measured = rate()
            rates.append(measured)
            if log:
                print(f"{time.time():.1f} {measured:.3f}", file=log, flush=True)
            time.sleep(args.every)
    except KeyboardInterrupt:
        if child:
            child.send_signal(signal.SIGINT)
            child.wait()
    finally:
        if log:
            log.close()
    print(f"the machine's speed meanwhile (benchmarks/speed_probe.py): {summary(rates)}", flush=True)
    return child.returncode if child else 0


if __name__ == "__main__":
    sys.exit(main())
