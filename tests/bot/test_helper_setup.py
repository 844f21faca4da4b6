"""Setting helper bots up (issue 20): `/mafia check` says which helpers are ready in the voice channel
and how many a table needs; `mafiabot invite --helper` prints a helper's invite link."""

from __future__ import annotations

import pytest
from fakediscord import Club, FakeDiscord
from fakediscord import permissions as perms

from mafiabot.__main__ import main
from mafiabot.bot import MafiaBot


@pytest.mark.club(players=12)
@pytest.mark.helpers(count=3)
async def test_check_says_which_helpers_are_ready_and_how_many_a_table_needs(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    first, second, _ = fake.accounts
    await fake.kick_bot(club, first)
    role = next(r for r in club.guild.roles.values() if r.name == second.user.username)
    await fake.set_role_permissions(club, role, perms.VIEW_CHANNEL | perms.CONNECT)
    for player in club.players:
        await fake.join_voice(player, club.voice)
    answer = await fake.slash(club.players[0], "mafia check", channel=club.text)
    text = (await answer.wait_followup()).content
    assert f"🤝 Боты-помощники в <#{club.voice.id}>: готовы 1 из 3." in text
    assert "⚠️ Помощник 1: не приглашён на сервер" in text
    assert "⚠️ Помощник 2: нет права «Отключать участникам микрофон»" in text
    assert "10 игроков — не нужно (лучше 1), 12 игроков — 1 (лучше 2), 16 игроков — 1 (лучше 2)" in text
    assert "`mafiabot invite --helper`" in text
    for account in fake.accounts:
        assert account.token not in text


async def test_check_without_helpers_says_how_to_get_them(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    await fake.join_voice(club.players[0], club.voice)
    answer = await fake.slash(club.players[0], "mafia check", channel=club.text)
    text = (await answer.wait_followup()).content
    assert "➖ Ботов-помощников нет" in text and "16 игроков — 1 (лучше 2)" in text


def test_invite_helper_prints_a_bot_only_link_with_mute_members(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["invite", "--helper", "123456"]) == 0
    out = capsys.readouterr().out
    bits = perms.VIEW_CHANNEL | perms.CONNECT | perms.MUTE_MEMBERS
    assert f"https://discord.com/oauth2/authorize?client_id=123456&scope=bot&permissions={bits}" in out
    assert "MAFIABOT_HELPER_TOKENS" in out and "helper_tokens" in out
    assert main(["invite", "123456"]) == 0
    assert "scope=bot+applications.commands" in capsys.readouterr().out
    assert main(["invite", "--helper", "not-an-id"]) == 2
