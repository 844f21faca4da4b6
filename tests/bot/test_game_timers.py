"""Step timers: the ten-second warning, a speech that runs out, and the moderator's pause, resume and
extend. The session's clock is moved forward instead of waiting."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from typing import Any

import pytest
from fakediscord import Club, FakeDiscord
from game_driver import MEMBER_EDIT, TableDriver
from leak_games import SpokenLines

from engine.commands import Command
from mafiabot.bot import MafiaBot
from mafiabot.cogs import _play

WARNING = "⏳ Осталось десять секунд."


def _jump_to(d: TableDriver, seconds_before_deadline: float) -> None:
    """Move the game's clock so that the current step ends in `seconds_before_deadline` seconds."""
    assert d.table is not None
    session = d.table.session
    deadline = session.deadline()
    assert deadline is not None
    shift = deadline - seconds_before_deadline - time.time()
    session.clock = lambda: time.time() + shift
    session.extend(0)  # re-arm the step's timer by the moved clock


async def test_ten_second_warning_then_the_speech_runs_out(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    assert d.state.step.kind == "speech" and d.state.step.seat == 1 and d.state.step.seconds == 60
    assert d.table is not None
    spoken = _spoken(fake, d.table)
    _jump_to(d, 10.2)
    # On the panel and in the host's voice, not a line: a line would move the panel below it (issue 18).
    await fake.wait_for(lambda: "⏳ осталось десять секунд" in d.panel().text, what="the panel's warning")
    assert d.state.step.seat == 1, "a warning, not the end"
    assert [line for _, line in spoken.lines] == ["Осталось десять секунд."]
    assert WARNING not in d.public_texts()
    _jump_to(d, 0.1)
    await d.until(lambda: d.state.step.seat == 2, "the speech to run out")
    await d.settled()
    d.assert_mutes()
    assert "осталось десять секунд" not in d.panel().text  # the next speech has its own minute
    assert [line for _, line in spoken.lines].count("Осталось десять секунд.") == 1


def _spoken(fake: FakeDiscord, table: Any) -> SpokenLines:
    """The host's voice without audio, from now on: what the table asks it to say."""
    voice = SpokenLines(fake)
    table.speaker = voice
    return voice


async def test_pause_resume_and_extend(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    assert d.table is not None
    session = d.table.session
    deadline = session.deadline()
    assert deadline is not None

    outsider = await fake.slash(d.players[3], "mafia pause", channel=club.text)
    assert outsider.ephemeral and "Управлять игрой может тот, кто её начал" in outsider.content
    assert session.deadline() == deadline

    paused = await fake.slash(d.players[0], "mafia pause", channel=club.text)
    assert paused.ephemeral and paused.content == "Пауза."
    await d.settled()
    assert session.deadline() is None and "пауза" in d.panel().text
    left = session.paused_left
    assert left is not None and 55 < left <= 60

    resumed = await fake.slash(d.players[0], "mafia resume", channel=club.text)
    assert resumed.content == "Продолжаем."
    resumed_deadline = session.deadline()
    assert resumed_deadline is not None and abs(resumed_deadline - (time.time() + left)) < 1.0

    extended = await fake.slash(d.players[0], "mafia extend", channel=club.text, seconds=30)
    assert extended.content == "Добавлено 30 с."
    await d.settled()
    later = session.deadline()
    assert later is not None and abs(later - resumed_deadline - 30) < 0.01
    assert f"<t:{int(later)}:R>" in d.panel().text  # the live countdown on the panel


async def test_at_night_the_countdown_and_the_warning_are_for_the_actors_only(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """A dead role's step ends at a drawn moment (D-G8): a public countdown or warning would tell it is
    dead."""
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    while d.state.phase == "day":
        await d.pass_speech()
    await d.skip_step()  # the mafia meets
    await d.skip_step()  # discussion
    assert "<t:" in d.panel().text  # by day the panel counts down
    await d.skip_step()  # nominations: nobody, so night falls
    assert d.state.step.night_step == "mafia" and d.state.step.seconds > 20
    assert "<t:" not in d.panel().text
    mafia = d.seats_with("mafioso")
    _jump_to(d, 10.2)
    await fake.wait_for(lambda: all(WARNING in d.dm_texts(x) for x in mafia), what="the mafia's warning")
    await d.settled()
    assert WARNING not in d.public_texts()
    assert not any(WARNING in d.dm_texts(x) for x in d.all_seats() - set(mafia))

    # Nor does the public panel move when somebody acts: an edit is seen even if nothing in it changes.
    assert d.table is not None and d.table.panel is not None
    panel_id = str(d.table.panel.id)
    mark = len(fake.calls)
    first = await d.act_in_dm(mafia[0], mafia[1])
    assert first.content in ("Выбор принят.", f"Ваш выбор: №{mafia[1]}."), first.content
    assert d.state.step.night_step == "mafia", "the other mafioso has not chosen yet"
    edits = [c for c in fake.calls[mark:] if c.method == "PATCH" and c.params.get("message_id") == panel_id]
    assert not edits


async def test_a_slow_click_is_acknowledged_first_and_answered_when_done(
    bot: MafiaBot, fake: FakeDiscord, club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord fails a click not answered within 3 s. When applying and storing the command takes long (a
    slow database here), the bot acknowledges the click first and answers it in place when done; a fast
    click is answered at once."""
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    fast = await d.pass_speech()
    assert fast.callback_type == 7 and d.state.step.seat == 2  # answered by the panel's change itself

    monkeypatch.setattr(_play, "ACK_AFTER", 0.05)
    records = d.games.records
    store = records.append_command

    async def slow_store(game_id: int, command: Command, **kwargs: Any) -> None:
        await asyncio.sleep(0.5)
        await store(game_id, command, **kwargs)

    monkeypatch.setattr(records, "append_command", slow_store)
    panel = d.panel()
    mark = len(fake.calls)
    slow = await fake.click(d.member(2), panel, label="Пас")
    # A click on the panel is acknowledged as an update to come; the panel's change then answers it,
    # as an edit of the interaction's @original (the panel itself), not of the channel's message.
    assert slow.callback_type == 6, slow.callback
    await d.settled()
    assert d.state.step.seat == 3 and "Говорит игрок №3" in panel.text and d.panel() is panel
    assert slow.original is panel and not slow.followups
    edits = [c.route for c in fake.calls[mark:] if c.method == "PATCH" and c.route != MEMBER_EDIT]
    assert edits == ["PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"], edits

    # A refused click stores nothing, so it is answered at once.
    refused = await fake.click(d.member(2), d.panel(), label="Пас")  # not his speech any more
    assert refused.callback_type == 4 and refused.ephemeral
    assert refused.content == "Сейчас говорит игрок 3."
    assert d.state.step.seat == 3

    # A slow click elsewhere (a night action in a private message) gets «думает…», privately.
    monkeypatch.setattr(records, "append_command", store)
    while not (d.state.phase == "night" and "commissar" in d.state.step.night_step):
        assert not d.state.over, "skips alone end no classic game before its first night"
        await d.skip_step()
    monkeypatch.setattr(records, "append_command", slow_store)
    [commissar] = d.seats_with("commissar")
    target = next(s for s in sorted(d.state.alive) if s != commissar)
    prompt = d.latest_prompt(commissar)
    select = next(c for c in prompt.items() if c["type"] == 3)
    thinking = await fake.select(d.member(commissar), prompt, select["custom_id"], [str(target)])
    assert thinking.callback_type == 5, thinking.callback  # «думает…», privately
    answer = await thinking.wait_followup()
    assert answer.ephemeral and answer is thinking.original and not thinking.followups
    await d.settled()


async def test_a_click_that_reaches_the_bot_after_discord_s_three_seconds_is_a_warning_with_its_age(
    bot: MafiaBot, fake: FakeDiscord, club: Club, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord answers 10062 «Unknown interaction» to a click answered after 3 s: a stalled loop, not a
    bug. The bot notes it as a warning with the click's age (the `bot` fixture fails on any error)."""
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    fake.interaction_delay = 3.5  # the bot sees the click only after Discord's deadline
    late = await fake.click(d.member(1), d.panel(), label="Пас", wait=False)

    def noted() -> list[logging.LogRecord]:
        return [r for r in caplog.records if "expired before it was answered" in r.getMessage()]

    await fake.wait_for(noted, timeout=15, what="the bot to note the expired click")
    [record] = noted()
    assert record.levelno == logging.WARNING
    age = re.search(r"(\d+\.\d) s after it was made", record.getMessage())
    assert age is not None and float(age[1]) >= 3.0, record.getMessage()
    assert late.callback is None
    # The pass itself was taken: the panel, which the refused answer would have carried, is edited.
    await d.settled()
    assert d.state.step.seat == 2 and "Говорит игрок №2" in d.panel().text


def store_late(monkeypatch: pytest.MonkeyPatch, d: TableDriver, seconds: float) -> None:
    """Every command of the table is stored `seconds` late (a slow database)."""
    records = d.games.records
    store = records.append_command

    async def slow_store(game_id: int, command: Command, **kwargs: Any) -> None:
        await asyncio.sleep(seconds)
        await store(game_id, command, **kwargs)

    monkeypatch.setattr(records, "append_command", slow_store)


async def test_a_slow_click_that_reached_the_bot_late_is_acknowledged_by_its_own_age(
    bot: MafiaBot,
    fake: FakeDiscord,
    club: Club,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The click reaches the bot 1.5 s after it was made (a busy bot: a burst of every table at once) and
    its command takes long: «думает…» goes when the click is 2 s old by its id (Discord's clock), within
    Discord's 3 s, not 2 s after the bot took it (3.5 s: expired); the panel's change then answers it."""
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    store_late(monkeypatch, d, 2.5)
    fake.interaction_delay = 1.5
    late = await fake.click(d.member(1), d.panel(), label="Пас", wait=False)
    await fake.wait_for(lambda: late.callback is not None, timeout=15, what="the acknowledgement")
    fake.interaction_delay = 0.0
    assert late.callback_type == 6, late.callback  # DEFERRED_UPDATE_MESSAGE, accepted: in time
    await d.settled()
    assert d.state.step.seat == 2 and "Говорит игрок №2" in d.panel().text
    assert not [r for r in caplog.records if "expired before it was answered" in r.getMessage()]


async def test_a_slow_clicks_acknowledgement_that_came_too_late_is_noted_with_its_age(
    bot: MafiaBot,
    fake: FakeDiscord,
    club: Club,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A slow click that reaches the bot after Discord's 3 s (a stalled bot): its «думает…» still goes at
    2 s, as for any click whose age the bot cannot use, and is refused; both the acknowledgement and the
    answer are noted as expired, with the click's age."""
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    store_late(monkeypatch, d, 2.5)
    fake.interaction_delay = 3.5
    await fake.click(d.member(1), d.panel(), label="Пас", wait=False)

    def noted() -> list[logging.LogRecord]:
        return [r for r in caplog.records if "expired before it was answered" in r.getMessage()]

    await fake.wait_for(
        lambda: len(noted()) >= 2, timeout=15, what="the acknowledgement and the answer noted"
    )
    assert all(r.levelno == logging.WARNING for r in noted())
    assert not [r for r in caplog.records if "Acknowledging a click failed" in r.getMessage()]


CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"


async def test_a_slow_clicks_panel_change_is_not_held_back_by_its_acknowledgement_under_way(
    bot: MafiaBot, fake: FakeDiscord, club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    """«думает…» goes and Discord is slow to answer it (a burst); meanwhile the command is stored: the
    panel's change goes at once as the panel's own edit, beside the acknowledgement, instead of waiting for
    it to edit @original after it (in the burst of 1,000 tables the one behind came after Discord's 3 s).
    The acknowledgement is the click's answer: no private reply follows."""
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    monkeypatch.setattr(_play, "ACK_AFTER", 0.05)
    records = d.games.records
    store = records.append_command
    acknowledged = asyncio.Event()

    async def slow_store(game_id: int, command: Command, **kwargs: Any) -> None:
        await acknowledged.wait()  # stored once «думает…» is with Discord, its answer still on the way
        await store(game_id, command, **kwargs)

    monkeypatch.setattr(records, "append_command", slow_store)
    panel = d.panel()
    mark = len(fake.calls)
    fake.faults.hold_answers(CALLBACK)
    slow = await fake.click(d.member(1), panel, label="Пас", wait=False)
    await fake.wait_for(lambda: slow.callback is not None, timeout=15, what="«думает…»")
    assert slow.callback_type == 6, slow.callback  # DEFERRED_UPDATE_MESSAGE, its answer held
    acknowledged.set()
    try:
        await fake.wait_for(
            lambda: "Говорит игрок №2" in panel.text, timeout=15, what="the panel's change beside it"
        )
    finally:
        fake.faults.release_answers(CALLBACK)
    await d.settled()
    assert d.state.step.seat == 2 and d.panel() is panel
    assert not slow.followups  # answered by «думает…» and the panel's own edit, nothing private
    edits = [c.route for c in fake.calls[mark:] if c.method == "PATCH" and c.route != MEMBER_EDIT]
    assert edits == ["PATCH /channels/{channel_id}/messages/{message_id}"], edits


async def test_a_slow_clicks_acknowledgement_does_not_wait_behind_its_answer_under_way(
    bot: MafiaBot, fake: FakeDiscord, club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The panel's change is under way as the click's answer (Discord slow to answer it) when the click
    is old enough for «думает…»: that answer is the acknowledgement, and none is sent behind it."""
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    monkeypatch.setattr(_play, "ACK_AFTER", 0.3)
    panel = d.panel()
    mark = len(fake.calls)
    fake.faults.hold_answers(CALLBACK)
    click = await fake.click(d.member(1), panel, label="Пас", wait=False)
    await fake.wait_for(lambda: click.callback is not None, timeout=15, what="the answer")
    assert click.callback_type == 7, click.callback  # UPDATE_MESSAGE: the panel's change, answer held
    assert d.table is not None
    guard_fired = asyncio.get_running_loop().create_future()
    loop = asyncio.get_running_loop()
    loop.call_later(0.6, guard_fired.set_result, None)  # past ACK_AFTER: the acknowledgement's moment
    await guard_fired
    fake.faults.release_answers(CALLBACK)
    await d.settled()
    callbacks = [c for c in fake.calls[mark:] if c.route == CALLBACK]
    assert len(callbacks) == 1, [c.body for c in callbacks]
    assert d.state.step.seat == 2 and "Говорит игрок №2" in panel.text
