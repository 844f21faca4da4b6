"""Issue 15: «The protocol the bot exports for a finished game (`/mafia game`, the file at the end) is a
record that `python -m engine replay` accepts and that reproduces the game's events». Called at the end
of a whole game of each preset played through the local Discord, and on `/mafia game`'s record."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from fakediscord import Club, FakeDiscord

import engine
from mafiabot.game.session import GameSession

ROOT = Path(__file__).resolve().parents[2]


def _game_events(session: GameSession) -> list[Any]:
    """The events the game had: its opening and what each command of its log gave, as the table got
    them (the same start, seed, immunity and commands)."""
    state, events = engine.new_game(
        session.ruleset, session.roles, session.seed, immune=session.immune, at=session.started_at
    )
    for command in session.log:
        state, more = engine.apply(state, command)
        events += more
    assert state.over
    return [json.loads(json.dumps(e.to_json(), ensure_ascii=False)) for e in events]


def assert_protocol_replays(fake: FakeDiscord, club: Club, session: GameSession) -> None:
    """The file posted at the end of the game replays to the game's events."""
    posted = [m for m in fake.messages(club.text) if any(n.startswith("mafia-game-") for n in m.files)]
    assert len(posted) == 1, "one protocol file at the end of the game"
    ((name, data),) = posted[0].files.items()
    assert name.endswith(".json")
    assert_record_replays(data, session)


def assert_record_replays(data: bytes, session: GameSession) -> None:
    """``data``, a record file, is accepted by `python -m engine replay` and gives the game's events."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "record.json"
        path.write_bytes(data)
        run = subprocess.run(
            [sys.executable, "-m", "engine", "replay", str(path)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=120,
        )
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    replayed = [json.loads(line) for line in run.stdout.splitlines()]
    assert replayed == _game_events(session)
    assert any(e["type"] == "game_over" for e in replayed)
