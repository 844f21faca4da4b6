"""The bot's `[game]` settings, played through the local Discord: the default rules of `/mafia new`, the
speech and night-action times, and a server's own variants (a lobby opened with one plays its rules)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from fakediscord import Club, FakeDiscord
from fakediscord.world import ChannelType
from game_driver import MEMBER_EDIT, TableDriver

from mafiabot.bot import MafiaBot
from mafiabot.config import game_settings

REPO = Path(__file__).resolve().parents[2]
CLUB_VARIANT = REPO / "examples" / "club-variant.toml"


async def _skip_until_step(d: TableDriver, kind: str, limit: int = 40) -> None:
    for _ in range(limit):
        if d.state.step.kind == kind:
            return
        await d.skip_step()
    raise AssertionError(f"no {kind} step after {limit} skips: {d.state.step}")


@pytest.mark.game(speech_seconds=45, night_action_seconds=20)
@pytest.mark.club(players=8)
async def test_speech_and_night_action_seconds_set_the_games_times(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """`[game] speech_seconds = 45` gives 45-second speeches; `night_action_seconds = 20` a 20-second
    night step for one role (simple: its speeches are turns, its roles wake one by one)."""
    fake.rate_limits.set(MEMBER_EDIT, 200, 1)
    d = TableDriver(fake, club, bot, club.players[:8])
    await d.start("simple")
    assert "речь 45 с" in d.lobby_message().content and "ночной ход 20 с" in d.lobby_message().content
    assert d.state.ruleset.timers["speech"] == 45 and d.state.ruleset.timers["night_step"] == 20
    await _skip_until_step(d, "speech")
    assert d.state.step.seconds == 45
    # D-G12 / D-S3: simple's mafia knows which of them is the don.
    don, mafioso = d.seats_with("don")[0], d.seats_with("mafioso")[0]
    card = await fake.click(d.member(mafioso), d.panel(), label="Моя роль")
    assert f"№{don} — Дон" in card.content and f"№{mafioso} —" not in card.content, card.content
    await _skip_until_step(d, "night")
    step = d.state.ruleset.night_step(d.state.step.night_step)
    assert step.role and d.state.step.seconds == 20, (step, d.state.step)


@pytest.mark.club(players=8)
async def test_by_default_the_rulebooks_keep_their_own_times(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    d = TableDriver(fake, club, bot, club.players[:8])
    await d.start("simple")
    assert "речь 60 с" in d.lobby_message().content and "ночной ход 30 с" in d.lobby_message().content


@pytest.mark.game(default_preset="city")
async def test_new_without_rules_opens_the_default_preset(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    member = club.players[0]
    await fake.join_voice(member, club.voice)
    opened = await fake.slash(member, "mafia new", channel=club.text)
    assert "Городская мафия (`city`)" in opened.message.content, opened.message.content


@pytest.mark.game(variants=[CLUB_VARIANT])
@pytest.mark.club(players=6)
async def test_a_lobby_opened_with_the_club_variant_plays_its_rules(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """examples/club-variant.toml: its own deal for six, its timers, no self-nomination, no self-vote."""
    fake.rate_limits.set(MEMBER_EDIT, 200, 1)
    suggested = await fake.autocomplete(
        club.players[0], "mafia new", channel=club.text, focused="ruleset", ruleset=""
    )
    offered = {c["value"]: c["name"] for c in suggested}
    assert offered["classic-club"].startswith("Классическая мафия (клубный вариант)") and "classic" in offered

    d = TableDriver(fake, club, bot, club.players[:6])
    await d.start("classic-club")
    lobby = d.lobby_message().content
    assert "(`classic-club`)" in lobby and "обсуждение 180 с" in lobby and "голосование 10 с" in lobby
    assert d.state.ruleset.id == "classic-club"
    assert sorted(d.state.roles) == ["civilian"] * 4 + ["commissar", "mafioso"]  # the variant's deal

    await _skip_until_step(d, "nominations")
    mafioso = d.seats_with("mafioso")[0]
    town = [x for x in d.state.living() if x != mafioso]
    refused = await d.nominate(town[0], town[0])
    assert refused.ephemeral and "Нельзя выставлять себя" in refused.content, refused.content
    assert d.state.nominations == ()
    await d.nominate(town[0], mafioso)
    assert [t for _, t in d.state.nominations] == [mafioso]
    await _skip_until_step(d, "vote")
    assert d.state.step.seat == mafioso and d.state.step.seconds == 10
    refused = await d.vote(mafioso)
    assert "Нельзя голосовать за себя" in refused.content, refused.content
    for seat in town:
        await d.vote(seat)
    await d.skip_step()
    await d.settled()
    assert mafioso not in d.state.alive
    assert d.state.over and list(d.state.winners or ()) == ["town"]


async def test_a_variant_of_city_keeps_the_mafia_chat(
    bot: MafiaBot, fake: FakeDiscord, club: Club, tmp_path: Path
) -> None:
    """A server's variant made with `extends = "city"` behaves like city: its mafia gets the night chat."""
    variant = tmp_path / "city-club.toml"
    variant.write_text(
        'extends = "city"\nid = "city-club"\ntitle = "Городская мафия клуба"\n[timers]\nspeech = 40\n',
        encoding="utf-8",
    )
    await bot.close()
    settings = dataclasses.replace(bot.settings, game=game_settings(variants=[variant]))
    second = MafiaBot(settings, guild_ready_timeout=0.05)
    async with fake.connect(second):
        fake.rate_limits.set(MEMBER_EDIT, 200, 1)
        d = TableDriver(fake, club, second, club.players[:7])
        await d.start("city-club", "sleepers_stay")
        assert d.state.ruleset.id == "city-club" and "речь 40 с" in d.lobby_message().content
        for _ in range(40):
            if d.state.step.night_step == "mafia_meets":
                break
            await d.skip_step()
        threads = [c for c in fake.world.channels.values() if c.type == ChannelType.PRIVATE_THREAD]
        assert len(threads) == 1, threads
        mafia = {d.member(x).id for x in d.seats_with("don", "mafioso", "city_lawyer")}
        assert threads[0].thread_members - {fake.world.bot_user.id} == mafia
        # D-G12: city's mafia sees each member's role, on the role card too.
        don, mafioso = d.seats_with("don")[0], d.seats_with("mafioso")[0]
        card = await fake.click(d.member(don), d.panel(), label="Моя роль")
        assert f"Ваша команда: №{mafioso} — Мафия" in card.content, card.content
        await d.games.stop(d.table, "test")  # type: ignore[arg-type]
        await d.settled()
