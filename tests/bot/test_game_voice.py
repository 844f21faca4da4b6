"""The host's voice through the local Discord: real Opus frames arrive at the stand-in's voice server,
as long as the cached clips, and the step's mutes are applied (issue 6). The voice is the bot's offline
one: RHVoice where it is installed, espeak-ng otherwise."""

from __future__ import annotations

import logging
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fakediscord import Club, FakeDiscord

from audio.cache import ClipCache
from audio.engines import RHVoiceEngine, make_engine
from mafiabot.bot import MafiaBot
from mafiabot.config import AudioSettings, Secret, Settings

pytestmark = pytest.mark.skipif(
    shutil.which("espeak-ng") is None and not RHVoiceEngine.available(),
    reason="needs an offline voice: RHVoice or espeak-ng (scripts/test installs them)",
)

FRAME = 0.020


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


async def _start(fake: FakeDiscord, club: Club, ruleset: str, players: int) -> None:
    members = club.players[:players]
    for member in members:
        await fake.join_voice(member, club.voice)
    opened = await fake.slash(members[0], "mafia new", channel=club.text, ruleset=ruleset)
    lobby_id = opened.message.id
    for member in members[1:]:
        lobby = next(m for m in fake.messages(club.text) if m.id == lobby_id)
        await fake.click(member, lobby, label="Присоединиться")
    lobby = next(m for m in fake.messages(club.text) if m.id == lobby_id)
    await fake.click(members[0], lobby, label="Начать игру")


async def test_nightfall_is_heard_and_the_table_is_muted(
    speaking_bot: MafiaBot, fake: FakeDiscord, club: Club, tmp_path: Path
) -> None:
    """`simple` opens with the acquaintance night: «На город опускается ночь. Все засыпают.»"""
    await _start(fake, club, "simple", 8)
    games = speaking_bot.games  # type: ignore[attr-defined]
    await fake.wait_for(lambda: games.tables, what="the game to start")
    table = next(iter(games.tables.values()))
    await fake.wait_for(lambda: table.panel is not None, timeout=15, what="the game panel")
    assert table.speaker is not None, "the bot did not join the voice channel"
    history = table.speaker.queue.history
    await fake.wait_for(
        lambda: any(p.phrase_id == "sm_intro_night_falls" for p in history),
        timeout=30,
        what="nightfall spoken",
    )
    spoken = history[: next(i for i, p in enumerate(history) if p.phrase_id == "sm_intro_night_falls") + 1]
    expected = sum(p.clip_duration for p in spoken)
    bot_id = speaking_bot.user.id  # type: ignore[union-attr]
    await fake.wait_for(lambda: len(fake.voice.audio.of(bot_id)) * FRAME >= expected * 0.8, timeout=30)
    received = len(fake.voice.audio.of(bot_id)) * FRAME
    assert expected * 0.8 <= received <= expected * 1.2 + 2.0  # later lines may already be on their way
    night_text = table.speaker.announcer.prepare("sm_intro_night_falls").text
    night_clip = ClipCache(tmp_path / "audio").lookup(make_engine("offline"), night_text)
    assert night_clip is not None and abs(night_clip.playback_duration - spoken[-1].clip_duration) < FRAME
    assert 0.5 < night_clip.duration < 10
    pcm = fake.voice.audio.pcm(bot_id)
    assert any(b != 0 for b in pcm[: 48000 * 4])  # real sound, not silence

    # The night's mutes: every player is muted while the host speaks at night.
    await table.settled()
    for member in club.players[:8]:
        state = fake.voice_state(member)
        assert state is not None and state.mute, member


async def test_without_voice_the_game_goes_on_in_text(
    bot: MafiaBot, fake: FakeDiscord, club: Club, logged_errors: list[logging.LogRecord]
) -> None:
    """If the bot cannot join the voice channel, the host writes instead and says why (issue 6)."""
    bot.games.host_voice.connect_timeout = 2.0
    await fake.voice.stop()  # the voice server is gone: the connection fails like a dead region
    await _start(fake, club, "simple", 8)
    games = bot.games  # type: ignore[attr-defined]
    await fake.wait_for(lambda: games.tables, what="the game to start")
    table = next(iter(games.tables.values()))
    await fake.wait_for(lambda: table.panel is not None, timeout=30, what="the game panel")
    assert table.speaker is None
    texts = [m.content for m in fake.messages(club.text)]
    assert any("Не удалось подключиться к голосовому каналу" in t for t in texts)
    assert any("На город опускается ночь" in t for t in texts)  # the announcements go on in text
    # discord.py itself logs the failed handshake; that error is the point of this test.
    assert logged_errors
    assert {r.getMessage() for r in logged_errors} == {"Error connecting to voice... disconnecting"}
    logged_errors.clear()
