"""Simulator throughput: random legal games per second on one core (run by hand, not a test).

python benchmarks/engine_simulate.py [--ruleset classic] [--players 10] [--games 2000]
"""

from __future__ import annotations

import argparse
import time

from engine import load_ruleset
from engine.simulate import play_random_game


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ruleset", default="classic")
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    ruleset = load_ruleset(args.ruleset)
    commands = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for seed in range(args.games):
        commands += len(play_random_game(ruleset, args.players, seed).commands)
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start  # what one core gave this process, even on a busy machine
    print(
        f"{args.ruleset}, {args.players} players: {args.games / cpu:.0f} games per CPU-second "
        f"({args.games / elapsed:.0f} per wall-clock second), {commands / cpu:.0f} commands per CPU-second, "
        f"{commands / args.games:.0f} commands per game"
    )


if __name__ == "__main__":
    main()
