"""The host's voice comes back after its voice connection is lost — the voice websocket closed by the
server (4006) or the TCP link under it cut with no close frame — and goes on speaking (issue 12)."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fakediscord import Club, FakeDiscord

from audio.engines import RHVoiceEngine
from mafiabot.bot import MafiaBot
from mafiabot.config import AudioSettings, Secret, Settings

pytestmark = pytest.mark.skipif(
    shutil.which("espeak-ng") is None and not RHVoiceEngine.available(),
    reason="needs an offline voice: RHVoice or espeak-ng (scripts/test installs them)",
)


@pytest.fixture
async def speaking_bot(fake: FakeDiscord, club: Club, tmp_path: Path) -> AsyncIterator[MafiaBot]:
    settings = Settings(
        token=Secret(fake.token),
        database_url=f"sqlite:///{tmp_path}/bot.db",
        audio=AudioSettings(engine="offline", cache_dir=tmp_path / "audio"),
    )
    client = MafiaBot(settings, guild_ready_timeout=0.05)
    async with fake.connect(client):
        yield client


@pytest.mark.parametrize("loss", ["closed 4006", "cut"])
async def test_after_a_voice_drop_the_host_rejoins_and_goes_on_with_the_announcements(
    speaking_bot: MafiaBot, fake: FakeDiscord, club: Club, loss: str
) -> None:
    members = club.players[:7]
    for member in members:
        await fake.join_voice(member, club.voice)
    opened = await fake.slash(members[0], "mafia new", channel=club.text, ruleset="classic")
    for member in members[1:]:
        lobby = next(m for m in fake.messages(club.text) if m.id == opened.message.id)
        await fake.click(member, lobby, label="Присоединиться")
    lobby = next(m for m in fake.messages(club.text) if m.id == opened.message.id)
    await fake.click(members[0], lobby, label="Начать игру")
    games = speaking_bot.games
    await fake.wait_for(lambda: games.tables, what="the game to start")
    table = next(iter(games.tables.values()))
    bot_id = fake.world.bot_user.id
    await fake.wait_for(lambda: table.speaker is not None, timeout=15, what="the host in voice")
    await fake.wait_for(lambda: fake.voice.audio.of(bot_id), timeout=30, what="the host's first words")
    assert table.speaker is not None
    first = {s.ssrc for s in fake.voice.sessions.values() if s.user_id == bot_id}

    if loss == "cut":
        await fake.voice.cut(club.id)
    else:
        await fake.voice.drop(club.id, code=4006)
    heard_before = len(fake.voice.audio.of(bot_id))
    skipped = await fake.slash(members[0], "mafia skip", channel=club.text)  # the next speech is announced
    assert skipped.ephemeral
    await fake.wait_for(
        lambda: any(s.user_id == bot_id and s.ssrc not in first for s in fake.voice.sessions.values()),
        timeout=30,
        what="the host's new voice connection",
    )
    await fake.wait_for(
        lambda: len(fake.voice.audio.of(bot_id)) > heard_before + 10, timeout=30, what="the host heard again"
    )
    assert table.speaker.rejoins == 1
