"""Fixtures of the two-process tests: the stand-in Discord here, the bot in a child process."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fakediscord import Club, FakeDiscord

from chaos.bot_process import BotProcess


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
    server.check()


@pytest.fixture
def club(fake: FakeDiscord) -> Club:
    club = fake.create_club(players=10)
    # Discord's 10 member edits per 10 s would make every test wait; the limit has its own tests.
    fake.rate_limits.set("PATCH /guilds/{guild_id}/members/{user_id}", 1000, 1)
    return club


@pytest.fixture
async def bot_process(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    process = BotProcess(fake, tmp_path)
    try:
        yield process
    finally:
        if process.running:
            await process.kill()
