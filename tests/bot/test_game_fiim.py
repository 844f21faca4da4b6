"""`fiim` through the local Discord: the blacks' private meeting of night 0 (FIIM.md D-FI4, D-FI17: «the
night-0 meeting is the only time a black-team channel is open»), each black's own pick (D-FI5) and the
first-night victim's best move picked privately (D-FI13)."""

from __future__ import annotations

from fakediscord import Club, FakeDiscord
from fakediscord.world import Channel, ChannelType
from game_driver import MEMBER_EDIT, TableDriver

from engine.kinds.fiim import best_move
from engine.kinds.fiim_day import records_on_record
from mafiabot.bot import MafiaBot


def _chat(d: TableDriver) -> Channel:
    threads = [c for c in d.fake.world.channels.values() if c.type == ChannelType.PRIVATE_THREAD]
    assert len(threads) == 1 and threads[0].parent_id == d.club.text.id, threads
    return threads[0]


async def test_fiim_blacks_meet_once_in_private_then_each_picks_alone(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
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
