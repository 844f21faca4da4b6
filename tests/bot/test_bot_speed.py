"""What the bot's CPU per click rests on beside its own code (issue 18): discord.py reads and writes its
JSON with orjson, and `mafiabot run` runs on uvloop where it is installed."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import discord.utils
import orjson
import pytest
import uvloop

from mafiabot.__main__ import event_loop_factory, loop_name
from mafiabot.config import ConfigError, load_settings


def test_discord_py_reads_and_writes_json_with_orjson() -> None:
    # discord.py picks orjson when it is importable (discord.utils.HAS_ORJSON): every gateway event and
    # every REST answer goes through _from_json, every request body through _to_json.
    assert discord.utils.HAS_ORJSON
    assert discord.utils._from_json is orjson.loads
    payload = {"content": "Игрок №3", "flags": 1 << 15, "components": [{"type": 17, "id": 1}]}
    assert discord.utils._to_json(payload) == orjson.dumps(payload).decode()
    assert discord.utils._from_json(discord.utils._to_json(payload)) == payload


def test_mafiabot_run_takes_uvloop_unless_told_otherwise() -> None:
    # `mafiabot run` builds its loop with this factory (a real run is in tests/chaos/test_clean_stop.py,
    # which reads the loop's name in the bot's log).
    assert event_loop_factory("auto") is uvloop.new_event_loop
    assert event_loop_factory("uvloop") is uvloop.new_event_loop
    assert event_loop_factory("asyncio") is None  # asyncio's own
    loop = uvloop.new_event_loop()
    try:
        assert loop_name(loop) == "uvloop (uvloop.Loop)"
    finally:
        loop.close()
    loop = asyncio.new_event_loop()
    try:
        assert loop_name(loop).startswith("asyncio (asyncio.")
    finally:
        loop.close()


def test_without_uvloop_auto_runs_on_asyncio_and_uvloop_is_refused_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # as where it is not installed (Windows): no import
    assert event_loop_factory("auto") is None
    assert load_settings(tmp_path / "none.toml", {}).event_loop == "auto"
    with pytest.raises(ConfigError) as info:
        load_settings(tmp_path / "none.toml", {"MAFIABOT_EVENT_LOOP": "uvloop"})
    assert "MAFIABOT_EVENT_LOOP: Value error, uvloop is not installed" in str(info.value), str(info.value)
