"""The group commit (mafiabot.game.group_commit over Storage.write_batch): the commands and clocks of
one turn of the bot's loop share a transaction; each write is refused or stored on its own."""

from __future__ import annotations

import asyncio
import json
import os
import select
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from storage_helpers import GUILD

from mafiabot import chaos as chaos_module
from mafiabot.game import group_commit
from mafiabot.game.group_commit import BatchFailed, GroupCommit
from mafiabot.storage import NotFound, Storage, StorageError
from mafiabot.storage import games as games_module
from mafiabot.storage.ledger import Hold, Release


def test_a_batch_stores_each_game_in_order_and_refuses_only_what_it_must(storage: Storage, new_game) -> None:
    one, two, over = new_game(), new_game(), new_game()
    storage.abort_game(over.id, "stopped")
    seqs, clocks = storage.write_batch(
        [(one.id, {"n": 1}), (two.id, {"n": 2}), (over.id, {"n": 3}), (one.id, {"n": 4}), (999, {"n": 5})],
        {two.id: {"serial": 7, "left": 12.5}, over.id: {"serial": 1}},
    )
    assert seqs[:2] == [0, 0] and seqs[3] == 1
    assert isinstance(seqs[2], StorageError) and isinstance(seqs[4], NotFound)
    assert list(clocks) == [over.id]
    assert storage.command_log(one.id) == [{"n": 1}, {"n": 4}]
    assert storage.command_log(two.id) == [{"n": 2}]
    assert storage.command_log(over.id) == []
    assert storage.game(two.id).timers == {"serial": 7, "left": 12.5}
    assert storage.append_command(one.id, {"n": 6}) == 2  # the single append is the same path


async def test_writes_of_one_loop_turn_share_one_transaction(storage: Storage, new_game) -> None:
    games = [new_game() for _ in range(5)]
    group = GroupCommit(storage)
    seqs = await asyncio.gather(
        *(group.append_command(g.id, {"type": "pass", "i": i}) for i, g in enumerate(games)),
        *(group.append_command(games[0].id, {"type": "pass", "i": 10 + i}) for i in range(3)),
        group.save_timers(games[1].id, {"serial": 1}),
        group.save_timers(games[1].id, {"serial": 2}),  # the newer clock of the same game wins
    )
    assert seqs[:8] == [0, 0, 0, 0, 0, 1, 2, 3]
    assert group.transactions == 1 and group.largest == 9
    assert [c["i"] for c in storage.command_log(games[0].id)] == [0, 10, 11, 12]
    assert storage.game(games[1].id).timers == {"serial": 2}
    # What arrives while a transaction is written goes into the next one.
    first = asyncio.create_task(group.append_command(games[2].id, {"i": 20}))
    await asyncio.sleep(0)
    await asyncio.sleep(0)  # the writer has taken the first into its transaction
    second = group.append_command(games[2].id, {"i": 21})
    assert await asyncio.gather(first, second) == [1, 2]
    assert group.transactions == 3


async def test_a_refused_write_fails_alone_and_a_failed_transaction_fails_every_caller(
    storage: Storage, new_game, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, over = new_game(), new_game()
    storage.abort_game(over.id, "stopped")
    group = GroupCommit(storage)
    results = await asyncio.gather(
        group.append_command(game.id, {"i": 1}),
        group.append_command(over.id, {"i": 2}),
        group.save_timers(over.id, {"serial": 1}),
        return_exceptions=True,
    )
    assert results[0] == 0
    assert isinstance(results[1], StorageError) and isinstance(results[2], StorageError)

    def down(*args: object, **kwargs: object) -> None:
        raise ConnectionError("the database went away")

    monkeypatch.setattr(storage, "write_batch", down)
    failed = await asyncio.gather(
        group.append_command(game.id, {"i": 3}), group.save_timers(game.id, {}), return_exceptions=True
    )
    assert all(isinstance(f, BatchFailed) and isinstance(f.__cause__, ConnectionError) for f in failed)
    monkeypatch.undo()
    assert await group.append_command(game.id, {"i": 4}) == 1  # nothing of the failed batch was kept
    assert storage.command_log(game.id) == [{"i": 1}, {"i": 4}]


def test_a_commit_returns_once_it_is_on_disk(storage: Storage, new_game) -> None:
    storage.append_command(new_game().id, {"i": 1})
    kept = storage._writer.connection  # the group commit's own, kept between its transactions
    assert kept is not None
    with storage.engine.connect() as fresh:
        for connection in (kept, fresh):
            try:
                if storage.engine.dialect.name == "postgresql":
                    assert connection.exec_driver_sql("SHOW synchronous_commit").scalar() == "on"
                else:
                    assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
                    assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
            finally:
                connection.rollback()


async def test_the_voice_ledger_s_writes_of_one_loop_turn_join_the_commands_transaction(
    storage: Storage, new_game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 18: a hold (awaited before its mute is sent) and a release (after Discord confirmed) of
    many tables in one turn cost one transaction with the turn's commands, not one each."""
    games = [new_game() for _ in range(3)]
    group = GroupCommit(storage)
    holds = [Hold(GUILD, g.id, 1, 2, {1000 + i: False, 2000 + i: True}) for i, g in enumerate(games)]
    results = await asyncio.gather(
        *(group.write_ledger(hold) for hold in holds),
        *(group.append_command(g.id, {"type": "pass"}) for g in games),
    )
    assert results == [None, None, None, 0, 0, 0]
    assert group.transactions == 1 and group.largest == 6
    assert [hold.owed for hold in holds] == [{1000 + i: False, 2000 + i: True} for i in range(3)]
    read = [(row.user_id, row.game_id, row.state) for row in storage.owed_rows(GUILD) if row.user_id < 2000]
    await asyncio.gather(group.write_ledger(Release(GUILD, tuple(read))), group.save_timers(games[0].id, {}))
    assert group.transactions == 2
    assert {row.user_id for row in storage.owed_rows(GUILD)} == {2000, 2001, 2002}

    def down(*args: object, **kwargs: object) -> None:
        raise ConnectionError("the database went away")

    monkeypatch.setattr(storage, "write_batch", down)
    with pytest.raises(BatchFailed):  # the hold's caller never sends the mute it was for
        await group.write_ledger(Hold(GUILD, games[0].id, 1, 2, {3000: False}))
    monkeypatch.undo()
    assert 3000 not in {row.user_id for row in storage.owed_rows(GUILD)}


async def test_the_heartbeat_goes_with_the_clocks_of_its_turn_one_row_per_process(
    storage: Storage, new_game
) -> None:
    game = new_game()
    group = GroupCommit(storage)
    await asyncio.gather(
        group.beat("0/2 a", 1000.0, {game.id: {"serial": 3, "left": 20.0}}),
        group.append_command(game.id, {"i": 1}),
    )
    assert group.transactions == 1 and group.beats == 1 and group.clocks == 1
    await group.beat("0/2 a", 1000.5, {})  # the same process's next one replaces its row
    await group.beat("1/2 b", 1001.0, {})  # another process's has its own
    assert group.transactions == 3 and group.clocks == 1
    assert storage.game(game.id).timers == {"serial": 3, "left": 20.0}
    assert storage.clock_beats() == {"0/2 a": 1000.5, "1/2 b": 1001.0}
    storage.set_bot_value("commands", "fingerprint")  # the bot's other values are no heartbeat
    assert storage.forget_beats({"1/2 b"}) == 1
    assert storage.clock_beats() == {"1/2 b": 1001.0}
    assert storage.bot_value("commands") == "fingerprint"
    storage.forget_beats(())  # (the suite's database is shared: leave no heartbeat behind)


@pytest.mark.parametrize("alone", [False, True], ids=["with a clock", "a command alone"])
def test_a_write_after_the_database_dropped_the_kept_connection_is_stored(
    storage: Storage, new_game, backend: str, alone: bool
) -> None:
    """The group commit keeps its connection between transactions (issue 18: no pool checkout and no
    PostgreSQL pre-ping a transaction). A connection the database dropped meanwhile (a PostgreSQL
    server restarted) fails the transaction's first statement, before anything is written: it runs
    again on a fresh connection instead of failing the clicks it carries."""
    game = new_game()
    assert storage.append_command(game.id, {"i": 1}) == 0
    if backend == "postgresql":
        with storage.engine.connect() as connection:
            dropped = connection.exec_driver_sql(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).scalar()
        assert dropped
        # (pg_terminate_backend only asks: wait until the server has told the kept connection. A command
        # alone sent before that, as the server goes, fails and is not sent again: it might have been
        # committed. The click is then refused, never stored twice.)
        kept = storage._writer.connection
        assert kept is not None
        socket = kept.connection.driver_connection.fileno()  # type: ignore[union-attr]
        assert select.select([socket], [], [], 10.0)[0]
    else:  # (no server: the kept connection's file handle is closed under it)
        kept = storage._writer.connection
        assert kept is not None
        kept.connection.driver_connection.close()  # type: ignore[union-attr]
    # (a command alone is one statement committed alone on PostgreSQL, never run twice: the dropped
    # connection is seen before it is sent, StorageBase._writing_alone)
    seqs, _ = storage.write_batch([(game.id, {"i": 2})], {} if alone else {game.id: {"serial": 2}})
    assert seqs == [1]
    assert storage.command_log(game.id) == [{"i": 1}, {"i": 2}]
    assert storage.game(game.id).timers == ({} if alone else {"serial": 2})


@contextmanager
def libpq_trace(storage: Storage, path: Path) -> Iterator[Path]:
    """libpq's own trace of the group commit's kept PostgreSQL connection, written to ``path`` inside."""
    kept = storage._writer.connection
    assert kept is not None
    driver: Any = kept.connection.driver_connection
    driver.pgconn.trace(os.open(path, os.O_WRONLY | os.O_CREAT))
    try:
        yield path
    finally:
        driver.pgconn.untrace()


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)  # (SQLite: the test below)
def test_a_command_alone_is_one_round_trip_on_postgresql(
    storage: Storage, new_game, backend: str, tmp_path: Path
) -> None:
    """Issue 18: a quiet bot's click (a command alone in its transaction) was four round trips to
    PostgreSQL (BEGIN, the game's status and last command, the insert, COMMIT), each costing the bot and
    the server CPU; it is one statement, committed alone. Counted in libpq's own trace (each answer of
    the server ends with ReadyForQuery). Its refusals are those of the batch."""
    game, ended = new_game(), new_game()
    storage.abort_game(ended.id, "stopped")
    assert storage.append_command(game.id, {"i": 0}) == 0  # (the kept connection exists)
    with libpq_trace(storage, tmp_path / "trace") as trace:
        assert storage.write_batch([(game.id, {"i": 1})], {}) == ([1], {})
    answers = [line for line in trace.read_bytes().splitlines() if b"\tB\t" in line]
    assert sum(b"\tReadyForQuery" in line for line in answers) == 1
    assert storage.command_log(game.id) == [{"i": 0}, {"i": 1}]
    with storage.engine.connect() as connection:  # committed: another connection sees it
        assert (
            connection.exec_driver_sql(
                f"SELECT count(*) FROM game_commands WHERE game_id = {game.id}"
            ).scalar()
            == 2
        )
    (refused,), _ = storage.write_batch([(ended.id, {"i": 1})], {})
    assert isinstance(refused, StorageError) and "aborted, not running" in str(refused)
    (missing,), _ = storage.write_batch([(999_999, {"i": 1})], {})
    assert isinstance(missing, NotFound)
    assert storage.append_command(game.id, {"i": 2}) == 2  # and the connection is still the group commit's
    assert storage.command_log(ended.id) == []


async def test_every_transaction_is_written_by_the_group_commit_s_own_thread_which_ends_when_idle(
    storage: Storage, new_game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 18: one thread of its own, fed through a queue, instead of a worker of the loop's executor
    through asyncio.to_thread for every transaction (the hand-off cost about twice the CPU)."""
    monkeypatch.setattr(group_commit, "IDLE_SECONDS", 0.05)
    game = new_game()
    group = GroupCommit(storage)
    writers: list[threading.Thread] = []
    real = storage.write_batch

    def write_batch(*args: Any, **kwargs: Any) -> Any:
        writers.append(threading.current_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(storage, "write_batch", write_batch)
    assert await group.append_command(game.id, {"i": 1}) == 0
    assert await group.append_command(game.id, {"i": 2}) == 1
    await group.save_timers(game.id, {"serial": 1})
    assert len(writers) == 3 and len(set(writers)) == 1
    first = writers[0]
    assert first.name == "group commit" and first is not threading.current_thread()
    for _ in range(200):  # idle: the thread ends (and holds nothing the process waits for)
        if not first.is_alive():
            break
        await asyncio.sleep(0.05)
    assert not first.is_alive()
    assert await group.append_command(game.id, {"i": 3}) == 2  # the next write starts another
    assert writers[-1] is not first and writers[-1].name == "group commit"
    assert storage.command_log(game.id) == [{"i": 1}, {"i": 2}, {"i": 3}]


async def test_a_failure_in_the_writing_thread_reaches_its_caller_and_the_thread_goes_on() -> None:
    thread = group_commit.WritingThread("test writer")

    def fail() -> None:
        raise ZeroDivisionError("in the thread")

    with pytest.raises(ZeroDivisionError, match="in the thread"):
        await thread.run(fail)
    assert await thread.run(lambda: threading.current_thread().name) == "test writer"


async def test_a_closed_group_commit_has_written_what_waited_and_left_no_thread(
    storage: Storage, new_game
) -> None:
    """The bot's close (GameService.shutdown) closes it: a closed bot leaves no thread running."""
    game = new_game()
    group = GroupCommit(storage)
    before = set(threading.enumerate())
    writing = asyncio.ensure_future(group.append_command(game.id, {"i": 1}))
    await asyncio.sleep(0)
    await group.close()
    assert writing.done() and writing.result() == 0
    for thread in set(threading.enumerate()) - before:
        thread.join(timeout=5)
    assert not [t.name for t in set(threading.enumerate()) - before]
    assert await group.append_command(game.id, {"i": 2}) == 1  # (a later write starts another)
    await group.close()


def test_a_click_s_transaction_is_one_read_and_one_insert(tmp_path: Path) -> None:
    """Issue 18, counted as SQLite ran them (its own trace): a command alone (a quiet bot's click) is the
    game's status and last command read in one statement, and its insert, in one transaction; a
    heartbeat with a clock is the status read, the clock and the heartbeat. The same statements run on
    PostgreSQL (benchmarks/storage_click.py)."""
    storage = Storage.open(f"sqlite:///{tmp_path}/click.db")
    try:
        game = storage.create_game(
            guild_id=GUILD, voice_channel_id=1, text_channel_id=2, ruleset_id="classic", seed=1
        )
        assert game.id is not None
        storage.write_batch([(game.id, {"i": 0})], {}, beat=("a", 1.0))  # (the heartbeat's row exists)
        seen: list[str] = []
        kept = storage._writer.connection
        assert kept is not None
        kept.connection.driver_connection.set_trace_callback(  # type: ignore[union-attr]
            lambda statement: seen.append(statement.split()[0])
        )
        assert storage.write_batch([(game.id, {"i": 1})], {}) == ([1], {})
        assert seen == ["BEGIN", "SELECT", "INSERT", "COMMIT"]
        seen.clear()
        storage.write_batch([], {game.id: {"serial": 2}}, beat=("a", 2.0))
        assert seen == ["BEGIN", "SELECT", "UPDATE", "UPDATE", "COMMIT"]
        assert storage.command_log(game.id) == [{"i": 0}, {"i": 1}]
    finally:
        storage.close()


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)  # (sqlite3's executemany: one call)
def test_a_busy_turn_s_commands_and_clocks_are_a_statement_each_on_postgresql(
    storage: Storage, new_game, backend: str, tmp_path: Path
) -> None:
    """Issue 18: the commands of several games, and a heartbeat's clocks, were written by psycopg's
    pipelined executemany, a statement a row; they are one statement each (the rows' values in one),
    at about half the CPU in the bot and in the server. Counted in libpq's trace (its Execute messages)."""
    games = [new_game() for _ in range(3)]
    static = {"language": "ru", "voice_original": {"1": False}}
    storage.write_batch([], {g.id: {"serial": 0, **static} for g in games})  # (their static parts known)
    with libpq_trace(storage, tmp_path / "trace") as trace:
        seqs, refused = storage.write_batch(
            [(g.id, {"i": n}) for n, g in enumerate(games)] + [(games[0].id, {"i": 3})],
            {g.id: {"serial": 1, "left": 9.5, **static} for g in games},
        )
    executes = [line for line in trace.read_bytes().splitlines() if b"\tF\t" in line and b"\tExecute" in line]
    assert len(executes) == 3  # the games' status, the commands, the clocks
    assert (seqs, refused) == ([0, 0, 0, 1], {})
    assert storage.command_log(games[0].id) == [{"i": 0}, {"i": 3}]
    assert [storage.command_log(g.id) for g in games[1:]] == [[{"i": 1}], [{"i": 2}]]
    assert all(storage.game(g.id).timers == {"serial": 1, "left": 9.5, **static} for g in games)
    storage._writer.statics.clear()  # (the static parts written again, in one statement too)
    storage.write_batch([], {g.id: {"serial": 2, **static, "language": "en"} for g in games})
    assert all(storage.game(g.id).timers == {"serial": 2, **static, "language": "en"} for g in games)


def _raw_clock(storage: Storage, game_id: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The game's two clock columns as stored (``timers``, ``timers_static``)."""
    with storage.engine.connect() as connection:
        moving, static = connection.exec_driver_sql(
            f"SELECT CAST(timers AS TEXT), CAST(timers_static AS TEXT) FROM games WHERE id = {game_id}"
        ).one()
    return json.loads(moving), json.loads(static)


def test_a_clock_s_static_part_is_written_when_it_changes_and_read_back_whole(
    storage: Storage, new_game
) -> None:
    """Issue 18: of a running game's clock (Table.timer_state, ≈ 920 bytes at ten players) only the step's
    few values move from step to step; the rest (its language, timers, members' own voice states and
    nicknames, …) is written apart, when it changed, and every read gives the clock whole."""
    game = new_game()
    static = {"language": "ru", "dealt": True, "voice_original": {"1": False}, "nicknames": {"1": None}}
    first = {"serial": 1, "left": 60.0, "running": True, **static}
    storage.write_batch([], {game.id: first})
    assert _raw_clock(storage, game.id) == ({"serial": 1, "left": 60.0, "running": True}, static)
    assert storage.game(game.id).timers == first
    # The next step, the same static part: only the moving part is written.
    storage.write_batch([], {game.id: {**first, "serial": 2, "left": 30.0}})
    moving, _ = _raw_clock(storage, game.id)
    assert moving == {"serial": 2, "left": 30.0, "running": True}
    with storage.engine.begin() as connection:  # (a mark: a whole clock's write would replace it)
        connection.exec_driver_sql(
            f"""UPDATE games SET timers_static = '{{"language": "ru", "marked": 1}}' WHERE id = {game.id}"""
        )
    storage.write_batch([], {game.id: {**first, "serial": 3}})
    assert _raw_clock(storage, game.id)[1] == {"language": "ru", "marked": 1}
    # A member's own voice state changes: the static part is written again.
    changed = {**first, "serial": 4, "voice_original": {"1": False, "2": True}}
    storage.write_batch([], {game.id: changed})
    assert _raw_clock(storage, game.id)[1] == {**static, "voice_original": {"1": False, "2": True}}
    assert storage.game(game.id).timers == changed
    assert storage.running_games()[0].timers == changed  # (what a restart reads)
    # set_timers replaces the clock whole, and the next clock written is whole again.
    storage.set_timers(game.id, {"serial": 9})
    assert storage.game(game.id).timers == {"serial": 9}
    storage.write_batch([], {game.id: changed})
    assert storage.game(game.id).timers == changed
    storage.abort_game(game.id, "stopped")
    assert storage.game(game.id).timers == {}
    assert _raw_clock(storage, game.id) == ({}, {})


def test_a_game_stored_with_its_clock_whole_reads_and_goes_on_as_before(storage: Storage, new_game) -> None:
    """A game whose clock was stored before revision 0008 (all of it in ``timers``) reads as it was, and
    its next clock is written in two parts (the process that stored the old one is gone: nothing is
    known of its static part)."""
    game = new_game()
    whole = {"serial": 5, "left": 12.5, "running": False, "language": "en", "voice_original": {"7": True}}
    with storage.engine.begin() as connection:
        connection.exec_driver_sql(
            f"UPDATE games SET timers = '{json.dumps(whole)}', timers_static = '{{}}' WHERE id = {game.id}"
        )
    assert storage.game(game.id).timers == whole
    assert storage.running_games()[0].timers == whole
    storage._writer.statics.clear()  # (a restarted process)
    storage.write_batch([], {game.id: {**whole, "serial": 6}})
    assert _raw_clock(storage, game.id) == (
        {"serial": 6, "left": 12.5, "running": False},
        {"language": "en", "voice_original": {"7": True}},
    )
    assert storage.game(game.id).timers == {**whole, "serial": 6}


def test_a_static_part_whose_transaction_failed_is_written_again(
    storage: Storage, new_game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the group commit knows it stored is what was committed: a transaction that failed leaves
    the next clock to carry its static part."""
    game = new_game()
    clock = {"serial": 1, "left": 60.0, "language": "ru"}
    boom = RuntimeError("the commit failed")

    def failing(*args: Any, **kwargs: Any) -> None:
        raise boom

    monkeypatch.setattr(chaos_module, "kill_point", failing)
    monkeypatch.setattr(games_module, "kill_point", failing)
    with pytest.raises(RuntimeError):
        storage.write_batch([], {game.id: clock})
    monkeypatch.undo()
    assert storage._writer.statics.get(game.id) is None
    storage.write_batch([], {game.id: {**clock, "serial": 2}})
    assert storage.game(game.id).timers == {**clock, "serial": 2}


def test_a_static_part_changed_in_place_by_its_giver_is_written_again(storage: Storage, new_game) -> None:
    """The group commit compares a clock's static part with the one it wrote as it was then: a giver that
    changes the same dictionaries in place (a member's own voice state noted) still has it written."""
    game = new_game()
    originals = {"1": False}
    clock = {"serial": 1, "voice_original": originals}
    storage.write_batch([], {game.id: clock})
    originals["2"] = True
    storage.write_batch([], {game.id: {**clock, "serial": 2}})
    assert storage.game(game.id).timers == {"serial": 2, "voice_original": {"1": False, "2": True}}
