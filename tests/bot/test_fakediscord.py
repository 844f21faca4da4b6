"""The stand-in itself, spoken to with a bare aiohttp client: what discord.py relies on."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

import aiohttp
import pytest
from fakediscord import MEMBER_EDIT, Club, FakeDiscord, wire
from fakediscord.tls import trust_test_certificate

from mafiabot.bot import MafiaBot


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


def test_the_wire_writes_what_the_json_module_does() -> None:
    # orjson where it is installed, but the same documents: a key that is no string, text past ASCII,
    # an integer past 64 bits (which orjson cannot write: the json module does).
    documents = [
        {"content": "Говорит игрок №3", "nested": [{"a": None, "b": True, "c": 1.5}], 7: "seven"},
        {"id": 2**70},
        [],
    ]
    for document in documents:
        assert json.loads(wire.dumps(document)) == json.loads(json.dumps(document, ensure_ascii=False))
        assert wire.dumps_bytes(document) == wire.dumps(document).encode()

    @dataclass
    class NotJson:
        id: int

    with pytest.raises(TypeError):
        wire.dumps({"payload": NotJson(1)})  # a stand-in bug stays one (orjson would write it)


async def test_an_interaction_records_when_its_frame_went_and_its_answer_came(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    # benchmarks/load_model.py splits a click's acknowledgement with these times.
    rules = await fake.slash(club.players[0], "mafia rules", channel=club.text)
    label = rules.message.buttons()[0]["label"]
    answer = await fake.click(club.players[0], rules.message, label=label, wait=False)
    assert answer.callback is None and not answer.answered
    assert await answer.acknowledged(timeout=10)  # woken by its own callback
    for record in (rules, answer):
        assert 0 < record.created <= record.sent <= record.answered
