"""The presets beyond classic and simple, played through the local Discord: city's «Разрешаю / Запрещаю»,
«Кто выставлен?» and the vote to leave together; hobbyworld's choice between two abilities and the
judge's acquittal; blood's phases and the revenant's two targets; classic's court, forced choice, golden
minute, bets, two-player cards and the whole deck. Each step is driven by clicks; the engine state is
the oracle."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fakediscord import Club, FakeDiscord
from fakediscord.driver import InteractionRecord
from fakediscord.world import Channel, ChannelType, Message
from game_driver import MEMBER_EDIT, TableDriver
from protocol_check import assert_protocol_replays

import engine
from engine import queries
from mafiabot.bot import MafiaBot
from mafiabot.config import AudioSettings, Secret, Settings


def _component(message: Message, action: str) -> dict[str, Any]:
    """The button or select of a game action (``mafia:g:<game>:<serial>:<action>[:<arg>]``)."""
    for c in message.items():
        parts = c.get("custom_id", "").split(":")
        if len(parts) > 4 and parts[4] == action:
            return dict(c)
    raise LookupError(f"no {action!r} control on {message.text[:60]!r}")


async def _select(
    d: TableDriver, seat: int, message: Message, action: str, values: list[int]
) -> InteractionRecord:
    cid = _component(message, action)["custom_id"]
    record = await d.fake.select(d.member(seat), message, cid, [str(v) for v in values])
    await d.settled()
    return record


async def _press(d: TableDriver, seat: int, message: Message, label: str) -> InteractionRecord:
    record = await d.fake.click(d.member(seat), message, label=label)
    await d.settled()
    return record


async def _skip_until(d: TableDriver, done: Callable[[], bool], limit: int = 40) -> None:
    """The moderator moves the game on, step by step, until `done`."""
    for _ in range(limit):
        if done() or d.state.over:
            return
        await d.skip_step()
    raise AssertionError(f"not reached after {limit} steps: {d.state.step}")


async def _pass_speeches(d: TableDriver) -> None:
    while d.state.step.kind == "speech":
        await d.pass_speech()


async def _vote_for(d: TableDriver, candidate: int, voters: set[int]) -> None:
    """The voters vote for the candidate now on the ballot; the moderator closes it."""
    assert d.state.step.kind == "vote" and d.state.step.seat == candidate, d.state.step
    for seat in sorted(voters):
        answer = await d.vote(seat)
        assert d.answered(answer, f"Ваш голос против №{candidate} принят."), answer.callback
    if d.state.step.kind == "vote" and d.state.step.seat == candidate:
        await d.skip_step()


async def _lynch(d: TableDriver, by: int, target: int, abstain: frozenset[int] = frozenset()) -> None:
    """A lynch day (hobbyworld, blood): to the nominations, `by` nominates `target`, and everyone alive
    but `abstain` votes for him."""
    await _skip_until(d, lambda: d.state.step.kind == "nominations")
    await d.nominate(by, target)
    await d.skip_step()
    await _vote_for(d, target, set(d.state.alive) - abstain)


# -- city ------------------------------------------------------------------------------------------


async def test_city_permissions_nominees_lift_and_designation(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 200, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("city", "sleepers_stay")
    don, mafioso = d.seats_with("don")[0], d.seats_with("mafioso")[0]
    civilians = d.seats_with("civilian")
    # D-G12: the mafia's private chat is open while the mafia is awake, for its members only.
    await _skip_until(d, lambda: d.state.step.night_step == "mafia_meets")
    chat = _mafia_chat(d)
    assert chat.thread_members - {fake.world.bot_user.id} == {d.member(don).id, d.member(mafioso).id}
    assert not chat.archived and not chat.locked
    await fake.say(d.member(don), chat, "стреляем в первого")
    await d.skip_step()
    assert chat.archived and chat.locked
    assert [m.content for m in fake.messages(chat)][-1] == "Мафия засыпает: чат закрыт."
    await _skip_until(d, lambda: d.state.phase == "day" and d.state.step.kind == "speech")
    assert d.state.step.round == "day" and d.state.step.seat == 1
    assert "**День 1**" in d.panel().text

    # «Разрешаю N»: the speaker lets another seat talk; voice follows, then «Запрещаю N».
    other = 3
    answer = await _select(d, 1, d.panel(), "permit", [other])
    assert answer.ephemeral and answer.content == f"Разрешаю говорить игроку №{other}."
    assert d.state.step.permitted == (other,)
    assert d.muted_seats() == d.all_seats() - {1, other}
    answer = await _select(d, 1, d.panel(), "forbid", [other])
    assert answer.content == f"Запрещаю говорить игроку №{other}."
    assert d.state.step.permitted == ()
    assert d.muted_seats() == d.all_seats() - {1}
    # Only the speaker may: another seat's pick is refused and changes nothing.
    refused = await _select(d, 2, d.panel(), "permit", [other])
    assert refused.ephemeral and "Сейчас говорит игрок 1" in refused.content
    assert d.state.step.permitted == ()

    # «Кто выставлен?»: the host answers everyone; a non-speaker is refused.
    asked = await d.click_panel(d.member(1), "Кто выставлен?")
    assert asked.ephemeral and asked.content == "Никто не выставлен."
    refused = await d.click_panel(d.member(2), "Кто выставлен?")
    assert "Сейчас говорит игрок 1" in refused.content
    a, b = civilians[0], civilians[1]
    pending = [a, b]
    while d.state.step.kind == "speech":
        speaker = d.state.step.seat
        if pending and pending[0] != speaker:
            await d.nominate(speaker, pending.pop(0))
            asked = await d.click_panel(d.member(speaker), "Кто выставлен?")
            listed = ", ".join(f"№{x}" for x in [a, b][: 2 - len(pending)])
            assert asked.content == f"Выставлены: {listed}."
        await d.pass_speech()
    assert not pending
    assert any(f"{a}" in t and "выставлен" in t.lower() for t in d.public_texts()), d.public_texts()[-5:]

    # Nobody votes: a car crash, the defences, the revote, and then the vote to leave together.
    for _ in range(2):
        while d.state.step.kind == "vote":
            await d.skip_step()
        await _pass_speeches(d)
    assert d.state.step.kind == "lift" and set(d.state.step.candidates) == {a, b}
    assert "покинуть стол вместе" in d.panel().text
    leave = f"За то, чтобы №{min(a, b)}, №{max(a, b)} покинули стол"
    voters = sorted(queries.voters(d.state))
    for seat in voters[:4]:
        answer = await d.click_panel(d.member(seat), leave)
        assert answer.content == "Ваш голос «покинуть стол вместе» принят."
    again = await d.click_panel(d.member(voters[0]), leave)
    assert "замечание" in again.content  # D-F2: a second vote is refused with a foul
    await d.skip_step()
    assert a not in d.state.alive and b not in d.state.alive
    assert d.state.step.round == "farewell"
    await _pass_speeches(d)

    # Night 2: the don designates the mafia's shot; his pick is the team's.
    assert d.state.phase == "night" and d.state.step.night_step == "mafia"
    assert "Ночь" in d.panel().text
    assert not _mafia_chat(d).archived and not _mafia_chat(d).locked
    prompt = d.latest_prompt(don)
    assert prompt.text.startswith("Дон, ваш выбор назначает цель мафии")
    victim = civilians[2]
    answer = await _select(d, don, prompt, "propose", [victim])
    assert answer.content == f"Ваш выбор: №{victim}."
    await _skip_until(d, lambda: d.state.phase == "day")
    assert d.state.over and list(d.state.winners or ()) == ["mafia"]
    assert victim not in d.state.alive and {don, mafioso} <= d.state.alive
    await d.settled()
    assert d.table is not None
    assert_protocol_replays(fake, club, d.table.session)
    assert _mafia_chat(d).locked
    assert len([c for c in fake.world.channels.values() if c.type == ChannelType.PRIVATE_THREAD]) == 1


def _mafia_chat(d: TableDriver) -> Channel:
    threads = [c for c in d.fake.world.channels.values() if c.type == ChannelType.PRIVATE_THREAD]
    assert len(threads) == 1 and threads[0].parent_id == d.club.text.id, threads
    return threads[0]


async def test_city_mafia_chat_survives_a_restart(
    bot: MafiaBot, fake: FakeDiscord, club: Club, tmp_path: Path
) -> None:
    """The bot stops while the mafia's chat is open: the resumed game closes that same thread when the
    mafia falls asleep, and opens it again the next night."""
    fake.rate_limits.set(MEMBER_EDIT, 200, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("city", "sleepers_stay")
    await _skip_until(d, lambda: d.state.step.night_step == "mafia_meets")
    chat = _mafia_chat(d)
    assert not chat.locked
    await bot.close()
    settings = Settings(
        token=Secret(fake.token),
        database_url=f"sqlite:///{tmp_path}/bot.db",
        audio=AudioSettings(engine="none", cache_dir=tmp_path / "audio"),
    )
    second = MafiaBot(settings, guild_ready_timeout=0.05)
    async with fake.connect(second):
        d.bot = second
        d.table = await fake.wait_for(lambda: d.games.tables.get(club.voice.id), what="the game to resume")
        await d.settled()
        assert d.state.step.night_step == "mafia_meets"
        await d.skip_step()
        assert _mafia_chat(d) is chat and chat.locked and chat.archived
        await _skip_until(d, lambda: d.state.step.night_step == "mafia")
        assert _mafia_chat(d) is chat and not chat.locked
        await d.games.stop(d.table, "test")  # type: ignore[arg-type]
        await d.settled()
        assert chat.locked


@pytest.mark.club(players=9)
async def test_city_immunity_on_the_panel(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    """D-C5: immunity earned in the server's previous city game is on the panel while it lasts."""
    earner = club.players[4]
    storage = bot.games.storage  # type: ignore[attr-defined]
    storage.update_guild_settings(club.id, ruleset_defaults={"city_immunity": [str(earner.user.id)]})
    d = TableDriver(fake, club, bot, club.players[:9])
    await d.start("city")
    seat = d.seat(earner)
    assert d.state.immune == {seat}
    assert f"Иммунитет: №{seat}" in d.panel().text


# -- hobbyworld ------------------------------------------------------------------------------------


@pytest.mark.club(players=6)
async def test_hobbyworld_detective_chooses_kill_or_check(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 200, 1)
    d = TableDriver(fake, club, bot, club.players[:6])
    await d.start("hobbyworld")
    detective = d.seats_with("detective")[0]
    mafia = d.seats_with("mafioso")
    await _lynch(d, detective, mafia[0])  # day 1: one mafioso is lynched by everyone's votes
    await _skip_until(d, lambda: d.state.step.kind == "night" and d.state.step.night_step == "detective")

    # The detective's prompt offers both abilities; the name of the chosen one reaches the engine.
    prompt = d.latest_prompt(detective)
    assert "«Убить» или «Проверить»" in prompt.text
    kill = _component(prompt, "ability")
    assert kill["custom_id"].endswith(":ability:kill")
    assert _component(prompt, "ability")["placeholder"].startswith("Убить")
    cids = [c["custom_id"] for c in prompt.items()]
    assert len(set(cids)) == len(cids)
    check_id = next(c for c in cids if c.endswith(":ability:check"))
    answer = await d.fake.select(d.member(detective), prompt, check_id, [str(mafia[1])])
    await d.settled()
    assert answer.content == "Выбор принят."
    assert (detective, "check", (mafia[1],)) in d.state.ledger.actions
    answer = await _select(d, detective, prompt, "ability", [mafia[1]])  # kill: replaces the check
    assert (detective, "kill", (mafia[1],)) in d.state.ledger.actions
    await _skip_until(d, lambda: d.state.phase == "day")
    assert d.state.over and list(d.state.winners or ()) == ["town"]
    await d.settled()
    assert d.table is not None
    assert_protocol_replays(fake, club, d.table.session)


@pytest.mark.club(players=6)
async def test_hobbyworld_journalist_compares_two(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 200, 1)
    d = TableDriver(fake, club, bot, club.players[:6])
    await d.start("hobbyworld", "journalist")
    journalist = d.seats_with("journalist")[0]
    mafia = d.seats_with("mafioso")
    civilians = d.seats_with("civilian")
    await _lynch(d, journalist, civilians[0])
    await _skip_until(d, lambda: d.state.step.night_step == "journalist")
    prompt = d.latest_prompt(journalist)
    assert prompt.text.endswith("Выберите двух игроков.")
    select = _component(prompt, "ability")
    assert select["min_values"] == 2 and select["max_values"] == 2
    answer = await _select(d, journalist, prompt, "ability", [mafia[0], civilians[1]])
    assert answer.content == "Выбор принят."
    await d.skip_step()
    told = f"Игроки номер {mafia[0]} и номер {civilians[1]}: разные стороны."
    assert told in d.dm_texts(journalist), d.dm_texts(journalist)[-3:]
    for seat in d.all_seats() - {journalist}:
        assert told not in d.dm_texts(seat)


@pytest.mark.club(players=6)
@pytest.mark.parametrize(("ruleset", "acquitter"), [("hobbyworld", "judge"), ("blood", "queen")])
async def test_acquittal(bot: MafiaBot, fake: FakeDiscord, club: Club, ruleset: str, acquitter: str) -> None:
    """The judge (hobbyworld) or the queen (blood, in its talking «night») acquits the condemned."""
    fake.rate_limits.set(MEMBER_EDIT, 200, 1)
    d = TableDriver(fake, club, bot, club.players[:6])
    await d.start(ruleset, acquitter)
    judge = d.seats_with(acquitter)[0]
    accused = d.seats_with("civilian", "vampire")[0]
    await _lynch(d, accused, accused, abstain=frozenset({judge}))
    assert d.state.step.kind == "acquittal" and d.state.step.seat == accused
    assert f"Осуждён игрок №{accused}" in d.panel().text

    # The acquitter is asked privately; anyone else pressing «Мой ход» is told it is not his turn.
    prompt = d.latest_prompt(judge)
    assert f"Игрок №{accused} осуждён" in prompt.text
    other = next(x for x in d.all_seats() if x not in (judge, accused))
    answer = await d.click_panel(d.member(other), "Мой ход")
    assert answer.content == "Сейчас не ваш ход."
    answer = await _press(d, judge, prompt, f"Оправдать №{accused}")
    assert answer.content == "Вы оправдали осуждённого."
    assert accused in d.state.alive and d.state.step.kind != "acquittal"
    assert any("оправдан" in t for t in d.public_texts()), d.public_texts()[-3:]
    stale = await d.fake.click(d.member(judge), prompt, label=f"Оправдать №{accused}")
    assert "кнопка больше не действует" in stale.content


@pytest.mark.club(players=6)
async def test_hobbyworld_prisoner_is_told_and_refused(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 200, 1)
    d = TableDriver(fake, club, bot, club.players[:6])
    await d.start("hobbyworld", "jailer")
    jailer = d.seats_with("jailer")[0]
    mafia = d.seats_with("mafioso")
    civilians = d.seats_with("civilian")
    await _lynch(d, jailer, civilians[0])
    assert civilians[0] not in d.state.alive

    # Night 1: the mafia cannot agree (nobody proposes: a miss); the jailer jails a mafioso.
    await _skip_until(d, lambda: d.state.step.night_step == "jailer")
    answer = await d.act_in_dm(jailer, mafia[0])
    assert answer.content == "Выбор принят."
    await _skip_until(d, lambda: d.state.step.kind == "nominations")
    assert d.state.prisoners() == {mafia[0]}
    assert any(f"{mafia[0]}" in t and "тюрьм" in t for t in d.public_texts()), d.public_texts()[-4:]

    # Day 2: the prisoner's vote is refused and counts for nothing.
    await d.nominate(jailer, mafia[1])
    await d.skip_step()
    refused = await d.vote(mafia[0])
    assert refused.ephemeral and refused.content == f"Игрок {mafia[0]} в тюрьме и не голосует."
    assert all(v != mafia[0] for v, _ in d.state.ballots)
    marks = d.dm_counts()  # the night opens with the lynch
    await _vote_for(d, mafia[1], set(queries.voters(d.state)))
    assert mafia[1] not in d.state.alive
    if d.state.over:
        return

    # Night 2: the prisoner is woken with his team, told he is in jail, and gets no choice.
    await _skip_until(d, lambda: d.state.step.night_step == "mafia")
    told = d.dm_texts(mafia[0])[marks[mafia[0]] :]
    assert any("тюрьм" in t for t in told), told
    assert mafia[0] not in d.prompts_since(marks)
    answer = await d.click_panel(d.member(mafia[0]), "Мой ход")
    assert answer.content == "Сейчас не ваш ход."


@pytest.mark.club(players=6)
async def test_hobbyworld_extra_shot_after_the_sleepwalker(
    bot: MafiaBot, fake: FakeDiscord, club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    """D-H7: the mafia's shot killed its impostor, so the mafia wakes again for one more shot. The
    sleepwalker is never dealt at six (D-H3's order), so this test deals the cards itself."""
    fake.rate_limits.set(MEMBER_EDIT, 200, 1)
    cards = ["detective", "sleepwalker", "civilian", "civilian", "mafioso", "mafioso"]
    monkeypatch.setattr(engine, "deal", lambda ruleset, players, seed: list(cards))
    d = TableDriver(fake, club, bot, club.players[:6])
    await d.start("hobbyworld")
    detective, sleepwalker, civilian, other, *mafia = range(1, 7)
    await _lynch(d, detective, civilian)

    # Night 1: the mafia shoots the sleepwalker it took for one of its own; its members are asked again.
    await _skip_until(d, lambda: d.state.step.night_step == "mafia")
    for seat in mafia:
        answer = await d.act_in_dm(seat, sleepwalker)
        assert answer.content == f"Ваш выбор: №{sleepwalker}."
    marks = d.dm_counts()
    await d.skip_step()
    assert d.state.step.night_step == "mafia" and d.state.step.round == "extra"
    assert d.prompts_since(marks) == set(mafia)
    for seat in mafia:
        answer = await d.act_in_dm(seat, other)
        assert answer.content == f"Ваш выбор: №{other}."
    await _skip_until(d, lambda: d.state.phase == "day")
    assert sleepwalker not in d.state.alive and other not in d.state.alive
    assert d.state.over and list(d.state.winners or ()) == ["mafia"]


# -- blood -----------------------------------------------------------------------------------------


@pytest.mark.club(players=6)
async def test_blood_phases_and_revenant_two_targets(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 200, 1)
    d = TableDriver(fake, club, bot, club.players[:6])
    await d.start("blood", "revenant")
    revenant = d.seats_with("revenant")[0]
    hunters = d.seats_with("hunter")
    titles = set()
    headers = set()  # «Закат 1» — «Закат»: the phase and the step as the status line names them

    def seen() -> bool:
        _, title, step = d.panel().text.split("\n")[0].split("**", 2)
        titles.add(title)
        headers.add((title, step.removeprefix(" — ").split(" · ")[0]))
        return False

    await _skip_until(d, lambda: seen() or d.state.step.kind == "nominations")
    # The talking phase is blood's night: the vampires lynch a hunter.
    assert d.state.phase_name == "night" and "**Ночь 1**" in d.panel().text
    await d.nominate(revenant, hunters[0])
    await d.skip_step()
    await _vote_for(d, hunters[0], set(d.state.alive))
    assert hunters[0] not in d.state.alive
    await _skip_until(d, lambda: seen() or d.state.step.night_step == "revenant")
    assert d.state.phase_name == "sunset" and "**Закат 1**" in d.panel().text
    assert {"День (вводный)", "Ночь 1", "День 1"} <= titles, titles  # dawn has no roles here: it passes
    # Roles woken in turn are called after their phase: blood's day and sunset are not «Ночь».
    assert ("День (вводный)", "День: знакомство") in headers, headers
    assert ("День 1", "День") in headers and ("Закат 1", "Закат") in headers, headers
    assert not [h for h in headers if h[1].startswith("Ночь") and not h[0].startswith("Ночь")], headers

    # The revenant picks exactly two players in one select.
    prompt = d.latest_prompt(revenant)
    select = _component(prompt, "ability")
    assert select["min_values"] == 2 and select["max_values"] == 2
    pair = [hunters[1], next(x for x in d.state.living() if x not in (revenant, hunters[1]))]
    answer = await _select(d, revenant, prompt, "ability", pair)
    assert answer.content == "Выбор принят."
    assert (revenant, "", tuple(pair)) in [(s, a, t) for s, a, t in d.state.ledger.actions]
    await d.skip_step()
    assert any("разные" in t or "одинаков" in t for t in d.dm_texts(revenant)[-3:]), d.dm_texts(revenant)[-3:]

    # Night 2: the last hunter is lynched and the vampires win.
    await _skip_until(d, lambda: d.state.step.kind == "nominations")
    assert "**Ночь 2**" in d.panel().text
    await d.nominate(revenant, hunters[1])
    await d.skip_step()
    await _vote_for(d, hunters[1], set(d.state.alive))
    await d.settled()
    assert d.state.over and list(d.state.winners or ()) == ["vampires"]
    assert d.table is not None
    assert_protocol_replays(fake, club, d.table.session)


# -- classic variants ------------------------------------------------------------------------------


async def test_classic_court_and_forced_choice(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 200, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic", "judges")
    judges = d.seats_with("tribunal_judge", "tribunal_judge_mafia")
    assert len(judges) == 3
    accused = next(x for x in d.all_seats() if x not in judges)
    await _skip_until(d, lambda: d.state.step.kind == "nominations")
    await d.nominate(judges[0], accused)
    await _skip_until(d, lambda: d.state.step.kind == "vote")
    await _vote_for(d, accused, set(d.state.alive))
    assert d.state.step.kind == "court" and d.state.step.seat == accused
    assert f"Суд судей: игрок №{accused}" in d.panel().text

    # The judges vote privately: one «Казнить», two «Помиловать» spare the accused.
    for judge, label in zip(judges, ("Казнить", "Помиловать", "Помиловать"), strict=True):
        prompt = d.latest_prompt(judge)
        assert prompt.text == f"Суд решает судьбу игрока №{accused}."
        answer = await _press(d, judge, prompt, label)
        assert answer.content == f"Ваш голос: «{label}»."
    outsider = await d.click_panel(d.member(accused), "Мой ход")
    assert outsider.content == "Сейчас не ваш ход."
    await d.skip_step()
    assert accused in d.state.alive

    # Nobody else is sent to court: the court must kill one of the spared.
    await _skip_until(d, lambda: d.state.step.kind == "court_choice")
    prompt = d.latest_prompt(judges[0])
    answer = await _select(d, judges[0], prompt, "court_pick", [accused])
    assert answer.content == f"Ваш выбор: №{accused}."
    await d.skip_step()
    assert accused not in d.state.alive


async def test_classic_bets_and_golden_minute(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 200, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic", "golden_minute,bets")
    mafia = d.seats_with("mafioso")
    bettor = next(x for x in d.all_seats() if x not in mafia)
    await _pass_speeches(d)

    # Day 1 after the speeches: bets, announced publicly, one per player.
    assert d.state.step.kind == "bets" and "Пари" in d.panel().text
    answer = await _select(d, bettor, d.panel(), "bet", [mafia[0]])
    assert answer.content == f"Пари: №{mafia[0]} — мафия."
    assert f"bet:{bettor}:{mafia[0]}" in d.state.flags
    assert any(
        f"Игрок номер {bettor} считает, что игрок номер {mafia[0]} — мафия." in t for t in d.public_texts()
    )
    again = await _select(d, bettor, d.panel(), "bet", [mafia[1]])
    assert "уже заключил пари" in again.content and f"bet:{bettor}:{mafia[1]}" not in d.state.flags

    # Day 2: the candidate takes his golden minute (once a game) before the vote; only he talks.
    await _skip_until(d, lambda: d.state.step.kind == "nominations")
    await d.nominate(bettor, mafia[0])
    await _skip_until(d, lambda: d.state.step.kind == "golden")
    refused = await d.click_panel(d.member(bettor), "Взять золотую минуту")
    assert "не кандидат" in refused.content
    answer = await d.click_panel(d.member(mafia[0]), "Взять золотую минуту")
    assert answer.content == "Ваша золотая минута."
    assert d.state.step.kind == "speech" and d.state.step.round == "golden_minute"
    assert d.muted_seats() == d.all_seats() - {mafia[0]}
    await d.pass_speech()
    assert d.state.step.kind == "vote"
    await _vote_for(d, mafia[0], set(d.state.alive) - {mafia[0]})
    assert mafia[0] not in d.state.alive

    # Day 3: the other mafioso goes; the town wins and the bet is settled.
    await _skip_until(d, lambda: d.state.step.kind == "nominations")
    await d.nominate(bettor, mafia[1])
    await _skip_until(d, lambda: d.state.step.kind == "vote")
    await _vote_for(d, mafia[1], set(d.state.alive) - {mafia[1]})
    await d.settled()
    assert d.state.over and list(d.state.winners or ()) == ["town"]
    assert any(f"Пари выиграл игрок номер {bettor}." in t for t in d.public_texts()), d.public_texts()[-3:]


@pytest.mark.club(players=2)
async def test_classic_two_players_open_the_hidden_card(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    d = TableDriver(fake, club, bot, club.players[:2])
    await d.start("classic", "reduced")
    assert d.state.step.kind == "two_cards"
    assert d.muted_seats() == set()  # both talk while they decide
    for seat in (1, 2):
        answer = await d.click_panel(d.member(seat), "Мафия — закрытая карта")
        assert answer.content == "Вы считаете, что мафия — закрытая карта."
    await d.settled()
    mafia_dealt = "mafioso" in d.state.roles
    assert d.state.over and list(d.state.winners or ()) == (["mafia"] if mafia_dealt else ["town"])
    hidden = d.state.ruleset.roles["civilian" if mafia_dealt else "mafioso"].display
    assert any(f"Открываем карту: {hidden}." in t for t in d.public_texts()), d.public_texts()[-3:]


@pytest.mark.club(players=2)
async def test_classic_two_players_accuse_the_opponent(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    d = TableDriver(fake, club, bot, club.players[:2])
    await d.start("classic", "reduced")
    answer = await d.click_panel(d.member(1), "Мафия — соперник")
    assert answer.content == "Вы требуете открыть карты."
    await d.settled()
    opponent_is_mafia = d.state.roles[1] == "mafioso"
    assert d.state.over and list(d.state.winners or ()) == (["town"] if opponent_is_mafia else ["mafia"])
    assert 2 in d.state.revealed


async def test_classic_whole_deck_lobby_shows_no_counts(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    d = TableDriver(fake, club, bot, club.players[:7])
    d.without_host_voice()
    await d.seat_everyone()
    await d.open_lobby("classic", "whole_deck")
    for p in d.players[1:]:
        await fake.click(p, d.lobby_message(), label="Присоединиться")
    text = d.lobby_message().content
    assert "вся колода перетасована (21 карт)" in text
    for role in ("Мафия", "Комиссар", "Маньяк", "×"):
        assert role not in text.split("Состав:")[1].splitlines()[0], text
