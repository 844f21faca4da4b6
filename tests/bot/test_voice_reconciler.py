"""The reconciler against the local Discord: what the voice ledger owes is paid, whatever Discord does."""

from __future__ import annotations

import pytest
from fakediscord import MEMBER_EDIT, Club, FakeDiscord
from fakediscord import permissions as perms
from voice_helpers import muted_in_voice

from mafiabot.bot import MafiaBot
from mafiabot.game.ledger import VoiceLedger
from mafiabot.game.reconciler import NO_MUTE_PERMISSION, Reconciler

GAME = 7


async def _owed(club: Club, ledger: VoiceLedger, *members: int) -> None:
    await ledger.hold(
        guild_id=club.id,
        game_id=GAME,
        voice_channel_id=club.voice.id,
        text_channel_id=club.text.id,
        originals=dict.fromkeys(members, False),
    )
    await ledger.give_back_game(GAME)


def _reconciler(bot: MafiaBot, ledger: VoiceLedger, owned: set[int] | None = None) -> Reconciler:
    return Reconciler(bot, ledger, owned=lambda member: member.id in (owned or set()))


async def test_an_owed_member_in_voice_gets_his_voice_and_leaves_the_ledger(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    ledger = VoiceLedger(None)
    await muted_in_voice(fake, bot, club, 0)
    await _owed(club, ledger, club.players[0].id)
    assert await _reconciler(bot, ledger).settle() == []
    assert not club.players[0].mute
    assert await ledger.owed() == []


async def test_503s_on_the_unmute_are_retried_until_discord_confirms(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    ledger = VoiceLedger(None)
    await muted_in_voice(fake, bot, club, 0)
    await _owed(club, ledger, club.players[0].id)
    fake.faults.fail(MEMBER_EDIT, status=503, times=2)
    assert await _reconciler(bot, ledger).settle() == []
    assert not club.players[0].mute
    assert [c.status for c in fake.calls_to(MEMBER_EDIT)][-3:] == [503, 503, 200]


async def test_a_member_who_left_voice_is_unmuted_when_he_connects_again(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    ledger = VoiceLedger(None)
    player = club.players[0]
    await muted_in_voice(fake, bot, club, 0)
    await _owed(club, ledger, player.id)
    await fake.leave_voice(player)
    reconciler = _reconciler(bot, ledger)
    [still] = await reconciler.settle()
    assert still.user_id == player.id and player.mute  # Discord refuses to edit a member not in voice
    lobby = await fake.add_channel(club, "Лобби", 2)
    await fake.join_voice(player, lobby)
    guild = bot.get_guild(club.id)
    assert guild is not None
    member = guild.get_member(player.id)
    assert member is not None
    await reconciler.on_connect(member)
    assert not player.mute and await ledger.owed() == []


async def test_a_member_a_table_owns_is_left_to_the_table(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    ledger = VoiceLedger(None)
    player = club.players[0]
    await muted_in_voice(fake, bot, club, 0)
    await _owed(club, ledger, player.id)
    assert len(await _reconciler(bot, ledger, owned={player.id}).settle()) == 0
    assert player.mute and len(await ledger.owed()) == 1


async def test_without_mute_members_the_moderator_is_told_once_and_the_unmute_waits_for_the_permission(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    ledger = VoiceLedger(None)
    first, second = club.players[0], club.players[1]
    await muted_in_voice(fake, bot, club, 0)
    await muted_in_voice(fake, bot, club, 1)
    await _owed(club, ledger, first.id, second.id)
    reconciler = _reconciler(bot, ledger)
    await fake.set_role_permissions(club, club.bot_role, perms.BOT_DEFAULT & ~perms.MUTE_MEMBERS)
    assert len(await reconciler.settle()) == 2
    assert len(await reconciler.settle()) == 2  # a second round: still owed, but nobody is told twice
    [told] = [m for m in fake.messages(club.text) if "Не удалось вернуть микрофон" in m.content]
    assert f"<@{first.id}>" in told.content and f"<@{second.id}>" in told.content
    assert "Отключать участникам микрофон" in told.content
    assert first.mute and second.mute
    assert {row.failure for row in await ledger.owed()} == {NO_MUTE_PERMISSION}

    await fake.set_role_permissions(club, club.bot_role, perms.BOT_DEFAULT)
    assert await reconciler.settle(club.id) == []
    assert not first.mute and not second.mute


@pytest.mark.game(language="en")
async def test_the_moderator_of_an_english_server_is_told_in_english(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    ledger = VoiceLedger(None)
    await muted_in_voice(fake, bot, club, 0)
    await _owed(club, ledger, club.players[0].id)
    await fake.set_role_permissions(club, club.bot_role, perms.BOT_DEFAULT & ~perms.MUTE_MEMBERS)
    assert len(await _reconciler(bot, ledger).settle()) == 1
    [told] = [m for m in fake.messages(club.text) if "Could not give the microphone back" in m.content]
    assert told.content == (
        f"⚠️ Could not give the microphone back: <@{club.players[0].id}> — the bot lacks the «Mute Members» "
        "permission. The bot gives it back by itself as soon as it can (or unmute them by hand)."
    )


async def test_a_member_already_given_his_state_by_someone_else_is_released_without_an_edit(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    ledger = VoiceLedger(None)
    await fake.join_voice(club.players[0], club.voice)
    await _owed(club, ledger, club.players[0].id)
    edits = len(fake.calls_to(MEMBER_EDIT))
    assert await _reconciler(bot, ledger).settle() == []
    assert len(fake.calls_to(MEMBER_EDIT)) == edits and await ledger.owed() == []


async def test_a_server_error_that_outlasts_the_retries_keeps_the_member_owed(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    ledger = VoiceLedger(None)
    await muted_in_voice(fake, bot, club, 0)
    await _owed(club, ledger, club.players[0].id)
    fake.faults.fail(MEMBER_EDIT, status=503, times=None)
    reconciler = _reconciler(bot, ledger)
    [still] = await reconciler.settle()
    assert still.user_id == club.players[0].id and club.players[0].mute
    fake.faults.clear()
    assert await reconciler.settle() == [] and not club.players[0].mute


async def test_the_periodic_round_pays_without_being_asked(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    ledger = VoiceLedger(None)
    await muted_in_voice(fake, bot, club, 0)
    await _owed(club, ledger, club.players[0].id)
    reconciler = Reconciler(bot, ledger, owned=lambda member: False, interval=0.05)
    reconciler.start()
    try:
        await fake.wait_for(lambda: not club.players[0].mute, what="the periodic round")
        async with reconciler._guild_lock(club.id):  # the round under way has written Discord's answer
            assert await ledger.owed() == []
    finally:
        await reconciler.stop()
