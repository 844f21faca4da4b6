"""The stand-in's limits: Discord's buckets and global limit, the invalid-request ban, payload rules and
interaction deadlines."""

from __future__ import annotations

import discord
import pytest
from fakediscord import Club, FakeDiscord
from fakediscord.checks import InvalidForm, check_message, check_modal
from fakediscord.ratelimits import INVALID_LIMIT, MEMBER_EDIT, MESSAGE_CREATE, MESSAGE_EDIT, RateLimits

from mafiabot.bot import MafiaBot


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_discord_s_buckets_by_default() -> None:
    limits = RateLimits()
    assert [
        (limits.routes[r].requests, limits.routes[r].per) for r in (MEMBER_EDIT, MESSAGE_CREATE, MESSAGE_EDIT)
    ] == [
        (10, 10.0),
        (5, 5.0),
        (5, 5.0),
    ]
    decisions = [limits.check(MESSAGE_CREATE, "channel") for _ in range(6)]
    assert [d.allowed for d in decisions] == [True] * 5 + [False]
    assert decisions[4].headers["X-RateLimit-Remaining"] == "0"
    assert limits.check(MESSAGE_CREATE, "another channel").allowed  # per channel


def test_the_global_limit_spans_routes_but_not_interactions() -> None:
    clock = Clock()
    limits = RateLimits(clock=clock)
    for i in range(50):
        assert limits.check("GET /channels/{channel_id}", str(i)).allowed
    refused = limits.check("GET /users/{user_id}", "")
    assert not refused.allowed and refused.headers["X-RateLimit-Global"] == "true"
    assert limits.check("POST /interactions/{interaction_id}/{interaction_token}/callback", "").allowed
    clock.now += 1.0
    assert limits.check("GET /users/{user_id}", "").allowed


def test_each_interaction_callback_has_its_own_bucket() -> None:
    """A bot answering many clicks at once: the callbacks are not one shared bucket of 50 a second."""
    from fakediscord.rest import _major

    callback = "POST /interactions/{interaction_id}/{interaction_token}/callback"
    limits = RateLimits(clock=lambda: 0.0)
    majors = {_major({"interaction_id": str(i), "interaction_token": f"t{i}"}) for i in range(200)}
    assert len(majors) == 200 and all(limits.check(callback, major).allowed for major in majors)


def test_ten_thousand_invalid_requests_in_ten_minutes_ban_the_bot() -> None:
    clock = Clock()
    limits = RateLimits(clock=clock)
    for _ in range(INVALID_LIMIT - 1):
        limits.answered(403)
    limits.answered(200)
    limits.answered(404)  # only 401, 403 and 429 count
    assert not limits.banned and limits.peak_invalid == INVALID_LIMIT - 1
    clock.now += 601  # the window has moved on
    limits.answered(401)
    assert not limits.banned and len(limits.invalid) == 1
    for _ in range(INVALID_LIMIT - 1):
        limits.answered(429)
    assert limits.banned
    banned = limits.check("GET /users/{user_id}", "")
    assert not banned.allowed and "Via" not in banned.headers  # discord.py reads it as a Cloudflare ban


def _row(*items: dict[str, object]) -> dict[str, object]:
    return {"type": 1, "components": list(items)}


def _button(custom_id: str, label: str = "ok") -> dict[str, object]:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"content": "я" * 2001}, 50035),
        ({}, 50006),
        ({"components": [_row(_button(str(i))) for i in range(6)]}, 50035),
        ({"components": [_row(*(_button(str(i)) for i in range(6)))]}, 50035),
        ({"components": [_row(_button("a", "x" * 81))]}, 50035),
        ({"components": [_row(_button("a" * 101))]}, 50035),
        ({"components": [_row(_button("a")), _row(_button("a"))]}, 50035),
        (
            {
                "components": [
                    _row(
                        {
                            "type": 3,
                            "custom_id": "s",
                            "options": [{"label": str(i), "value": str(i)} for i in range(26)],
                        }
                    )
                ]
            },
            50035,
        ),
        ({"content": "x", "embeds": [{"title": "t" * 257}]}, 50035),
        ({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}, 50035),
        ({"content": "x", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}, 50035),
        ({"content": "x", "flags": 1 << 15}, 50035),
    ],
)
def test_payload_rules(body: dict[str, object], code: int) -> None:
    with pytest.raises(InvalidForm) as refused:
        check_message(body, new=True)
    assert refused.value.code == code


def test_payloads_within_the_rules_pass() -> None:
    options = [{"label": str(i), "value": str(i)} for i in range(25)]
    check_message(
        {
            "content": "я" * 2000,
            "components": [_row(*(_button(f"{r}.{i}") for i in range(5))) for r in range(4)]
            + [_row({"type": 3, "custom_id": "s", "options": options, "max_values": 25})],
            "allowed_mentions": {"parse": ["users"]},
        },
        new=True,
    )
    check_message({"content": ""}, new=False)  # an edit may clear the content
    with pytest.raises(InvalidForm):
        check_modal(
            {"title": "т" * 46, "custom_id": "m", "components": [_row({"type": 4, "custom_id": "f"})]}
        )


async def test_too_long_a_message_is_refused(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    channel = bot.get_channel(club.text.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("я" * 2001)
    assert refused.value.status == 400 and refused.value.code == 50035
    assert fake.messages(club.text) == []


async def test_an_interaction_answered_after_three_seconds_is_unknown(
    bot: MafiaBot, fake: FakeDiscord, club: Club, caplog: pytest.LogCaptureFixture
) -> None:
    fake.interaction_delay = 3.5  # the bot sees it only after Discord's deadline
    late = await fake.slash(club.players[0], "mafia help", channel=club.text, wait=False)
    callback = "POST /interactions/{interaction_id}/{interaction_token}/callback"
    [call] = await fake.wait_for_call(callback, lambda c: c.params["interaction_id"] == str(late.id))
    assert call.status == 404 and call.response["code"] == 10062
    assert late.callback is None
    await fake.wait_for(
        lambda: any("expired before it was answered" in r.getMessage() for r in caplog.records),
        what="the bot to note the expired interaction (a warning, not an error: nothing to answer)",
    )
    assert len(fake.calls_to(callback)) == 1  # no second try at a dead interaction


async def test_an_interaction_token_lasts_fifteen_minutes(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    record = await fake.slash(club.players[0], "mafia help", channel=club.text)
    record.created -= 15 * 60 + 1
    assert bot.application_id is not None
    webhook = discord.Webhook.partial(bot.application_id, record.token, client=bot)
    with pytest.raises(discord.HTTPException) as refused:
        await webhook.send("поздно")
    assert refused.value.status == 401 and refused.value.code == 50027
