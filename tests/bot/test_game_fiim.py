"""`fiim` through the local Discord: the blacks' private meeting of night 0 (FIIM.md D-FI4, D-FI17: «the
night-0 meeting is the only time a black-team channel is open»), each black's own pick (D-FI5), the
first-night victim's best move picked privately (D-FI13), and one whole game with every ingredient of
issue 19's «Done when» confirmed by the judge."""

from __future__ import annotations

import json

import pytest
from fakediscord import Club, FakeDiscord
from fakediscord.world import Channel, ChannelType, Role
from game_driver import MEMBER_EDIT, TableDriver

from engine import queries
from engine.kinds.fiim import best_move
from engine.kinds.fiim_day import records_on_record
from mafiabot.bot import MafiaBot
from mafiabot.game import protocol


def _chat(d: TableDriver) -> Channel:
    threads = [c for c in d.fake.world.channels.values() if c.type == ChannelType.PRIVATE_THREAD]
    assert len(threads) == 1 and threads[0].parent_id == d.club.text.id, threads
    return threads[0]


async def test_fiim_blacks_meet_once_in_private_then_each_picks_alone(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """D-FI4 / D-FI17: «the night-0 meeting is the only time a black-team channel is open» (a private
    thread of the three blacks, locked when the meeting ends and still locked at the shot); D-FI5: «no
    black sees another's pick»; D-FI13: the first-night victim's best move, private, read to the table."""
    fake.rate_limits.set(MEMBER_EDIT, 200, 1)
    d = TableDriver(fake, club, bot, club.players[:10])
    await d.start("fiim")
    blacks = sorted(d.seats_with("don", "mafioso"))
    assert len(blacks) == 3
    assert d.state.step.kind == "meet" and d.state.step.night_step == "mafia_meets"
    chat = _chat(d)
    assert chat.thread_members - {fake.world.bot_user.id} == {d.member(x).id for x in blacks}
    assert not chat.archived and not chat.locked
    await fake.say(d.member(blacks[0]), chat, "стреляем по порядку: 9, 10, 5")
    await d.skip_step()
    assert chat.archived and chat.locked
    # Day 1 with nobody nominated: no vote, night 1.
    for _ in range(40):
        if d.state.phase == "night" and not d.state.intro:
            break
        if d.state.step.kind == "speech":
            await d.pass_speech()
        else:
            await d.skip_step()
    assert d.state.step.night_step == "mafia"
    assert _chat(d).locked and _chat(d).archived  # no chat at the shot: each black picks alone
    marks = d.dm_counts()
    victim = next(x for x in d.all_seats() if x not in blacks)
    for seat in blacks:
        answer = await d.act_in_dm(seat, victim)
        assert answer.ephemeral and answer.content == f"Ваш выбор: №{victim}."
    assert d.state.ledger.proposals == tuple((b, victim) for b in blacks)
    # D-FI5: no black is told of another's pick (nothing new reaches any black's DMs).
    assert {seat: d.dm_texts(seat)[marks[seat] :] for seat in blacks} == {seat: [] for seat in blacks}
    for _ in range(10):
        if d.state.phase == "day":
            break
        await d.skip_step()
    assert victim not in d.state.alive

    # D-FI13: the first-night victim names his best move privately; the table reads it.
    assert d.state.step.kind == "best_move" and d.state.step.seat == victim
    prompt = d.latest_prompt(victim)
    assert prompt.text.startswith("Лучший ход")
    select = next(c for c in prompt.items() if c["type"] == 3)
    assert (select["min_values"], select["max_values"]) == (3, 3)
    assert str(victim) not in {o["value"] for o in select["options"]}
    await fake.select(d.member(victim), prompt, select["custom_id"], [str(x) for x in blacks])
    await d.settled()
    assert best_move(d.state) == (victim, tuple(blacks))
    # D-FI13 «Лучший ход: a, b, c», spoken and written (the fiim_best_move line).
    named = f"Лучший ход игрока номер {victim}: {blacks[0]}, {blacks[1]} и {blacks[2]}."
    assert any(named in t for t in d.public_texts()), d.public_texts()[-5:]
    assert d.state.step.kind == "speech" and d.state.step.round == "night_words"


async def test_fiim_night_zero_wakes_the_don_and_the_sheriff_and_a_nomination_is_withdrawn(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """D-FI4: after the meeting the don and then the sheriff are woken (10 s each, no check); D-FI8: the
    speaker withdraws his nomination from the panel in his own minute («Отозвано»), then nominates again."""
    fake.rate_limits.set(MEMBER_EDIT, 200, 1)
    d = TableDriver(fake, club, bot, club.players[:10])
    await d.start("fiim")
    await d.skip_step()  # the meeting
    assert (d.state.step.night_step, d.state.step.seconds) == ("don_meets", 10)
    await d.skip_step()
    assert (d.state.step.night_step, d.state.step.seconds) == ("sheriff_meets", 10)
    await d.skip_step()
    assert d.state.phase == "day"
    for _ in range(5):
        if d.state.step.kind == "speech" and d.state.step.round == "day":
            break
        await d.skip_step()
    speaker = d.member(d.state.step.seat)
    assert not any(b["label"] == "Отозвать кандидатуру" for b in d.panel().buttons())
    select = next(c for c in d.panel().items() if c["type"] == 3)
    await fake.select(speaker, d.panel(), select["custom_id"], ["5"])
    await d.settled()
    assert d.state.nominations == ((d.state.step.seat, 5),)
    other = d.member(d.state.step.seat % 10 + 1)
    refused = await d.click_panel(other, "Отозвать кандидатуру")
    assert refused.ephemeral and d.state.nominations  # not his minute: nothing changes
    taken = await d.click_panel(speaker, "Отозвать кандидатуру")
    assert taken.ephemeral and taken.content == "Вы отозвали свою кандидатуру."
    assert d.state.nominations == ()
    assert any("Игрок номер 5 отозван с голосования." in t for t in d.public_texts()), d.public_texts()[-3:]
    select = next(c for c in d.panel().items() if c["type"] == 3)
    await fake.select(speaker, d.panel(), select["custom_id"], ["6"])
    await d.settled()
    assert d.state.nominations == ((d.state.step.seat, 6),)
    # D-FI16: the judge's technical foul counts as a foul and keeps its name.
    given = await fake.slash(d.players[0], "mafia foul", channel=club.text, reason="technical", seat=3)
    await d.settled()
    assert given.ephemeral and "Технический фол" in given.content, given.content
    assert d.state.fouls_of(3) == 1
    assert d.table is not None and d.table.session.log[-1].reason == "technical"  # type: ignore[attr-defined]


async def test_fiim_a_three_foul_player_gets_a_muted_ten_second_turn_to_nominate(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """D-FI8: «also to a 3-foul player at the moment his skipped speech would be — he gets a 10 s
    nomination-only turn»; F.13: he «keeps the right to nominate»; D-FI17: «voice of everyone but the
    floor-holder muted» — in his turn nobody holds the floor, so every voice stays off."""
    fake.rate_limits.set(MEMBER_EDIT, 200, 1)
    d = TableDriver(fake, club, bot, club.players[:10])
    await d.start("fiim")
    for _ in range(8):
        if d.state.step.kind == "speech" and d.state.step.round == "day":
            break
        await d.skip_step()
    assert d.state.step.seat == 1
    # D-FI15's default edition takes no colours on record: no such control on the panel.
    assert not any("Под протокол" in str(c.get("placeholder")) for c in d.panel().items())
    for _ in range(3):
        given = await fake.slash(d.players[0], "mafia foul", channel=club.text, reason="shouting", seat=3)
        assert given.ephemeral, given.content
    await d.settled()
    assert d.state.fouls_of(3) == 3
    await d.pass_speech()
    await d.pass_speech()
    assert (d.state.step.seat, d.state.step.seconds) == (3, 10)
    await d.fake.wait_for(lambda: not (d.all_seats() - d.muted_seats()), what="every voice off")
    assert d.muted_seats() == d.all_seats()
    assert "Игрок №3 без речи (фолы): может только выставить кандидатуру" in d.panel().text
    assert d.table is not None and d.table.session.deadline() is not None
    await d.nominate(3, 7)
    assert d.state.nominations == ((3, 7),)
    assert any("Игрок номер 3 лишён слова" in t for t in d.public_texts()), d.public_texts()[-5:]
    await d.pass_speech()
    assert (d.state.step.seat, d.state.step.seconds) == (4, 60)
    await d.fake.wait_for(lambda: d.muted_seats() == d.all_seats() - {4}, what="seat 4's voice on")


async def test_fiim_the_speaker_leaves_colours_on_record_from_the_panel(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """D-FI15, [MR 6.7–6.8]: where the edition takes colours «под протокол» (`on_record_any`), the speaker
    leaves up to three seats with a colour each in his speech, once; they go into the game's record. The
    default edition (`on_record = "none"`) has no such control."""
    fake.rate_limits.set(MEMBER_EDIT, 200, 1)
    d = TableDriver(fake, club, bot, club.players[:10])
    await d.start("fiim", options="on_record_any")
    for _ in range(8):
        if d.state.step.kind == "speech" and d.state.step.round == "day":
            break
        await d.skip_step()
    speaker = d.state.step.seat

    def record_select() -> dict[str, object] | None:
        return next((c for c in d.panel().items() if "Под протокол" in str(c.get("placeholder"))), None)

    select = record_select()
    assert select is not None and select["max_values"] == 3
    values = {o["value"] for o in select["options"]}  # type: ignore[attr-defined]
    assert len(values) == 18 and f"{speaker}b" not in values
    other = await fake.select(d.member(speaker + 1), d.panel(), str(select["custom_id"]), ["3b"])
    await d.settled()
    assert other.ephemeral and records_on_record(d.state) == []  # not his minute
    done = await fake.select(d.member(speaker), d.panel(), str(select["custom_id"]), ["3b", "5r"])
    await d.settled()
    assert done.ephemeral and done.content == "Под протокол: чёрные — №3; красные — №5.", done.content
    assert records_on_record(d.state) == [(1, speaker, "day", {3: "black", 5: "red"})]
    assert record_select() is None  # once per speech
    await d.pass_speech()
    assert record_select() is not None  # the next speaker's own


# -- one whole game (issue 19's «Done when») ----------------------------------------------------------


@pytest.fixture
def host_role(fake: FakeDiscord, club: Club) -> Role:
    """The server's host role for the judge (made before the bot connects, like any existing role)."""
    role = fake.world.add_role(club.guild, "Судья")
    club.players[0].roles.append(role.id)
    return role


async def _night(d: TableDriver, picks: dict[int, int], checks: dict[str, int]) -> None:
    """One night: each black in ``picks`` picks his seat in his DMs (no skip button, D-FI5); the don's and
    the sheriff's check (step id → seat) in theirs; the moderator closes each step."""
    while d.state.phase == "night":
        s = d.state
        if s.step.kind == "night" and s.step.night_step == "mafia":
            for seat, target in picks.items():
                prompt = d.latest_prompt(seat)
                assert not [b for b in prompt.buttons() if b["label"] == "Пропустить"], prompt.buttons()
                answer = await d.act_in_dm(seat, target)
                assert answer.ephemeral and answer.content == f"Ваш выбор: №{target}."
        elif s.step.kind == "night" and s.step.night_step in checks:
            [actor] = sorted(queries.actors(s))
            answer = await d.act_in_dm(actor, checks[s.step.night_step])
            assert answer.ephemeral, answer.content
        await d.skip_step()


async def _speeches(d: TableDriver, nominations: dict[int, int] | None = None) -> None:
    """Pass every speech of the current round (day, tie words, last words); a day speaker in
    ``nominations`` nominates his seat first («Принят номер N», D-FI8)."""
    round_ = d.state.step.round
    while d.state.step.kind == "speech" and d.state.step.round == round_ and not d.state.over:
        seat = d.state.step.seat
        target = (nominations or {}).get(seat)
        if target is not None and d.state.step.round == "day":
            answer = await d.nominate(seat, target)
            assert answer.ephemeral and answer.content == f"Вы выставили игрока №{target}.", answer.content
            assert any(f"Принят номер {target}." in t for t in d.public_texts()), d.public_texts()[-3:]
        await d.pass_speech()


async def _ballot(d: TableDriver, votes: dict[int, list[int]]) -> None:
    """Each nominee called in turn: the seats in ``votes[nominee]`` press «Голосую»; the moderator closes
    the count (the last nominee gets the votes not cast, [MR 7.13])."""
    while d.state.step.kind == "vote":
        nominee = d.state.step.seat
        for seat in votes.get(nominee, []):
            answer = await d.vote(seat)
            assert answer.ephemeral, answer.content
        await d.skip_step()


@pytest.mark.club(players=10)
async def test_fiim_a_whole_game_through_the_local_discord(
    host_role: Role, bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """Issue 19, «Done when»: a whole `fiim` game played by clicking — the zero night (D-FI4), a shot by
    agreement (F.6), the don's and the sheriff's checks (D-FI2), the best move named privately and
    announced (D-FI13), a three-way tie with its 30-s words, the revote and the lift vote (F.8, D-FI10,
    D-FI11), a miss (D-FI5), a 4th-foul removal without last words that cancels the day's vote (F.13,
    D-FI12), a lone nominee leaving on a later day (F.8), the reds' win; then the judge's confirmation,
    whose signed protocol gives the best move its +0.4 and the removal its −0.5 (F.14, D-FI15) and numbers
    the meeting night 0 (D-FI3)."""
    bot.games.storage.update_guild_settings(club.id, host_role_id=host_role.id)  # type: ignore[attr-defined]
    fake.rate_limits.set(MEMBER_EDIT, 200, 1)
    d = TableDriver(fake, club, bot, club.players[:10])
    await d.start("fiim")
    don, sheriff = d.seats_with("don")[0], d.seats_with("city_sheriff")[0]
    m1, m2 = d.seats_with("mafioso")
    r1, r2, r3, r4, r5, r6 = d.seats_with("civilian")
    blacks = sorted((don, m1, m2))

    # Night 0: the blacks' meeting, then the don and the sheriff woken, no shot and no check (D-FI4).
    steps = []
    while d.state.phase == "night":
        steps.append((d.state.step.night_step, d.state.step.seconds))
        await d.skip_step()
    assert steps == [("mafia_meets", 60), ("don_meets", 10), ("sheriff_meets", 10)]
    # Day 1: only the speaker nominates (D-FI8), one nominee only — no vote (F.8).
    assert (d.state.step.round, d.state.step.seat) == ("day", 1)
    refused = await d.nominate(2, r3)
    assert refused.ephemeral and "только в свою минуту" in refused.content, refused.content
    assert d.state.nominations == ()
    await _speeches(d, {1: r2})
    assert d.state.phase == "night" and len(d.state.alive) == 10

    # Night 1: every black on r1 (a kill); the don finds the sheriff, the sheriff finds the don.
    marks = d.dm_counts()
    await _night(d, {b: r1 for b in blacks}, {"don": sheriff, "sheriff": don})
    assert r1 not in d.state.alive
    new_dms = {seat: d.dm_texts(seat)[marks[seat] :] for seat in (don, sheriff)}
    assert f"Игрок номер {sheriff} — шериф." in new_dms[don], new_dms[don]
    assert f"👎 Игрок номер {don} — чёрный." in new_dms[sheriff], new_dms[sheriff]
    # Day 2 opens with r1's best move, private (D-FI13), then his minute.
    assert (d.state.step.kind, d.state.step.seat) == ("best_move", r1)
    prompt = d.latest_prompt(r1)
    select = next(c for c in prompt.items() if c["type"] == 3)
    await fake.select(d.member(r1), prompt, select["custom_id"], [str(x) for x in blacks])
    await d.settled()
    named = f"Лучший ход игрока номер {r1}: {blacks[0]}, {blacks[1]} и {blacks[2]}."
    assert any(named in t for t in d.public_texts()), d.public_texts()[-5:]
    assert (d.state.step.round, d.state.step.seat) == ("night_words", r1)
    await d.pass_speech()
    # Day 2: m1, r2 and r3 nominated; 3-3-3, the 30-s words, 3-3-3 again, the lift passes 5 of 9.
    living = d.state.living()
    first = d.state.step.seat  # the opener rotates (D-FI7)
    order = living[living.index(first) :] + living[: living.index(first)]
    speakers = [x for x in order if x not in (m1, r2, r3)][:3]
    await _speeches(d, dict(zip(speakers, (m1, r2, r3), strict=True)))
    voters = d.state.living()
    split = {m1: voters[:3], r2: voters[3:6]}
    await _ballot(d, split)
    assert d.state.step.round == "tie_word" and d.state.step.seconds == 30
    await _speeches(d)
    await _ballot(d, split)
    assert d.state.step.kind == "lift" and d.state.step.candidates == (m1, r2, r3)
    leave = next(b["label"] for b in d.panel().buttons() if b["label"].startswith("За то, чтобы"))
    for seat in voters[:5]:
        answer = await d.click_panel(d.member(seat), leave)
        assert answer.content == "Ваш голос «покинуть стол вместе» принят."
    await d.skip_step()
    assert not {m1, r2, r3} & d.state.alive
    farewells = []
    while d.state.step.kind == "speech" and d.state.step.round == "farewell":
        farewells.append((d.state.step.seat, d.state.step.seconds))
        await d.pass_speech()
    assert farewells == [(m1, 60), (r2, 60), (r3, 60)]

    # Night 2: the don and m2 pick different seats — a miss, nobody is told (D-FI5).
    marks = d.dm_counts()
    await _night(d, {don: r4, m2: r5}, {"sheriff": m2})
    assert len(d.state.alive) == 6 and d.state.step.round == "day"
    assert any("Этой ночью никто не покинул стол." in t for t in d.public_texts()[-4:]), d.public_texts()[-4:]
    for seat in (don, m2):
        assert not [t for t in d.dm_texts(seat)[marks[seat] :] if "промах" in t.lower()]
    # Day 3: m2's fourth foul removes him without a last word and cancels the day's vote (D-FI12).
    for _ in range(4):
        given = await fake.slash(d.players[0], "mafia foul", channel=club.text, reason="shouting", seat=m2)
        assert given.ephemeral, given.content
    await d.settled()
    assert m2 not in d.state.alive and d.state.fouls_of(m2) == 4
    assert any(f"Игрок номер {m2} удаляется из-за игрового стола." in t for t in d.public_texts()[-4:])
    assert not (d.state.step.kind == "speech" and d.state.step.seat == m2)
    await _speeches(d, {sheriff: don})
    assert any("Игрок удалён из-за стола: голосование не проводится." in t for t in d.public_texts()[-4:])
    assert d.state.phase == "night" and don in d.state.alive

    # Night 3: the don alone is every living black: his shot kills r6.
    await _night(d, {don: r6}, {"sheriff": don})
    assert r6 not in d.state.alive and d.state.step.round == "night_words"
    await d.pass_speech()
    # Day 4: the don is the lone nominee and leaves (F.8); the reds win, and he has his minute (D-FI14).
    await _speeches(d, {sheriff: don})
    assert don not in d.state.alive
    assert (d.state.step.round, d.state.step.seat, d.state.step.seconds) == ("farewell", don, 60)
    await _speeches(d)
    await d.until(lambda: d.state.over, "the end")
    assert list(d.state.winners or ()) == ["town"]
    assert any("Победили красные" in t for t in d.public_texts()), d.public_texts()[-5:]

    # The judge confirms: the protocol's points and its night numbers.
    confirmed = await fake.slash(d.players[0], "mafia judge confirm", channel=club.text)
    assert not confirmed.ephemeral and "подтвердил результат" in confirmed.content, confirmed.content
    files = confirmed.message.files
    [name] = [n for n in files if n.startswith("mafia-protocol-")]
    body = json.loads(files[name])["protocol"]
    reds = {sheriff, r1, r2, r3, r4, r5, r6}
    points = {p["seat"]: (p["won"], p["best_move"], p["penalty"], p["total"]) for p in body["points"]}
    expected = {seat: (seat in reds, 0.0, 0.0, 1.0 if seat in reds else 0.0) for seat in range(1, 11)}
    expected[r1] = (True, 0.4, 0.0, 1.4)  # F.14: three blacks of three named by a red victim
    expected[m2] = (False, 0.0, -0.5, -0.5)  # F.14: left by four fouls
    assert points == expected
    log = body["log"]
    assert {e["phase"] for e in log if e["event"] == "proposal"} == {"night 1", "night 2", "night 3"}
    assert [e for e in log if e["event"] == "removed"] == [
        {"phase": "day 3", "event": "removed", "seat": m2, "reason": "fouls"}
    ]
    assert [(e["phase"], e["seat"], e["seats"]) for e in log if e["event"] == "best_move"] == [
        ("day 2", r1, blacks)
    ]
    # Item 4: each night's picks and checks, the day's nominations and votes with their voters, the tie,
    # the lift, the fouls — and the protocol replays from its own record.
    picks = [(e["phase"], e["pick"], e["target"]) for e in log if e["event"] == "proposal"]
    assert sorted(picks) == sorted(
        [("night 1", b, r1) for b in blacks]
        + [("night 2", don, r4), ("night 2", m2, r5), ("night 3", don, r6)]
    )
    checks = [(e["phase"], e["by"], e["target"], e["result"]) for e in log if e["event"] == "check"]
    assert checks == [
        ("night 1", don, sheriff, True),
        ("night 1", sheriff, don, "mafia"),
        ("night 2", sheriff, m2, "mafia"),
        ("night 3", sheriff, don, "mafia"),
    ]
    day2 = [e for e in log if e["phase"] == "day 2"]
    assert [(e["by"], e["target"]) for e in day2 if e["event"] == "nominated"] == list(
        zip(speakers, (m1, r2, r3), strict=True)
    )
    voted = [(e["voter"], e["candidate"]) for e in day2 if e["event"] == "voted" and e["candidate"]]
    lift_yes = [e["voter"] for e in day2 if e["event"] == "voted" and not e["candidate"]]
    assert lift_yes == voters[:5]
    assert voted == [(x, m1) for x in voters[:3]] + [(x, r2) for x in voters[3:6]] + [
        (x, m1) for x in voters[:3]
    ] + [(x, r2) for x in voters[3:6]]
    assert [e["seats"] for e in day2 if e["event"] == "tie"] == [[m1, r2, r3]] * 2
    assert [(e["yes"], e["of"], e["passed"]) for e in day2 if e["event"] == "lift_count"] == [(5, 9, True)]
    assert [e["count"] for e in log if e["event"] == "foul"] == [1, 2, 3, 4]
    assert protocol.replays(body)


@pytest.mark.parametrize("option", ["", "night_victim_nominates"])
async def test_fiim_the_night_victim_nominates_in_his_last_word_where_the_club_allows(
    option: str, bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """D-FI8 `fiim.night_victim_nominates` (the `night_victim_nominates` option, [MR] RULES_KILLED_NOMINATE):
    the night's victim has the nomination select on the panel in his last minute, and his pick is
    accepted; in the default edition his last minute has none («No nominations in last words»)."""
    fake.rate_limits.set(MEMBER_EDIT, 200, 1)
    d = TableDriver(fake, club, bot, club.players[:10])
    await d.start("fiim", options=option)
    while d.state.phase == "night":
        await d.skip_step()
    await _speeches(d)
    blacks = sorted(d.seats_with("don", "mafioso"))
    victim = next(x for x in d.state.living() if x not in blacks)
    await _night(d, {b: victim for b in blacks}, {})
    assert d.state.step.kind == "best_move"
    await d.skip_step()  # no best move named
    assert (d.state.step.round, d.state.step.seat) == ("night_words", victim)
    selects = [c for c in d.panel().items() if c["type"] == 3]
    if not option:
        assert not selects
        return
    target = next(x for x in d.state.living() if x != victim)
    answer = await d.nominate(victim, target)
    assert answer.ephemeral and answer.content == f"Вы выставили игрока №{target}.", answer.content
    assert d.state.nominations == ((victim, target),)


async def test_fiim_the_withdraw_button_where_a_new_nomination_also_withdraws(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """D-FI8 `withdraw = "auto"` ([MR 7.5 option 2]): «Отзывание игрока не обязательно для выставления
    другого игрока» — a new pick replaces the old one, and the speaker may also just withdraw it."""
    fake.rate_limits.set(MEMBER_EDIT, 200, 1)
    d = TableDriver(fake, club, bot, club.players[:10])
    await d.start("fiim", options="withdraw_auto")
    while not (d.state.step.kind == "speech" and d.state.step.round == "day"):
        await d.skip_step()
    speaker = d.state.step.seat
    await d.nominate(speaker, 5)
    await d.nominate(speaker, 6)
    assert d.state.nominations == ((speaker, 6),)
    taken = await d.click_panel(d.member(speaker), "Отозвать кандидатуру")
    assert taken.ephemeral and taken.content == "Вы отозвали свою кандидатуру.", taken.content
    assert d.state.nominations == ()


@pytest.mark.parametrize("option", ["on_record_any", ""])
async def test_fiim_the_judge_writes_the_speakers_colours_on_record(
    option: str, bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """D-FI15 / [MR 6.7]: «Эти цвета записываются судьей» — `/mafia judge record` writes what the speaker
    left on record («3ч 5к»), under his seat; an unclear entry is refused with an example, a player who
    is no judge is refused, and the default edition (`on_record = "none"`) takes none."""
    fake.rate_limits.set(MEMBER_EDIT, 200, 1)
    d = TableDriver(fake, club, bot, club.players[:10])
    await d.start("fiim", options=option)
    while not (d.state.step.kind == "speech" and d.state.step.round == "day"):
        await d.skip_step()
    speaker = d.state.step.seat
    a, b = [x for x in d.state.living() if x != speaker][:2]
    said = await fake.slash(d.players[0], "mafia judge record", channel=club.text, colours=f"{a}ч {b}к")
    await d.settled()
    assert said.ephemeral, said.content
    if not option:
        assert records_on_record(d.state) == [], said.content
        assert said.content == "По этим правилам цвета под протокол не записываются.", said.content
        return
    assert said.content == f"Записано под протокол от игрока №{speaker}.", said.content
    assert records_on_record(d.state) == [(1, speaker, "day", {a: "black", b: "red"})]
    unclear = await fake.slash(d.players[0], "mafia judge record", channel=club.text, colours="3x")
    assert unclear.ephemeral and unclear.content.startswith("Не понимаю «3x»"), unclear.content
    stranger = await fake.slash(d.players[5], "mafia judge record", channel=club.text, colours="3ч")
    assert stranger.ephemeral and "судья" in stranger.content.lower(), stranger.content
    assert len(records_on_record(d.state)) == 1
