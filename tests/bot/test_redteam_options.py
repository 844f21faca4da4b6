"""Red team: every synced slash command sent with each option of the wrong type or outside its bounds.

Discord's client checks an option's type, bounds and choices before it sends a command; a modified client
or a script with a member's token need not. Every command the bot synced is sent here, mid-game, by the
server's owner (who may use them all), once for each of its options with a forged value, the other
required options given plausible ones. Each must be answered privately and run nothing (the game, its
mutes and its channel as they were), and none may be logged as a failure of the bot: a forged value is
the sender's mistake, not a bug."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from fakediscord import Club, FakeDiscord
from fakediscord.world import Member
from game_driver import MEMBER_EDIT, TableDriver

from mafiabot.bot import MafiaBot

APPLICATION_COMMAND = 2
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11

# What a forger sends in place of each type's value.
FORGED: dict[int, list[Any]] = {
    STRING: [12345, "", "x" * 6001, ["a"], None],  # (Discord sends 1 to 6,000 characters)
    INTEGER: ["abc", 1.5, 10**30, -(10**30), True, "7"],
    NUMBER: ["abc", -1.0e308, "nan", True],
    BOOLEAN: ["yes", 2],
    USER: ["abc", "1", 5],
    CHANNEL: ["abc", "1"],
    ROLE: ["abc", "1"],
    MENTIONABLE: ["abc", "1"],
}


def _leaves(definition: dict[str, Any]) -> list[tuple[list[str], dict[str, Any]]]:
    """Each runnable (sub)command of a top-level command: its names and its definition."""
    subs = [o for o in definition.get("options", []) if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
    if not subs:
        return [([definition["name"]], definition)]
    out = []
    for sub in subs:
        for names, leaf in _leaves(sub):
            out.append(([definition["name"], *names], leaf))
    return out


def _plausible(spec: dict[str, Any], club: Club, player: Member) -> Any:
    if spec.get("choices"):
        return spec["choices"][0]["value"]
    kind = spec["type"]
    if kind in (INTEGER, NUMBER):
        return spec.get("min_value", 1)
    if kind == BOOLEAN:
        return False
    if kind in (USER, MENTIONABLE):
        return str(player.id)
    if kind == CHANNEL:
        return str(club.text.id)
    if kind == ROLE:
        return str(club.guild.id)
    return "x" * max(1, spec.get("min_length", 1))


def _payload(
    fake: FakeDiscord,
    definition: dict[str, Any],
    names: list[str],
    options: list[dict[str, Any]],
    club: Club,
    player: Member,
) -> dict[str, Any]:
    data: dict[str, Any] = {"id": definition["id"], "name": names[0], "type": 1, "options": []}
    if "guild_id" in definition:
        data["guild_id"] = definition["guild_id"]
    level = data["options"]
    for name in names[1:]:
        nested: dict[str, Any] = {"name": name, "type": SUB_COMMAND, "options": []}
        level.append(nested)
        level = nested["options"]
    level.extend(options)
    if names[1:]:  # (a group's type is 2, its subcommand's 1: read them from the definition)
        node, holder = definition, data["options"]
        for name in names[1:]:
            node = next(o for o in node["options"] if o["name"] == name)
            entry = next(o for o in holder if o["name"] == name)
            entry["type"] = node["type"]
            holder = entry["options"]
    resolved: dict[str, dict[str, Any]] = {}
    fake._option_value(player, resolved)  # the plausible member, as Discord resolves him
    data["resolved"] = resolved
    return data


@pytest.mark.club(players=8)
async def test_forged_option_values_are_answered_and_never_logged_as_failures(
    bot: MafiaBot, fake: FakeDiscord, club: Club, caplog: pytest.LogCaptureFixture
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    owner = club.guild.members[club.guild.owner_id]
    await fake.join_voice(owner, club.voice)
    caplog.set_level(logging.WARNING)
    player = club.players[1]

    session = d.table.session if d.table is not None else None
    assert session is not None
    before = (len(session.log), session.serial, d.muted_seats(), len(fake.messages(club.text)))
    sent, unanswered, public = 0, [], []
    definitions = [
        c for c in fake.commands.get(None, []) + fake.commands.get(club.id, []) if c.get("type", 1) == 1
    ]
    for definition in definitions:
        for names, leaf in _leaves(definition):
            specs = leaf.get("options", [])
            if any(s["type"] == ATTACHMENT and s.get("required") for s in specs):
                continue
            if names[-1] in ("stop",):  # (would end the game the other commands need)
                continue
            for target in specs:
                for value in FORGED.get(target["type"], []):
                    options = [
                        {"name": s["name"], "type": s["type"], "value": _plausible(s, club, player)}
                        for s in specs
                        if s.get("required") and s is not target
                    ]
                    options.append({"name": target["name"], "type": target["type"], "value": value})
                    data = _payload(fake, definition, names, options, club, player)
                    sent += 1
                    try:
                        record = await fake._interact(owner, club.text, APPLICATION_COMMAND, data, wait=True)
                        if not record.ephemeral:
                            public.append((" ".join(names), target["name"], record.content[:60]))
                    except TimeoutError:
                        unanswered.append((" ".join(names), target["name"], repr(value)[:30]))
    await d.settled()
    assert sent > 50, sent
    assert not unanswered, unanswered
    assert not public, public
    # Every command sent had a forged option: none of them ran.
    assert (len(session.log), session.serial, d.muted_seats(), len(fake.messages(club.text))) == before


@pytest.mark.club(players=8)
async def test_every_command_sent_from_a_private_chat_is_answered_and_runs_nothing(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """The commands are the server's (Discord offers them only there); a script sends them in its private
    chat with the bot all the same, with plausible options, while a game runs."""
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    session = d.table.session if d.table is not None else None
    assert session is not None
    before = (len(session.log), session.serial, d.muted_seats(), len(fake.messages(club.text)))
    creator = d.players[0]  # the game's moderator, in his private chat with the bot
    dm = fake.world.dm_channel(creator.user)
    player = club.players[1]
    sent, unanswered = 0, []
    definitions = [c for c in fake.commands.get(None, []) if c.get("type", 1) == 1]
    for definition in definitions:
        for names, leaf in _leaves(definition):
            specs = leaf.get("options", [])
            if any(s["type"] == ATTACHMENT and s.get("required") for s in specs):
                continue
            options = [
                {"name": s["name"], "type": s["type"], "value": _plausible(s, club, player)}
                for s in specs
                if s.get("required")
            ]
            data = _payload(fake, definition, names, options, club, player)
            sent += 1
            try:
                record = await fake._interact(creator, dm, APPLICATION_COMMAND, data, wait=True)
            except TimeoutError:
                unanswered.append(" ".join(names))
                continue
            assert record.ephemeral or record.callback_type in (5, 9), (names, record.callback)
    await d.settled()
    assert sent > 20, sent
    assert not unanswered, unanswered
    assert (len(session.log), session.serial, d.muted_seats(), len(fake.messages(club.text))) == before


# Values Discord's client does send: the longest text, odd characters, a number at each bound.
def _extremes(spec: dict[str, Any]) -> list[Any]:
    kind = spec["type"]
    if spec.get("choices") or spec.get("autocomplete"):
        return []
    if kind == STRING:
        longest = spec.get("max_length", 6000)
        return ["ж" * longest, "\x00\u202e<@&1>@everyone", "`" * min(longest, 2000)]
    if kind in (INTEGER, NUMBER):
        low, high = spec.get("min_value", -(2**53) + 1), spec.get("max_value", 2**53 - 1)
        return [low, high]
    return []


@pytest.mark.club(players=8)
@pytest.mark.parametrize("playing", [True, False])
async def test_the_longest_and_oddest_values_discord_sends_are_answered_without_a_failure(
    playing: bool, bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    if playing:
        await d.start("classic")
    owner = club.guild.members[club.guild.owner_id]
    await fake.join_voice(owner, club.voice)
    player = club.players[1]
    sent, unanswered = 0, []
    definitions = [
        c for c in fake.commands.get(None, []) + fake.commands.get(club.id, []) if c.get("type", 1) == 1
    ]
    for definition in definitions:
        for names, leaf in _leaves(definition):
            specs = leaf.get("options", [])
            if any(s["type"] == ATTACHMENT and s.get("required") for s in specs) or names[-1] == "stop":
                continue
            for target in specs:
                for value in _extremes(target):
                    options = [
                        {"name": s["name"], "type": s["type"], "value": _plausible(s, club, player)}
                        for s in specs
                        if s.get("required") and s is not target
                    ]
                    options.append({"name": target["name"], "type": target["type"], "value": value})
                    data = _payload(fake, definition, names, options, club, player)
                    sent += 1
                    try:
                        await fake._interact(owner, club.text, APPLICATION_COMMAND, data, wait=True)
                    except TimeoutError:
                        unanswered.append((" ".join(names), target["name"], repr(value)[:30]))
    if playing:
        await d.settled()
    assert sent > 20, sent
    assert not unanswered, unanswered


@pytest.mark.club(players=8)
async def test_a_forged_context_menu_target_is_answered_and_never_logged_as_a_failure(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """The members' context menu (Apps → …) names its target by id, resolved by Discord; a script sends an
    id that is no number, or one Discord did not resolve."""
    menus = [c for c in fake.commands.get(None, []) if c.get("type") == 2]
    assert menus
    member = club.players[1]
    for menu in menus:
        for target, resolved in (("abc", {}), (str(club.players[2].id), {}), ("", {}), (None, {})):
            data: dict[str, Any] = {"id": menu["id"], "name": menu["name"], "type": 2, "target_id": target}
            data["resolved"] = resolved
            record = await fake._interact(member, club.text, APPLICATION_COMMAND, data, wait=True)
            assert record.ephemeral and record.content, (target, record.callback)


AUTOCOMPLETE = 4


@pytest.mark.club(players=8)
async def test_forged_autocomplete_requests_are_never_logged_as_failures(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """What a member types is sent as the focused option, always text; a script sends a number, a list,
    nothing, or a user id that is no number beside it."""
    owner = club.guild.members[club.guild.owner_id]
    player = club.players[1]
    sent = 0
    for definition in [c for c in fake.commands.get(None, []) if c.get("type", 1) == 1]:
        for names, leaf in _leaves(definition):
            specs = leaf.get("options", [])
            for focused in [s for s in specs if s.get("autocomplete")]:
                for value in (12345, None, ["a"], "x" * 7000, "\x00"):
                    options = [
                        {"name": s["name"], "type": s["type"], "value": "abc"}
                        for s in specs
                        if s is not focused and s["type"] in (USER, CHANNEL, ROLE, INTEGER)
                    ]
                    options.append(
                        {"name": focused["name"], "type": focused["type"], "value": value, "focused": True}
                    )
                    data = _payload(fake, definition, names, options, club, player)
                    record = await fake._interact(owner, club.text, AUTOCOMPLETE, data, wait=True)
                    assert record.callback_type == 8, record.callback  # (choices, if none)
                    sent += 1
    assert sent > 5, sent
