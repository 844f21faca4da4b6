"""Voice during a game: speech hand-overs, nightfall, spectators, players leaving and coming back,
and a stopped game giving everyone their own mute state back."""

from __future__ import annotations

from fakediscord import MESSAGE_SEND, Club, FakeDiscord
from game_driver import MEMBER_EDIT, TableDriver

from mafiabot.bot import MafiaBot


def _edits(d: TableDriver, mark: int) -> list[tuple[int, bool]]:
    return [(int(c.params["user_id"]), bool(c.json["mute"])) for c in d.edits_since(mark)]


async def test_speech_hand_overs_edit_two_members_and_nightfall_mutes_only_the_speaker(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)  # counted here, not paced; the benchmark paces
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    assert d.state.step.kind == "speech" and d.state.step.seat == 1
    d.assert_mutes()
    while d.state.step.kind == "speech":
        before, mark = d.state.step.seat, len(fake.calls)
        await d.pass_speech()
        d.assert_mutes()
        if d.state.step.kind == "speech":
            after = d.state.step.seat
            # The previous speaker is muted first, then the next one unmuted (never two voices at once,
            # issue 13): two edits, nobody else.
            assert _edits(d, mark) == [(d.member(before).id, True), (d.member(after).id, False)], [
                (d.seat(next(p for p in d.players if p.id == u)), m) for u, m in _edits(d, mark)
            ]
        else:
            # Nightfall: everyone else is muted already; only the last speaker is edited.
            assert d.state.step.kind == "meet"
            assert _edits(d, mark) == [(d.member(before).id, True)]
    assert d.muted_seats() == d.all_seats()


async def test_spectators_are_muted_and_everyone_gets_their_own_state_back_at_stop(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    spectator, muted_before = club.players[7], club.players[8]
    muted_before.mute = True  # a moderator server-muted this one before the game
    await fake.join_voice(spectator, club.voice)
    await fake.join_voice(muted_before, club.voice)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    await d.pass_speech()
    assert fake.voice_state(spectator).mute and fake.voice_state(muted_before).mute  # type: ignore[union-attr]
    speaker = d.member(d.state.step.seat)
    assert not fake.voice_state(speaker).mute  # type: ignore[union-attr]

    stopped = await fake.slash(d.players[0], "mafia stop", channel=club.text)
    assert stopped.ephemeral
    await fake.wait_for(lambda: not d.games.tables, what="the table to close")
    await d.settled()
    assert d.muted_seats() == set(), "nobody stays muted after a stop"
    assert not fake.voice_state(spectator).mute  # type: ignore[union-attr]
    assert fake.voice_state(muted_before).mute, "a mute the bot did not make is left alone"  # type: ignore[union-attr]
    storage = d.games.storage
    assert storage is not None and storage.running_games() == []
    assert any("Протокол игры" in t for t in d.public_texts())


async def test_a_player_who_leaves_and_comes_back_within_the_grace_period_plays_on(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    d.games.presence.leave_grace = 30.0
    await d.start("classic")
    leaver = d.member(3)
    await fake.leave_voice(leaver)
    table = d.table
    assert table is not None
    await fake.wait_for(lambda: leaver.id in table.leave_timers, what="the grace period to start")
    await fake.join_voice(leaver, club.voice)
    assert leaver.id not in table.leave_timers, "the grace timer is cancelled on return"
    await d.settled()
    assert 3 in d.state.alive
    d.assert_mutes()  # still muted: not their turn
    while d.state.step.seat != 3:
        await d.pass_speech()
    d.assert_mutes()  # and unmuted for their speech
    assert not fake.voice_state(leaver).mute  # type: ignore[union-attr]


async def test_after_the_grace_period_the_player_leaves_the_table_and_is_unmuted_on_next_connect(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    d.games.presence.leave_grace = 0.2
    await d.start("classic")
    leaver = d.member(4)
    assert d.fake.voice_state(leaver).mute  # type: ignore[union-attr]
    await fake.leave_voice(leaver)
    await d.until(lambda: 4 not in d.state.alive, "the grace period to run out")
    assert leaver.mute, "Discord keeps the server mute while they are away"
    # They come back to another voice channel of the server: the bot lifts its mute there.
    lounge = await fake.add_channel(club, "Курилка", type=2)
    await fake.join_voice(leaver, lounge)
    await fake.wait_for(lambda: not fake.voice_state(leaver).mute, what="the pending unmute")  # type: ignore[union-attr]
    edit = fake.calls_to(MEMBER_EDIT)[-1]
    assert int(edit.params["user_id"]) == leaver.id and edit.json == {"mute": False}


async def test_a_spectator_who_comes_in_is_muted_and_unmuted_when_moving_elsewhere(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    spectator = club.players[8]
    await fake.join_voice(spectator, club.voice)
    await fake.wait_for(lambda: fake.voice_state(spectator).mute, what="the spectator muted")  # type: ignore[union-attr]
    d.assert_mutes()  # the players are untouched
    lounge = await fake.add_channel(club, "Курилка", type=2)
    await fake.move_voice(spectator, lounge)
    await fake.wait_for(lambda: not fake.voice_state(spectator).mute, what="the mute lifted")  # type: ignore[union-attr]
    await d.settled()
    assert not spectator.mute
    d.assert_mutes()


async def test_the_voice_is_given_back_the_moment_the_game_is_over_ahead_of_its_last_messages(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """The end of a game waits in the table's queue behind its last messages (Discord's 5 creates per 5 s
    in a channel; here one per 3 s, and the bucket already spent when the game ends): the players' voice
    must not wait there with them (issue 12). Member edits have buckets of their own."""
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    mafia = d.seats_with("mafioso", "don")
    await fake.slash(d.players[0], "mafia kick", channel=club.text, seat=mafia[0])
    await d.settled()
    muted = {d.member(seat).id for seat in d.muted_seats()}
    assert len(muted) >= 5
    fake.rate_limits.set(MESSAGE_SEND, 1, 3)
    fake.rate_limits.spend(MESSAGE_SEND, str(club.text.id))  # the table's lines are behind the limit
    mark = len(fake.calls)
    await fake.slash(d.players[0], "mafia kick", channel=club.text, seat=mafia[1])  # the town wins
    await fake.wait_for(lambda: not d.games.tables, timeout=30, what="the table to close")
    await d.settled()
    assert d.muted_seats() == set()

    calls = fake.calls[mark:]
    unmutes = [i for i, c in enumerate(calls) if c.route == MEMBER_EDIT and c.status == 200]
    posts = [
        i
        for i, c in enumerate(calls)
        if c.route == MESSAGE_SEND and c.status == 200 and c.params["channel_id"] == str(club.text.id)
    ]
    assert all(calls[i].json == {"mute": False} for i in unmutes)
    assert {int(calls[i].params["user_id"]) for i in unmutes} == muted
    assert posts and max(unmutes) < min(posts), "every unmute comes before the game's last messages"
    # ...which are still all posted, in order: the kick's line with the result and the roles, then the
    # game's record (the ratings after it).
    posted = [int(calls[i].response["id"]) for i in posts]
    last = [m for m in fake.messages(club.text) if int(m.id) in posted]
    assert "Победили честные горожане" in last[0].text and "Роли игроков" in last[0].text, last[0].text
    assert d.table is not None
    assert [name for m in last for name in m.files] == [f"mafia-game-{d.table.game_id}.json"]
    assert last.index(next(m for m in last if m.files)) == 1


async def test_a_mutes_echo_is_observed_without_a_task_and_a_mute_lifted_out_of_turn_comes_back(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """The echoes of the bot's member edits (a mute changed, nobody moved: two a click) are observed as
    discord.py dispatches them, not in a task each, and the echo of the table's own last edit does not
    make it converge again (issue 18); such a change by someone else (a moderator lifts a silent
    player's mute) is still seen, and the mute put back."""
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    await d.settled()
    inline, convergences = bot.voice_changes_inline, d.table.voice.convergences  # type: ignore[union-attr]
    await d.pass_speech()
    await d.settled()
    assert bot.voice_changes_inline >= inline + 2
    # The echo of the table's own edit does not read the channel again: the pass's state (and the
    # staging before it) only, not one more per echo (3 before).
    assert d.table.voice.convergences - convergences <= 2  # type: ignore[union-attr]
    d.assert_mutes()
    silent = d.member(next(seat for seat in sorted(d.muted_seats()) if seat != d.state.step.seat))
    state = fake.voice_state(silent)
    assert state is not None and state.mute
    state.mute = False  # a moderator's unmute, out of turn
    fake.dispatch("VOICE_STATE_UPDATE", fake.gateway.voice_state_event(fake.world.guilds[club.id], silent.id))
    await fake.gateway.flush()
    await fake.wait_for(lambda: fake.voice_state(silent).mute, what="the mute put back")  # type: ignore[union-attr]
    d.assert_mutes()


async def test_the_echo_of_an_edit_that_overtakes_its_answer_does_not_start_the_pass_over(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """Discord's echo of a member edit (VOICE_STATE_UPDATE) can come before the edit's own answer. It is
    the edit under way, not a change to converge on: the pass goes on to its unmute (the next speaker)
    instead of stopping to read the channel and start over (a second convergence a click, issue 18)."""
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    await d.settled()
    assert d.table is not None
    voice = d.table.voice
    convergences, echoes = voice.convergences, bot.voice_changes_inline
    fake.faults.hold_answers(MEMBER_EDIT)  # carried out (echoed) at once, answered when released
    await fake.click(d.member(d.state.step.seat), d.panel(), label=d.t("control-pass"))
    # The last speaker's mute is carried out and its echo taken while its answer is kept.
    await fake.wait_for(lambda: bot.voice_changes_inline > echoes, what="the mute's echo")
    await fake.gateway.flush()
    fake.faults.release_answers(MEMBER_EDIT)
    await d.settled()
    assert voice.convergences - convergences == 1
    assert bot.voice_changes_inline == echoes + 2  # the mute's and the next speaker's unmute's
    d.assert_mutes()
