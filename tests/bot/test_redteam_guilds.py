"""Red team: a lobby's buttons forged from another server, or from a private chat with the bot.

A lobby's custom ids name only its voice channel (``mafia:lobby:<vc>:<action>``), and channel ids are no
secret. The manager of a server of his own (anybody can make one and add the bot) has «Manage Server»
there; a click he forges there with another server's lobby id must not let him cancel, set up or start
that lobby: he moderates nothing on the other server. Each such click is answered privately and the lobby
stays as it was."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from fakediscord import Club, FakeDiscord
from fakediscord.world import Member, Message
from game_driver import TableDriver

from mafiabot.bot import MafiaBot
from mafiabot.i18n import text

MESSAGE_COMPONENT = 3


@pytest.fixture
def clubs(fake: FakeDiscord) -> list[Club]:
    return [fake.create_club(players=8, name="Клуб"), fake.create_club(players=2, name="Свой сервер")]


@pytest.fixture
def club(clubs: list[Club]) -> Club:
    return clubs[0]  # the `bot` fixture's club; the bot is on both servers from its start


def _owner(club: Club) -> Member:
    return club.guild.members[club.guild.owner_id]


async def _forge_click(fake: FakeDiscord, member: Member, where: Message, custom_id: str) -> Any:
    """A click sent as ``member`` on a message of his own server, its button's custom id rewritten."""
    control = {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}
    message = replace(where, components=[{"type": 1, "components": [control]}])
    channel = fake.world.channels[where.channel_id]
    data = {"custom_id": custom_id, "component_type": 2}
    return await fake._interact(member, channel, MESSAGE_COMPONENT, data, message=message, wait=True)


async def _forge_select(
    fake: FakeDiscord, member: Member, where: Message, custom_id: str, values: list[str]
) -> Any:
    options = [{"label": v, "value": v} for v in values] or [{"label": "x", "value": "x"}]
    control = {"type": 3, "custom_id": custom_id, "options": options, "min_values": 0, "max_values": 25}
    message = replace(where, components=[{"type": 1, "components": [control]}])
    channel = fake.world.channels[where.channel_id]
    data = {"custom_id": custom_id, "component_type": 3, "values": values}
    return await fake._interact(member, channel, MESSAGE_COMPONENT, data, message=message, wait=True)


async def test_another_servers_manager_cannot_cancel_set_up_or_start_a_lobby(
    bot: MafiaBot, fake: FakeDiscord, clubs: list[Club]
) -> None:
    home, own = clubs
    d = TableDriver(fake, home, bot, home.players[:7])
    d.without_host_voice()
    await d.seat_everyone()
    await d.open_lobby("classic")
    for p in d.players[1:]:
        await fake.click(p, d.lobby_message(), label=d.t("lobby-button-join"))
    lobby = d.games.lobbies[home.voice.id]
    before = (list(lobby.players), lobby.options, d.lobby_message().content)

    # The attacker's own server, where he is the owner: a message of the bot's there to click on.
    attacker = _owner(own)
    await fake.join_voice(attacker, own.voice)
    mine = await fake.slash(attacker, "mafia new", channel=own.text, ruleset="classic")
    assert own.voice.id in d.games.lobbies
    where = mine.message

    for action in ("cancel", "settings", "start"):
        answer = await _forge_click(fake, attacker, where, f"mafia:lobby:{home.voice.id}:{action}")
        assert answer.ephemeral, (action, answer.callback)
        assert answer.content in (text("ru", "lobby-closed"), text("ru", "lobby-moderators-only")), (
            action,
            answer.content,
        )
    variants = sorted(lobby.base_ruleset.options)[:1]
    answer = await _forge_select(fake, attacker, where, f"mafia:lobbyopt:{home.voice.id}", variants)
    assert answer.ephemeral, answer.callback
    assert answer.content in (text("ru", "lobby-closed"), text("ru", "lobby-moderators-only")), answer.content

    assert d.games.lobbies.get(home.voice.id) is lobby, "the lobby is still open"
    assert not d.games.tables, "no game started"
    assert (list(lobby.players), lobby.options, d.lobby_message().content) == before
    # The lobby's own creator still starts it.
    await fake.click(d.players[0], d.lobby_message(), label=d.t("lobby-button-start"))
    started = d.t("lobby-started")
    await fake.wait_for(lambda: started in d.lobby_message().content, what="the start")
    assert home.voice.id in d.games.tables


async def test_a_lobby_button_clicked_in_a_private_chat_is_answered(
    bot: MafiaBot, fake: FakeDiscord, clubs: list[Club]
) -> None:
    home, _ = clubs
    d = TableDriver(fake, home, bot, home.players[:7])
    await d.seat_everyone()
    await d.open_lobby("classic")
    lobby = d.games.lobbies[home.voice.id]
    player = d.players[1]
    # A private chat with the bot, where the bot has said something (a message to forge a click on).
    said = fake.world.add_message(fake.world.dm_channel(player.user), player.user, content="привет")
    for action in ("join", "leave", "cancel", "start", "settings"):
        answer = await _forge_click(fake, player, said, f"mafia:lobby:{home.voice.id}:{action}")
        assert answer.ephemeral and answer.content, (action, answer.callback)
    answer = await _forge_select(fake, player, said, f"mafia:lobbyopt:{home.voice.id}", [])
    assert answer.ephemeral and answer.content, answer.callback
    assert d.games.lobbies.get(home.voice.id) is lobby and lobby.players == [d.players[0].id]


async def test_another_servers_manager_cannot_lift_a_leaving_penalty_in_a_game_here(
    bot: MafiaBot, fake: FakeDiscord, clubs: list[Club]
) -> None:
    """«Снять штраф за уход» names the game and the seat (``mafia:left:<game>:<seat>``): forged on another
    server by its manager, it neither changes the game's record nor posts at the table."""
    home, own = clubs
    d = TableDriver(fake, home, bot, home.players[:7])
    table = await d.start("classic")
    attacker = _owner(own)
    await fake.join_voice(attacker, own.voice)
    mine = await fake.slash(attacker, "mafia new", channel=own.text, ruleset="classic")
    public = len(fake.messages(home.text))
    for seat in (1, 7):
        answer = await _forge_click(fake, attacker, mine.message, f"mafia:left:{table.game_id}:{seat}")
        assert answer.ephemeral, answer.callback
        assert answer.content != text("ru", "conduct-forgiven"), answer.content
    await d.settled()
    said = [m.content for m in fake.messages(home.text)[public:]]
    assert not any("Штраф за уход снят" in line for line in said), said


async def test_a_leaving_penalty_is_lifted_only_from_a_seat_that_left_and_only_once(
    bot: MafiaBot, fake: FakeDiscord, clubs: list[Club]
) -> None:
    """The button's seat is in its custom id: forged for a seat still at the table, the moderator's click
    would post at the table that this player left («выбыл без минус пяти баллов»), which is untrue; a second
    click on a real button would post the lifting twice. Both are refused privately and post nothing."""
    home, _ = clubs
    d = TableDriver(fake, home, bot, home.players[:7])
    table = await d.start("classic")
    d.games.presence.leave_grace = 0.0
    await fake.leave_voice(d.member(3))
    await d.until(lambda: 3 not in d.state.alive, "seat 3 removed for leaving")
    note = await fake.wait_for_message(home.text, lambda m: "покинул голосовой канал" in m.content)
    moderator = d.players[0]
    public = len(fake.messages(home.text))
    forged = await _forge_click(fake, moderator, note, f"mafia:left:{table.game_id}:5")  # seat 5 stays
    assert forged.ephemeral and forged.content != text("ru", "conduct-forgiven"), forged.content
    await d.settled()
    assert len(fake.messages(home.text)) == public, [m.content for m in fake.messages(home.text)[public:]]
    lifted = await fake.click(moderator, note, label=text("ru", "conduct-forgive-button"))
    assert lifted.content == text("ru", "conduct-forgiven")
    await d.settled()
    public = len(fake.messages(home.text))
    again = await fake.click(moderator, note, label=text("ru", "conduct-forgive-button"))
    assert again.ephemeral and again.content != text("ru", "conduct-forgiven"), again.content
    await d.settled()
    assert len(fake.messages(home.text)) == public


async def test_forged_variant_values_are_refused_privately_and_change_nothing(
    bot: MafiaBot, fake: FakeDiscord, clubs: list[Club]
) -> None:
    home, _ = clubs
    d = TableDriver(fake, home, bot, home.players[:7])
    await d.seat_everyone()
    await d.open_lobby("classic")
    lobby = d.games.lobbies[home.voice.id]
    real = sorted(lobby.base_ruleset.options)
    custom_id = f"mafia:lobbyopt:{home.voice.id}"
    for values in (
        ["nonexistent"],
        ["x" * 1000],
        [""],
        [real[0]] * 30,
        [*real[:1], "nonexistent"],
        ["../../etc/passwd"],
        ["maniac,doctor"],
        ["٣"],
    ):
        before = (lobby.options, d.lobby_message().content)
        answer = await _forge_select(fake, d.players[0], d.lobby_message(), custom_id, values)
        assert answer.ephemeral and answer.content, (values, answer.callback)
        if set(values) - set(real):
            assert (lobby.options, d.lobby_message().content) == before, values
        else:
            assert lobby.options == tuple(sorted(set(values))), lobby.options  # each variant once
    assert d.games.lobbies.get(home.voice.id) is lobby


async def test_a_variant_typed_many_times_opens_the_lobby_with_it_once(
    bot: MafiaBot, fake: FakeDiscord, clubs: list[Club]
) -> None:
    home, _ = clubs
    d = TableDriver(fake, home, bot, home.players[:7])
    await d.seat_everyone()
    await d.open_lobby("classic")
    lobby = d.games.lobbies[home.voice.id]
    variant = sorted(lobby.base_ruleset.options)[0]
    await fake.click(d.players[0], d.lobby_message(), label=d.t("lobby-button-cancel"))
    opened = await d.open_lobby("classic", ", ".join([variant] * 400))
    assert not opened.ephemeral, opened.callback
    assert d.games.lobbies[home.voice.id].options == (variant,)


async def test_hundreds_of_unknown_variants_are_refused_in_one_private_line(
    bot: MafiaBot, fake: FakeDiscord, clubs: list[Club]
) -> None:
    home, _ = clubs
    d = TableDriver(fake, home, bot, home.players[:7])
    await d.seat_everyone()
    typed = ", ".join(f"variant{i}" for i in range(500))[:6000]
    answer = await fake.slash(d.players[0], "mafia new", channel=home.text, ruleset="classic", options=typed)
    assert answer.ephemeral and 0 < len(answer.content) <= 2000, answer.callback
    assert home.voice.id not in d.games.lobbies


async def test_a_leaving_penalty_lifted_by_two_clicks_at_once_is_lifted_and_said_once(
    bot: MafiaBot, fake: FakeDiscord, clubs: list[Club]
) -> None:
    home, _ = clubs
    d = TableDriver(fake, home, bot, home.players[:7])
    await d.start("classic")
    d.games.presence.leave_grace = 0.0
    await fake.leave_voice(d.member(3))
    await d.until(lambda: 3 not in d.state.alive, "seat 3 removed for leaving")
    note = await fake.wait_for_message(home.text, lambda m: "покинул голосовой канал" in m.content)
    public = len(fake.messages(home.text))
    label = text("ru", "conduct-forgive-button")
    first = await fake.click(d.players[0], note, label=label, wait=False)
    second = await fake.click(d.players[0], note, label=label, wait=False)
    for record in (first, second):
        await fake.wait_for(lambda r=record: r.callback is not None, what="both answered")
    await d.settled()
    said = [m.content for m in fake.messages(home.text)[public:] if "Штраф за уход снят" in m.content]
    assert len(said) == 1, said
    assert sorted([first.content, second.content]).count(text("ru", "conduct-forgiven")) == 1
