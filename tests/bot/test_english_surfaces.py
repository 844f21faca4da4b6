"""The surfaces an English server meets outside a game's own run (issue 16), each through the local
Discord in a few steps: `/mafia check`, … Not one Russian (Cyrillic) letter may reach any of them; the
Russian twins are checked where the Russian is tested (tests/bot/test_bot_members.py, …)."""

from __future__ import annotations

import re

import pytest
from fakediscord import Club, FakeDiscord
from fakediscord import permissions as perms

from mafiabot.bot import MafiaBot

CYRILLIC = re.compile("[А-Яа-яЁё]")


@pytest.mark.game(language="en")
async def test_check_in_english(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    player = club.players[0]
    await fake.join_voice(player, club.voice)
    report = await (await fake.slash(player, "mafia check", channel=club.text)).wait_followup()
    dm = await fake.wait_for_dm(player)
    assert dm.content.startswith("Connection check: direct messages work.")
    assert "✅ Direct messages: I sent you a test message." in report.content
    assert f"✅ Voice channel <#{club.voice.id}>: all the permissions needed are there." in report.content
    assert f"✅ Text channel <#{club.text.id}>: all the permissions needed are there." in report.content
    assert "helper bots needed are: 10 players — " in report.content, report.content
    assert CYRILLIC.findall(report.content + dm.content) == [], report.content


@pytest.mark.game(language="en")
@pytest.mark.club(bot_permissions=perms.MOVE_MEMBERS)
async def test_check_in_english_names_what_is_missing(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    player = club.players[0]
    player.user.dms_open = False
    report = await (await fake.slash(player, "mafia check", channel=club.text)).wait_followup()
    assert "❌ I cannot send you direct messages" in report.content
    assert "➖ You are not in a voice channel" in report.content
    threads = f"❌ Threads in <#{club.text.id}>: the bot lacks permissions: Manage Threads (needed for the"
    assert threads in report.content, report.content
    assert "⚠️ Without «Manage Messages» in " in report.content, report.content
    assert CYRILLIC.findall(report.content) == [], report.content
