"""Step timers: the ten-second warning, a speech that runs out, and the moderator's pause, resume and
extend. The session's clock is moved forward instead of waiting."""

from __future__ import annotations

import time

from fakediscord import Club, FakeDiscord
from game_driver import MEMBER_EDIT, TableDriver

from mafiabot.bot import MafiaBot

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
    _jump_to(d, 10.2)
    await fake.wait_for_message(club.text, lambda m: m.content == WARNING)
    assert d.state.step.seat == 1, "a warning, not the end"
    _jump_to(d, 0.1)
    await d.until(lambda: d.state.step.seat == 2, "the speech to run out")
    d.assert_mutes()
    assert sum(t == WARNING for t in d.public_texts()) == 1


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
    assert session.deadline() is None and "пауза" in d.panel().content
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
    assert f"<t:{int(later)}:R>" in d.panel().content  # the live countdown on the panel


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
    assert "<t:" in d.panel().content  # by day the panel counts down
    await d.skip_step()  # nominations: nobody, so night falls
    assert d.state.step.night_step == "mafia" and d.state.step.seconds > 20
    assert "<t:" not in d.panel().content
    mafia = d.seats_with("mafioso")
    _jump_to(d, 10.2)
    await fake.wait_for(lambda: all(WARNING in d.dm_texts(x) for x in mafia), what="the mafia's warning")
    await d.settled()
    assert WARNING not in d.public_texts()
    assert not any(WARNING in d.dm_texts(x) for x in d.all_seats() - set(mafia))
