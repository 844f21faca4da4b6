"""D-G12 city: the mafia's members are told each other's roles when they meet on the intro night,
privately and in their night thread; the rest of the table learns nothing of it."""

from __future__ import annotations

from fakediscord import Club, FakeDiscord
from fakediscord.world import ChannelType
from game_driver import TableDriver

from mafiabot.bot import MafiaBot


async def test_the_city_mafia_learns_its_members_roles(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    d = TableDriver(fake, club, bot, club.players[:10])
    await d.start("city")
    s = d.state
    team = s.team_members("mafia", living_only=False)
    assert len(team) >= 2
    roster = (
        "Ваша команда: "
        + ", ".join(f"номер {x} — {s.ruleset.roles[s.role_of(x)].display.lower()}" for x in team)
        + "."
    )
    assert "дон" in roster
    for _ in range(20):
        if d.state.step.night_step == "mafia_meets":
            break
        await d.skip_step()
    for seat in range(1, 11):
        texts = [m.text for m in fake.dms(d.member(seat))]
        if seat in team:
            assert any(roster in t for t in texts), (roster, texts)
        else:
            assert not any("Ваша команда" in t for t in texts), (seat, texts)
    assert not any("Ваша команда" in t for t in d.public_texts())
    threads = [c for c in fake.world.channels.values() if c.type == ChannelType.PRIVATE_THREAD]
    assert len(threads) == 1
    assert [m.content for m in fake.messages(threads[0])][-1] == roster
    assert threads[0].thread_members - {fake.world.bot_user.id} == {d.member(x).id for x in team}


async def test_at_the_mafia_step_the_lawyer_proposes_and_the_don_chooses(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """Issue 13 / D-C10: while the don lives only his pick counts, so the lawyer is offered a proposal to
    him («Предложить дону…»), not «Ваш выбор» that does nothing; the don's own prompt says his pick is
    the mafia's target."""
    d = TableDriver(fake, club, bot, club.players[:10])
    await d.start("city")
    for _ in range(40):
        if d.state.phase == "night" and not d.state.intro and d.state.step.night_step == "mafia":
            break
        if d.state.step.kind == "speech":
            await d.pass_speech()
        else:
            await d.skip_step()
    [lawyer] = d.seats_with("city_lawyer")
    [don] = d.seats_with("don")
    prompt = d.latest_prompt(lawyer)
    assert f"цель мафии назначает дон (№{don})" in prompt.text and "Ваш выбор" not in prompt.text
    target = next(x for x in sorted(d.state.alive) if x not in (lawyer, don))
    answer = await d.act_in_dm(lawyer, target)
    assert answer.ephemeral and answer.content == f"Вы предложили дону игрока №{target}. Решает дон."
    assert d.state.ledger.proposals == ((lawyer, target),)
    assert d.latest_prompt(don).text.startswith("Дон, ваш выбор назначает цель мафии")
