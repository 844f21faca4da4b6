"""A whole game on an English server through the local Discord (issue 16): the lobby, the seating, the
role cards, the night prompts and results, the host's lines, the answers to clicks and the end, all in
English; not one Russian (Cyrillic) letter reaches any message of the channel, any DM or any answer."""

from __future__ import annotations

import json
import re

import pytest
from fakediscord import Club, FakeDiscord
from fakediscord.world import Message
from game_driver import MEMBER_EDIT, TableDriver

from engine import queries
from mafiabot.bot import MafiaBot

CYRILLIC = re.compile("[А-Яа-яЁё]")


def _russian_in(messages: list[Message]) -> list[str]:
    found = []
    for m in messages:
        shown = m.content + json.dumps(m.components, ensure_ascii=False)
        if CYRILLIC.search(shown):
            found.append(shown[:300])
    return found


async def _vote_all(d: TableDriver, candidate: int, yes: set[int], answers: list[str]) -> None:
    assert d.state.step.kind == "vote" and d.state.step.seat == candidate
    for seat in sorted(queries.voters(d.state)):
        if seat in yes:
            answer = await d.vote(seat)
            if answer.callback_type != 7:  # (issue 18: a vote that closed the count: the panel answers)
                answers.append(answer.content)
            assert d.answered(answer, f"Your vote against #{candidate} is counted."), answer.callback
    if queries.voters(d.state):
        await d.skip_step()
    await d.until(lambda: not (d.state.step.kind == "vote" and d.state.step.seat == candidate), "the vote")


async def _night(d: TableDriver, choices: dict[str, int], answers: list[str]) -> None:
    while d.state.phase == "night":
        s = d.state
        target = choices.get(s.step.night_step or "")
        if s.step.kind == "night" and target is not None:
            for seat in sorted(queries.actors(s)):
                answer = await d.act_in_dm(seat, target)
                answers.append(answer.content)
        await d.skip_step()


async def _speeches(d: TableDriver, answers: list[str]) -> None:
    while d.state.step.kind == "speech":
        passed = await d.pass_speech()  # (answered privately, or by the panel's change: issue 18)
        if passed.callback_type != 7:
            answers.append(passed.content)


@pytest.mark.game(language="en")
async def test_a_whole_classic_game_in_english(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 200, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    answers: list[str] = []
    await d.start("classic")
    mafia, civilians = d.seats_with("mafioso"), d.seats_with("civilian")
    assert d.table is not None and d.table.session.language == "en"
    for seat in d.all_seats():
        assert d.dm_texts(seat)[0].startswith("Your role: "), d.dm_texts(seat)
    assert (
        d.dm_texts(mafia[0])[0] == "Your role: Mafia. At night you choose a victim together with the mafia."
    )
    # Private messages are drawn like the panel: Components V2, one container in the phase's colour.
    card = fake.dms(d.member(mafia[0]))[0]
    assert card.flags & card.COMPONENTS_V2 and card.content == "" and card.components[0]["type"] == 17
    mine = await d.click_panel(d.member(mafia[0]), "My role")
    assert mine.content.startswith(f"You are player #{mafia[0]}. Your role: **Mafia**. At night"), (
        mine.content
    )
    answers.append(mine.content)

    await _speeches(d, answers)  # day 1: introductions
    await _night(d, {}, answers)  # night 1: the mafia meets
    assert any("Your team" in t for t in d.dm_texts(mafia[0]))
    await d.skip_step()  # day 2: discussion
    await d.nominate(civilians[0], mafia[0])
    await d.skip_step()
    await _speeches(d, answers)
    await _vote_all(d, mafia[0], d.all_seats(), answers)
    assert mafia[0] not in d.state.alive
    await _night(d, {"mafia": civilians[1], "commissar": mafia[1]}, answers)
    await d.skip_step()
    await d.nominate(d.seats_with("commissar")[0], mafia[1])
    await d.skip_step()
    await _speeches(d, answers)
    await _vote_all(d, mafia[1], set(d.state.alive), answers)
    await d.settled()
    assert d.state.over and list(d.state.winners or ()) == ["town"]

    public = d.public_texts()
    assert any("The honest citizens win!" in t for t in public), public[-5:]
    assert any("The players' roles:" in t for t in public)
    commissar = d.seats_with("commissar")[0]
    assert f"Player number {mafia[1]}. The plate: «mafia»." in d.dm_texts(commissar)
    leaks = _russian_in(fake.messages(club.text))
    for seat in d.all_seats():
        leaks += _russian_in(fake.dms(d.member(seat)))
    leaks += [a for a in answers if CYRILLIC.search(a)]
    assert leaks == [], "\n".join(leaks)

    # The players' ratings after the game, in English too.
    rating = await fake.slash(d.member(mafia[0]), "mafia rating", channel=club.text)
    assert rating.content.startswith(f"**{d.table.session.name_of(mafia[0])}** — games: 1, wins: 0"), (
        rating.content
    )
    history = await fake.slash(d.member(mafia[0]), "mafia history", channel=club.text)
    assert history.content.startswith("**Games: ") and " Mafia · loss · " in history.content, history.content
    top = await fake.slash(d.member(mafia[0]), "mafia top", channel=club.text)
    assert top.content.startswith("**Season points · ") and "(page 1 of 1)" in top.content, top.content
    said = [rating.content, history.content, top.content]
    assert [x for x in said if CYRILLIC.search(x)] == []


@pytest.mark.game(language="en")
@pytest.mark.club(players=12)
@pytest.mark.parametrize("preset", ["city", "simple", "hobbyworld", "blood", "fiim"])
async def test_every_preset_runs_in_english(
    bot: MafiaBot, fake: FakeDiscord, club: Club, preset: str
) -> None:
    """The host moves every step on by hand (nobody acts): each preset's phases, prompts, cards and
    lines of its first rounds, with not one Russian letter anywhere."""
    fake.rate_limits.set(MEMBER_EDIT, 200, 1)
    players = 10 if preset != "blood" else 12
    d = TableDriver(fake, club, bot, club.players[:players])
    await d.start(preset)
    for _ in range(40):
        if d.state.over:
            break
        await d.skip_step()
    leaks = _russian_in(fake.messages(club.text))
    for seat in d.all_seats():
        leaks += _russian_in(fake.dms(d.member(seat)))
    assert leaks == [], "\n".join(leaks)
