"""Game records (issue 2 part 6) replayed through the real CLI, ``python -m engine replay FILE``.

``tests/records/NAME.json`` are complete, legal games: the CLI exits 0 and prints JSON lines whose key
events (projected on the fields below) equal ``NAME.expected.json``. ``tests/records/invalid/NAME.json``
break a rule: the CLI exits 2, prints nothing on stdout and one line on stderr that contains every
fragment of ``NAME.expected.json`` (the phase and the entry).
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from engine import load_ruleset

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "tests" / "records"

# The key events of a game and the fields compared; a field an event does not carry is left out, so
# that a role shown (or hidden) on an elimination is part of the comparison.
KEY_FIELDS: dict[str, tuple[str, ...]] = {
    "killed": ("seat", "role"),
    "executed": ("seat", "role"),
    "removed": ("seat", "reason"),
    "acquitted": ("seat",),
    "jailed": ("seat",),
    "released": ("seats",),
    "vote_denied": ("seat",),
    "priest_revealed": ("seat", "priest"),
    "check": ("seat", "target", "result"),
    "check_nothing": ("seat",),
    "team_joined": ("seat", "team"),
    "claim": ("seat",),
    "question": ("seat",),
    "maniac_answer": ("yes",),
    "tiebreak_vote": ("seat", "candidate"),
    "game_over": ("winners",),
    # city: the club's and the host's answers a checker writes (asks, immunity_revoked, victory_awarded)
    "immunity_lost": ("seat",),
    "nominees": ("seat", "seats"),
    "victory_awarded": ("seat", "winners"),
    "mafia_missed": (),  # city: «мафия промахнулась»
    "lift_count": ("seats", "count", "passed"),  # city: the vote to leave together
    "restricted": ("seat", "speech", "vote"),  # city: 3 and 4 fouls of the previous day
    # classic variants
    "judges_named": ("seats",),
    "team_shown": ("seat", "seats"),
    "court_verdict": ("seat", "verdict"),
    "court_must_choose": ("seats",),
    "court_refused": ("seat",),
    "golden_minute": ("seat",),
    "bet": ("seat", "target"),
    "bets_result": ("seats",),
    "card_opened": ("seat", "role"),
}

VALID = sorted(p for p in RECORDS.glob("*.json") if not p.name.endswith(".expected.json"))
INVALID = sorted(p for p in (RECORDS / "invalid").glob("*.json") if not p.name.endswith(".expected.json"))


def _run(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )


@functools.cache
def _all_replays() -> dict[Path, subprocess.CompletedProcess[str]]:
    """Every record is replayed once, several at a time (each run mostly waits for the interpreter
    to start)."""
    paths = VALID + INVALID
    with ThreadPoolExecutor(max_workers=8) as pool:
        return dict(zip(paths, pool.map(_run, paths), strict=True))


def replay(path: Path) -> subprocess.CompletedProcess[str]:
    return _all_replays()[path]


def key_events(stdout: str) -> list[dict[str, Any]]:
    out = []
    for line in stdout.splitlines():
        event = json.loads(line)
        assert "type" in event and "audience" in event, line
        fields = KEY_FIELDS.get(event["type"])
        if fields is not None:
            out.append({"type": event["type"], **{k: event[k] for k in fields if k in event}})
    return out


def expected(path: Path) -> Any:
    return json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))


def test_there_is_a_record_per_preset_and_option() -> None:
    """Issue 2 Tests: «one record file per preset under `tests/records/` replayed through the CLI»."""
    used: set[tuple[str, str]] = set()
    for path in VALID:
        record = json.loads(path.read_text(encoding="utf-8"))
        options = [k for k, v in (record.get("options") or {}).items() if v] or [""]
        used.update((record["ruleset"], o) for o in options)
    wanted = {("classic", o) for o in ("", "yakuza", "ninja", "maniac", "sheriff", "lawyer", "doctor")}
    wanted |= {("classic", o) for o in ("doctor_revive", "immortal", "werewolf", "hidden_roles")}
    wanted |= {("classic", o) for o in ("judges", "judges_checks_allowed", "golden_minute", "bets")}
    wanted |= {("classic", o) for o in ("reduced", "whole_deck", "nohost_countdown")}
    wanted |= {("simple", "")} | {("blood", o) for o in ("", "kitsune", "prince")}
    wanted |= {("hobbyworld", o) for o in load_ruleset("hobbyworld").options} | {("hobbyworld", "")}
    assert wanted <= used
    assert all(p.with_suffix(".expected.json").exists() for p in VALID + INVALID)


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_valid_record_replays(path: Path) -> None:
    """Issue 2 part 6: «`python -m engine replay FILE.json` reads a record and prints the game's events
    as JSON lines, one object per line, in game order; exit 0.» «Every event has `"audience"`.»"""
    result = replay(path)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert key_events(result.stdout) == expected(path)


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.stem)
def test_invalid_record_is_refused(path: Path) -> None:
    """Issue 2 part 6: «A record that breaks the rules … ends with exit code 2 and one clear line on
    stderr naming the phase and the entry; nothing is printed as if it had happened.»"""
    result = replay(path)
    assert result.returncode == 2, result.stdout
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    for fragment in expected(path)["stderr"]:
        assert fragment in lines[0]
