"""Store the commands of the seeded random games that tests/engine/test_replay_digest.py pins.

python scripts/store_simulated_games.py   # rewrites tests/engine/data/simulated_games.json.gz

The digest test replays these stored commands, so that it proves the ENGINE unchanged (every state and
event of each game as pinned) whatever the simulator draws; the simulator's own games are pinned apart. The
file holds the games of the simulator at 4bebd91, before its draws changed (c3c3fe8). Rewrite it only when
the engine's rules change on purpose and the stored games stop being legal (the test says which one), or
when a table is added to the test's TABLES: the games are then today's simulator's, and PINNED_GAMES must be
pinned anew from them in the same commit, which says why.
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "engine")]  # run as a script from anywhere

from test_replay_digest import STORED_GAMES, TABLES, table_id  # noqa: E402

from engine import load_ruleset  # noqa: E402
from engine.simulate import play_random_game  # noqa: E402


def stored_form(command_json: dict[str, object]) -> dict[str, object]:
    """A command's JSON without its time (every simulated command is sent at 0)."""
    return {k: v for k, v in command_json.items() if not (k == "at" and v == 0.0)}


def main() -> None:
    games: dict[str, list[dict[str, object]]] = {}
    for table in TABLES:
        preset, options, players, seeds = table
        ruleset = load_ruleset(preset, options)
        games[table_id(table)] = [
            {"roles": game.roles, "commands": [stored_form(c.to_json()) for c in game.commands]}
            for game in (play_random_game(ruleset, players, seed) for seed in range(seeds))
        ]
    text = json.dumps(games, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()
    STORED_GAMES.write_bytes(gzip.compress(text, compresslevel=9, mtime=0))
    count = sum(len(g["commands"]) for table in games.values() for g in table)  # type: ignore[arg-type]
    print(f"{STORED_GAMES.relative_to(ROOT)}: {len(text):,} bytes of JSON, {STORED_GAMES.stat().st_size:,}")
    print(f"gzip'd; {sum(map(len, games.values()))} games, {count:,} commands")


if __name__ == "__main__":
    main()
