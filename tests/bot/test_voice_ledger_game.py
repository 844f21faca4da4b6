"""Nobody is ever left server-muted by the bot (issue 12): the voice ledger and the reconciler in real
games against the local Discord, through 503s, lost permissions, members who left and restarts."""

from __future__ import annotations

import asyncio
import logging

from conduct_helpers import Game
from fakediscord import MEMBER_EDIT, MESSAGE_SEND, Club, FakeDiscord
from fakediscord import permissions as perms
from fakediscord.world import Overwrite
from game_driver import Restart, TableDriver

from mafiabot.bot import MafiaBot


def _muted(fake: FakeDiscord, club: Club) -> set[int]:
    """Every member of the club the server holds muted (in voice or not: the mute is the member's)."""
    return {p.id for p in club.players if p.mute}


async def _resumed(fake: FakeDiscord, club: Club, bot: MafiaBot) -> None:
    """The restarted bot has resumed the game and converged its mutes."""
    table = await fake.wait_for(lambda: bot.games.tables.get(club.voice.id), what="the game to resume")
    await table.settled()


async def _stop(fake: FakeDiscord, d: TableDriver) -> None:
    stopped = await fake.slash(d.players[0], "mafia stop", channel=d.club.text)
    assert stopped.ephemeral
    await fake.wait_for(lambda: not d.games.tables, what="the table to close")
    await d.settled()  # the release is over: what Discord answered is in the ledger


async def test_503s_during_the_release_are_retried_and_everyone_is_unmuted(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    assert len(_muted(fake, club)) == 6
    fake.faults.fail(MEMBER_EDIT, status=503, times=3)
    await _stop(fake, d)
    await fake.wait_for(lambda: not _muted(fake, club), what="everyone unmuted")
    await d.settled()  # the release is over: Discord's answers are in the ledger
    assert fake.faults.served == [(MEMBER_EDIT, 503)] * 3
    assert await d.games.ledger.owed() == []


async def test_a_release_that_crashes_is_finished_by_the_next_start(
    bot: MafiaBot, fake: FakeDiscord, club: Club, restart: Restart
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    muted = _muted(fake, club)
    assert len(muted) == 6
    fake.faults.fail(MEMBER_EDIT, status=503, times=None)  # Discord is down while the game ends
    await _stop(fake, d)
    await d.settled()
    assert _muted(fake, club) == muted
    owed = {row.user_id for row in await d.games.ledger.owed()}
    assert muted <= owed, "whom the release could not unmute stays owed"
    fake.faults.clear()
    async with restart() as second:
        await fake.wait_for(lambda: not _muted(fake, club), what="the next start to unmute everyone")
        assert await second.games.reconciler.settle() == []  # (waits for the round under way)
        assert await second.games.ledger.owed() == []


async def test_a_muted_player_who_left_voice_while_the_bot_was_down_is_unmuted_when_he_returns(
    bot: MafiaBot, fake: FakeDiscord, club: Club, restart: Restart
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    d.games.presence.leave_grace = 600.0
    await d.start("classic")
    leaver = d.member(4)
    assert leaver.mute
    async with restart() as second:
        await _resumed(fake, club, second)
    # He leaves while the bot is down: no event reaches it; the next session's GUILD_CREATE shows him gone.
    del fake.world.guilds[club.id].voice_states[leaver.id]
    d.bot = bot
    async with restart() as third:
        d.bot = third
        d.table = await fake.wait_for(lambda: d.games.tables.get(club.voice.id), what="the game to resume")
        await d.settled()
        await _stop(fake, d)
        assert leaver.mute  # Discord refuses to unmute a member who is not in voice
        lounge = await fake.add_channel(club, "Курилка", type=2)
        await fake.join_voice(leaver, lounge)
        await fake.wait_for(lambda: not leaver.mute, what="the ledger's unmute on his connect")
        assert not _muted(fake, club)
    del second


async def test_members_muted_before_the_originals_were_stored_are_still_given_back(
    bot: MafiaBot, fake: FakeDiscord, club: Club, restart: Restart
) -> None:
    """A crash in the first seconds: the mutes were made, the table's copy of the originals was not
    stored. The ledger row written before each mute still knows they were the bot's."""
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    assert d.table is not None
    game_id = d.table.session.game_id
    storage = d.games.storage
    assert storage is not None
    async with restart() as second:
        await _resumed(fake, club, second)
    timers = dict(storage.game(game_id).timers)
    timers.pop("voice_original", None)
    storage.set_timers(game_id, timers)
    d.bot = bot
    async with restart() as third:
        d.bot = third
        d.table = await fake.wait_for(lambda: d.games.tables.get(club.voice.id), what="the game to resume")
        await d.settled()
        await _stop(fake, d)
        await fake.wait_for(lambda: not _muted(fake, club), what="everyone given back")
    del second


async def test_without_mute_members_the_moderator_is_told_and_the_unmute_comes_with_the_permission(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    muted = _muted(fake, club)
    await fake.set_role_permissions(club, club.bot_role, perms.BOT_DEFAULT & ~perms.MUTE_MEMBERS)
    await _stop(fake, d)
    told = await fake.wait_for_message(club.text, lambda m: "Не удалось вернуть микрофон" in m.content)
    assert all(f"<@{uid}>" in told.content for uid in muted)
    assert "Отключать участникам микрофон" in told.content
    assert _muted(fake, club) == muted
    await fake.set_role_permissions(club, club.bot_role, perms.BOT_DEFAULT)
    await fake.wait_for(lambda: not _muted(fake, club), what="the unmute once the permission is back")
    assert len([m for m in fake.messages(club.text) if "Не удалось вернуть микрофон" in m.content]) == 1


async def test_a_503_on_a_game_message_is_retried_not_dropped(
    bot: MafiaBot, fake: FakeDiscord, club: Club, logged_errors: list[logging.LogRecord]
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    fake.faults.fail(MESSAGE_SEND, status=503, times=2)
    await _stop(fake, d)
    await fake.wait_for_message(club.text, lambda m: "Протокол игры" in m.content)
    assert fake.faults.served == [(MESSAGE_SEND, 503)] * 2
    assert not logged_errors


async def test_a_spectator_who_joins_after_invalid_session_is_muted(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    ready_again = asyncio.create_task(bot.wait_for("ready", timeout=20))
    fake.gateway.invalidate_session()
    await fake.gateway.wait_identified(2)
    await ready_again
    spectator = club.players[8]
    await fake.join_voice(spectator, club.voice)
    await fake.wait_for(lambda: spectator.mute, what="the spectator muted")
    await d.pass_speech()
    d.assert_mutes()


async def test_a_record_that_cannot_be_attached_never_keeps_the_game_open_or_anyone_muted(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    g = Game(fake, club, bot)
    await g.start("city")
    table = g.games.tables[club.voice.id]
    await g.skip_until(lambda s: s.phase == "day")
    assert _muted(fake, club)
    club.text.overwrites.append(Overwrite(club.bot_role.id, 0, deny=perms.ATTACH_FILES))
    mafia = next(x for x in g.state.living() if g.state.ruleset.roles[g.state.role_of(x)].side == "mafia")
    asked = await g.command("conduct penalty", reason="arranged_victory", seat=mafia)
    await fake.click(g.moderator, asked.message, label="Подтвердить")
    await fake.wait_for(lambda: not g.games.tables, what="the game to close")
    await fake.wait_for(lambda: not _muted(fake, club), what="everyone given back")
    await fake.wait_for_message(club.text, lambda m: "Протокол игры не приложен" in m.content)
    await asyncio.wait_for(table.sent_all(), 30)  # the table's last lines (its close goes on meanwhile)
    storage = g.games.storage
    assert storage is not None and storage.running_games() == []
    assert (MESSAGE_SEND, 403) in [(c.route, c.status) for c in fake.calls]
