"""Many tables on one token (issue 20, item 4): the bot keeps Discord's global limit itself, per token,
so the stand-in's global limit (50 requests a second per token, tests/fakediscord/ratelimits.py) never
refuses it, and nothing a table sends is dropped on the way: every deal's DMs, every panel, every mute."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest
from fakediscord import Club, FakeDiscord
from game_driver import MEMBER_EDIT, TableDriver

from mafiabot.bot import MafiaBot

TABLES = 6


@pytest.fixture
def clubs(fake: FakeDiscord) -> list[Club]:
    return [fake.create_club(players=10, name=f"Клуб {n}") for n in range(1, TABLES + 1)]


@pytest.fixture
def club(clubs: list[Club]) -> Club:
    return clubs[0]  # the `bot` fixture's club; the bot knows every club from its start


async def _play_at_once(bot: MafiaBot, fake: FakeDiscord, clubs: list[Club]) -> list[TableDriver]:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)  # the guilds' member buckets are not what this tests
    drivers = [TableDriver(fake, club, bot, club.players) for club in clubs]
    await asyncio.gather(*(d.start("simple") for d in drivers))  # every deal, DMs and mutes at once
    for d in drivers:
        assert d.muted_seats() == d.all_seats()  # the acquaintance night, at every table
        assert all(count >= 1 for count in d.dm_counts().values())  # every player has his card
    await asyncio.gather(*(d.skip_step() for d in drivers))  # every table's first speech at once
    for _ in range(3):
        await asyncio.gather(*(d.pass_speech() for d in drivers))  # every speaker passes at once
    for d in drivers:
        await d.settled()
        d.assert_mutes()
    return drivers


async def test_many_tables_at_once_stay_within_the_global_limit_and_lose_nothing(
    bot: MafiaBot, fake: FakeDiscord, clubs: list[Club]
) -> None:
    drivers = await _play_at_once(bot, fake, clubs)
    assert bot.quota.delayed > 0, "the tables asked for more than a second allows: the quota held some"
    assert not fake.rate_limits.limited, fake.rate_limits.limited[:5]  # no 429, global or other
    for d in drivers:  # each table's speakers passed in turn: the panel followed the game
        assert d.state.step.kind == "speech" and d.state.step.seat == 4


@pytest.mark.helpers(count=1)
async def test_the_helper_keeps_its_own_token_s_second(
    bot: MafiaBot, fake: FakeDiscord, clubs: list[Club]
) -> None:
    (account,) = fake.accounts
    for club in clubs[1:]:  # the fixture invited the helper to the first club; the others invite it too
        await fake.invite_bot(club, account)
    (helper,) = bot.games.crew.helpers
    await _play_at_once(bot, fake, clubs)
    # Every request of the helper's token went through its own quota (its log-in too), none of them
    # through the main bot's.
    assert helper.edits > 0 and helper.quota.requests == len(
        [c for c in fake.calls if c.bot_id == account.id]
    )
    assert not fake.rate_limits.limited, fake.rate_limits.limited[:5]


@pytest.mark.helpers(count=1)
async def test_when_every_token_s_second_is_full_the_give_back_goes_to_the_shortest_queue(
    bot: MafiaBot, fake: FakeDiscord, clubs: list[Club]
) -> None:
    (account,) = fake.accounts
    for club in clubs[1:]:
        await fake.invite_bot(club, account)
    (helper,) = bot.games.crew.helpers
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)  # the guilds' member buckets are not what this tests
    drivers = [TableDriver(fake, club, bot, club.players) for club in clubs]
    await asyncio.gather(*(d.start("simple") for d in drivers))
    # Seconds far smaller than the stops ask for: after the first few unmutes every token's is full.
    bot.quota.per_second = helper.quota.per_second = 5
    bot.games.crew.forget_spending()
    mark = len(fake.calls)
    await asyncio.gather(*(fake.slash(d.players[0], "mafia stop", channel=d.club.text) for d in drivers))
    await fake.wait_for(lambda: not bot.games.tables, timeout=60, what="every table closed")
    for d in drivers:
        await d.settled()
        assert d.muted_seats() == set()
    edits = Counter(c.bot_id for c in fake.calls[mark:] if c.route == MEMBER_EDIT and c.status == 200)
    assert sum(edits.values()) == 10 * TABLES
    # Left to the main bot once every second was full, the unmutes queued behind its messages while
    # the helper idled (at 300 tables: 2,763 of the main token's requests waited, the helpers' 133).
    assert edits[account.id] >= 0.4 * sum(edits.values()), edits
    assert not fake.rate_limits.limited, fake.rate_limits.limited[:5]
