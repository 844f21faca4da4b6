"""``python -m engine``: replay a game record, simulate random games, or print a demo transcript."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from engine import load_ruleset
from engine.errors import EngineError


def _replay(args: argparse.Namespace) -> int:
    from engine.record import play_record

    try:
        with open(args.file, encoding="utf-8") as fh:
            record = json.load(fh)
    except (OSError, json.JSONDecodeError) as exc:
        print(f"{args.file}: cannot read the record: {exc}", file=sys.stderr)
        return 2
    try:
        result = play_record(record)
    except EngineError as exc:
        print(f"{args.file}: {exc}", file=sys.stderr)
        rule = getattr(exc, "rule", "")
        if args.explain:
            print(f"rule: {rule or 'none known beyond the message above'}", file=sys.stderr)
        return 2
    for ev in result.events:
        print(json.dumps(ev.to_json(), ensure_ascii=False))
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from engine.simulate import simulate, wilson

    try:
        ruleset = load_ruleset(args.ruleset, args.option or [])
        total = args.games

        def progress(done: int) -> None:
            if sys.stderr.isatty() or done == total:
                width = 30
                filled = width * done // total
                print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}", end="", file=sys.stderr)

        wins = simulate(ruleset, args.players, total, args.seed, progress)
    except EngineError as exc:
        print(f"simulate: {exc}", file=sys.stderr)
        return 2
    print(file=sys.stderr)
    print(f"{ruleset.id}, {args.players} players, {total} games, seed {args.seed}")
    print(f"{'winner':<12} {'games':>7} {'share':>7}   95% CI")
    for side, n in wins.most_common():
        low, high = wilson(n, total)
        print(f"{side:<12} {n:>7} {n / total:>7.1%}   {low:.1%} – {high:.1%}")
    return 0


def _demo(args: argparse.Namespace) -> int:
    from engine.demo import main as demo_main

    code: int = demo_main(
        ["--ruleset", args.ruleset, "--players", str(args.players), "--seed", str(args.seed)]
    )
    return code


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("replay", help="print the events of a game record as JSON lines")
    p.add_argument("file")
    p.add_argument("--explain", action="store_true", help="for a rejected record, print the rule too")
    p.set_defaults(func=_replay)
    p = sub.add_parser("simulate", help="play random legal games and print wins per side")
    p.add_argument("--ruleset", default="classic")
    p.add_argument("--players", type=int, default=10)
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--option", action="append", help="a named option of the preset (repeatable)")
    p.set_defaults(func=_simulate)
    p = sub.add_parser("demo", help="print a Russian transcript of one simulated game")
    p.add_argument("--ruleset", default="classic")
    p.add_argument("--players", type=int, default=10)
    p.add_argument("--seed", type=int, default=7)
    p.set_defaults(func=_demo)
    args = parser.parse_args(argv)
    code: int = args.func(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
