"""Red team: component clicks whose payload lacks what Discord always sends (the clicked message), or
that come from a thread or a private chat: each is answered, nothing is logged as the bot's failure."""

from __future__ import annotations

from typing import Any

import pytest
from fakediscord import Club, FakeDiscord
from game_driver import MEMBER_EDIT, TableDriver

from mafiabot.bot import MafiaBot

MESSAGE_COMPONENT = 3


@pytest.mark.club(players=8)
async def test_game_clicks_without_their_message_are_answered(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    panel = d.panel()
    ids = {b["label"]: b["custom_id"] for b in panel.buttons()}
    role, passing = ids[d.t("control-role")], ids[d.t("control-pass")]
    for who, custom_id, channel in (
        (d.member(2), role, club.text),
        (d.member(2), role, fake.world.dm_channel(d.member(2).user)),
        (d.member(3), passing, club.text),
        (d.member(1), passing, fake.world.dm_channel(d.member(1).user)),  # the speaker's own «Пас»
    ):
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        record = await fake._interact(who, channel, MESSAGE_COMPONENT, data, message=None, wait=True)
        assert record.callback is not None, (custom_id, channel.id)
        await d.settled()
    assert d.state.step.seat == 2, "the speaker's own «Пас» counted, from wherever it came"
    d.assert_mutes()


@pytest.mark.club(players=10)
@pytest.mark.parametrize("preset", ["classic", "city"])
async def test_a_game_opened_in_the_voice_channels_own_chat_plays(
    preset: str, bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """Discord's voice channels have a text chat of their own; «/mafia new» typed there. It has no threads:
    where the rules give the mafia a night chat (city), the table says it could not open, once."""
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:9])
    d.without_host_voice()
    await d.seat_everyone()
    opened = await fake.slash(d.players[0], "mafia new", channel=club.voice, ruleset=preset)
    assert opened.callback is not None
    if opened.ephemeral:
        return  # refused, with a reason: as good as playing
    d.lobby_message_id = opened.message.id
    lobby_message = lambda: next(m for m in fake.messages(club.voice) if m.id == d.lobby_message_id)  # noqa: E731
    for p in d.players[1:]:
        await fake.click(p, lobby_message(), label=d.t("lobby-button-join"))
    await fake.click(d.players[0], lobby_message(), label=d.t("lobby-button-start"))
    await fake.wait_for(lambda: club.voice.id in d.games.tables, what="the start")
    d.table = d.games.tables[club.voice.id]
    await d.settled()
    for _ in range(12):
        if d.state.over:
            break
        await d.skip_step()
    d.assert_mutes()
    if preset == "city":
        said = [m.content for m in fake.messages(club.voice) if "Ночной чат мафии" in m.content]
        assert len(said) == 1, said


@pytest.mark.club(players=10)
async def test_only_the_speaker_nominates_during_a_speech_and_nobody_on_behalf_of_another(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """The panel's nomination select is shown to everyone during a day speech; the others' picks from it,
    a spectator's and a dead player's are refused privately and change nothing."""
    from conduct_helpers import Game

    g = Game(fake, club, bot)
    await g.start("city")
    await g.skip_until(lambda s: s.phase == "day" and s.step.kind == "speech" and s.step.round == "day")
    speaker = g.state.step.seat
    panel = g.panel()
    select = next(c for c in panel.items() if c["type"] == 3)
    target = next(int(o["value"]) for o in select["options"] if int(o["value"]) != speaker)
    assert g.table is not None
    log = len(g.table.session.log)
    others = [s for s in sorted(g.state.alive) if s != speaker][:3]
    spectator = club.players[9]
    await fake.join_voice(spectator, club.voice)
    for who in [g.member(s) for s in others] + [spectator]:
        answer = await fake.select(who, panel, select["custom_id"], [str(target)])
        assert answer.ephemeral and answer.content, answer.callback
    await g.settled()
    assert len(g.table.session.log) == log, g.table.session.log[log:]
    assert not g.state.nominations
