"""The game panel (mafiabot/game/panel.py): one Components V2 container in the phase's colour with the step,
the seat grid and the step's controls; it stays the last message of the game's channel, and at night it
shows nothing of who acted."""

from __future__ import annotations

import re

import pytest
from fakediscord import Club, FakeDiscord
from game_driver import MEMBER_EDIT, TableDriver

from mafiabot.bot import MafiaBot
from mafiabot.game.panel import ACCENTS

V2 = 1 << 15


def _game_panels(d: TableDriver) -> list[int]:
    """The channel's messages that carry the game's controls."""
    return [
        m.id
        for m in d.fake.messages(d.club.text)
        if any("mafia:g:" in b.get("custom_id", "") for b in m.items())
    ]


async def test_the_panel_is_one_container_and_stays_the_last_message(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    table = await d.start("classic")
    panel = d.panel()
    assert panel.flags & V2 and panel.content == ""
    [container] = panel.components
    assert container["type"] == 17 and container["accent_color"] == ACCENTS["day"]
    grid = panel.text.splitlines()
    speaker = d.state.step.seat
    assert any(line.startswith(f"`{speaker:>2}`") and "🎙️ говорит" in line for line in grid), grid
    assert sum(1 for line in grid if line.startswith("`")) == 7  # a line per seat
    for _ in range(3):
        await d.pass_speech()
        messages = fake.messages(club.text)
        assert messages[-1].id == table.panel.id, "the panel is the last message after the host's lines"
        assert _game_panels(d) == [table.panel.id], "the old panel is gone"
    while d.state.phase != "night":
        await d.skip_step()
    assert d.panel().components[0]["accent_color"] == ACCENTS["night"]
    assert "до <t:" not in d.panel().text  # no countdown at night (D-G8)


async def test_the_grid_shows_who_is_out_and_nominated(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    while d.state.step.kind != "nominations":  # day 2, after the introductions and a night
        assert not d.state.over
        await d.skip_step()
    by, other, third = sorted(d.state.alive)[:3]
    await d.nominate(by, other)
    line = next(x for x in d.panel().text.splitlines() if x.startswith(f"`{other:>2}`"))
    assert "выставлен" in line, line
    kicked = await fake.slash(d.players[0], "mafia kick", channel=club.text, seat=third)
    assert kicked.content, kicked
    await d.settled()
    line = next(x for x in d.panel().text.splitlines() if x.startswith(f"`{third:>2}`"))
    assert "~~" in line and "выбыл" in line, line


async def test_the_grid_shows_fouls(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:8])
    await d.start("city")  # a preset with the club's fouls
    fouled = await fake.slash(d.players[0], "mafia foul", channel=club.text, seat=2, reason="shouting")
    assert d.state.fouls_of(2) == 1, fouled.content
    await d.settled()
    line = next(x for x in d.panel().text.splitlines() if x.startswith("` 2`"))
    assert "1 фол" in line, line


async def test_a_night_action_leaves_the_panel_untouched(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """D-G8: whether a role acted shows nowhere public: no edit, no move, no new panel."""
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    table = await d.start("classic")
    while not (
        d.state.phase == "night" and d.state.step.kind == "night" and "commissar" in d.state.step.night_step
    ):
        assert not d.state.over, "skips alone end no classic game before its first night"
        await d.skip_step()
    [commissar] = d.seats_with("commissar")
    panel_id = table.panel.id
    before = (d.panel().text, d.panel().components)
    mark = len(fake.calls)
    target = next(s for s in sorted(d.state.alive) if s != commissar)
    answer = await d.act_via_my_turn(commissar, target)
    channel = f"/channels/{club.text.id}/messages"
    assert [c for c in fake.calls[mark:] if c.path.startswith(channel) and c.method != "GET"] == []
    # Nor through a click's answer (issue 18): the action is answered privately, no update of a message.
    assert answer.callback_type == 4 and answer.ephemeral
    assert not [c for c in fake.calls[mark:] if c.method == "PATCH" and c.path.startswith("/webhooks/")]
    assert table.panel.id == panel_id and (d.panel().text, d.panel().components) == before


@pytest.mark.game(language="en")
async def test_an_english_server_gets_the_panel_and_prompts_in_english(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    first = d.state.step.seat
    assert d.panel().text.splitlines()[0].startswith(f"**Day 1** — Player {first} speaks · ends <t:")
    assert [b["label"] for b in d.panel().buttons()] == ["My role", "Pass"]
    assert f"`{first:>2}` **{d.table.session.name_of(first)}** · 🎙️ speaking" in d.panel().text
    await d.click_panel(d.member(first), "Pass")
    assert d.state.step.seat != first
    while d.state.phase != "night":
        await d.skip_step()
    assert d.panel().text.startswith("**Night 1** — ")
    while d.state.step.night_step != "mafia":
        await d.skip_step()
    mafioso = d.seats_with("mafioso")[0]
    opened = await d.click_panel(d.member(mafioso), "My turn")
    assert opened.message.content == "Mafia, it is your turn. Choose a player."
    assert not re.search("[А-Яа-яЁё]", d.panel().text), d.panel().text  # no Russian left on the panel


CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"


@pytest.mark.parametrize(
    "words",
    [
        pytest.param("Говорит игрок №{seat} · до <t:", id="ru"),
        pytest.param("Player {seat} speaks · ends <t:", id="en", marks=pytest.mark.game(language="en")),
    ],
)
async def test_a_pass_is_answered_by_the_panel_itself_in_three_requests(
    bot: MafiaBot, fake: FakeDiscord, club: Club, words: str
) -> None:
    """Issue 18: a «Пас» costs the answer, which carries the panel's change (UPDATE_MESSAGE), and the two
    member edits (the speaker muted, the next unmuted). The hand-over is no line in the channel, so the
    panel stays where it is; it says who speaks now, with the countdown."""
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    table = await d.start("classic")
    for _ in range(3):
        speaker = d.state.step.seat
        shown = [m.id for m in fake.messages(club.text)]
        mark = len(fake.calls)
        record = await d.pass_speech()
        after = d.state.step.seat
        assert d.state.step.kind == "speech" and after != speaker
        assert sorted(c.route for c in fake.calls[mark:]) == [MEMBER_EDIT, MEMBER_EDIT, CALLBACK]
        assert record.callback_type == 7 and record.original is d.panel()
        assert [m.id for m in fake.messages(club.text)] == shown and shown[-1] == table.panel.id
        assert words.format(seat=after) in d.panel().text.splitlines()[0], d.panel().text
        assert d.muted_seats() == d.all_seats() - {after}


async def test_a_click_answered_by_the_panel_asks_discord_for_no_reply(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """Issue 18: the answer carrying the panel is sent without `with_response`, so Discord answers 204 and
    nothing of the updated panel comes back to be parsed (discord.py's edit_message asked for it and
    built an InteractionMessage of the whole panel); the panel is updated all the same, and the click's
    response is done, so nothing else answers it. A slash command's answer still asks (discord.py's)."""
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    speaker = d.state.step.seat
    mark = len(fake.calls)
    record = await d.pass_speech()
    [answer] = [c for c in fake.calls[mark:] if c.route == CALLBACK]
    assert answer.status == 204 and answer.response is None and "with_response" not in answer.query
    assert record.callback_type == 7 and record.original is d.panel()
    assert d.state.step.seat != speaker and f"Говорит игрок №{d.state.step.seat}" in d.panel().text
    mark = len(fake.calls)
    paused = await fake.slash(d.players[0], "mafia pause", channel=club.text)
    assert paused.content == "Пауза."
    [answer] = [c for c in fake.calls[mark:] if c.route == CALLBACK]
    assert answer.status == 200 and answer.response["resource"]["message"]["content"] == "Пауза."


async def test_a_private_answer_to_a_click_asks_discord_for_no_reply(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """Issue 18: a click answered privately (here a spectator's «Пас») is sent without `with_response`,
    so Discord answers 204 and discord.py builds no InteractionMessage of its reply; the member sees the
    private answer all the same."""
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    mark = len(fake.calls)
    record = await d.click_panel(club.players[8], d.t("control-pass"))
    assert record.ephemeral and record.content == d.t("error-not-playing")
    [answer] = [c for c in fake.calls[mark:] if c.route == CALLBACK]
    assert answer.status == 204 and "with_response" not in answer.query


async def test_a_refresh_draws_the_panel_only_when_what_it_shows_may_have_changed(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """Issue 18: drawing the panel (texts, controls, components compared with the last sent) was a share
    of every click's CPU even when nothing on it changed. A refresh whose inputs (panel.PanelKey) are
    those of the panel last drawn draws nothing; one that changes them draws and sends the change (the
    countdown moved by a moderator's «extend», a pause, the next speaker)."""
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    table = await d.start("classic")
    await d.settled()
    drawn, text = table.panels_drawn, d.panel().text
    for _ in range(3):
        table.refresh_panel()
        await d.settled()
    assert table.panels_drawn == drawn and d.panel().text == text

    extended = await fake.slash(d.players[0], "mafia extend", channel=club.text, seconds=30)
    assert extended.content
    await d.settled()
    assert table.panels_drawn == drawn + 1
    deadline = table.session.deadline()
    assert deadline is not None and f"<t:{int(deadline)}:R>" in d.panel().text != text
    paused = await fake.slash(d.players[0], "mafia pause", channel=club.text)
    assert paused.content == "Пауза."
    await d.settled()
    assert table.panels_drawn == drawn + 2 and d.panel().text.splitlines()[0].endswith("· пауза")
    await fake.slash(d.players[0], "mafia resume", channel=club.text)
    speaker = d.state.step.seat
    await d.pass_speech()
    assert table.panels_drawn >= drawn + 4 and d.state.step.seat != speaker
    assert f"Говорит игрок №{d.state.step.seat}" in d.panel().text


async def test_a_panel_deleted_by_a_moderator_comes_back_at_the_next_change(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """The panel's edit nobody clicked for (here a moderator's skip) finds the panel gone (Discord's 404):
    the change is sent as a new panel, which the game goes on with."""
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    await d.settled()
    old = d.panel()
    speaker = d.state.step.seat
    old.deleted = True  # a moderator deleted it
    await d.skip_step()
    await d.settled()
    assert d.state.step.seat != speaker
    new = d.panel()
    assert new.id != old.id and not new.deleted
    assert f"№{d.state.step.seat}" in new.text.splitlines()[0], new.text
