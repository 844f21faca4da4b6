"""Fouls given by a moderator and their consequences, enforced through the local Discord (RULESETS.md 9,
D-F1: 3 fouls → no speech the next day, 4 → no vote either, 5 → removed; counts reset each day; D-F6:
`simple`'s third ban removes, no reset)."""

from __future__ import annotations

from pathlib import Path

from conduct_helpers import Game, restarted
from fakediscord import Club, FakeDiscord

from mafiabot.bot import MafiaBot


def civilians(g: Game) -> list[int]:
    # Seats without a night duty: city's sheriff, agent and doctor leave the table if they sleep through
    # their turn (D-C17), which `/mafia skip` would make them do.
    return [i + 1 for i, role in enumerate(g.state.roles) if role == "civilian"]


def day(n: int):  # type: ignore[no-untyped-def]
    return lambda s: s.phase == "day" and s.day == n and s.step.kind == "speech"


async def test_three_fouls_silence_the_next_day_but_leave_the_nomination(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    g = Game(fake, club, bot)
    await g.start("city")
    await g.skip_until(day(1))
    seat = civilians(g)[-1]
    for n in (1, 2, 3):
        answer = await g.foul(seat)
        assert answer.content.startswith(f"Замечание игроку №{seat} (запись №"), answer.content
        assert g.said(f"Игроку номер {seat} замечание. Замечаний: {n}.")
    storage = g.games.storage
    assert storage is not None
    rows = storage.fouls(g.table.game_id)  # type: ignore[union-attr]
    assert [(r.seat, r.given_by, r.automatic, r.reason, r.day) for r in rows] == [
        (seat, g.moderator.id, False, "Оскорбления", 1)
    ] * 3
    # The fouls bite on the next day (D-F1): today he still speaks in his minute.
    await g.to_speech_of(seat, 1)
    assert not g.muted(seat)
    await g.to_speech_of(seat, 2)
    assert g.said(f"Игрок номер {seat} сегодня лишён слова, но может выставлять кандидатуру и голосовать.")
    assert g.muted(seat), "a player with three fouls stays muted in his own minute"
    target = next(x for x in g.state.living() if x != seat)
    answer = await g.nominate(seat, target)
    assert answer.content == f"Вы выставили игрока №{target}.", answer.content
    assert (seat, target) in g.state.nominations


async def test_four_fouls_take_the_vote_too(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    g = Game(fake, club, bot)
    await g.start("city")
    await g.skip_until(day(1))
    seat = civilians(g)[0]
    for _ in range(4):
        await g.foul(seat)
    await g.skip_until(day(2))
    assert g.said(f"Игрок номер {seat} сегодня лишён слова и права голоса.")
    others = [x for x in g.state.living() if x != seat]
    muted_in_his_minute = None
    while g.state.step.kind == "speech":
        speaker = g.state.step.seat
        if speaker == seat:
            muted_in_his_minute = g.muted(seat)
        elif len(g.state.nominations) < 2:  # two nominations, so that the day's vote takes place
            taken = {t for _, t in g.state.nominations}
            await g.nominate(speaker, next(x for x in others if x not in taken and x != speaker))
        await g.skip()
    assert muted_in_his_minute is True
    await g.skip_until(lambda s: s.step.kind == "vote")
    refused = await g.vote(seat)
    assert refused.ephemeral and "лишён права голоса" in refused.content, refused.content
    assert all(v != seat for v, _ in g.state.ballots)
    accepted = await g.vote(others[4])
    assert accepted.content.startswith("Ваш голос против"), accepted.content
    assert any(v == others[4] for v, _ in g.state.ballots)


async def test_the_fifth_foul_removes_the_player(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    g = Game(fake, club, bot)
    await g.start("city")
    await g.skip_until(day(1))
    seat = civilians(g)[0]
    for _ in range(4):
        await g.foul(seat)
    assert seat in g.state.alive
    await g.foul(seat)
    assert seat not in g.state.alive
    assert g.said(f"Игрок номер {seat} удаляется из-за игрового стола.")
    assert g.muted(seat), "a removed player is muted like the dead"
    storage = g.games.storage
    assert storage is not None
    row = next(p for p in storage.participants(g.table.game_id) if p.seat == seat)  # type: ignore[union-attr]
    assert row.removed and not row.left
    # Withdrawing the fifth foul brings him back to the table.
    fifth = storage.fouls(g.table.game_id)[-1]  # type: ignore[union-attr]
    answer = await g.command("conduct withdraw", foul_id=fifth.id, reason="Считали дважды")
    assert answer.content == f"Замечание №{fifth.id} снято.", answer.content
    assert seat in g.state.alive and g.state.fouls_of(seat) == 4
    row = next(p for p in storage.participants(g.table.game_id) if p.seat == seat)  # type: ignore[union-attr]
    assert not row.removed


async def test_fouls_reset_each_day(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    g = Game(fake, club, bot)
    await g.start("city")
    await g.skip_until(day(1))
    seat = civilians(g)[0]
    await g.foul(seat)
    await g.foul(seat)
    assert g.state.fouls_of(seat) == 2
    await g.skip_until(day(2))
    assert g.state.fouls_of(seat) == 0
    await g.foul(seat)
    assert g.said(f"Игроку номер {seat} замечание. Замечаний: 1.")
    await g.to_speech_of(seat, 2)
    assert not g.muted(seat), "two fouls yesterday cost nothing today"
    # The game's result keeps all three: the day's count is the rules', the game's total is the record's.
    for black in [
        i + 1 for i, role in enumerate(g.state.roles) if g.state.ruleset.roles[role].side == "mafia"
    ]:
        await g.command("kick", seat=black)
    assert g.state.over and g.state.winners == ("town",)
    storage = g.games.storage
    assert storage is not None and g.table is not None
    stored = {p.seat: p.fouls for p in storage.participants(g.table.game_id)}
    assert stored[seat] == 3 and sum(stored.values()) == 3


async def test_a_withdrawn_foul_gives_the_speech_back(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    g = Game(fake, club, bot)
    await g.start("city")
    await g.skip_until(day(1))
    seat = civilians(g)[-1]
    answers = [await g.foul(seat) for _ in range(3)]
    foul_id = int(answers[1].content.split("запись №")[1].split(")")[0])
    await g.skip_until(day(2))
    assert seat in g.state.no_speech
    await g.to_speech_of(seat, 2)
    assert g.muted(seat)
    # Withdrawn in his own minute: the game is replayed without the foul, and his microphone opens.
    withdrawn = await g.command("conduct withdraw", foul_id=foul_id, reason="Ошибся номером")
    assert withdrawn.content == f"Замечание №{foul_id} снято.", withdrawn.content
    assert seat not in g.state.no_speech
    assert g.said(f"Замечание игроку №{seat} снято: Ошибся номером.")
    storage = g.games.storage
    assert storage is not None
    rows = storage.fouls(g.table.game_id, include_withdrawn=True)  # type: ignore[union-attr]
    row = next(r for r in rows if r.id == foul_id)
    assert (row.withdrawn_by, row.withdrawn_reason) == (g.moderator.id, "Ошибся номером")
    assert len(storage.fouls(g.table.game_id)) == 2  # type: ignore[union-attr]
    assert g.state.step.kind == "speech" and g.state.step.seat == seat
    assert not g.muted(seat), "with the foul withdrawn he speaks in his minute again"
    again = await g.command("conduct withdraw", foul_id=foul_id, reason="ещё раз")
    assert again.content == f"Замечание №{foul_id} уже снято."
    review = await g.command("conduct list")
    lines = review.content.splitlines()
    assert len(lines) == 3 and all(
        f"игрок №{seat} · день 1 · Оскорбления · <@{g.moderator.id}>" in x for x in lines
    )
    assert lines[1].startswith(f"~~№{foul_id} ") and lines[1].endswith(
        f"снято <@{g.moderator.id}>: Ошибся номером"
    )


async def test_only_a_moderator_gives_fouls(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    g = Game(fake, club, bot)
    await g.start("city")
    player = g.players[3]
    answer = await fake.slash(player, "mafia foul", channel=club.text, reason="insults", seat=1)
    assert answer.ephemeral and "ведущий" in answer.content, answer.content
    assert g.state.fouls_of(1) == 0


async def test_simple_third_ban_removes_and_bans_do_not_reset(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    g = Game(fake, club, bot, players=8)
    await g.start("simple")
    await g.skip_until(day(1))
    seat = next(x for x in g.state.living() if g.state.role_of(x) in ("civilian", "citizen", "villager"))
    await g.foul(seat, "swearing")
    await g.foul(seat, "swearing")
    assert g.said(f"Игрок номер {seat} получает бан. Банов: 2.")
    await g.skip_until(day(2))
    assert seat in g.state.alive, "only the third ban removes"
    assert g.state.fouls_of(seat) == 2, "bans are not reset each day (D-F6)"
    await g.foul(seat, "swearing")
    assert seat not in g.state.alive
    assert g.said(f"Игрок номер {seat} получил третий бан и покидает игру.")


async def test_an_oath_is_a_foul_by_day_and_a_removal_at_night(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    g = Game(fake, club, bot)
    await g.start("city")
    await g.skip_until(day(1))
    by_day, at_night = civilians(g)[:2]
    answer = await g.foul(by_day, "oath")
    assert answer.content.startswith(f"Замечание игроку №{by_day} (запись №")
    assert g.state.fouls_of(by_day) == 1 and by_day in g.state.alive
    await g.skip_until(lambda s: s.phase == "night")
    answer = await g.foul(at_night, "oath")
    assert answer.content == f"Игрок №{at_night} удалён из игры: Клятвы после объявления ночи.", (
        answer.content
    )
    assert at_night not in g.state.alive
    storage = g.games.storage
    assert storage is not None
    assert [f.seat for f in storage.fouls(g.table.game_id)] == [by_day]  # type: ignore[union-attr]
    seats = {p.seat: p for p in storage.participants(g.table.game_id)}  # type: ignore[union-attr]
    assert seats[at_night].removed and not seats[at_night].left


async def test_removal_and_penalty_wait_for_confirmation(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    g = Game(fake, club, bot)
    await g.start("city")
    await g.skip_until(day(1))
    seat = civilians(g)[0]
    asked = await g.command("conduct remove", reason="blackmail", seat=seat)
    assert asked.content.startswith(f"Удалить игрока №{seat} (")
    stranger = await fake.click(g.players[2], asked.message, label="Подтвердить")
    assert stranger.content == "Подтвердить может только тот, кто вызвал команду."
    await fake.click(g.moderator, asked.message, label="Отмена")
    assert asked.message.content == "Отменено."
    assert seat in g.state.alive
    asked = await g.command("conduct penalty", reason="other", seat=seat)
    await fake.click(g.moderator, asked.message, label="Отмена")
    assert not g.state.over


async def test_presets_without_club_rules_refuse_fouls(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    g = Game(fake, club, bot)
    await g.start("classic")
    answer = await g.foul(1)
    assert answer.content.startswith("В этих правилах нет замечаний"), answer.content
    storage = g.games.storage
    assert storage is not None
    assert storage.fouls(g.table.game_id) == []  # type: ignore[union-attr]


async def test_withdrawals_survive_a_restart(
    bot: MafiaBot, fake: FakeDiscord, club: Club, tmp_path: Path
) -> None:
    g = Game(fake, club, bot)
    await g.start("city")
    await g.skip_until(day(1))
    seat = civilians(g)[0]
    answers = [await g.foul(seat) for _ in range(4)]
    ids = [int(a.content.split("запись №")[1].split(")")[0]) for a in answers]
    withdrawn = await g.command("conduct withdraw", foul_id=ids[0], reason="Не он")
    assert withdrawn.content == f"Замечание №{ids[0]} снято."
    assert g.state.fouls_of(seat) == 3
    async with restarted(g, tmp_path):
        # The stored log still holds the withdrawn foul's command; the resumed game leaves it out.
        assert g.state.fouls_of(seat) == 3
        again = await g.command("conduct withdraw", foul_id=ids[1], reason="И не этот")
        assert again.content == f"Замечание №{ids[1]} снято.", again.content
        assert g.state.fouls_of(seat) == 2
        await g.skip_until(day(2))
        assert seat not in g.state.no_speech, "two fouls left: he speaks on day 2"
