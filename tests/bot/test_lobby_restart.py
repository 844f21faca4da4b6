"""Lobbies are stored (issue 12, cause 8): a restart reopens every open lobby with its players, options
and settings, and the buttons of its message keep working; a game's end is stored with its rating."""

from __future__ import annotations

import pytest
from fakediscord import Club, FakeDiscord
from game_driver import MEMBER_EDIT, Restart, TableDriver

from mafiabot.bot import MafiaBot
from mafiabot.game.lobbies import LOBBY_NOT_STORED
from mafiabot.game.service import GameService
from mafiabot.storage import GameStatus, Storage


async def test_an_open_lobby_survives_a_restart_and_its_buttons_still_work(
    bot: MafiaBot, fake: FakeDiscord, club: Club, restart: Restart
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:8])
    d.without_host_voice()
    await d.seat_everyone()
    await fake.slash(d.players[0], "mafia new", channel=club.text, ruleset="classic", nicknames=True)
    d.lobby_message_id = fake.messages(club.text)[-1].id
    for p in d.players[1:7]:
        await fake.click(p, d.lobby_message(), label="Присоединиться")
    settings = await fake.click(d.players[0], d.lobby_message(), label="Настройки")
    custom_id = settings.message.components[0]["components"][0]["custom_id"]
    chosen = await fake.select(d.players[0], settings.message, custom_id, ["maniac"])
    assert chosen.content.startswith("Варианты: Маньяк вместо одного честного горожанина"), chosen.content
    before = bot.games.lobbies[club.voice.id]
    players = list(before.players)

    async with restart() as second:
        d.bot = second
        lobby = await fake.wait_for(lambda: d.games.lobbies.get(club.voice.id), what="the lobby to reopen")
        assert lobby.players == players and lobby.options == ("maniac",) and lobby.nicknames
        assert lobby.creator_id == d.players[0].id and lobby.message_id == d.lobby_message_id
        # The old message's buttons answer the new bot: a late player joins, the creator starts.
        joined = await fake.click(d.players[7], d.lobby_message(), label="Присоединиться")
        assert joined.callback_type == 7 and "Игроки (8)" in d.lobby_message().content
        await fake.click(d.players[0], d.lobby_message(), label="Начать игру")
        await fake.wait_for(lambda: "Игра началась" in d.lobby_message().content, what="the start")
        d.table = d.games.tables[club.voice.id]
        await d.settled()
        assert sorted(s.user_id for s in d.table.session.seats) == sorted(p.id for p in d.players)
        assert d.table.session.ruleset.selected_options == ("maniac",)
        storage = d.games.storage
        assert storage is not None
        assert storage.open_lobbies() == [] and storage.game(d.table.game_id).status == GameStatus.RUNNING
        assert all(d.member(s).nick and d.member(s).nick.startswith(f"{s} · ") for s in d.all_seats())
        await fake.slash(d.players[0], "mafia stop", channel=club.text)
        await fake.wait_for(lambda: not d.games.tables, what="the stop")
        await d.settled()
        await fake.wait_for(lambda: d.muted_seats() == set(), what="every mute given back")


async def test_a_cancelled_or_emptied_lobby_is_not_reopened(
    bot: MafiaBot, fake: FakeDiscord, club: Club, restart: Restart
) -> None:
    first, second_voice = club.players[0], club.players[1]
    await fake.join_voice(first, club.voice)
    cancelled = await fake.slash(first, "mafia new", channel=club.text, ruleset="classic")
    await fake.click(first, cancelled.message, label="Отменить набор")
    emptied = await fake.slash(first, "mafia new", channel=club.text, ruleset="classic")
    await fake.click(first, emptied.message, label="Выйти")
    assert (
        "все игроки вышли" in next(m for m in fake.messages(club.text) if m.id == emptied.message.id).content
    )
    assert bot.games.lobbies == {}
    await fake.join_voice(second_voice, club.voice)

    async with restart() as second:
        games: GameService = second.games
        assert games.storage is not None and games.storage.open_lobbies() == []
        assert games.lobbies == {}
        reopened = await fake.slash(second_voice, "mafia new", channel=club.text, ruleset="classic")
        assert not reopened.ephemeral, "no stale lobby holds the channel"
        await fake.wait_for(lambda: games.lobbies[club.voice.id].message_id, what="the lobby's message")


async def test_a_lobby_the_database_refuses_to_change_stays_as_it_was(
    bot: MafiaBot, fake: FakeDiscord, club: Club, monkeypatch: pytest.MonkeyPatch, logged_errors: list
) -> None:
    d = TableDriver(fake, club, bot, club.players[:3])
    await d.seat_everyone()
    await d.open_lobby("classic")
    await fake.click(d.players[1], d.lobby_message(), label="Присоединиться")
    text = d.lobby_message().content

    def locked(*args: object, **kwargs: object) -> None:
        raise OSError("database is locked")

    monkeypatch.setattr(Storage, "join_lobby", locked)
    monkeypatch.setattr(Storage, "leave_lobby", locked)
    refused = await fake.click(d.players[2], d.lobby_message(), label="Присоединиться")
    assert refused.ephemeral and refused.content == LOBBY_NOT_STORED
    refused = await fake.click(d.players[1], d.lobby_message(), label="Выйти")
    assert refused.ephemeral and refused.content == LOBBY_NOT_STORED
    lobby = bot.games.lobbies[club.voice.id]
    assert lobby.players == [d.players[0].id, d.players[1].id] and d.lobby_message().content == text
    storage = bot.games.storage
    assert storage is not None
    [stored] = storage.open_lobbies()
    assert [m.user_id for m in stored.members] == lobby.players


async def test_a_game_over_in_the_log_is_stored_over_and_closed_rated_on_restart(
    bot: MafiaBot, fake: FakeDiscord, club: Club, restart: Restart, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    assert d.table is not None
    game_id = d.table.game_id

    async def crashed(table: object) -> None:
        """The bot went down as the game ended: nothing of the end ran (results, rating, release)."""

    monkeypatch.setattr(d.games, "end", crashed)  # this bot's only: the next one ends games
    for seat in d.seats_with("mafioso", "don"):
        await fake.slash(d.players[0], "mafia kick", channel=club.text, seat=seat)
    storage = d.games.storage
    assert storage is not None
    # The last command and the status "over" were stored together.
    assert storage.game(game_id).status == GameStatus.OVER and d.table.session.over
    assert storage.game_rating_changes(game_id) == []

    async with restart() as second:
        d.bot = second
        games = d.games
        assert games.storage is not None
        await fake.wait_for(lambda: games.storage.game(game_id).status == "finished", what="the close")
        await fake.wait_for(lambda: not games.tables, what="the table to close")
        await fake.wait_for(lambda: d.muted_seats() == set(), what="every mute given back")
        assert any("итоги ниже" in t for t in d.public_texts())
        changes = games.storage.game_rating_changes(game_id)
        assert {c.user_id for c in changes} == {p.id for p in d.players}, "rated with its results"
        await fake.wait_for(
            lambda: any(t.startswith("**Рейтинг за игру**") for t in d.public_texts()), what="the rating"
        )


async def test_the_rating_is_stored_with_the_results_not_by_the_ratings_cog(
    bot: MafiaBot, fake: FakeDiscord, club: Club, restart: Restart
) -> None:
    """A crash between the results and the rating can no longer leave the game unrated: the finish hooks
    (the ratings cog's message among them) may never run, the rating is stored all the same."""
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    assert d.table is not None
    game_id = d.table.game_id
    d.games.finish_hooks.clear()
    for seat in d.seats_with("mafioso", "don"):
        await fake.slash(d.players[0], "mafia kick", channel=club.text, seat=seat)
    await fake.wait_for(lambda: not d.games.tables, what="the close")
    storage = d.games.storage
    assert storage is not None and storage.game(game_id).status == GameStatus.FINISHED
    assert {c.user_id for c in storage.game_rating_changes(game_id)} == {p.id for p in d.players}
    assert not any(t.startswith("**Рейтинг за игру**") for t in d.public_texts())
    async with restart() as second:  # nothing left to do for the game: it is not rated twice
        assert second.games.storage is not None
        assert second.games.storage.running_games() == []
        assert len(second.games.storage.game_rating_changes(game_id)) == len(
            storage.game_rating_changes(game_id)
        )


async def test_a_join_stored_but_never_answered_is_shown_when_the_lobby_reopens(
    bot: MafiaBot, fake: FakeDiscord, club: Club, restart: Restart
) -> None:
    """The bot stores a join, then answers it by editing the lobby's message; killed in between (the
    chaos harness's lobby kills), the player is in the lobby but its message does not say so. The
    reopened lobby draws its message again from what is stored."""
    d = TableDriver(fake, club, bot, club.players[:4])
    await d.seat_everyone()
    await d.open_lobby("classic")
    await fake.click(d.players[1], d.lobby_message(), label="Присоединиться")
    assert "Игроки (2)" in d.lobby_message().content
    storage = bot.games.storage
    assert storage is not None
    lobby_id = bot.games.lobbies[club.voice.id].game_id
    await bot.close()
    late = Storage.open(storage.engine.url.render_as_string(hide_password=False))
    late.join_lobby(
        lobby_id or 0, d.players[2].id, d.players[2].user.username
    )  # the crash came before the answer
    late.close()

    async with restart():
        await fake.wait_for(
            lambda: "Игроки (3)" in d.lobby_message().content, what="the lobby's message drawn again"
        )
        assert f"<@{d.players[2].id}>" in d.lobby_message().content
        joined = await fake.click(d.players[3], d.lobby_message(), label="Присоединиться")
        assert joined.callback_type == 7 and "Игроки (4)" in d.lobby_message().content
