"""The lobby and the deal: what the lobby shows, and the optional seat numbers in nicknames."""

from __future__ import annotations

from fakediscord import Club, FakeDiscord
from fakediscord.payloads import member_json
from game_driver import MEMBER_EDIT, TableDriver

from mafiabot.bot import MafiaBot


async def test_the_lobby_shows_players_composition_and_timers(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.seat_everyone()
    opened = await d.open_lobby("classic")
    assert not opened.ephemeral
    text = d.lobby_message().content
    assert "Классическая мафия" in text and "нужно от 7 до 15 игроков" in text
    assert "знакомство 60 с" in text and "обсуждение 300 с" in text and "ночной ход 30 с" in text
    assert "не хватает" not in text
    for p in d.players[1:]:
        await fake.click(p, d.lobby_message(), label="Присоединиться")
    text = d.lobby_message().content
    assert "Игроки (7)" in text and "Состав: Честный горожанин ×4, Комиссар, Мафия ×2" in text, text
    left = await fake.click(d.players[6], d.lobby_message(), label="Выйти")
    assert left.callback_type == 7 and "Игроки (6)" in d.lobby_message().content
    # A lobby is stored as a game that has not started: /mafia game says so instead of an empty record.
    storage = bot.games.storage
    assert storage is not None
    (lobby,) = (stored.game for stored in storage.open_lobbies(club.id))
    record = await fake.slash(d.players[1], "mafia game", channel=club.text, game_id=lobby.id)
    assert record.ephemeral and record.content == (
        f"Игра #{lobby.id} ещё не началась: это набор игроков, записи у неё нет."
    )


async def test_seat_numbers_in_nicknames_are_given_back_at_the_end(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    d.players[2].nick = "Лиса"  # a nickname of their own, set on the server before the game
    fake.dispatch("GUILD_MEMBER_UPDATE", {"guild_id": str(club.id), **member_json(d.players[2])})
    await fake.gateway.flush()
    d.without_host_voice()
    await d.seat_everyone()
    await fake.slash(d.players[0], "mafia new", channel=club.text, ruleset="classic", nicknames=True)
    d.lobby_message_id = fake.messages(club.text)[-1].id
    for p in d.players[1:]:
        await fake.click(p, d.lobby_message(), label="Присоединиться")
    await fake.click(d.players[0], d.lobby_message(), label="Начать игру")
    await fake.wait_for(lambda: "Игра началась" in d.lobby_message().content, what="the start")
    d.table = d.games.tables[club.voice.id]
    await d.settled()
    for seat in d.all_seats():
        member = d.member(seat)
        name = "Лиса" if member is d.players[2] else member.user.username
        assert member.nick == f"{seat} · {name}", member.nick
    stopped = await fake.slash(d.players[0], "mafia stop", channel=club.text)
    assert stopped.ephemeral
    await fake.wait_for(lambda: not d.games.tables, what="the stop")
    await d.settled()
    assert d.players[2].nick == "Лиса"
    assert all(p.nick is None for p in d.players if p is not d.players[2]), [p.nick for p in d.players]


async def test_my_role_answers_privately_even_with_dms_closed(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    closed = d.players[4]
    closed.user.dms_open = False
    await d.start("classic")
    assert fake.dms(closed) == []
    seat = d.seat(closed)
    role = d.state.ruleset.roles[d.state.role_of(seat)].display
    answer = await fake.click(closed, d.panel(), label="Моя роль")
    assert answer.ephemeral
    assert answer.content.startswith(f"Вы — игрок №{seat}. Ваша роль: **{role}**."), answer.content
    # What the DMs would have said is kept for them, e.g. the mafia's teammates after the first night.
    mafia = d.seats_with("mafioso")
    while d.state.step.kind == "speech":
        await d.pass_speech()
    answer = await fake.click(closed, d.panel(), label="Моя роль")
    assert ("Ваша команда" in answer.content) == (seat in mafia), answer.content
    other = d.member(next(x for x in d.all_seats() if x != seat))
    theirs = await fake.click(other, d.panel(), label="Моя роль")
    assert f"игрок №{d.seat(other)}" in theirs.content and f"игрок №{seat}." not in theirs.content


async def test_a_lobby_whose_message_came_too_late_does_not_hold_the_channel(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """/mafia new answered after Discord's 3 s (10062): the lobby's message never reached the channel, so
    the lobby is closed again and the next /mafia new opens one (it used to be refused as «one game per
    channel» until the invisible lobby timed out: the load model's openings stalled on it)."""
    d = TableDriver(fake, club, bot, club.players[:4])
    await d.seat_everyone()
    fake.interaction_delay = 3.5  # the bot sees the command only after Discord's deadline
    late = await fake.slash(d.players[0], "mafia new", channel=club.text, ruleset="classic", wait=False)
    callback = "POST /interactions/{interaction_id}/{interaction_token}/callback"
    [call] = await fake.wait_for_call(callback, lambda c: c.params["interaction_id"] == str(late.id))
    assert call.status == 404 and call.response["code"] == 10062
    await fake.wait_for(lambda: not d.games.lobbies, what="the invisible lobby closed again")
    fake.interaction_delay = 0.0
    opened = await d.open_lobby("classic")
    assert opened.callback is not None and any(
        b.get("label") == "Присоединиться" for b in d.lobby_message().buttons()
    )


async def test_a_join_answered_too_late_still_shows_the_player_in_the_lobby_s_message(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """A join the loaded bot answered after Discord's 3 s (10062) is in the lobby, and its message shows
    him all the same: drawn directly, since the answer that draws it was refused. (It used to show him
    only after someone else joined: his next click heard «already in», and the load model's openings
    hung on the last player of eight tables.)"""
    d = TableDriver(fake, club, bot, club.players[:4])
    await d.seat_everyone()
    await d.open_lobby("classic")
    late_player = d.players[1]
    fake.interaction_delay = 3.5  # the bot sees the click only after Discord's deadline
    late = await fake.click(late_player, d.lobby_message(), label="Присоединиться", wait=False)
    callback = "POST /interactions/{interaction_id}/{interaction_token}/callback"
    [call] = await fake.wait_for_call(callback, lambda c: c.params["interaction_id"] == str(late.id))
    assert call.status == 404 and call.response["code"] == 10062
    fake.interaction_delay = 0.0
    await fake.wait_for(
        lambda: f"<@{late_player.id}>" in d.lobby_message().content, what="the late join in the message"
    )
    assert late_player.id in d.games.lobbies[club.voice.id].players
    again = await fake.click(late_player, d.lobby_message(), label="Присоединиться")
    assert again.ephemeral and "уже в списке" in again.content
