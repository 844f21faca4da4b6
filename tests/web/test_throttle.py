"""A client that asks for pages too often is told to wait (429, Retry-After), without slowing anyone else."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest
from club_seed import GUILD
from web_helpers import SECRET, Clock

from mafiabot.config import WebSettings
from mafiabot.storage import Storage
from mafiabot.web.app import make_server
from mafiabot.web.server import PUBLIC_KEY, WebServer
from mafiabot.web.throttle import FORGET_AFTER, Throttle


def test_a_bucket_gives_its_burst_then_refills_at_the_rate() -> None:
    clock = Clock()
    throttle = Throttle(60, clock, burst=3)  # one a second
    assert [throttle.wait("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert throttle.wait("a") == pytest.approx(1.0)
    assert throttle.wait("b") == 0.0  # another client has his own bucket
    clock.now += 0.5
    assert throttle.wait("a") == pytest.approx(0.5)  # a refused request costs nothing
    clock.now += 0.5
    assert throttle.wait("a") == 0.0
    clock.now += 3600
    assert [throttle.wait("a") for _ in range(4)][-1] > 0  # a long rest refills to the burst, no more


def test_no_limit_and_bounded_memory() -> None:
    clock = Clock()
    assert all(Throttle(0, clock).wait("a") == 0.0 for _ in range(1000))
    throttle = Throttle(60, clock, burst=2)
    for n in range(FORGET_AFTER):
        throttle.wait(f"client{n}")
    clock.now += 10  # every bucket is full again: nothing to remember about them
    throttle.wait("newcomer")
    assert len(throttle._buckets) == 1


@pytest.fixture
async def limited(storage: Storage) -> AsyncIterator[tuple[WebServer, aiohttp.ClientSession]]:
    storage.set_guild_value(GUILD, PUBLIC_KEY, True)
    server = make_server(
        WebSettings(enabled=True, port=0, requests_per_minute=40, forwarded_for=True),  # bursts of 10
        secret=SECRET,
        storage=storage,
        guild_name={GUILD: "Клуб"}.get,
    )
    await server.start()
    try:
        async with aiohttp.ClientSession() as http:
            yield server, http
    finally:
        await server.stop()


async def test_a_client_over_the_limit_gets_429_and_others_are_served(
    limited: tuple[WebServer, aiohttp.ClientSession],
) -> None:
    server, http = limited
    url = f"http://127.0.0.1:{server.port}/g/{GUILD}/top"

    async def get(client: str) -> aiohttp.ClientResponse:
        async with http.get(url, headers={"X-Forwarded-For": f"203.0.113.9, {client}"}) as response:
            await response.read()
            return response

    statuses = [(await get("198.51.100.1")).status for _ in range(10)]
    assert statuses == [200] * 10
    refused = await get("198.51.100.1")
    assert refused.status == 429 and int(refused.headers["Retry-After"]) >= 1
    assert refused.headers["X-Robots-Tag"] == "noindex"  # still a page of ours, with its headers
    assert (await get("198.51.100.2")).status == 200  # the next client is not slowed by the first
