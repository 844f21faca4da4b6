from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from storage_helpers import GUILD, OTHER_GUILD, START, FakeClock

from mafiabot.storage import GameStatus, NotFound, SeatResult, Storage, StorageError


def test_first_game_opens_season_one(storage: Storage, new_game) -> None:
    game = new_game()
    season = storage.current_season(GUILD)
    # The bot's own name is no name: «Season 1» or «Сезон 1» is said in the server's language (i18n).
    assert (season.number, season.name, season.started_at) == (1, "", START)
    assert game.season_id == season.id
    assert game.status == GameStatus.RUNNING
    assert game.created_at == START and game.created_at.tzinfo is not None


def test_json_columns_are_written_compact_and_read_back_as_given(storage: Storage, new_game) -> None:
    """Issue 18: the engine writes JSON with orjson (a table's clock, ≈ 1 KB with every step, ≈ 10 times
    cheaper than the json module); its text is compact, and what comes back is what was given (keys
    that are not strings come back as strings, as they did)."""
    game = new_game(options={"preset": "город", 7: [1.5, None, True]})
    clock = {"serial": 3, "left": 12.25, "voice_original": {"412345678901234567": False}}
    storage.write_batch([(game.id, {"type": "pass", "seat": 3})], {game.id: clock})
    with storage.engine.connect() as connection:
        text = connection.exec_driver_sql(
            f"SELECT CAST(command AS TEXT) FROM game_commands WHERE game_id = {game.id}"
        ).scalar()
        options, timers, static = connection.exec_driver_sql(
            "SELECT CAST(options AS TEXT), CAST(timers AS TEXT), CAST(timers_static AS TEXT) FROM games"
            f" WHERE id = {game.id}"
        ).one()
    assert text == '{"type":"pass","seat":3}'
    assert options == '{"preset":"город","7":[1.5,null,true]}'
    assert timers == '{"serial":3,"left":12.25}'  # (the clock's static part apart: test_storage_group_commit)
    assert static == '{"voice_original":{"412345678901234567":false}}'
    stored = storage.game(game.id)
    assert stored.options == {"preset": "город", "7": [1.5, None, True]} and stored.timers == clock
    assert storage.command_log(game.id) == [{"type": "pass", "seat": 3}]


def test_game_fields_round_trip(storage: Storage, new_game) -> None:
    game = new_game(options={"preset": "город", "timers": {"speech": 60}})
    stored = storage.game(game.id)
    assert stored.seed == 2**63 - 1
    assert stored.voice_channel_id == 700_000_000_000_000_001
    assert stored.options == {"preset": "город", "timers": {"speech": 60}}
    assert stored.timers == {} and stored.winners == []
    assert stored.guild_id == GUILD


def test_command_log_keeps_order_and_content(storage: Storage, new_game, clock: FakeClock) -> None:
    game = new_game()
    commands = [{"type": "start"}, {"type": "vote", "seat": 3, "target": 5}, {"type": "say", "text": "ночь"}]
    positions = []
    for command in commands:
        clock.advance(seconds=1)
        positions.append(storage.append_command(game.id, command))
    assert positions == [0, 1, 2]
    assert storage.command_log(game.id) == commands
    assert storage.command_log(new_game().id) == []


def test_timers_survive_a_restart(storage: Storage, new_game, migrated_engine: sa.Engine) -> None:
    game = new_game()
    storage.append_command(game.id, {"type": "start"})
    deadline = (START + timedelta(seconds=45)).isoformat()
    storage.set_timers(game.id, {"phase_deadline": deadline, "paused": False})

    restarted = Storage(migrated_engine)  # a new process would build a new Storage on the same database
    [running] = restarted.running_games()
    assert running.id == game.id
    assert running.timers == {"phase_deadline": deadline, "paused": False}
    assert restarted.command_log(running.id) == [{"type": "start"}]


def test_running_games_by_guild(storage: Storage, new_game) -> None:
    a, b = new_game(), new_game(guild_id=OTHER_GUILD)
    storage.abort_game(new_game().id, "stopped by a moderator")
    assert [g.id for g in storage.running_games()] == [a.id, b.id]
    assert [g.id for g in storage.running_games(OTHER_GUILD)] == [b.id]


def test_finish_game_records_results(storage: Storage, new_game, clock: FakeClock) -> None:
    game = new_game()
    storage.set_timers(game.id, {"phase_deadline": "x"})
    end = clock.advance(minutes=40)
    results = [SeatResult(s, "win" if s in (1, 3, 4, 6) else "loss") for s in range(1, 8)]
    results[1] = SeatResult(2, "loss", fouls=5, removed=True)
    finished = storage.finish_game(game.id, winners=["town"], results=results, reason="town won")
    assert (finished.status, finished.ended_at, finished.winners) == (GameStatus.FINISHED, end, ["town"])
    assert finished.timers == {}
    seats = {p.seat: p for p in storage.participants(game.id)}
    assert seats[1].result == "win" and seats[5].result == "loss"
    assert (seats[2].fouls, seats[2].removed, seats[2].left) == (5, True, False)
    assert storage.running_games() == []


def test_a_game_that_is_over_accepts_nothing(storage: Storage, new_game) -> None:
    game = new_game()
    storage.abort_game(game.id, "voice channel deleted")
    assert storage.game(game.id).status == GameStatus.ABORTED
    with pytest.raises(StorageError, match="aborted"):
        storage.append_command(game.id, {"type": "late"})
    with pytest.raises(StorageError):
        storage.set_timers(game.id, {})
    with pytest.raises(StorageError):
        storage.finish_game(game.id, winners=[], results=[])
    with pytest.raises(NotFound):
        storage.append_command(10_000, {"type": "x"})


def test_participants_and_players(storage: Storage, new_game) -> None:
    game = new_game()
    seats = storage.participants(game.id)
    assert [(p.seat, p.user_id, p.role_id, p.side_id) for p in seats[:2]] == [
        (1, 101, "civilian", "town"),
        (2, 102, "mafioso", "mafia"),
    ]
    assert storage.player(GUILD, 105).display_name == "Дина"
    storage.upsert_player(GUILD, 105, "Дина К.")
    assert storage.player(GUILD, 105).display_name == "Дина К."
    assert storage.player(OTHER_GUILD, 105) is None

    storage.mark_participant(game.id, 4, left=True)
    storage.mark_participant(game.id, 6, removed=True)
    flags = {p.seat: (p.removed, p.left) for p in storage.participants(game.id)}
    assert flags[4] == (False, True) and flags[6] == (True, False)
    with pytest.raises(NotFound):
        storage.mark_participant(game.id, 99, left=True)


def test_new_season_keeps_history(storage: Storage, new_game, clock: FakeClock) -> None:
    old = new_game()
    later = clock.advance(days=30)
    season2 = storage.start_new_season(GUILD, "Весна")
    assert (season2.number, season2.name, season2.started_at) == (2, "Весна", later)
    seasons = storage.seasons(GUILD)
    assert [(s.number, s.ended_at) for s in seasons] == [(1, later), (2, None)]
    assert storage.game(old.id).season_id == seasons[0].id
    assert new_game().season_id == season2.id
    assert storage.season(GUILD, 1).id == seasons[0].id
    with pytest.raises(NotFound):
        storage.season(GUILD, 3)
    assert storage.start_new_season(GUILD).name == ""  # unnamed: the bot's own, said when shown


def test_naive_timestamps_are_refused(storage: Storage) -> None:
    with pytest.raises(ValueError, match="aware"):
        storage.current_season(GUILD, at=datetime(2026, 1, 1))


def test_timestamps_come_back_in_utc(storage: Storage, new_game) -> None:
    from zoneinfo import ZoneInfo

    moscow = datetime(2026, 3, 1, 21, 0, tzinfo=ZoneInfo("Europe/Moscow"))
    game = storage.create_game(
        guild_id=GUILD, voice_channel_id=1, text_channel_id=2, ruleset_id="city", seed=1, at=moscow
    )
    stored = storage.game(game.id)
    assert stored.created_at == moscow and stored.created_at.tzinfo == UTC


def test_appends_from_many_threads_keep_every_command(storage: Storage, new_game) -> None:
    """The bot calls storage from worker threads (`asyncio.to_thread`); no append may be lost or doubled."""
    from concurrent.futures import ThreadPoolExecutor

    game = new_game()

    def append(worker: int) -> list[int]:
        return [storage.append_command(game.id, {"worker": worker, "n": n}) for n in range(15)]

    with ThreadPoolExecutor(max_workers=4) as pool:
        positions = [p for batch in pool.map(append, range(4)) for p in batch]
    assert sorted(positions) == list(range(60))
    log = storage.command_log(game.id)
    assert len(log) == 60
    for worker in range(4):
        assert [c["n"] for c in log if c["worker"] == worker] == list(range(15))


def test_a_new_guild_gets_one_first_season_even_when_two_tables_race(storage: Storage) -> None:
    """Two sessions both see no season and both insert season 1: the loser must take the winner's."""
    import threading

    from sqlmodel import Session

    if storage.engine.dialect.name == "sqlite":
        # SQLite cannot race here: every session of an engine takes the same lock, one after another.
        assert storage._sqlite_lock is Storage(storage.engine)._sqlite_lock is not None
        return
    winner = Session(storage.engine, expire_on_commit=False)
    first = storage._current_season(winner, OTHER_GUILD, START)  # inserted, not committed yet
    found: list[int | None] = []

    def loser() -> None:
        with Session(storage.engine) as session, session.begin():
            # Its first look finds nothing; its insert waits for the winner, then hits the unique key.
            found.append(storage._current_season(session, OTHER_GUILD, START).id)

    thread = threading.Thread(target=loser)
    thread.start()
    thread.join(timeout=0.5)
    assert thread.is_alive()  # blocked on the winner's uncommitted row
    winner.commit()
    winner.close()
    thread.join(timeout=10)
    assert found == [first.id]
    assert [s.number for s in storage.seasons(OTHER_GUILD)] == [1]
