"""What the bot's CPU per click rests on beside its own code (issue 18): discord.py reads and writes its
JSON with orjson."""

from __future__ import annotations

import discord.utils
import orjson


def test_discord_py_reads_and_writes_json_with_orjson() -> None:
    # discord.py picks orjson when it is importable (discord.utils.HAS_ORJSON): every gateway event and
    # every REST answer goes through _from_json, every request body through _to_json.
    assert discord.utils.HAS_ORJSON
    assert discord.utils._from_json is orjson.loads
    payload = {"content": "Игрок №3", "flags": 1 << 15, "components": [{"type": 17, "id": 1}]}
    assert discord.utils._to_json(payload) == orjson.dumps(payload).decode()
    assert discord.utils._from_json(discord.utils._to_json(payload)) == payload
