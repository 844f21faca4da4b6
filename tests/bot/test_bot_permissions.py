"""The bot's side of permissions: the lobby and `/mafia check` list what the bot lacks by channel, an
optional permission lost mid-game degrades with a note, the README's invite asks for exactly what the
code uses, and stage channels are refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from conduct_helpers import Game
from fakediscord import ChannelType, Club, FakeDiscord
from fakediscord import permissions as perms
from game_driver import MEMBER_EDIT, TableDriver

from mafiabot import needs
from mafiabot.bot import MafiaBot

README = Path(__file__).resolve().parents[2] / "README.md"
INVITE = needs.invite_permissions().value
MESSAGE_CREATE = "POST /channels/{channel_id}/messages"


@pytest.fixture
def d(bot: MafiaBot, fake: FakeDiscord, club: Club) -> TableDriver:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    return TableDriver(fake, club, bot, club.players[:7])


def test_readme_invite_link_and_table_are_the_code_s() -> None:
    readme = README.read_text(encoding="utf-8")
    assert needs.invite_url("APPLICATION_ID") in readme
    assert needs.readme_table() in readme
    assert readme.count("oauth2/authorize") == 1
    assert "Move Members" not in readme  # no code moves players


def test_invite_bits_are_discord_s() -> None:
    # The same bits the stand-in numbers from Discord's documentation.
    expected = (
        perms.VIEW_CHANNEL
        | perms.SEND_MESSAGES
        | perms.ATTACH_FILES
        | perms.MANAGE_MESSAGES
        | perms.CONNECT
        | perms.SPEAK
        | perms.MUTE_MEMBERS
        | perms.CREATE_PRIVATE_THREADS
        | perms.SEND_MESSAGES_IN_THREADS
        | perms.MANAGE_THREADS
        | perms.MANAGE_NICKNAMES
    )
    assert expected == INVITE


@pytest.mark.club(everyone_permissions=0, bot_permissions=INVITE)
async def test_a_city_game_runs_on_exactly_the_invite_s_permissions(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    g = Game(fake, club, bot)
    guild = bot.get_guild(club.id)
    assert guild is not None and guild.me is not None
    text, voice = guild.get_channel(club.text.id), guild.get_channel(club.voice.id)
    assert needs.missing(guild.me, text=text, voice=voice, preset="city", nicknames=True) == []
    await g.start("city")
    await g.skip_until(lambda s: s.phase == "day")
    threads = [c for c in fake.world.channels.values() if c.type == ChannelType.PRIVATE_THREAD]
    assert len(threads) == 1 and fake.messages(threads[0])  # the mafia's chat opened and was spoken in
    mafia = next(x for x in g.state.living() if g.state.ruleset.roles[g.state.role_of(x)].side == "mafia")
    asked = await g.command("conduct penalty", reason="arranged_victory", seat=mafia)
    await fake.click(g.moderator, asked.message, label="Подтвердить")
    protocol = await fake.wait_for_message(club.text, lambda m: m.content == "Протокол игры:")
    assert protocol.files
    await fake.wait_for(lambda: not g.games.tables, what="the table to close")
    await g.settled()
    assert fake.forbidden == []


@pytest.mark.club(everyone_permissions=0, bot_permissions=perms.VIEW_CHANNEL | perms.SEND_MESSAGES)
async def test_lobby_lists_what_is_missing_by_channel(d: TableDriver, fake: FakeDiscord, club: Club) -> None:
    await fake.join_voice(d.players[0], club.voice)  # the lobby's creator alone
    await d.open_lobby("city", "")
    lobby = d.lobby_message().content
    assert (
        f"⚠️ Боту не хватает прав — голосовой канал <#{club.voice.id}>: Подключаться, Говорить, "
        f"Отключать участникам микрофон; ветки в <#{club.text.id}>: Создавать приватные ветки, "
        "Отправлять сообщения в ветках, Управлять ветками. Без них игру не начать."
    ) in lobby
    assert f"ℹ️ Без права «Прикреплять файлы» в <#{club.text.id}> протокол игры не будет выложен" in lobby
    assert "Управлять никнеймами" not in lobby  # nobody asked for seat numbers in nicknames


@pytest.mark.club(everyone_permissions=0, bot_permissions=perms.VIEW_CHANNEL | perms.SEND_MESSAGES)
async def test_check_lists_every_missing_permission_by_channel(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    await fake.join_voice(club.players[0], club.voice)
    answer = await fake.slash(club.players[0], "mafia check", channel=club.text)
    text = (await answer.wait_followup()).content
    assert f"✅ Текстовый канал <#{club.text.id}>: все нужные права есть." in text
    assert (
        f"❌ Голосовой канал <#{club.voice.id}>: боту не хватает прав: Подключаться, Говорить, "
        "Отключать участникам микрофон."
    ) in text
    assert f"❌ Ветки в <#{club.text.id}>: боту не хватает прав: Создавать приватные ветки" in text
    assert f"(нужно для правил {', '.join(sorted(needs.CHAT_PRESETS))})" in text
    assert "city" in needs.CHAT_PRESETS
    assert "⚠️ Без права «Прикреплять файлы»" in text and "⚠️ Без права «Управлять никнеймами»" in text


async def test_losing_attach_files_mid_game_still_closes_the_game(
    d: TableDriver, fake: FakeDiscord, club: Club
) -> None:
    await d.start("classic")
    await d.pass_speech()
    await fake.set_overwrite(club.text, club.bot_role, deny=perms.ATTACH_FILES)  # an admin changes it now
    await fake.slash(d.players[0], "mafia stop", channel=club.text)
    await fake.wait_for(lambda: not d.games.tables, what="the table to close")
    await d.settled()
    assert any(c.status == 403 and c.response["code"] == 50013 for c in fake.calls_to(MESSAGE_CREATE))
    assert any("Протокол игры не приложен" in t for t in d.public_texts())
    assert d.muted_seats() == set(), "nobody stays muted"
    storage = d.games.storage
    assert storage is not None and storage.running_games() == []


async def test_a_stage_channel_is_refused_with_the_reason(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    stage = await fake.add_channel(club, "Сцена", ChannelType.GUILD_STAGE_VOICE)
    await fake.join_voice(club.players[0], stage)
    refused = await fake.slash(club.players[0], "mafia new", channel=club.text)
    assert refused.ephemeral and "канале-трибуне игру не провести" in refused.content
    assert not bot.games.lobbies  # type: ignore[attr-defined]
    check = await fake.slash(club.players[0], "mafia check", channel=club.text)
    assert "канале-трибуне игру не провести" in (await check.wait_followup()).content


async def test_losing_thread_permissions_mid_game_leaves_a_note_and_the_game_goes_on(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    g = Game(fake, club, bot)
    await g.start("city")
    await g.skip_until(lambda s: s.phase == "day")
    assert not g.said("Ночной чат мафии не открылся")
    await fake.set_overwrite(club.text, club.bot_role, deny=perms.SEND_MESSAGES_IN_THREADS)
    await g.skip_until(lambda s: s.phase == "night" and s.day >= 1)
    await fake.wait_for(lambda: g.said("Ночной чат мафии не открылся"), what="the note")
    await g.skip_until(lambda s: s.phase == "day" and s.day >= 2)  # the game itself goes on
    assert sum("Ночной чат мафии не открылся" in t for t in g.public_texts()) == 1


async def test_losing_mute_members_mid_game_stops_the_refused_requests(
    d: TableDriver, fake: FakeDiscord, club: Club
) -> None:
    await d.start("classic")
    await d.pass_speech()
    await fake.set_overwrite(club.voice, club.bot_role, deny=perms.MUTE_MEMBERS)
    mark = len(fake.calls)
    for _ in range(3):
        await d.pass_speech()
    await d.settled()
    # Each refusal would count toward Discord's 10,000 invalid requests per ten minutes.
    assert [c for c in fake.calls[mark:] if c.route == MEMBER_EDIT] == []
    assert sum("Отключать участникам микрофон" in t for t in d.public_texts()) == 1  # said once
