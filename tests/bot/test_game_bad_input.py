"""Bad input during a game: each gets a clear private answer and changes nothing."""

from __future__ import annotations

import copy

import pytest
from fakediscord import Club, FakeDiscord
from fakediscord import permissions as perms
from game_driver import MEMBER_EDIT, TableDriver

import engine
from engine import queries
from mafiabot.bot import MafiaBot
from mafiabot.cogs.lobby import MODERATORS_ONLY


def _snapshot(d: TableDriver) -> tuple[int, int, object]:
    assert d.table is not None
    session = d.table.session
    return session.serial, len(session.log), session.state


async def _to_night_two(d: TableDriver) -> None:
    """Classic: introductions, the acquaintance night, a day that votes out nobody's friend."""
    while d.state.step.kind == "speech":
        await d.pass_speech()
    await d.skip_step()  # the mafia meets
    await d.skip_step()  # discussion
    await d.skip_step()  # nominations: nobody nominated, no vote
    assert d.state.phase == "night" and d.state.step.night_step == "mafia", d.state.step


@pytest.fixture
def d(bot: MafiaBot, fake: FakeDiscord, club: Club) -> TableDriver:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    return TableDriver(fake, club, bot, club.players[:7])


async def test_clicks_from_outsiders_dead_players_and_the_wrong_role_change_nothing(
    d: TableDriver, fake: FakeDiscord, club: Club
) -> None:
    await d.start("classic")
    outsider = club.players[9]
    await fake.join_voice(outsider, club.voice)
    await d.settled()
    before = _snapshot(d)

    answer = await fake.click(outsider, d.panel(), label="Моя роль")
    assert answer.ephemeral and answer.content == "Вы не играете в этой партии."
    answer = await fake.click(outsider, d.panel(), label="Пас")
    assert answer.ephemeral and answer.content == "Вы не играете в этой партии."
    # A player who is not speaking cannot end someone else's speech.
    answer = await fake.click(d.member(2), d.panel(), label="Пас")
    assert answer.ephemeral and answer.content == "Сейчас говорит игрок 1.", answer.content
    assert _snapshot(d) == before

    await _to_night_two(d)
    mafia = [x for x in d.seats_with("mafioso")]
    civilian = d.seats_with("civilian")[0]
    before = _snapshot(d)
    # «Мой ход» for a civilian at the mafia's step: not their turn, no select shown.
    answer = await d.click_panel(d.member(civilian), "Мой ход")
    assert answer.ephemeral and answer.content == "Сейчас не ваш ход." and not answer.message.components
    assert _snapshot(d) == before

    # The moderator removes a mafioso; his prompt, kept in his DMs, no longer works for him.
    prompt = d.latest_prompt(mafia[1])
    kicked = await fake.slash(d.players[0], "mafia kick", channel=club.text, seat=mafia[1])
    assert kicked.ephemeral
    await d.settled()
    assert mafia[1] not in d.state.alive
    before = _snapshot(d)
    select = next(c for c in prompt.items() if c["type"] == 3)
    answer = await fake.select(d.member(mafia[1]), prompt, select["custom_id"], [str(civilian)])
    assert answer.ephemeral and answer.content == f"Игрок {mafia[1]} не просыпается с этой командой."
    await d.settled()
    assert _snapshot(d) == before
    assert d.muted_seats() >= {mafia[1]}  # the removed player stays muted like the dead

    # A moderator's command the engine refuses (he is removed already) is answered with the engine's
    # own words, by the command tree's error handler, and changes nothing.
    with pytest.raises(engine.IllegalCommand) as refused:
        engine.apply(d.state, engine.Remove(seat=mafia[1], reason="moderator"))
    again = await fake.slash(d.players[0], "mafia kick", channel=club.text, seat=mafia[1])
    assert again.ephemeral and again.content == str(refused.value)
    await d.settled()
    assert _snapshot(d) == before


async def test_stale_buttons_and_illegal_candidates_are_refused(
    d: TableDriver, fake: FakeDiscord, club: Club
) -> None:
    await d.start("classic")
    first_panel = copy.deepcopy(d.panel())  # a client that has not seen the panel's edits yet
    await d.pass_speech()
    before = _snapshot(d)
    answer = await fake.click(d.member(1), first_panel, label="Пас")
    assert answer.ephemeral and answer.content == "Этот шаг игры уже закончился: кнопка больше не действует."
    assert _snapshot(d) == before

    await _to_night_two(d)
    mafioso = d.seats_with("mafioso")[0]
    old_prompt = d.latest_prompt(mafioso)
    await d.skip_step()  # the mafia's step times out (a miss); the prompt is now from an earlier step
    before = _snapshot(d)
    select = next(c for c in old_prompt.items() if c["type"] == 3)
    target = d.seats_with("civilian")[0]
    answer = await fake.select(d.member(mafioso), old_prompt, select["custom_id"], [str(target)])
    assert answer.ephemeral and "уже закончился" in answer.content
    assert _snapshot(d) == before

    # Day 3: a nomination of a player who has just left the table (a client with the old list).
    while d.state.phase == "night":
        await d.skip_step()
    await d.skip_step()  # discussion
    assert d.state.step.kind == "nominations"
    panel = copy.deepcopy(d.panel())
    leaver = sorted(d.state.alive)[-1]
    await fake.slash(d.players[0], "mafia kick", channel=club.text, seat=leaver)
    await d.settled()
    before = _snapshot(d)
    select = next(c for c in panel.items() if c["type"] == 3)
    nominator = sorted(d.state.alive)[0]
    answer = await fake.select(d.member(nominator), panel, select["custom_id"], [str(leaver)])
    assert answer.ephemeral and answer.content == f"Игрок {leaver} не за столом.", answer.content
    assert _snapshot(d) == before

    # One vote per player: a second click on the same ballot is refused.
    candidate = sorted(d.state.alive)[1]
    await d.nominate(nominator, candidate)
    await d.skip_step()
    while d.state.step.kind == "speech":
        await d.pass_speech()
    assert d.state.step.kind == "vote" and d.state.step.seat == candidate
    voter = sorted(queries.voters(d.state))[0]
    first = await d.vote(voter)
    assert first.content == f"Ваш голос против №{candidate} принят."
    before = _snapshot(d)
    again = await d.vote(voter)
    assert again.ephemeral and again.content == "Вы уже проголосовали.", again.content
    assert _snapshot(d) == before


async def test_new_outside_voice_and_a_second_game_in_the_same_channel(
    d: TableDriver, fake: FakeDiscord, club: Club
) -> None:
    outside = club.players[9]
    answer = await fake.slash(outside, "mafia new", channel=club.text)
    assert answer.ephemeral and answer.content == "Сначала зайдите в голосовой канал: игра будет идти в нём."
    assert not d.games.lobbies

    await d.seat_everyone()
    await d.open_lobby("classic")
    second = await fake.slash(d.players[1], "mafia new", channel=club.text)
    assert second.ephemeral and "одна игра на канал" in second.content
    assert list(d.games.lobbies) == [club.voice.id]
    assert d.games.lobbies[club.voice.id].creator_id == d.players[0].id

    # Someone outside the voice channel cannot join, and only the creator (or a moderator) may start.
    refused = await fake.click(outside, d.lobby_message(), label="Присоединиться")
    assert refused.ephemeral and "зайдите в голосовой канал" in refused.content
    refused = await fake.click(d.players[1], d.lobby_message(), label="Начать игру")
    assert refused.ephemeral and refused.content == MODERATORS_ONLY
    assert d.games.lobbies[club.voice.id].players == [d.players[0].id]


@pytest.mark.club(
    bot_permissions=perms.VIEW_CHANNEL | perms.SEND_MESSAGES | perms.READ_MESSAGE_HISTORY | perms.CONNECT
)
async def test_missing_bot_permissions_are_listed_and_the_game_does_not_start(
    d: TableDriver, fake: FakeDiscord, club: Club
) -> None:
    await d.seat_everyone()
    await d.open_lobby("classic")
    lobby = d.lobby_message().content
    blocking = f"голосовой канал <#{club.voice.id}>: Отключать участникам микрофон"
    assert f"⚠️ Боту не хватает прав — {blocking}. Без них игру не начать." in lobby
    assert "Перемещать участников" not in lobby and "ветк" not in lobby  # classic has no mafia chat
    assert "Управлять никнеймами" not in lobby  # only with seat numbers in nicknames
    for p in d.players[1:]:
        await fake.click(p, d.lobby_message(), label="Присоединиться")
    refused = await fake.click(d.players[0], d.lobby_message(), label="Начать игру")
    assert refused.ephemeral
    assert refused.content == f"Боту не хватает прав — {blocking}."
    assert not d.games.tables and club.voice.id in d.games.lobbies
    assert not fake.calls_to(MEMBER_EDIT)


async def test_a_seat_beyond_the_table_and_time_out_of_bounds_are_refused(
    d: TableDriver, fake: FakeDiscord, club: Club
) -> None:
    """Issue 13: «kick seat=15» at a seven-seat table is no «Игрок 15 уже выбыл» (he never sat there),
    and Discord does not send «extend seconds=-1000» (the option's bounds); nothing changes."""
    await d.start("city")
    before = _snapshot(d)
    kicked = await fake.slash(d.players[0], "mafia kick", channel=club.text, seat=15)
    assert kicked.ephemeral and kicked.content == "За столом нет места №15.", kicked.content
    fouled = await fake.slash(d.players[0], "mafia foul", channel=club.text, seat=9, reason="insults")
    assert fouled.ephemeral and fouled.content == "За столом нет места №9.", fouled.content
    for seconds in (-1000, 0, 601):
        with pytest.raises(LookupError, match="outside min_value 5, max_value 600"):
            await fake.slash(d.players[0], "mafia extend", channel=club.text, seconds=seconds)
    with pytest.raises(LookupError, match="outside min_value 1, max_value 20"):
        await fake.slash(d.players[0], "mafia kick", channel=club.text, seat=0)
    await d.settled()
    assert _snapshot(d) == before
    added = await fake.slash(d.players[0], "mafia extend", channel=club.text, seconds=30)
    assert added.content == "Добавлено 30 с."
