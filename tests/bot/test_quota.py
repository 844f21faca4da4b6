"""The bot's own keeping of Discord's global limit (mafiabot/quota.py): what a full second lets go first,
what it counts, and that it learns from a global 429 that came all the same."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest
import yarl
from fakediscord import Club, FakeDiscord

from mafiabot import quota as quota_module
from mafiabot.bot import MafiaBot
from mafiabot.quota import (
    CONNECTIONS,
    MAY_SPEAK,
    MUTE,
    NEXT_SPEAKER,
    ORDINARY,
    Quota,
    cap_connections,
    counted,
    urgency,
    urgent,
)


async def test_a_full_second_lets_the_next_speaker_go_first_then_unmutes_then_mutes_then_the_rest() -> None:
    quota = Quota(per_second=2)
    first, second = await quota.take(), await quota.take()  # the second is full
    left: list[str] = []

    async def request(name: str, level: int) -> None:
        place = await quota.take(level)
        left.append(name)
        quota.answered(place)

    waiting = [
        asyncio.create_task(request(name, level))
        for name, level in [
            ("panel", ORDINARY),
            ("mute 3", MUTE),
            ("message", ORDINARY),
            ("unmute 4", MAY_SPEAK),
            ("mute 5", MUTE),
            ("unmute the next speaker", NEXT_SPEAKER),
        ]
    ]
    await asyncio.sleep(0)
    assert left == [] and quota.room(ORDINARY) == 0 and quota.delayed == 6
    await asyncio.sleep(0.05)
    assert left == []  # a place is free only a second after its request was answered
    quota.answered(first)
    quota.answered(second)
    await asyncio.gather(*waiting)
    assert left == ["unmute the next speaker", "unmute 4", "mute 3", "mute 5", "panel", "message"]
    assert quota.requests == 8


async def test_a_request_whose_caller_gave_up_leaves_its_place_to_the_next() -> None:
    quota = Quota(per_second=1)
    quota.answered(await quota.take())
    given_up = asyncio.create_task(quota.take(NEXT_SPEAKER))
    after = asyncio.create_task(quota.take(ORDINARY))
    await asyncio.sleep(0)
    given_up.cancel()
    await after  # (the next second)
    assert given_up.cancelled() and quota.room(NEXT_SPEAKER) == 0


async def test_room_counts_what_waits_ahead_of_a_request() -> None:
    quota = Quota(per_second=3)
    places = [await quota.take(), await quota.take()]
    assert quota.room(MUTE) == 1
    places.append(await quota.take())
    tasks = [asyncio.create_task(quota.take(ORDINARY)), asyncio.create_task(quota.take(MUTE))]
    await asyncio.sleep(0)
    assert quota.room(NEXT_SPEAKER) == 0 and quota.room(ORDINARY) == 0
    for place in places:
        quota.answered(place)
    await asyncio.gather(*tasks)
    assert quota.room(NEXT_SPEAKER) == 1  # two of the next second's three are flying


async def test_a_request_never_answered_holds_its_place_only_so_long(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(quota_module, "STUCK", 0.2)
    quota = Quota(per_second=1)
    await quota.take()  # its trace's end never comes
    await quota.take()  # the place comes free all the same
    assert quota.delayed == 1


async def test_a_global_429_pauses_the_quota() -> None:
    quota = Quota(per_second=50)
    quota.pause(0.2)
    assert quota.room() == 0
    quota.answered(await quota.take())  # waits the pause out
    assert quota.delayed == 1 and quota.room() == 49


def test_only_rest_requests_that_discord_counts_are_counted() -> None:
    api = "https://discord.com/api/v10"
    assert counted(yarl.URL(f"{api}/channels/1/messages"))
    assert counted(yarl.URL(f"{api}/guilds/1/members/2"))
    assert not counted(yarl.URL(f"{api}/interactions/1/token/callback"))  # Discord exempts these
    assert not counted(yarl.URL(f"{api}/webhooks/1/token/messages/@original"))
    assert not counted(yarl.URL("wss://gateway.discord.gg/?v=10&encoding=json"))
    assert not counted(yarl.URL("https://cdn.discordapp.com/avatars/1/a.png"))


def test_urgency_is_the_task_s_own_and_reset_after() -> None:
    assert urgency.get() == ORDINARY
    with urgent(NEXT_SPEAKER):
        assert urgency.get() == NEXT_SPEAKER
    assert urgency.get() == ORDINARY


async def test_the_waits_for_a_place_are_counted_and_told_in_the_log(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    now = [100.0]
    quota = Quota(per_second=1, clock=lambda: now[0], name="helper 2")
    monkeypatch.setattr(quota_module, "REPORT_EVERY", 0.0)  # every wait is told
    quota.answered(await quota.take())  # the second is full until a second after this answer
    waiting = asyncio.create_task(quota.take())
    await asyncio.sleep(0)
    now[0] += 1.5  # the clock the quota reads: the place is free again
    quota._let_go()  # (its timer, on the loop's own clock, would come a second from now)
    with caplog.at_level("INFO", logger="mafiabot.quota"):
        quota.answered(await waiting)
    assert quota.delayed == 1 and quota.waited == pytest.approx(1.5) and quota.longest == pytest.approx(1.5)
    (line,) = [r.getMessage() for r in caplog.records if "waited" in r.getMessage()]
    assert line.startswith("Requests of helper 2 that waited for Discord's global limit: 1 got their place")
    assert "1.50 s on average, the longest 1.50 s" in line


async def test_discord_pys_idle_buckets_are_swept_once_a_minute_not_at_every_new_bucket() -> None:
    """Issue 18: discord.py walks all its rate-limit buckets whenever it makes a new one (once it has
    256), to drop those idle for five minutes; a bot at hundreds of tables has thousands. With
    sweep_seldom the walk comes once per SWEEP_EVERY: a new bucket meanwhile walks nothing (the idle
    ones are still there), and the next sweep drops them as discord.py's own would."""
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    now = 0.0
    quota_module.sweep_seldom(http, clock=lambda: now)
    for n in range(300):
        http.get_ratelimit(f"GET /route/{n}:")
    # Idle for ten minutes (discord.py's buckets are aged by hand: its sweep takes those idle for 5).
    for bucket in http._buckets.values():
        bucket._last_request -= 600
    http.get_ratelimit("GET /a-new-route:")
    assert len(http._buckets) == 301  # no sweep: every idle bucket is still there
    now = quota_module.SWEEP_EVERY
    http.get_ratelimit("GET /another-new-route:")
    assert set(http._buckets) == {"GET /a-new-route:", "GET /another-new-route:"}  # the idle ones went


async def test_the_bots_http_client_sweeps_seldom(bot: MafiaBot) -> None:
    """The bot's own client is the one swept seldom (a helper's the same way, helpers.Helper)."""
    for n in range(300):
        bot.http.get_ratelimit(f"GET /route/{n}:")
    for bucket in bot.http._buckets.values():
        bucket._last_request -= 600  # idle for ten minutes (as above)
    bot.http.get_ratelimit("GET /a-new-route:")
    assert len([key for key in bot.http._buckets if key.startswith("GET /route/")]) == 300


async def test_every_request_of_the_bots_token_took_its_place_the_logins_too(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """The quota is a middleware of the bot's aiohttp session (Quota.keep), which discord.py makes at
    login: the login's own request goes out before the middleware is there, and is counted all the
    same. Every other request the stand-in saw from the bot's token, start-up included, took a place."""
    await bot.http.get_channel(club.text.id)
    sent = [
        call.route
        for call in fake.calls
        if call.bot_id == fake.world.bot_user.id
        and not any(p in call.path for p in ("/interactions/", "/webhooks/"))
    ]
    assert "GET /users/@me" in sent
    assert bot.quota.requests == len(sent)


async def test_a_global_429_met_all_the_same_pauses_the_bots_quota(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """Another process on the bot's token spent the current second: the bot's next request is refused
    under the global limit, its quota sends nothing for the refusal's Retry-After (discord.py's retry
    waits for it), and the request is then served."""
    while fake.rate_limits.check("GET /users/@me", "", "").allowed:  # the other process's requests
        pass
    fake.rate_limits.limited.clear()  # (the other process's own refusal)
    await bot.http.get_channel(club.text.id)
    assert [major for _, major in fake.rate_limits.limited] == ["global"]
    assert bot.quota.refused == 1 and bot.quota.delayed == 1  # the retry waited for the pause
    assert fake.calls[-1].route == "GET /channels/{channel_id}" and fake.calls[-1].status == 200


async def test_a_burst_of_requests_shares_a_capped_number_of_connections(
    fake: FakeDiscord, club: Club
) -> None:
    """discord.py's connector has no limit: thirty requests at once opened thirty connections, all kept
    alive and reused in turn afterwards. Capped (cap_connections, as the bot's and the helpers' clients
    are), they share five, every one is served, and the cap holds for a login after a close."""
    fake.rate_limits.set("GET /channels/{channel_id}", 1000, 1)
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    cap_connections(http, per_host=5)
    with fake.redirect_discord():
        for _ in range(2):
            await http.static_login(fake.token)
            mark = len(fake.calls)
            channels = await asyncio.gather(*(http.get_channel(club.text.id) for _ in range(30)))
            assert [c["id"] for c in channels] == [str(club.text.id)] * 30
            peers = {call.peer for call in fake.calls[mark:]}
            assert None not in peers and 1 <= len(peers) <= 5
            await http.close()


async def test_the_bots_client_keeps_at_most_a_hundred_connections_to_one_host(bot: MafiaBot) -> None:
    connector = bot.http.connector
    assert isinstance(connector, aiohttp.TCPConnector)
    assert connector.limit_per_host == CONNECTIONS == 100 and connector.limit == 0
