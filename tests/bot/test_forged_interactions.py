"""Interactions a modified client (or a script with a member's token) could send in the middle of a game:
the table's real buttons and selects with their ids or values changed, sent by players, outsiders and
the wrong seat, in the game's channel and in private. Each one gets a clear private answer, and none of
them moves the game, changes a mute, shows a secret or is logged as a failure of the bot."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

import pytest
from fakediscord import Club, FakeDiscord
from fakediscord.world import Message
from game_driver import MEMBER_EDIT, TableDriver

from mafiabot.bot import MafiaBot
from mafiabot.game import server_settings

MESSAGE_COMPONENT = 3


def _variants(custom_id: str) -> list[str]:
    """What a forger makes of a real game id ``mafia:g:<game>:<serial>:<action>[:<arg>]``."""
    parts = custom_id.split(":")
    game, serial = parts[2], int(parts[3])
    out = []
    for other in ("0", str(int(game) + 1), "999999999999", "-1", "abc", "", "1" * 40, "١"):
        out.append(":".join([*parts[:2], other, *parts[3:]]))
    for other in (str(serial - 1), str(serial + 1), "x", "", "9" * 40):
        out.append(":".join([*parts[:3], other, *parts[4:]]))
    head = ":".join(parts[:4])
    out += [
        f"{head}:explode",
        f"{head}:vote:99",
        f"{head}:vote:-1",
        f"{head}:vote:{'9' * 40}",
        f"{head}:nominate:0",
        f"{head}:act:kill",
        f"{head}:PASS",
        f"{custom_id}:extra",
        custom_id + " ",
        ":".join(parts[:-1]),
        "mafia:g:",
        "mafia:g",
        "mafia:",
        "mafia:lobby:abc:start",
        "mafia:lobby:1:start",
        "mafia:lobbyopt:1",
        "mafia:foul:1",
        "mafia:left:1:99",
        "mafia:rules:nothere",
        "x" * 100,
    ]
    return out


def _values() -> list[list[str]]:
    return [[], ["99"], ["0"], ["-1"], ["abc"], ["1", "2"], ["1"] * 30, [""], ["9" * 40], ["1.5"]]


def _forged_message(real: Message, custom_id: str, values: list[str] | None) -> Message:
    """The message a forger's payload claims was clicked: the real one's id and channel, holding the
    forged control. (Discord itself sends only controls of the real message; a hostile gateway need not.)"""
    if values is None:
        control: dict[str, Any] = {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}
    else:
        options = [{"label": v or "x", "value": v} for v in dict.fromkeys(values)] or [
            {"label": "x", "value": "x"}
        ]
        control = {
            "type": 3,
            "custom_id": custom_id,
            "options": options[:25],
            "min_values": 0,
            "max_values": 25,
        }
    return replace(
        real, components=[{"type": 1, "components": [control]}], flags=real.flags & Message.EPHEMERAL
    )


async def _forge(
    fake: FakeDiscord, member: Any, real: Message, custom_id: str, values: list[str] | None, *, wait: bool
) -> Any:
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2 if values is None else 3}
    if values is not None:
        data["values"] = values
    channel = fake.world.channels[real.channel_id]
    message = _forged_message(real, custom_id, values)
    return await fake._interact(member, channel, MESSAGE_COMPONENT, data, message=message, wait=wait)


@pytest.mark.club(players=8)
async def test_forged_clicks_are_answered_privately_and_change_nothing(
    bot: MafiaBot, fake: FakeDiscord, club: Club, caplog: pytest.LogCaptureFixture
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    storage = bot.games.storage
    assert storage is not None
    # The longest night step the server may set, so that the clock does not move the game meanwhile.
    storage.set_guild_value(club.id, server_settings.TIMERS, {"night_action_seconds": 300})
    d = TableDriver(fake, club, bot, club.players[:7])
    table = await d.start("classic")
    while not (d.state.phase == "night" and d.state.step.night_step == "mafia"):
        assert not d.state.over
        await d.skip_step()
    mafia = d.seats_with("mafioso")[0]
    prompt = d.latest_prompt(mafia)
    panel = d.panel()
    outsider = club.players[7]
    town = next(s for s in sorted(d.state.alive) if s not in d.seats_with("mafioso"))

    log, serial = len(table.session.log), table.session.serial
    muted = d.muted_seats()
    public = len(fake.messages(club.text))
    caplog.set_level(logging.WARNING)

    # The ids the bot listens for (its dynamic items' templates, as discord.py holds them): a forged id
    # outside them never reaches the bot's code (discord.py drops it, as it drops any id that is not on
    # the message), so it must at least change nothing; one inside them must be answered.
    templates = list(bot._connection._view_store._dynamic_items)

    def heard(custom_id: str) -> bool:
        return any(t.fullmatch(custom_id) for t in templates)

    forged, dropped = 0, []
    real_ids = [item["custom_id"] for item in [*panel.items(), *prompt.items()]]
    for real in real_ids:
        for custom_id in _variants(real):
            for who in (d.member(town), outsider):
                if not heard(custom_id):
                    dropped.append(await _forge(fake, who, panel, custom_id, None, wait=False))
                    continue
                answer = await _forge(fake, who, panel, custom_id, None, wait=True)
                assert answer.callback is not None and answer.ephemeral, (custom_id, answer.callback)
                forged += 1
    select = next(c for c in prompt.items() if c["type"] == 3)["custom_id"]
    for values in _values():
        for who, where in ((d.member(mafia), prompt), (d.member(town), panel), (outsider, panel)):
            answer = await _forge(fake, who, where, select, values, wait=True)
            assert answer.callback is not None and answer.ephemeral, (values, answer.callback)
            forged += 1
    # The mafia's real target picked by someone else, from the channel.
    for who in (d.member(town), outsider):
        answer = await _forge(fake, who, panel, select, [str(town)], wait=True)
        assert answer.ephemeral
        forged += 1
    # The table's moderator (its creator) is offered the reason form only for a foul that is there to
    # withdraw: a forged foul number is refused at once, privately.
    for foul_id in ("1", "4" * 18):
        answer = await _forge(fake, club.players[0], panel, f"mafia:foul:{foul_id}", None, wait=True)
        assert answer.modal is None and answer.ephemeral, answer.callback
        assert answer.content == d.t("conduct-no-such-foul", record=foul_id)
        forged += 1
    await d.settled()
    assert dropped and all(record.callback is None for record in dropped)

    assert forged > 100, forged
    assert len(table.session.log) == log and table.session.serial == serial, table.session.log[log:]
    assert d.muted_seats() == muted
    assert len(fake.messages(club.text)) == public, "nothing was said in the channel"
    failures = [r for r in caplog.records if r.levelno >= logging.ERROR and r.name.startswith("mafiabot")]
    assert not failures, [r.getMessage() for r in failures[:5]]
    # The game still plays: the mafia's own pick counts.
    chosen = await d.act_in_dm(mafia, town)
    assert chosen.ephemeral
    await d.settled()
    assert len(table.session.log) > log
