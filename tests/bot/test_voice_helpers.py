"""Helper bots for mute bursts (issue 20): a transition's edits are spread over the main bot and its
helpers, each token within its own bucket; a helper that is off the server, lacks Mute Members, or
vanishes in the middle of a burst is skipped and the main bot does the work; and whoever muted a member,
the voice ledger holds him, so nobody is left muted."""

from __future__ import annotations

import logging
from collections import Counter
from pathlib import Path

import pytest
from fakediscord import Club, FakeDiscord
from fakediscord import permissions as perms
from game_driver import MEMBER_EDIT, TableDriver

from mafiabot.bot import MafiaBot
from mafiabot.config import AudioSettings, Secret, Settings
from mafiabot.quota import ORDINARY


def _edits_by(fake: FakeDiscord, mark: int = 0) -> Counter[int]:
    """Member edits Discord applied since `mark`, per bot account."""
    return Counter(c.bot_id for c in fake.calls[mark:] if c.route == MEMBER_EDIT and c.status == 200)


@pytest.mark.club(players=16)
@pytest.mark.helpers(count=2)
async def test_the_start_of_a_sixteen_player_game_is_spread_over_three_tokens_within_their_buckets(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    # Discord's own member-edit limit (10 per 10 s per guild per token) stays on.
    d = TableDriver(fake, club, bot, club.players)
    helpers = [account.id for account in fake.accounts]
    assert [h.user_id for h in d.games.crew.helpers] == helpers  # both logged in at the bot's start
    await d.start("simple")
    d.assert_mutes()
    assert d.muted_seats() == d.all_seats()  # the acquaintance night: the whole table muted
    edits = _edits_by(fake)
    assert sum(edits.values()) == 16
    assert set(edits) == {fake.world.bot_user.id, *helpers}
    assert max(edits.values()) <= 10  # no token needed more than its bucket
    assert not fake.rate_limits.limited  # and nobody was refused or kept waiting for a 429


@pytest.mark.club(players=16)
@pytest.mark.helpers(count=1)
async def test_a_helper_that_vanishes_mid_burst_leaves_nobody_muted(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)  # the main bot's own waits are not what this tests
    (helper,) = fake.accounts
    fake.revoke_token(helper, after=3)  # its token is reset after three of its edits of the burst
    d = TableDriver(fake, club, bot, club.players)
    await d.start("simple")
    d.assert_mutes()
    assert d.muted_seats() == d.all_seats()  # the main bot did what the helper could not
    helper_calls = [c.status for c in fake.calls_to(MEMBER_EDIT) if c.bot_id == helper.id]
    assert helper_calls[:3] == [200, 200, 200] and 401 in helper_calls[3:]
    assert not d.games.crew.helpers[0].logged_in  # a refused token: left out from now on
    owed = await d.games.ledger.owed(club.id)
    assert {row.user_id for row in owed} == {p.id for p in club.players}  # every mute is on record

    mark = len(fake.calls)
    await fake.slash(d.players[0], "mafia stop", channel=club.text)
    await fake.wait_for(lambda: not d.games.tables, what="the table to close")
    await d.settled()
    assert d.muted_seats() == set(), "the helper's mutes are given back too"
    assert _edits_by(fake, mark) == {fake.world.bot_user.id: 16}
    assert await d.games.ledger.owed(club.id) == []


@pytest.mark.club(players=16)
@pytest.mark.helpers(count=1)
async def test_a_helper_that_vanishes_in_the_middle_of_the_give_back_leaves_nobody_muted(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    # The stop's unmutes: the helper's token is reset after two of them; every member it was to
    # unmute is given back by the main bot, and leaves the ledger only once Discord confirmed it.
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)  # the buckets are not what this tests
    (helper,) = fake.accounts
    d = TableDriver(fake, club, bot, club.players)
    await d.start("simple")
    assert d.muted_seats() == d.all_seats()
    d.games.crew.forget_spending()  # (the stand-in's buckets stay lifted: no waiting for a window)
    fake.revoke_token(helper, after=2)
    mark = len(fake.calls)
    await fake.slash(d.players[0], "mafia stop", channel=club.text)
    await fake.wait_for(lambda: not d.games.tables, what="the table to close")
    await d.settled()
    assert d.muted_seats() == set(), "the helper's unmutes are made by the main bot"
    helper_calls = [c.status for c in fake.calls[mark:] if c.bot_id == helper.id and c.route == MEMBER_EDIT]
    assert helper_calls[:2] == [200, 200] and 401 in helper_calls[2:]
    assert _edits_by(fake, mark)[fake.world.bot_user.id] == 14
    assert await d.games.ledger.owed(club.id) == []


@pytest.mark.club(players=12)
@pytest.mark.helpers(count=2)
async def test_a_helper_off_the_server_or_without_mute_members_is_skipped_without_asking_discord(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    first, second = fake.accounts
    await fake.kick_bot(club, first)
    role = next(r for r in club.guild.roles.values() if r.name == second.user.username)
    await fake.set_role_permissions(club, role, perms.VIEW_CHANNEL | perms.CONNECT)
    d = TableDriver(fake, club, bot, club.players)
    await d.start("simple")
    assert d.muted_seats() == d.all_seats()
    assert _edits_by(fake) == {fake.world.bot_user.id: 12}
    assert not [c for c in fake.calls if c.bot_id in (first.id, second.id) and c.route == MEMBER_EDIT]
    assert not fake.forbidden  # known refused: never asked
    await fake.set_role_permissions(club, role, perms.VIEW_CHANNEL | perms.CONNECT | perms.MUTE_MEMBERS)
    await d.skip_step()  # the acquaintance night ends: the first speaker is unmuted
    await d.settled()
    d.assert_mutes()


@pytest.mark.club(players=12)
@pytest.mark.helpers(count=1)
async def test_a_rate_limited_helper_is_skipped_and_the_main_bot_does_its_work(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    (helper,) = fake.accounts
    # Discord's hidden sub-limit for this token: two edits a minute, the third gets a 429.
    fake.rate_limits.set(MEMBER_EDIT, 2, 60.0, hidden=True, token=helper.token)
    d = TableDriver(fake, club, bot, club.players)
    await d.start("simple")
    assert d.muted_seats() == d.all_seats()
    assert helper.token in fake.rate_limits.limited_tokens  # the helper met its limit
    assert _edits_by(fake)[helper.id] == 2 and _edits_by(fake)[fake.world.bot_user.id] == 10
    mark = len(fake.calls)
    await d.skip_step()  # the acquaintance night ends: the next burst leaves the resting helper out
    await d.settled()
    d.assert_mutes()
    assert not [c for c in fake.calls[mark:] if c.bot_id == helper.id]


@pytest.mark.club(players=16)
@pytest.mark.helpers(count=2)
async def test_the_end_gives_the_whole_table_its_voice_back_over_the_helpers(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    d = TableDriver(fake, club, bot, club.players)
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)  # the start is not what this tests
    await d.start("simple")
    fake.rate_limits.set(MEMBER_EDIT, 10, 10.0)  # Discord's limit, fresh windows for the stop
    d.games.crew.forget_spending()
    mark = len(fake.calls)
    await fake.slash(d.players[0], "mafia stop", channel=club.text)
    await fake.wait_for(lambda: not d.games.tables, what="the table to close")
    await d.settled()
    assert d.muted_seats() == set()
    edits = _edits_by(fake, mark)
    assert sum(edits.values()) == 16 and len(edits) >= 2 and max(edits.values()) <= 10
    # (The main bot's second is still busy with the start's and the stop's messages: the helpers,
    # whose seconds are empty, take the larger share.) No request met a full member bucket, nor the
    # global limit of any token: every token's quota kept its second (mafiabot/quota.py).
    assert not fake.rate_limits.limited


@pytest.mark.club(players=16)
@pytest.mark.helpers(count=2)
async def test_a_helper_whose_bucket_is_spent_is_never_given_an_edit_when_the_main_bot_s_second_is_full(
    bot: MafiaBot, fake: FakeDiscord, club: Club, caplog: pytest.LogCaptureFixture
) -> None:
    # Discord's member-edit limit stays on, and the stop comes right after the start: the buckets
    # have 3-4 edits left each for 16 unmutes, and the main bot's second is full of other requests.
    d = TableDriver(fake, club, bot, club.players)
    await d.start("simple")
    await d.settled()
    start = _edits_by(fake)
    assert sum(start.values()) == 16 and max(start.values()) <= 9
    quota = d.games.crew.quota
    for _ in range(quota.room(ORDINARY)):  # the other tables' messages and panels, this second
        quota.answered(await quota.take())
    mark = len(fake.calls)
    with caplog.at_level(logging.WARNING):
        await fake.slash(d.players[0], "mafia stop", channel=club.text)
        await fake.wait_for(lambda: not d.games.tables, timeout=30, what="the table to close")
        await d.settled()
    assert d.muted_seats() == set()
    stop = _edits_by(fake, mark)
    for helper in fake.accounts:  # within what its bucket had left: nothing for discord.py to hold
        assert start[helper.id] + stop[helper.id] <= 9, (start, stop)
    # Before, a helper with no edit left "had more room" than the main bot (whose room went below
    # none): discord.py held its edits until its bucket reset, past its patience, and it was rested.
    assert "could not unmute" not in caplog.text


async def test_a_helper_token_discord_refuses_is_left_out_and_never_logged(
    fake: FakeDiscord, club: Club, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    good = fake.add_bot_account("helper-good")
    await fake.invite_bot(club, good)
    bad = "fake.not-a-token-discord-knows"
    settings = Settings(
        token=Secret(fake.token),
        helper_tokens=(Secret(bad), Secret(good.token)),
        database_url=f"sqlite:///{tmp_path}/bot.db",
        audio=AudioSettings(engine="none", cache_dir=tmp_path / "audio"),
    )
    client = MafiaBot(settings, guild_ready_timeout=0.05)
    with caplog.at_level(logging.INFO):
        async with fake.connect(client):
            helpers = client.games.crew.helpers
            assert [(h.number, h.user_id) for h in helpers] == [(2, good.id)]
    assert "Helper bot 1 could not log in" in caplog.text
    assert bad not in caplog.text and good.token not in caplog.text


@pytest.mark.club(players=12)
@pytest.mark.helpers(count=2)
async def test_the_helpers_are_met_when_the_lobby_opens_so_the_start_s_mutes_wait_for_no_member_request(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    # The bot does not fetch member lists at start: the helpers' members are asked for once, when the
    # lobby opens (they used to be asked for at the table's first burst, which waited for the answer).
    d = TableDriver(fake, club, bot, club.players)
    d.without_host_voice()
    await d.seat_everyone()
    helpers = {account.id for account in fake.accounts}

    def helpers_asked() -> bool:
        return any(helpers <= {int(u) for u in r.get("user_ids") or []} for r in fake.gateway.chunk_requests)

    await d.open_lobby("simple")
    for p in d.players[1:]:
        await fake.click(p, d.lobby_message(), label="Присоединиться")
    await fake.wait_for(helpers_asked, what="the helpers' members asked for")
    asked = len(fake.gateway.chunk_requests)
    await fake.click(d.players[0], d.lobby_message(), label="Начать игру")
    await fake.wait_for(lambda: club.voice.id in d.games.tables, what="the table")
    d.table = d.games.tables[club.voice.id]
    await d.settled()
    d.assert_mutes()
    assert d.muted_seats() == d.all_seats()
    assert set(_edits_by(fake)) >= helpers  # the helpers made the start's edits
    assert len(fake.gateway.chunk_requests) == asked  # and nothing was asked for at the start
