"""Automatic fouls (issue 7 part 2, D-F2): each fires on its offence and not otherwise, is announced with
a review button, and a moderator can withdraw it."""

from __future__ import annotations

import asyncio

import pytest
from conduct_helpers import Game
from fakediscord import Club, FakeDiscord
from fakediscord import permissions as perms
from fakediscord.world import Message

from mafiabot.bot import MafiaBot

AUTO = "🤖 Автоматическое замечание"


def automatic(g: Game) -> list[tuple[int, str]]:
    storage = g.games.storage
    assert storage is not None and g.table is not None
    return [(f.seat, f.reason) for f in storage.fouls(g.table.game_id) if f.automatic]


def announcements(g: Game) -> list[Message]:
    return [m for m in g.fake.messages(g.club.text) if m.content.startswith(AUTO)]


async def day_one_with_two_nominations(g: Game) -> None:
    """Day 1 of a city game: the first two speakers nominate the next seats, so the day's vote happens."""
    await g.start("city")
    await g.skip_until(lambda s: s.phase == "day" and s.step.kind == "speech")
    for _ in range(2):
        speaker = g.state.step.seat
        taken = {t for _, t in g.state.nominations}
        target = next(x for x in g.state.living() if x != speaker and x not in taken)
        answer = await g.nominate(speaker, target)
        assert answer.content == f"Вы выставили игрока №{target}.", answer.content
        await g.skip()


async def test_self_nomination_is_refused_with_a_foul(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    g = Game(fake, club, bot)
    await g.start("city")
    await g.skip_until(lambda s: s.phase == "day" and s.step.kind == "speech")
    speaker = g.state.step.seat
    answer = await g.nominate(speaker, speaker)
    assert answer.ephemeral and answer.content == "Нельзя выставлять себя. Вам замечание.", answer.content
    assert g.state.nominations == ()
    assert g.state.fouls_of(speaker) == 1
    assert automatic(g) == [(speaker, "Выставление себя на голосование")]
    (note,) = announcements(g)
    assert note.content.startswith(f"{AUTO} игроку №{speaker} ")
    assert g.said(f"Игроку номер {speaker} замечание. Замечаний: 1.")
    # Not otherwise: nominating another player is no offence.
    await g.skip()
    other = g.state.step.seat
    await g.nominate(other, speaker)
    assert automatic(g) == [(speaker, "Выставление себя на голосование")]
    assert g.state.fouls_of(other) == 0


async def test_self_vote_and_second_vote_are_refused_with_a_foul(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    g = Game(fake, club, bot)
    await day_one_with_two_nominations(g)
    await g.skip_until(lambda s: s.step.kind == "vote")
    candidate = g.state.step.seat
    voter = next(x for x in g.state.living() if x != candidate)
    ok = await g.vote(voter)
    assert ok.content == f"Ваш голос против №{candidate} принят.", ok.content
    assert automatic(g) == []  # not otherwise: a vote for another player
    again = await g.vote(voter)
    assert again.content == "Вы уже проголосовали. Вам замечание.", again.content
    self_vote = await g.vote(candidate)
    assert self_vote.content == "Нельзя голосовать за себя. Вам замечание.", self_vote.content
    assert automatic(g) == [(voter, "Повторное голосование"), (candidate, "Голосование за себя")]
    assert [v for v, _ in g.state.ballots] == [voter]
    assert len(announcements(g)) == 2


@pytest.mark.club(bot_permissions=perms.BOT_DEFAULT | perms.MANAGE_MESSAGES)
async def test_messages_without_the_floor(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    g = Game(fake, club, bot)
    await g.start("city")
    assert g.state.phase == "night"
    first = g.member(1)
    # Off by default (D-F2): a message at night is left alone.
    quiet = await fake.say(first, club.text, "всем привет")
    answer = await g.command("conduct textfouls", enabled=True)
    assert answer.content == "Замечания за сообщения включены."
    night = await fake.say(first, club.text, "я мирный!")
    note = await fake.wait_for_message(club.text, lambda m: m.content.startswith(AUTO))
    assert note.content.startswith(f"{AUTO} игроку №1 ")
    assert automatic(g) == [(1, "Сообщение в канале игры ночью")]
    await fake.wait_for(lambda: night.deleted, what="the message to be deleted")
    assert not quiet.deleted
    await g.skip_until(lambda s: s.phase == "day" and s.step.kind == "speech")
    speaker = g.state.step.seat
    other = next(x for x in g.state.living() if x != speaker)
    # The speaker holds the floor; a removed player is out of the game: neither is an offence.
    await fake.say(g.member(speaker), club.text, "мой ход")
    removed = next(x for x in g.state.living() if x not in (speaker, other))
    asked = await g.command("conduct remove", reason="tears", seat=removed)
    await fake.click(g.moderator, asked.message, label="Подтвердить")
    assert removed not in g.state.alive
    await fake.say(g.member(removed), club.text, "ну и ладно")
    await fake.say(g.member(other), club.text, "перебиваю")
    await fake.wait_for(lambda: len(announcements(g)) == 2, what="the second automatic foul")
    assert automatic(g) == [
        (1, "Сообщение в канале игры ночью"),
        (other, "Сообщение в канале игры не в свою минуту"),
    ]


async def test_leaving_the_voice_channel_removes_the_player(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    g = Game(fake, club, bot)
    table = await g.start("city")
    await g.skip_until(lambda s: s.phase == "day")
    stays, leaves = g.state.living()[:2]
    # Back within the grace period: nothing happens.
    g.games.presence.leave_grace = 30.0
    await fake.leave_voice(g.member(stays))
    timer = table.leave_timers[g.member(stays).id]
    await fake.join_voice(g.member(stays), club.voice)
    await asyncio.wait([timer], timeout=5)
    assert timer.cancelled()
    g.games.presence.leave_grace = 0.0
    await fake.leave_voice(g.member(leaves))
    await fake.wait_for_message(club.text, lambda m: "покинул голосовой канал" in m.content)
    assert leaves not in g.state.alive and stays in g.state.alive
    assert g.said(f"🚪 Игрок №{leaves} ({table.session.name_of(leaves)}) покинул голосовой канал")
    storage = g.games.storage
    assert storage is not None
    seats = {p.seat: p for p in storage.participants(table.game_id)}
    assert seats[leaves].left and seats[leaves].removed
    assert not seats[stays].left and not seats[stays].removed
    # Reviewable: a moderator lifts the −5 (a dropped connection); a player cannot.
    note = next(m for m in fake.messages(club.text) if "покинул голосовой канал" in m.content)
    refused = await fake.click(club.players[8], note, label="Снять штраф за уход")
    assert "ведущий" in refused.content
    lifted = await fake.click(g.moderator, note, label="Снять штраф за уход")
    assert lifted.content == "Штраф за уход снят."
    seats = {p.seat: p for p in storage.participants(table.game_id)}
    assert not seats[leaves].left and seats[leaves].removed


async def test_a_moderator_withdraws_an_automatic_foul_from_its_announcement(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    g = Game(fake, club, bot)
    await g.start("city")
    await g.skip_until(lambda s: s.phase == "day" and s.step.kind == "speech")
    speaker = g.state.step.seat
    await g.nominate(speaker, speaker)
    (note,) = announcements(g)
    # Only a moderator withdraws: anyone else is told so at the click, without the reason form.
    player = club.players[8]
    refused = await fake.click(player, note, label="Снять замечание")
    assert refused.modal is None and refused.ephemeral and "ведущий" in refused.content
    assert g.state.fouls_of(speaker) == 1
    opened = await fake.click(g.moderator, note, label="Снять замечание")
    # The reason's text input sits under a label component (a text input's own label is deprecated).
    assert opened.modal is not None
    (row,) = opened.modal["components"]
    assert row["type"] == 18 and row["label"] == "Причина" and row["component"]["custom_id"] == "reason", row
    done = await fake.submit_modal(g.moderator, opened, {"reason": "Промахнулся в списке"})
    foul_id = int(note.content.split("Запись №")[1].split(";")[0])
    assert done.content == f"Замечание №{foul_id} снято.", done.content
    await g.settled()
    assert g.state.fouls_of(speaker) == 0
    assert automatic(g) == []
    # The nomination itself was refused, so the game goes on as if nothing had happened.
    assert g.state.nominations == ()
    assert g.said(f"Замечание игроку №{speaker} снято: Промахнулся в списке. Замечаний сегодня: 0.")
