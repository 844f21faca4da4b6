"""Migrations: an empty database reaches head; a database at the previous revision keeps its data."""

from __future__ import annotations

import json
from datetime import datetime

import pytest
import sqlalchemy as sa
from storage_helpers import GUILD

from mafiabot.storage import Storage, make_engine, upgrade
from mafiabot.storage.migrate import current_revision, downgrade, head_revision, schema_differences

TABLES = {
    "players",
    "seasons",
    "games",
    "game_commands",
    "participants",
    "fouls",
    "rating_changes",
    "guild_settings",
    "voice_mutes",
    "judge_awards",
    "game_protocols",
    "signing_keys",
    "tournaments",
    "tournament_games",
    "lobby_members",
    "tournament_schedules",
    "tournament_seats",
    "bot_state",
}
JUDGING = {"judge_awards", "game_protocols", "signing_keys", "tournaments", "tournament_games"}
SCHEDULES = {"tournament_schedules", "tournament_seats"}
HEAD = "0008_timers_static"


def table_names(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        return set(sa.inspect(engine).get_table_names()) - {"alembic_version"}
    finally:
        engine.dispose()


def pairs_after_downgrade(url: str, revision: str, sql: str) -> dict[object, object]:
    """The database downgraded to ``revision``, then ``sql``'s rows of two columns as a dictionary."""
    downgrade(url, revision)
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            return dict(connection.execute(sa.text(sql)).all())
    finally:
        engine.dispose()


def test_empty_database_to_head(scratch_url: str) -> None:
    assert current_revision(scratch_url) is None
    upgrade(scratch_url)
    assert current_revision(scratch_url) == head_revision() == HEAD
    assert table_names(scratch_url) == TABLES
    upgrade(scratch_url)  # a second start changes nothing
    assert current_revision(scratch_url) == HEAD


def test_models_and_migrations_agree(scratch_url: str) -> None:
    """What `alembic revision --autogenerate` would write after the last revision must be empty."""
    upgrade(scratch_url)
    assert schema_differences(scratch_url) == []


def test_upgrade_from_previous_revision_keeps_data(scratch_url: str) -> None:
    upgrade(scratch_url, "0001")
    assert (
        table_names(scratch_url)
        == TABLES - {"guild_settings", "voice_mutes", "lobby_members", "bot_state"} - JUDGING - SCHEDULES
    )
    engine = make_engine(scratch_url)
    started = datetime(2026, 1, 5, 19, 0)
    with engine.begin() as connection:
        connection.execute(
            sa.text(
                "INSERT INTO seasons (id, guild_id, number, name, started_at)"
                " VALUES (1, :g, 1, 'Сезон 1', :t)"
            ),
            {"g": GUILD, "t": started},
        )
        connection.execute(
            sa.text(
                "INSERT INTO games (id, guild_id, season_id, voice_channel_id, text_channel_id, ruleset_id,"
                " options, seed, status, created_at, winners)"
                " VALUES (1, :g, 1, 11, 12, 'city', :options, 42, 'running', :t, :winners)"
            ),
            {"g": GUILD, "t": started, "options": json.dumps({"night": 30}), "winners": "[]"},
        )
        connection.execute(
            sa.text("INSERT INTO game_commands (game_id, seq, command, created_at) VALUES (1, 0, :c, :t)"),
            {"c": json.dumps({"type": "start"}), "t": started},
        )
        connection.execute(
            sa.text(
                "INSERT INTO rating_changes (guild_id, season_id, user_id, game_id, track, delta, reason,"
                " created_at) VALUES (:g, 1, 101, 1, 'points', 1.0, 'win', :t)"
            ),
            {"g": GUILD, "t": started},
        )
    if engine.dialect.name == "postgresql":
        # Rows were inserted with explicit ids: move the sequences on, as a real 0001 database would have.
        with engine.begin() as connection:
            for table in ("seasons", "games"):
                connection.execute(sa.text(f"SELECT setval('{table}_id_seq', (SELECT max(id) FROM {table}))"))
    engine.dispose()

    storage = Storage.open(scratch_url)  # the bot's start: migrates to head
    try:
        assert current_revision(scratch_url) == HEAD
        [game] = storage.running_games()
        assert (game.id, game.guild_id, game.options, game.seed) == (1, GUILD, {"night": 30}, 42)
        assert game.timers == {}  # filled by the new column's default
        assert storage.command_log(1) == [{"type": "start"}]
        assert storage.current_season(GUILD).id == 1
        assert storage.leaderboard(GUILD, min_games=0).total == 0  # no finished games yet
        storage.set_timers(1, {"phase_deadline": "2026-01-05T19:01:00+00:00"})
        assert (
            storage.create_game(
                guild_id=GUILD, voice_channel_id=1, text_channel_id=2, ruleset_id="city", seed=1
            ).id
            == 2
        )
    finally:
        storage.close()


def test_a_pending_unmute_of_revision_0002_is_owed_by_the_ledger(scratch_url: str) -> None:
    upgrade(scratch_url, "0002")
    engine = make_engine(scratch_url)
    with engine.begin() as connection:
        connection.execute(
            sa.text("INSERT INTO pending_unmutes (guild_id, user_id, created_at) VALUES (:g, 101, :t)"),
            {"g": GUILD, "t": datetime(2026, 1, 5, 19, 0)},
        )
    engine.dispose()
    storage = Storage.open(scratch_url)
    try:
        [row] = storage.owed_rows(GUILD)
        assert (row.user_id, row.state, row.original_mute, row.game_id) == (101, "give_back", False, None)
    finally:
        storage.close()


def test_a_pending_unmute_left_at_revision_0003_is_owed_by_the_ledger_and_the_table_goes(
    scratch_url: str,
) -> None:
    upgrade(scratch_url, "0003")
    engine = make_engine(scratch_url)
    at = datetime(2026, 1, 5, 19, 0)
    with engine.begin() as connection:
        for user in (101, 102):
            connection.execute(
                sa.text("INSERT INTO pending_unmutes (guild_id, user_id, created_at) VALUES (:g, :u, :t)"),
                {"g": GUILD, "u": user, "t": at},
            )
        connection.execute(  # 102 is in the ledger already (0003 moved him): he stays as he is
            sa.text(
                "INSERT INTO voice_mutes (guild_id, user_id, game_id, voice_channel_id, text_channel_id,"
                " original_mute, state, told, created_at, updated_at)"
                " VALUES (:g, 102, 7, 11, 12, true, 'held', false, :t, :t)"
            ),
            {"g": GUILD, "t": at},
        )
    engine.dispose()
    storage = Storage.open(scratch_url)
    try:
        rows = {r.user_id: (r.state, r.game_id, r.original_mute) for r in storage.owed_rows(GUILD)}
        assert rows == {101: ("give_back", None, False), 102: ("held", 7, True)}
    finally:
        storage.close()
    assert "pending_unmutes" not in table_names(scratch_url)


def test_a_downgrade_before_0005_keeps_no_lobby_and_runs_an_over_game(scratch_url: str) -> None:
    storage = Storage.open(scratch_url)
    try:
        lobby = storage.open_lobby(
            guild_id=GUILD,
            voice_channel_id=1,
            text_channel_id=2,
            ruleset_id="classic",
            options=(),
            creator_id=101,
            creator_name="Аня",
        )
        game = storage.create_game(
            guild_id=GUILD, voice_channel_id=3, text_channel_id=2, ruleset_id="city", seed=1
        )
        assert game.id is not None
        storage.append_command(game.id, {"type": "abort"}, over=True)
    finally:
        storage.close()
    statuses = pairs_after_downgrade(scratch_url, "0004_judging", "SELECT id, status FROM games")
    assert statuses == {game.id: "running"} and lobby.id not in statuses


def test_downgrade_and_upgrade_again(scratch_url: str) -> None:
    upgrade(scratch_url)
    downgrade(scratch_url, "0001")
    assert current_revision(scratch_url) == "0001"
    assert "pending_unmutes" not in table_names(scratch_url) and "lobby_members" not in table_names(
        scratch_url
    )
    downgrade(scratch_url, "base")
    assert table_names(scratch_url) == set()
    upgrade(scratch_url)
    assert table_names(scratch_url) == TABLES


def test_open_defaults_to_a_sqlite_file(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    storage = Storage.open()
    try:
        assert storage.engine.url.render_as_string() == "sqlite:///mafiabot.db"
        assert (tmp_path / "mafiabot.db").exists()
        assert storage.current_season(GUILD).number == 1
    finally:
        storage.close()


def test_foreign_keys_are_enforced_after_migrating(scratch_url: str) -> None:
    storage = Storage.open(scratch_url)  # migrates through the same pool the service then uses
    try:
        with pytest.raises(sa.exc.IntegrityError), storage.engine.begin() as connection:
            connection.execute(
                sa.text(
                    """INSERT INTO participants (game_id, seat, user_id, role_id, side_id, fouls, points,
                    removed, "left") VALUES (404, 1, 1, 'civilian', 'town', 0, 0, false, false)"""
                )
            )
    finally:
        storage.close()


def test_a_running_game_s_whole_clock_of_revision_0007_resumes_and_goes_back_whole(scratch_url: str) -> None:
    """Revision 0008 stores a running clock's static part apart (issue 18): a game whose clock was stored
    whole before it resumes with that clock, and a downgrade puts a two-part clock back whole."""
    storage = Storage.open(scratch_url)
    try:
        game = storage.create_game(
            guild_id=GUILD, voice_channel_id=1, text_channel_id=2, ruleset_id="classic", seed=1
        )
        other = storage.create_game(
            guild_id=GUILD, voice_channel_id=3, text_channel_id=2, ruleset_id="classic", seed=2
        )
    finally:
        storage.close()
    downgrade(scratch_url, "0007_bot_state")
    whole = {"serial": 4, "left": 20.5, "running": False, "language": "ru", "voice_original": {"9": False}}
    engine = make_engine(scratch_url)
    with engine.begin() as connection:
        connection.execute(
            sa.text("UPDATE games SET timers = :t WHERE id = :id"), {"t": json.dumps(whole), "id": game.id}
        )
    engine.dispose()
    storage = Storage.open(scratch_url)  # the bot's start: migrates to head
    try:
        assert current_revision(scratch_url) == HEAD
        resumed = {g.id: g.timers for g in storage.running_games()}
        assert resumed[game.id] == whole
        storage.write_batch([], {other.id: {**whole, "serial": 7}})  # (two parts)
        assert storage.game(other.id).timers == {**whole, "serial": 7}
    finally:
        storage.close()
    rows = pairs_after_downgrade(scratch_url, "0007_bot_state", "SELECT id, timers FROM games")
    loaded = {k: json.loads(v) if isinstance(v, str) else v for k, v in rows.items()}
    assert loaded == {game.id: whole, other.id: {**whole, "serial": 7}}
