"""Red team: members moving between voice channels mid-phase.

A server mute is the server's, not the channel's: a player the bot muted who moves (not leaves) to another
voice channel of the server keeps it there. Once the table has let him go (the grace period over), the bot
must lift its mute where he is now, without waiting for him to reconnect."""

from __future__ import annotations

from fakediscord import Club, FakeDiscord
from fakediscord import permissions as perms
from game_driver import MEMBER_EDIT, TableDriver

from mafiabot.bot import MafiaBot


async def test_a_muted_player_who_moves_to_another_channel_is_unmuted_there_when_the_table_lets_him_go(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    d.games.presence.leave_grace = 0.2
    await d.start("classic")
    mover = d.member(4)
    assert fake.voice_state(mover).mute  # type: ignore[union-attr]
    lounge = await fake.add_channel(club, "Курилка", type=2)
    await fake.move_voice(mover, lounge)
    await d.until(lambda: 4 not in d.state.alive, "the grace period to run out")
    await fake.wait_for(lambda: not fake.voice_state(mover).mute, what="the mute lifted in the lounge")  # type: ignore[union-attr]
    await d.settled()
    assert d.muted_seats() == d.all_seats() - {4} - d.expected_speakers()  # the table's own, untouched


async def test_a_player_who_moves_away_and_back_within_the_grace_period_plays_on_muted(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    d.games.presence.leave_grace = 30.0
    await d.start("classic")
    table = d.table
    assert table is not None
    mover = d.member(3)
    lounge = await fake.add_channel(club, "Курилка", type=2)
    await fake.move_voice(mover, lounge)
    await fake.wait_for(lambda: mover.id in table.leave_timers, what="the grace period to start")
    await fake.move_voice(mover, club.voice)
    await fake.wait_for(lambda: mover.id not in table.leave_timers, what="the grace timer cancelled")
    await d.settled()
    assert 3 in d.state.alive
    d.assert_mutes()
    while d.state.step.seat != 3:
        await d.pass_speech()
    d.assert_mutes()
    assert not fake.voice_state(mover).mute  # type: ignore[union-attr]


async def test_mute_members_taken_away_and_given_back_mid_game_brings_the_table_to_its_step(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """While the bot may not mute, the speeches go on with the wrong members muted; given the permission
    back mid-speech, the table is brought to what its step needs at once, and a stop gives everyone back."""
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    await d.pass_speech()
    await fake.set_overwrite(club.voice, club.bot_role, deny=perms.MUTE_MEMBERS)
    for _ in range(3):
        await d.pass_speech()
    await d.settled()
    assert d.state.step.kind == "speech"
    assert d.muted_seats() != d.all_seats() - d.expected_speakers()  # the speaker is muted, not his turn
    # Given back within the speech: the table is put right now, not at the next step.
    await fake.set_overwrite(club.voice, club.bot_role, allow=perms.MUTE_MEMBERS)
    await fake.wait_for(
        lambda: d.muted_seats() == d.all_seats() - d.expected_speakers(), what="the step's mutes"
    )
    d.assert_mutes()
    stopped = await fake.slash(d.players[0], "mafia stop", channel=club.text)
    assert stopped.ephemeral
    await fake.wait_for(lambda: not d.games.tables, what="the table to close")
    await fake.wait_for(lambda: not d.muted_seats(), what="everyone given back")


async def test_a_player_a_moderator_muted_before_the_game_speaks_in_turn_and_gets_his_mute_back(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """README: everyone's own mute state is given back at the end. A player a human moderator had server-
    muted before the game is the table's while it runs (he speaks in his turn) and is muted again after."""
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    muted = club.players[3]
    muted.mute = True  # a moderator's mute, from before the game
    await d.start("classic")
    seat = d.seat(muted)
    while d.state.step.kind == "speech" and d.state.step.seat != seat:
        await d.pass_speech()
    assert d.state.step.seat == seat
    await fake.wait_for(lambda: not fake.voice_state(muted).mute, what="his speech")  # type: ignore[union-attr]
    d.assert_mutes()
    stopped = await fake.slash(d.players[0], "mafia stop", channel=club.text)
    assert stopped.ephemeral
    await fake.wait_for(lambda: not d.games.tables, what="the table to close")
    await fake.wait_for(lambda: d.muted_seats() == {seat}, what="the moderator's mute given back alone")


async def test_a_muted_player_removed_from_the_server_mid_game_leaves_no_failure_and_the_game_goes_on(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """A player kicked from the server (or who leaves it) while the table has him muted: Discord forgets
    the member; the table lets his seat go, the ledger keeps what it owes him for his return without
    asking Discord for an unmute it cannot make, and nothing is logged as a failure."""
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    d.games.presence.leave_grace = 0.2
    await d.start("classic")
    # A muted player, not the one who started the game (he stops it below; the seats are drawn).
    gone = next(p for p in d.players[1:] if fake.voice_state(p).mute)  # type: ignore[union-attr]
    seat = d.seat(gone)
    await fake.remove_player(club, gone)
    await d.until(lambda: seat not in d.state.alive, "his seat let go")
    d.players.remove(gone)
    while d.state.step.kind == "speech":
        await d.pass_speech()
    stopped = await fake.slash(d.players[0], "mafia stop", channel=club.text)
    assert stopped.ephemeral
    await fake.wait_for(lambda: not d.games.tables, what="the table to close")
    await fake.wait_for(
        lambda: not any(fake.voice_state(p) and fake.voice_state(p).mute for p in d.players),  # type: ignore[union-attr]
        what="everyone given back",
    )
    mark = len(fake.calls)
    await d.games.reconciler.settle(club.id)  # he is owed his voice if he comes back: nothing sent now
    assert [c for c in fake.calls[mark:] if c.route == MEMBER_EDIT] == []


async def test_a_removed_player_who_goes_round_by_another_channel_is_muted_again_at_the_table(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """The eliminated stay muted (D-G6). One who leaves, connects to another channel (where the bot gives
    him his voice back) and then walks back in to the table is muted again; his seat stays out."""
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    d.games.presence.leave_grace = 0.2
    await d.start("classic")
    kicked = await fake.slash(d.players[0], "mafia kick", channel=club.text, seat=3)
    assert kicked.ephemeral
    await d.settled()
    out = d.member(3)
    assert 3 not in d.state.alive and fake.voice_state(out).mute  # type: ignore[union-attr]
    lounge = await fake.add_channel(club, "Курилка", type=2)
    await fake.leave_voice(out)
    await fake.join_voice(out, lounge)
    await fake.wait_for(lambda: not fake.voice_state(out).mute, what="his voice in the lounge")  # type: ignore[union-attr]
    await fake.move_voice(out, club.voice)
    await fake.wait_for(lambda: fake.voice_state(out).mute, what="muted again at the table")  # type: ignore[union-attr]
    await d.settled()
    d.assert_mutes()
    while d.state.step.kind == "speech":
        await d.pass_speech()
        d.assert_mutes()
    assert 3 not in d.state.alive
