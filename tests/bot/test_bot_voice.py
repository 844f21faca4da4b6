"""Voice: the bot joins a channel, plays a tone, and the channel's listener hears that very tone
(decrypted end to end: DAVE is the only voice Discord accepts)."""

from __future__ import annotations

import asyncio

import discord
from fakediscord import Club, FakeDiscord, OpusFrames, dominant_frequency, encode_opus, tone_pcm

from mafiabot.bot import MafiaBot


async def test_playback_reaches_the_voice_server_as_the_right_tone(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    channel = bot.get_channel(club.voice.id)
    assert isinstance(channel, discord.VoiceChannel)
    frames = encode_opus(tone_pcm(440.0, 0.4))
    loop = asyncio.get_running_loop()
    finished = loop.create_future()

    voice = await channel.connect(timeout=10, self_deaf=True)
    try:
        assert fake.world.guilds[club.id].voice_states[bot.user.id].channel_id == club.voice.id  # type: ignore[union-attr]
        await fake.wait_for(lambda: voice.voice_privacy_code, what="the DAVE group to be agreed")
        voice.play(
            OpusFrames(frames, with_ogg_headers=True),
            after=lambda error: loop.call_soon_threadsafe(finished.set_result, error),
        )
        assert await asyncio.wait_for(finished, timeout=10) is None
        bot_id = fake.world.bot_user.id
        await fake.wait_for(
            lambda: len(fake.voice.audio.of(bot_id)) >= len(frames), what="every frame to arrive"
        )
    finally:
        await voice.disconnect()

    assert fake.voice.audio.skipped_headers == 2  # OpusHead and OpusTags were not taken for audio
    assert fake.voice.audio.undecryptable == 0
    assert fake.voice.audio.not_end_to_end == 0  # every frame was end-to-end encrypted for the listener
    speaking = fake.voice.speaking[bot_id]
    assert 1 in speaking and speaking[-1] == 0  # said it was speaking, then that it stopped
    frequency = dominant_frequency(fake.voice.audio.pcm(bot_id))
    assert abs(frequency - 440.0) < 5, frequency
    await fake.gateway.flush()
    assert bot_id not in fake.world.guilds[club.id].voice_states
