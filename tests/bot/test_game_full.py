"""Whole games through the local Discord: every step driven by players clicking, with voice, private
messages and public messages checked at each step."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from fakediscord import Club, FakeDiscord
from game_driver import MEMBER_EDIT, TableDriver
from protocol_check import assert_protocol_replays

from engine import queries
from mafiabot.bot import MafiaBot


async def _vote_all(d: TableDriver, candidate: int, yes: set[int]) -> None:
    """Voters in `yes` vote for the candidate; the moderator closes the vote if anyone is left."""
    assert d.state.step.kind == "vote" and d.state.step.seat == candidate
    d.assert_mutes()
    for seat in sorted(queries.voters(d.state)):
        if seat in yes:
            answer = await d.vote(seat)
            assert d.answered(answer, f"Ваш голос против №{candidate} принят."), answer.callback
    if queries.voters(d.state):
        await d.skip_step()
    await d.until(lambda: not (d.state.step.kind == "vote" and d.state.step.seat == candidate), "the vote")


async def _night(d: TableDriver, choices: dict[str, int], *, via_my_turn: tuple[str, ...] = ()) -> None:
    """Play one night: each step's actors pick the target chosen for their role (step id → target)."""
    while d.state.phase == "night":
        d.assert_mutes()
        s = d.state
        if s.step.kind == "night":
            actors = sorted(queries.actors(s))
            prompted = {seat for seat in actors if d.latest_prompt(seat)}
            assert prompted == set(actors)
            target = choices.get(s.step.night_step)
            for seat in actors:
                if target is None:
                    continue
                if s.step.night_step in via_my_turn:
                    answer = await d.act_via_my_turn(seat, target)
                else:
                    answer = await d.act_in_dm(seat, target)
                assert answer.ephemeral, answer.content
                assert answer.content in ("Выбор принят.", f"Ваш выбор: №{target}."), answer.content
        await d.skip_step()  # the moderator closes the step rather than waiting out the hidden delay
    d.assert_mutes()


async def _speeches(d: TableDriver, nominate: tuple[int, int] | None = None) -> None:
    """Pass every speech of the current round; `nominate` = (by, target) during by's own speech."""
    while d.state.step.kind == "speech":
        d.assert_mutes()
        if nominate and d.state.step.seat == nominate[0] and d.state.step.round == "day":
            answer = await d.nominate(*nominate)
            assert answer.ephemeral and answer.content == f"Вы выставили игрока №{nominate[1]}."
            nominate = None
        await d.pass_speech()


def _public_before_end(d: TableDriver) -> list[str]:
    """Every public line of the game (the lobby aside) before the final list of roles."""
    lines = []
    for m in d.fake.messages(d.club.text):
        if m.id != d.lobby_message_id:
            lines += m.content.split("Игра окончена. Роли игроков")[0].splitlines()
    return lines


def _assert_no_role_told(d: TableDriver, allowed: Callable[[str], bool]) -> None:
    """No public line names a seat together with a role, except the reveals the preset makes."""
    rules = d.state.ruleset
    displays = {rules.roles[r].display for r in d.state.roles}
    for line in _public_before_end(d):
        seats = [x for x in d.all_seats() if f"номер {x}" in line or f"№{x}" in line]
        named = [r for r in displays if r in line]
        if seats and named and not allowed(line):
            raise AssertionError(f"a public line tells a role: {line!r}")


async def test_classic_seven_players_town_wins(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 200, 1)  # voice pacing has its own test; this one plays a game
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    s = d.state
    mafia = d.seats_with("mafioso")
    commissar = d.seats_with("commissar")[0]
    civilians = d.seats_with("civilian")
    assert len(mafia) == 2 and len(civilians) == 4

    # The deal: each player learns their own role privately, and nothing else yet.
    for seat in d.all_seats():
        role = s.ruleset.roles[s.role_of(seat)].display
        assert d.dm_texts(seat)[0].startswith(f"Ваша роль: {role}."), d.dm_texts(seat)
    seating = next(t for t in d.public_texts() if t.startswith("**Рассадка**"))
    for seat in d.all_seats():
        assert f"№{seat} — <@{d.member(seat).id}>" in seating

    # Day 1: introductions, one speaker at a time.
    assert s.step.kind == "speech" and s.step.round == "intro"
    await _speeches(d)

    # Night 1: the mafia meets; only the mafia learns who its members are.
    assert d.state.step.kind == "meet"
    d.assert_mutes()
    await d.settled()
    for seat in d.all_seats():
        told = any("Ваша команда" in t for t in d.dm_texts(seat))
        assert told == (seat in mafia), (seat, d.dm_texts(seat))
    await _night(d, {})

    # Day 2: discussion (everyone may talk), nominations, the nominee's last word, the vote.
    assert d.state.step.kind == "discussion"
    d.assert_mutes()
    await d.skip_step()
    assert d.state.step.kind == "nominations"
    d.assert_mutes()
    await d.nominate(civilians[0], mafia[0])
    await d.skip_step()
    await _speeches(d)  # last word of the nominee
    marks = d.dm_counts()
    await _vote_all(d, mafia[0], d.all_seats())
    assert mafia[0] not in d.state.alive
    assert any(f"номер {mafia[0]}" in t and "Роль игрока: Мафия" in t for t in d.public_texts())  # D-CL11

    # Night 2: the mafia kills a civilian (picked in the DM), the commissar checks the other mafioso
    # through «Мой ход».
    victim = civilians[1]
    await _night(d, {"mafia": victim, "commissar": mafia[1]}, via_my_turn=("commissar",))
    assert victim not in d.state.alive
    prompted = d.prompts_since(marks)
    assert prompted == {mafia[1], commissar}, prompted  # the actors, and nobody else
    assert f"Игрок номер {mafia[1]}. Табличка: «мафия»." in d.dm_texts(commissar)  # the seat named (issue 13)
    for seat in d.all_seats() - {commissar}:
        assert not any("Табличка" in t for t in d.dm_texts(seat))

    # Day 3: the dead stay muted; the last mafioso is voted out and the town wins.
    assert d.state.step.kind == "discussion"
    d.assert_mutes()
    await d.skip_step()
    await d.nominate(commissar, mafia[1])
    await d.skip_step()
    await _speeches(d)
    await _vote_all(d, mafia[1], set(d.state.alive))
    await d.settled()
    assert d.state.over and list(d.state.winners or ()) == ["town"]

    # Nobody stays muted; the night victim's role was never told in public before the end.
    assert d.muted_seats() == set()
    assert any(f"номер {victim}" in line for line in _public_before_end(d))
    _assert_no_role_told(d, allowed=lambda line: "признан виновным" in line and "Роль игрока: Мафия" in line)
    texts = d.public_texts()
    assert any("Победили честные горожане!" in t for t in texts)
    roles_line = next(t for t in texts if "Роли игроков" in t)
    for seat in d.all_seats():
        role = s.ruleset.roles[s.role_of(seat)].display
        assert f"{seat} — {d.table.session.name_of(seat) if d.table else ''} — {role}" in roles_line

    # The record file: the engine's record format, replayable.
    record_message = next(m for m in fake.messages(club.text) if m.files)
    ((name, data),) = record_message.files.items()
    assert name.endswith(".json")
    record = json.loads(data)
    assert record["ruleset"] == "classic" and record["seats"] == list(s.roles)
    assert len(record["commands"]) == len(d.table.session.log if d.table else [])
    assert d.table is not None
    assert_protocol_replays(fake, club, d.table.session)

    # Buttons of the finished game answer that it is closed and change nothing.
    answer = await fake.click(d.member(mafia[1]), d.panel(), label="Моя роль")
    assert answer.ephemeral and "закончилась" in answer.content


@pytest.mark.club(players=12)
async def test_simple_twelve_players(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 200, 1)
    d = TableDriver(fake, club, bot, club.players[:12])
    await d.start("simple")
    s = d.state
    don = d.seats_with("don")[0]
    mafiosi = d.seats_with("mafioso")
    putana, doctor, maniac, commissar = (
        d.seats_with(r)[0] for r in ("putana", "doctor", "maniac", "commissar")
    )
    civilians = d.seats_with("civilian")
    for seat in d.all_seats():
        role = s.ruleset.roles[s.role_of(seat)].display
        assert d.dm_texts(seat)[0].startswith(f"Ваша роль: {role}."), d.dm_texts(seat)
        told = any("Ваша команда" in t for t in d.dm_texts(seat))
        assert told == (seat in (don, *mafiosi)), (seat, d.dm_texts(seat))

    # Night 1 (acquaintance): everyone muted.
    assert d.state.step.kind == "meet"
    await _night(d, {})

    # Day 1: speeches with a nomination during one's own speech, then the ballot.
    first = d.state.step.seat
    await _speeches(d, nominate=(first, mafiosi[0]))
    await _vote_all(d, mafiosi[0], d.all_seats())
    marks = d.dm_counts()
    # The voted-out player says farewell: only they may speak.
    assert d.state.step.kind == "speech" and d.state.step.round == "farewell"
    await _speeches(d)

    # Night 2: putana, mafia, maniac, doctor, commissar, each with their own prompt.
    killed_by_mafia, killed_by_maniac = civilians[0], civilians[1]
    await _night(
        d,
        {
            "putana": civilians[2],
            "mafia": killed_by_mafia,
            "maniac": killed_by_maniac,
            "doctor": civilians[3],
            "commissar": don,
        },
        via_my_turn=("doctor",),
    )
    assert killed_by_mafia not in d.state.alive and killed_by_maniac not in d.state.alive
    assert d.prompts_since(marks) == {putana, mafiosi[1], don, maniac, doctor, commissar}
    assert f"Игрок номер {don} — мафия." in d.dm_texts(commissar)
    for seat in d.all_seats() - {commissar}:
        assert f"Игрок номер {don} — мафия." not in d.dm_texts(seat)

    # Day 2 and 3: the other mafiosi go; then the maniac is asked and answers privately.
    for target in (mafiosi[1], don):
        if d.state.phase == "night":
            await _night(d, {})  # nobody acts: every step times out (closed by the moderator)
        speaker = d.state.step.seat
        await _speeches(d, nominate=(speaker, target))
        await _vote_all(d, target, set(d.state.alive))
        await _speeches(d)  # farewell
        if d.state.over or d.state.step.kind == "question":
            break
    assert d.state.step.kind == "question" and d.state.step.seat == maniac
    d.assert_mutes()
    prompt = d.latest_prompt(maniac)
    answer = await fake.click(d.member(maniac), prompt, label="Да")
    assert answer.ephemeral and answer.content == "Ответ принят."
    await d.until(lambda: d.state.over, "the end")
    assert d.muted_seats() == set()

    assert any(f"номер {killed_by_maniac}" in line for line in _public_before_end(d))
    _assert_no_role_told(d, allowed=lambda line: line.startswith(f"Маньяк — игрок номер {maniac} —"))
    texts = d.public_texts()
    assert any("Победили мирные жители!" in t for t in texts), texts[-5:]
    assert any(m.files for m in fake.messages(club.text))
    assert d.table is not None
    assert_protocol_replays(fake, club, d.table.session)


async def test_classic_a_raised_hand_goes_down_before_the_count_closes(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """D-CL3: a voter «may change until the candidate's count closes»: «Снять голос» on the panel takes
    his vote back, privately confirmed; a player who has not voted is told so and nothing changes."""
    fake.rate_limits.set(MEMBER_EDIT, 200, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    await _speeches(d)
    await _night(d, {})
    await d.skip_step()  # discussion
    await d.nominate(1, 2)
    await d.skip_step()  # nominations close
    await _speeches(d)  # the nominee's last word
    assert d.state.step.kind == "vote" and d.state.step.seat == 2
    assert await d.vote(3)
    assert (3, 2) in d.state.ballots
    taken = await d.click_panel(d.member(3), "Снять голос")
    assert taken.ephemeral and taken.content == "Ваш голос против №2 снят."
    assert 3 not in dict(d.state.ballots) and 3 in queries.voters(d.state)
    again = await d.click_panel(d.member(3), "Снять голос")
    assert again.ephemeral and again.content == "Вы не голосовали против игрока 2."
    assert 3 in queries.voters(d.state)
