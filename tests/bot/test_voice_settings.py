"""`/mafia-admin voice`: the host's voice switched off or made quieter for a server (issue 6)."""

from __future__ import annotations

import shutil

import pytest
from fakediscord import Club, FakeDiscord
from fakediscord import permissions as perms

from audio import opus, pcm
from audio.cache import ClipCache
from audio.engines import make_engine
from mafiabot.bot import MafiaBot


async def test_voice_settings_are_stored_and_shown(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    owner = club.players[0]
    managers = fake.world.add_role(club.guild, "Администрация", perms.MANAGE_GUILD)
    owner.roles.append(managers.id)  # Discord computes the interaction's permissions from the roles
    answer = await fake.slash(owner, "mafia-admin voice", channel=club.text, enabled=False, volume=50)
    assert answer.ephemeral
    assert "молчит" in answer.content and "50 %" in answer.content
    settings = bot.games.storage.guild_settings(club.id)  # type: ignore[attr-defined]
    assert settings.audio_enabled is False and settings.volume == pytest.approx(0.5)


async def test_only_server_managers_change_the_voice(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    with pytest.raises(LookupError, match="does not offer"):  # Discord hides the group from him
        await fake.slash(club.players[3], "mafia-admin voice", channel=club.text, enabled=False)
    # A server may give the command to others in its integration settings: the bot still checks.
    fake.commands[None] = [
        {**c, "default_member_permissions": None} if c["name"] == "mafia-admin" else c
        for c in fake.commands[None]
    ]
    answer = await fake.slash(club.players[3], "mafia-admin voice", channel=club.text, enabled=False)
    assert answer.ephemeral and "управляет сервером" in answer.content
    assert bot.games.storage.guild_settings(club.id).audio_enabled is True  # type: ignore[attr-defined]


async def test_a_silent_server_plays_in_text(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    bot.games.storage.update_guild_settings(club.id, audio_enabled=False)  # type: ignore[attr-defined]
    players = club.players[:8]
    for member in players:
        await fake.join_voice(member, club.voice)
    opened = await fake.slash(players[0], "mafia new", channel=club.text, ruleset="simple")
    lobby_id = opened.message.id
    for member in players[1:]:
        await fake.click(
            member, next(m for m in fake.messages(club.text) if m.id == lobby_id), label="Присоединиться"
        )
    await fake.click(
        players[0], next(m for m in fake.messages(club.text) if m.id == lobby_id), label="Начать игру"
    )
    games = bot.games  # type: ignore[attr-defined]
    await fake.wait_for(lambda: games.tables, what="the game to start")
    table = next(iter(games.tables.values()))
    await fake.wait_for(lambda: table.panel is not None, what="the game panel")
    assert table.speaker is None
    assert fake.voice_state(club.players[0]) is not None
    assert any("На город опускается ночь" in m.content for m in fake.messages(club.text))  # the text mirror


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="needs espeak-ng (scripts/test installs it)")
def test_volume_is_applied_once_when_the_clip_is_cached(tmp_path: object) -> None:
    cache = ClipCache(str(tmp_path))
    engine = make_engine("espeak")
    clip = cache.render(engine, "Город засыпает.")
    quieter = cache.render(engine, "Город засыпает.", volume=0.5)
    assert clip is not None and quieter is not None
    assert quieter.source == f"{clip.source}@50" and cache.contains(quieter.source, clip.text)
    assert len(quieter.packets) == len(clip.packets)
    loud, soft = pcm.rms(opus.decode(clip.packets)), pcm.rms(opus.decode(quieter.packets))
    assert soft == pytest.approx(loud * 0.5, rel=0.2)
    assert cache.render(engine, "Город засыпает.", volume=0.5) == quieter  # read back, not scaled again
