"""End-to-end encrypted voice (DAVE v1): the bot joins the channel's MLS group through the stand-in's
voice gateway (the external sender), listeners come and go, and each hears the bot only while it is in
the group. A client without DAVE is refused with 4017, as Discord refuses it since March 2026."""

from __future__ import annotations

import asyncio
import logging
import struct

import aiohttp
import discord
import pytest
from fakediscord import Club, FakeDiscord, OpusFrames, dominant_frequency, encode_opus, tone_pcm
from fakediscord.dave import ANNOUNCE_COMMIT
from fakediscord.e2ee import SimulatedListener

from mafiabot.bot import MafiaBot


async def _play(voice: discord.VoiceClient, frequency: float, seconds: float = 0.3) -> int:
    """Plays a tone to the end; returns how many frames it had."""
    frames = encode_opus(tone_pcm(frequency, seconds))
    loop = asyncio.get_running_loop()
    finished: asyncio.Future[Exception | None] = loop.create_future()
    voice.play(OpusFrames(frames), after=lambda error: loop.call_soon_threadsafe(finished.set_result, error))
    assert await asyncio.wait_for(finished, timeout=10) is None
    return len(frames)


async def _connect(bot: MafiaBot, club: Club) -> discord.VoiceClient:
    channel = bot.get_channel(club.voice.id)
    assert isinstance(channel, discord.VoiceChannel)
    return await channel.connect(timeout=10, self_deaf=True)


async def _heard(fake: FakeDiscord, listener: SimulatedListener, speaker: int, count: int) -> bytes:
    await fake.wait_for(lambda: len(listener.heard.get(speaker, [])) >= count, what="the listener to hear")
    from discord.opus import Decoder

    decoder = Decoder()
    return b"".join(decoder.decode(frame) for frame in listener.heard[speaker][-count:])


async def test_the_bot_joins_the_group_and_the_listener_decrypts_its_tone(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    voice = await _connect(bot, club)
    try:
        await fake.wait_for(lambda: voice.voice_privacy_code, what="the DAVE group")
        group = fake.voice.dave.sessions[club.voice.id]
        (listener,) = fake.voice.dave.listeners[club.voice.id]
        bot_id = fake.world.bot_user.id
        assert group.leaves == [listener.user_id, bot_id]  # the listener was there first and committed
        assert group.epoch == 1 and group.commits_announced == 1
        assert voice.voice_privacy_code == listener.privacy_code  # both sides derived the same group
        assert len(voice.voice_privacy_code) == 30
        count = await _play(voice, 660.0)
        pcm = await _heard(fake, listener, bot_id, count)
    finally:
        await voice.disconnect()
    assert abs(dominant_frequency(pcm) - 660.0) < 5
    assert fake.voice.audio.not_end_to_end == 0
    assert listener.failures == []


@pytest.mark.parametrize("listener_commits", [True, False], ids=["listener-commit-wins", "bot-commit-wins"])
async def test_a_second_listener_is_added_and_a_leaving_one_removed(
    bot: MafiaBot, fake: FakeDiscord, club: Club, listener_commits: bool
) -> None:
    dave = fake.voice.dave
    dave.listener_commits = listener_commits
    voice = await _connect(bot, club)
    bot_id = fake.world.bot_user.id
    try:
        await fake.wait_for(lambda: voice.voice_privacy_code, what="the DAVE group")
        group = dave.sessions[club.voice.id]
        (first,) = dave.listeners[club.voice.id]
        if not listener_commits:  # the bot's own commit created the group
            assert group.leaves == [bot_id, first.user_id]
        first_code = voice.voice_privacy_code

        second = dave.add_listener(club.voice.id)
        await fake.wait_for(lambda: group.epoch == 2 and group.transition is None, what="the second add")
        await fake.wait_for(lambda: voice.voice_privacy_code != first_code, what="the bot's new epoch")
        assert set(group.in_group()) == {bot_id, first.user_id, second.user_id}
        assert voice.voice_privacy_code == first.privacy_code == second.privacy_code
        count = await _play(voice, 440.0)
        for listener in (first, second):
            assert abs(dominant_frequency(await _heard(fake, listener, bot_id, count)) - 440.0) < 5

        before = len(first.heard[bot_id])
        second_code = voice.voice_privacy_code
        await dave.remove_listener(first)
        await fake.wait_for(lambda: group.epoch == 3 and group.transition is None, what="the removal")
        await fake.wait_for(lambda: voice.voice_privacy_code != second_code, what="the bot's third epoch")
        assert set(group.in_group()) == {bot_id, second.user_id}
        count = await _play(voice, 550.0)
        assert abs(dominant_frequency(await _heard(fake, second, bot_id, count)) - 550.0) < 5
        assert len(first.heard[bot_id]) == before  # a removed member cannot decrypt the next epoch

        await dave.remove_listener(second)  # the bot is alone: sole member reset, a new pending group
        await fake.wait_for(lambda: not group.established, what="the sole member reset")
        await fake.wait_for(lambda: bot_id in group.key_packages, what="the bot's fresh key package")
        assert voice.is_connected()

        third = dave.add_listener(club.voice.id)  # someone joins the lone bot: a new group is created
        await fake.wait_for(
            lambda: group.established and group.transition is None and voice.voice_privacy_code,
            what="a new group with the newcomer",
        )
        assert voice.voice_privacy_code == third.privacy_code
        count = await _play(voice, 330.0)
        assert abs(dominant_frequency(await _heard(fake, third, bot_id, count)) - 330.0) < 5
    finally:
        await voice.disconnect()
    assert fake.voice.audio.not_end_to_end == 0
    assert first.failures == [] and second.failures == []


async def test_a_client_without_dave_is_closed_with_4017(fake: FakeDiscord, club: Club) -> None:
    # A client as discord.py was before 2.7: its IDENTIFY has no max_dave_protocol_version.
    fake.voice.tokens["old-client"] = (club.id, club.players[0].id)
    url = f"wss://127.0.0.1:{fake.voice.port}/?v=8"
    async with aiohttp.ClientSession() as http, http.ws_connect(url) as ws:
        hello = await ws.receive_json()
        assert hello["op"] == 8
        identify = {"server_id": str(club.id), "user_id": str(club.players[0].id), "token": "old-client"}
        await ws.send_json({"op": 0, "d": {**identify, "session_id": "s"}})
        closed = await ws.receive()
        assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == 4017
    assert fake.voice.dave.refused == [club.players[0].id]


async def test_the_bot_without_davey_cannot_host_in_voice_and_says_why(
    bot: MafiaBot,
    fake: FakeDiscord,
    club: Club,
    monkeypatch: pytest.MonkeyPatch,
    logged_errors: list[logging.LogRecord],
) -> None:
    from mafiabot.game.speaker import E2EE_REQUIRED_TEXT, Speaker

    # discord.py announces max_dave_protocol_version from whether davey is importable; this is the
    # bot as it would be without the package (which pyproject.toml therefore pins).
    monkeypatch.setattr(discord.voice_state, "has_dave", False)
    channel = bot.get_channel(club.voice.id)
    assert isinstance(channel, discord.VoiceChannel)
    speaker = Speaker(None, game_id=1)  # type: ignore[arg-type]  # it says nothing: no announcer needed
    try:
        assert not await speaker.connect(channel, timeout=5)
    finally:
        await speaker.close()
    assert speaker.failure == E2EE_REQUIRED_TEXT  # what the table posts instead of a bare close code
    assert fake.voice.dave.refused == [fake.world.bot_user.id]
    assert "Error connecting to voice" in logged_errors[0].getMessage()  # discord.py's own report
    logged_errors.clear()
    assert fake.voice.dave.sessions == {}  # it never reached a DAVE group


async def test_check_shows_whether_voice_is_end_to_end_encrypted_and_the_privacy_code(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    player = club.players[0]
    await fake.join_voice(player, club.voice)
    report = await (await fake.slash(player, "mafia check", channel=club.text)).wait_followup()
    assert "➖ Бот сейчас не в голосовом канале; голос игры будет защищён сквозным" in report.content

    voice = await _connect(bot, club)
    try:
        await fake.wait_for(lambda: voice.voice_privacy_code, what="the DAVE group")
        (listener,) = fake.voice.dave.listeners[club.voice.id]
        code = listener.privacy_code
        assert code is not None
        report = await (await fake.slash(player, "mafia check", channel=club.text)).wait_followup()
        grouped = " ".join(code[i : i + 5] for i in range(0, 30, 5))  # as Discord's clients show it
        assert f"🔒 Голос в <#{club.voice.id}> защищён сквозным шифрованием (DAVE)" in report.content
        assert f"Код приватности: {grouped}" in report.content  # the code the player's client shows

        # A second client joins: a new epoch, a new code, and the check shows the new one.
        fake.voice.dave.add_listener(club.voice.id)
        await fake.wait_for(lambda: voice.voice_privacy_code not in (None, code), what="the new epoch")
        report = await (await fake.slash(player, "mafia check", channel=club.text)).wait_followup()
        new_code = listener.privacy_code
        assert new_code is not None and new_code != code
        assert new_code[:5] + " " + new_code[5:10] in report.content
    finally:
        await voice.disconnect()


async def test_the_hosts_first_line_waits_for_the_group_and_the_log_gives_the_code(
    bot: MafiaBot, fake: FakeDiscord, club: Club, caplog: pytest.LogCaptureFixture
) -> None:
    from mafiabot.game.speaker import Speaker

    channel = bot.get_channel(club.voice.id)
    assert isinstance(channel, discord.VoiceChannel)
    speaker = Speaker(None, game_id=1)  # type: ignore[arg-type]  # it says nothing: no announcer needed
    caplog.set_level(logging.INFO, logger="mafiabot.game.speaker")
    try:
        assert await speaker.connect(channel, timeout=10)
        assert await speaker.wait_for_e2ee()
        (listener,) = fake.voice.dave.listeners[club.voice.id]
        code = listener.privacy_code
        assert code is not None
        grouped = " ".join(code[i : i + 5] for i in range(0, 30, 5))
        logged = [r.getMessage() for r in caplog.records if "end-to-end" in r.getMessage()]
        assert logged == [f"Voice is end-to-end encrypted (DAVE); privacy code {grouped}"]
    finally:
        await speaker.close()


async def test_the_bot_recovers_from_a_commit_it_cannot_process(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    voice = await _connect(bot, club)
    bot_id = fake.world.bot_user.id
    try:
        await fake.wait_for(lambda: voice.voice_privacy_code, what="the DAVE group")
        group = fake.voice.dave.sessions[club.voice.id]
        (listener,) = fake.voice.dave.listeners[club.voice.id]
        first_code = voice.voice_privacy_code
        # The gateway relays a commit the bot cannot process: it flags it (op 31) and starts over with
        # a new key package; the gateway takes it out of the group and welcomes it back.
        await group.members[bot_id].send_binary(ANNOUNCE_COMMIT, struct.pack(">H", 77) + b"not a commit")
        await fake.wait_for(
            lambda: (
                voice.voice_privacy_code not in (None, first_code)
                and group.transition is None
                and bot_id in group.in_group()
            ),
            what="the bot back in a new group",
        )
        assert voice.voice_privacy_code == listener.privacy_code
        count = await _play(voice, 440.0)
        assert abs(dominant_frequency(await _heard(fake, listener, bot_id, count)) - 440.0) < 5
    finally:
        await voice.disconnect()
