"""The stand-in itself, spoken to with a bare aiohttp client: what discord.py relies on."""

from __future__ import annotations

import os

import aiohttp
import pytest
from fakediscord import MEMBER_EDIT, FakeDiscord
from fakediscord.tls import trust_test_certificate


async def test_json_content_type_and_ratelimit_headers(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as session:
        headers = {"Authorization": f"Bot {fake.token}"}
        async with session.get(fake.api_base + "/users/@me", headers=headers) as response:
            assert response.headers["Content-Type"] == "application/json"  # exactly, without charset
            assert {
                "X-RateLimit-Limit",
                "X-RateLimit-Remaining",
                "X-RateLimit-Reset-After",
            } <= response.headers.keys()
            assert (await response.json())["id"] == str(fake.world.bot_user.id)
        async with session.get(fake.api_base + "/users/@me") as response:
            assert response.status == 401


async def test_429_is_shaped_like_discords(fake: FakeDiscord) -> None:
    club = fake.create_club(players=1)
    fake.rate_limits.set(MEMBER_EDIT, 1, 60)
    url = f"{fake.api_base}/guilds/{club.id}/members/{club.players[0].id}"
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession() as session:
        async with session.patch(url, json={"nick": "Дон"}, headers=headers) as response:
            assert response.status == 200 and response.headers["X-RateLimit-Remaining"] == "0"
        async with session.patch(url, json={"nick": "Дон"}, headers=headers) as response:
            assert response.status == 429
            assert response.headers["Via"]  # without it discord.py takes a 429 for a Cloudflare ban
            body = await response.json()
            assert 0 < body["retry_after"] <= 60 and body["global"] is False
    assert fake.rate_limits.limited == [(MEMBER_EDIT, str(club.id))]


async def test_unknown_routes_are_recorded_and_fail_the_test(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as session:
        headers = {"Authorization": f"Bot {fake.token}"}
        async with session.get(fake.api_base + "/guilds/1/audit-logs", headers=headers) as response:
            assert response.status == 404
    assert fake.unknown_routes == ["GET /guilds/1/audit-logs"]
    with pytest.raises(AssertionError, match="audit-logs"):
        fake.check()
    fake.unknown_routes.clear()


def test_the_voice_certificate_was_trusted_before_aiohttp_loaded() -> None:
    # tests/conftest.py imports fakediscord first; only then may anything import aiohttp.
    certificate = trust_test_certificate()
    assert not certificate.aiohttp_was_imported
    assert os.environ["SSL_CERT_FILE"] == str(certificate.bundle)
    assert certificate.cert.read_bytes() in certificate.bundle.read_bytes()
