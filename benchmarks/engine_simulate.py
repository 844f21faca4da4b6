"""Simulator throughput: random legal games per second on one core (run by hand, not a test).

python benchmarks/engine_simulate.py [--ruleset classic] [--players 10] [--games 2000]
python benchmarks/engine_simulate.py --all [--games 1000] [--runs 3]     # every preset at its table
python benchmarks/engine_simulate.py --all --instructions [--games 200]  # instructions per game
python benchmarks/engine_simulate.py --all --replay-only [--instructions]  # the engine's share alone

Games per CPU-second is what one core gives the process, but on a machine shared with other work it
still swings by a factor of two or more (caches, the sibling hyperthread): ``--runs`` plays the same
games several times and reports the best and median. ``--instructions`` counts the instructions per
game under valgrind (``--tool=cachegrind``, the interpreter's start-up subtracted by a run with no
games), which does not depend on the load: compare engines by it, and by CPU-seconds measured in the
same minutes. It prints the games' length as well (commands a game, and instructions a command): where the
simulator's draws change, the same seeds are other games, and a few dozen games are longer or shorter than
the average of thousands by several per cent.

``--replay-only`` measures the engine without the simulator: the same seeded games are played first
(not counted), and what is counted is their commands applied again to a fresh game with
``engine.game.apply_in_place`` (one batch a game, on one draft, as the simulator's game goes). The
difference from a plain run is the simulator's own share: ``random_commands``, the draws it asks for,
and ``play_random_game``'s loop.
"""

from __future__ import annotations

import argparse
import os
import pickle
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script from anywhere: benchmarks/ is not a package

from engine import load_ruleset  # noqa: E402
from engine.commands import Command  # noqa: E402
from engine.events import Event  # noqa: E402
from engine.game import apply_in_place, new_game  # noqa: E402
from engine.simulate import play_random_game  # noqa: E402
from engine.state import thaw  # noqa: E402

# Every preset at the table its figures in BENCHMARKS.md use (simple: 12, as its rulebook's table).
PRESETS = {"classic": 10, "simple": 12, "hobbyworld": 10, "city": 10, "blood": 10, "fiim": 10}


def play(ruleset_id: str, players: int, games: int) -> tuple[float, float, int]:
    """CPU-seconds, wall-clock seconds and commands of ``games`` random games (seeds 0 .. games-1)."""
    ruleset = load_ruleset(ruleset_id)
    commands = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for seed in range(games):
        commands += len(play_random_game(ruleset, players, seed).commands)
    return time.process_time() - cpu_start, time.perf_counter() - start, commands


Games = list[tuple[list[str], list[Command]]]


def recorded(ruleset_id: str, players: int, games: int) -> Games:
    """The roles and commands of the random games of seeds 0 .. games-1."""
    ruleset = load_ruleset(ruleset_id)
    out = []
    for seed in range(games):
        game = play_random_game(ruleset, players, seed)
        out.append((game.roles, game.commands))
    return out


def replay(ruleset_id: str, games: Games) -> tuple[float, float, int]:
    """CPU-seconds, wall-clock seconds and commands of applying ``games`` again (seed i for game i)."""
    ruleset = load_ruleset(ruleset_id)
    commands = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for seed, (roles, log) in enumerate(games):
        state, events = new_game(ruleset, roles, seed)
        s = thaw(state)
        out: list[Event] = events
        commands += apply_in_place(s, log, out)
        assert s.phase == "over"
    return time.process_time() - cpu_start, time.perf_counter() - start, commands


def instructions(ruleset_id: str, players: int, games: int, replay_only: bool = False) -> float:
    """Instructions per game under cachegrind, the start-up (a run with no games) subtracted. With
    ``replay_only`` the games' commands are recorded first in a file, and the counted runs load it and
    replay ``games`` of them or none."""

    def count(n: int, extra: list[str]) -> int:
        cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
        cmd += [sys.executable, __file__, "--ruleset", ruleset_id, "--players", str(players)]
        cmd += ["--games", str(n), "--quiet", *extra]
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
        found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
        assert found, done.stderr
        return int(found.group(1).replace(",", ""))

    if not replay_only:
        return (count(games, []) - count(0, [])) / games
    with tempfile.NamedTemporaryFile(suffix=".pickle") as f:
        f.write(pickle.dumps(recorded(ruleset_id, players, games)))
        f.flush()
        return (count(games, ["--replay-file", f.name]) - count(0, ["--replay-file", f.name])) / games


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ruleset", default="classic")
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--all", action="store_true", help="every preset at its table")
    parser.add_argument("--runs", type=int, default=1, help="play the same games this many times")
    parser.add_argument("--instructions", action="store_true", help="instructions per game (valgrind)")
    parser.add_argument(
        "--replay-only", action="store_true", help="count only the engine: replay the games' commands"
    )
    parser.add_argument("--quiet", action="store_true", help=argparse.SUPPRESS)  # the counted runs
    parser.add_argument("--replay-file", help=argparse.SUPPRESS)  # the counted runs of --replay-only
    args = parser.parse_args()
    tables = PRESETS if args.all else {args.ruleset: args.players}
    if args.quiet:
        for ruleset_id, players in tables.items():
            if args.replay_file:
                with open(args.replay_file, "rb") as f:
                    games: Games = pickle.load(f)
                replay(ruleset_id, games[: args.games])
            else:
                play(ruleset_id, players, args.games)
        return
    what = " (replay only)" if args.replay_only else ""
    for ruleset_id, players in tables.items():
        if args.instructions:
            per_game = instructions(ruleset_id, players, args.games, args.replay_only)
            # The games' length, counted apart: the same seeds give other games where the simulator's draws
            # change, so that engines are compared by instructions per command as well.
            commands = sum(len(log) for _, log in recorded(ruleset_id, players, args.games)) / args.games
            print(
                f"{ruleset_id}, {players} players: {per_game / 1e6:.3f} M instructions per game{what} "
                f"({commands:.1f} commands a game, {per_game / commands:,.0f} instructions a command)"
            )
            continue
        rates, walls = [], []
        games = recorded(ruleset_id, players, args.games) if args.replay_only else []
        for _ in range(args.runs):
            if args.replay_only:
                cpu, wall, commands = replay(ruleset_id, games)
            else:
                cpu, wall, commands = play(ruleset_id, players, args.games)
            rates.append(args.games / cpu)
            walls.append(args.games / wall)
        shown = (
            f"{max(rates):.0f}"
            if args.runs == 1
            else f"best {max(rates):.0f}, median {statistics.median(rates):.0f}"
        )
        print(
            f"{ruleset_id}, {players} players: {shown} games per CPU-second{what} "
            f"({max(walls):.0f} per wall-clock second), {commands / args.games:.0f} commands per game, "
            f"{max(rates) * commands / args.games:.0f} commands per CPU-second; "
            f"load average {os.getloadavg()[0]:.1f}"
        )


if __name__ == "__main__":
    main()
