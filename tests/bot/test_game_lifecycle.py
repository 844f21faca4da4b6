"""The game's lifecycle across failures: a command is stored before the game moves on, a game whose log
is over is closed when the bot comes back, and moderator commands name the step they were meant for."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import sqlalchemy.exc
from fakediscord import Club, FakeDiscord
from fakediscord.ratelimits import MESSAGE_CREATE
from game_driver import MEMBER_EDIT, Restart, TableDriver

from engine.commands import Remove
from mafiabot.bot import MafiaBot
from mafiabot.errors import NOT_STORED
from mafiabot.game.service import DAMAGED
from mafiabot.storage import Storage


async def test_a_command_the_database_refuses_is_refused_and_the_game_stays_where_it_was(
    bot: MafiaBot, fake: FakeDiscord, club: Club, logged_errors: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    storage = d.games.storage
    assert storage is not None and d.table is not None
    speaker, serial, log = d.state.step.seat, d.table.session.serial, len(d.table.session.log)
    real = Storage.write_batch

    def locked(self: Storage, commands: Any, timers: Any, **kwargs: Any) -> Any:
        if not commands:  # (the clocks of the group commit's other transactions)
            return real(self, commands, timers, **kwargs)
        raise sqlalchemy.exc.OperationalError(
            "INSERT INTO game_commands", {}, Exception("database is locked")
        )

    monkeypatch.setattr(Storage, "write_batch", locked)
    refused = await d.click_panel(d.member(speaker), "Пас")
    assert refused.ephemeral and refused.content == NOT_STORED
    assert d.state.step.seat == speaker and d.table.session.serial == serial
    assert len(d.table.session.log) == log == len(storage.command_log(d.table.game_id))
    d.assert_mutes()

    monkeypatch.setattr(Storage, "write_batch", real)
    passed = await d.pass_speech()  # answered by the panel's change (issue 18)
    assert passed.callback_type == 7
    assert d.state.step.seat != speaker
    assert len(d.table.session.log) == log + 1 == len(storage.command_log(d.table.game_id))


async def test_a_game_whose_log_is_over_is_closed_with_its_results_on_restart(
    bot: MafiaBot, fake: FakeDiscord, club: Club, restart: Restart
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    assert d.table is not None
    game_id = d.table.game_id
    mafia = d.seats_with("mafioso", "don")
    storage = d.games.storage
    assert storage is not None and d.muted_seats()

    await bot.close()
    # The crash this stands for: the last commands were stored (the mafia removed, the town wins), the
    # end of the game was not.
    for seat in mafia:
        storage = Storage.open(storage.engine.url.render_as_string(hide_password=False))
        storage.append_command(game_id, Remove(seat=seat, reason="moderator").to_json())
        storage.close()

    async with restart() as third:
        d.bot = third
        games = d.games
        await fake.wait_for(lambda: games.storage.game(game_id).status == "finished", what="the close")
        await fake.wait_for(lambda: not games.tables, what="the table to close")
        # Nobody is left muted by a game that ended while the bot was down.
        await fake.wait_for(lambda: d.muted_seats() == set(), what="every mute given back")
        assert games.storage.game(game_id).winners == ["town"]
        assert {p.result for p in games.storage.participants(game_id)} == {"win", "loss"}
        assert any("итоги ниже" in t for t in d.public_texts())
        # The channel takes a new game: the old one is no zombie.
        opened = await fake.slash(d.players[0], "mafia new", channel=club.text, ruleset="classic")
        assert not opened.ephemeral, opened.content
        lobby = games.lobbies[club.voice.id]
        await fake.wait_for(lambda: lobby.message_id, what="the lobby's message")


async def test_a_skip_racing_a_pass_ends_one_speech_not_two(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    assert d.table is not None
    session = d.table.session
    speaker, serial = d.state.step.seat, session.serial
    panel = d.panel()
    async with session.lock:  # both arrive while the table is busy: the «Пас» first, then the skip
        passed = await fake.click(d.member(speaker), panel, label="Пас", wait=False)
        await fake.gateway.flush()
        skipped = await fake.slash(d.players[0], "mafia skip", channel=club.text, wait=False)
        await fake.gateway.flush()
        await asyncio.sleep(0.05)
    await fake.wait_for(lambda: passed.callback is not None and skipped.callback is not None, what="answers")
    await d.settled()
    assert session.serial == serial + 1, "one speech ended"
    assert "уже закончился" in skipped.content


async def test_a_forged_seat_in_a_select_gets_a_line_and_changes_nothing(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    assert d.table is not None
    log = len(d.table.session.log)
    # What a modified client could send: a vote button whose candidate is letters, not a seat.
    button = d.panel().component(label="Пас")
    button["custom_id"] = button["custom_id"].replace(":pass", ":vote:abc")
    answer = await fake.click(d.member(d.state.step.seat), d.panel(), custom_id=button["custom_id"])
    assert answer.ephemeral and answer.content == DAMAGED
    assert len(d.table.session.log) == log


async def test_the_settings_select_of_a_closed_lobby_says_so(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    await fake.join_voice(club.players[0], club.voice)
    opened = await fake.slash(club.players[0], "mafia new", channel=club.text, ruleset="classic")
    settings = await fake.click(club.players[0], opened.message, label="Настройки")
    custom_id = settings.message.components[0]["components"][0]["custom_id"]
    await fake.click(club.players[0], opened.message, label="Отменить набор")
    stale = await fake.select(club.players[0], settings.message, custom_id, ["maniac"])
    assert stale.ephemeral and stale.content == "Этот набор уже закрыт."


async def test_a_stop_whose_own_write_comes_after_the_end_s_is_stored_once_with_its_reason(
    bot: MafiaBot, fake: FakeDiscord, club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The end, queued by the stop's command, stores the abort too (for a stop the bot crashed in); on
    a busy bot its write can run before the stop's own. That used to fail the stop («game is aborted,
    not running», seen stopping 300 tables at once); now either write stores the command's reason."""
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    records = d.games.records
    real = records.abort
    end_stored = asyncio.Event()
    writes: list[str] = []

    async def abort(game_id: int, reason: str, *, if_running: bool = False) -> None:
        writes.append(reason)
        if len(writes) == 1:  # the stop's own write waits until the end's has run
            await end_stored.wait()
        await real(game_id, reason, if_running=if_running)
        if len(writes) > 1:
            end_stored.set()

    monkeypatch.setattr(records, "abort", abort)
    game_id = d.games.tables[club.voice.id].game_id
    stopped = await fake.slash(d.players[0], "mafia stop", channel=club.text)
    assert stopped.ephemeral
    await fake.wait_for(lambda: not d.games.tables, what="the table to close")
    await fake.wait_for(lambda: len(writes) == 2 and end_stored.is_set(), what="both writes")
    await d.settled()
    assert d.muted_seats() == set()
    storage = d.games.storage
    assert storage is not None
    game = storage.game(game_id)
    assert game.status == "aborted" and game.end_reason == f"stopped by {d.players[0].id}"


async def test_a_bot_stopping_just_after_a_game_ended_still_sends_its_last_lines(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """A game that ended has left the service's tables, but its last lines (the roles, the record) wait
    in its queue behind the channel's message limit: a deploy's stop at that moment sends them first
    instead of losing them with the connection."""
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    await d.settled()
    game_id = d.table.game_id
    fake.rate_limits.set(MESSAGE_CREATE, 1, 4)  # a busy channel: the end's lines queue in the bot
    await fake.slash(d.players[0], "mafia stop", channel=club.text)
    await fake.wait_for(lambda: not d.games.tables, what="the stop")
    assert d.games.closing, "the ended table's lines are still queued"
    await bot.close()
    assert any(f"mafia-game-{game_id}.json" in m.files for m in fake.messages(club.text))
    assert not d.games.closing
