"""Engines and Alembic migrations, driven from Python (no alembic.ini).

The bot calls `upgrade(url)` on start. Developers add a revision after changing `models.py` with
`python -m mafiabot.storage.migrate revision "what changed" [URL]` (autogenerate against a database that
is at head; by default a scratch SQLite file), then read and fix the generated file.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

import orjson
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlmodel import SQLModel

import mafiabot.storage.models  # noqa: F401  (registers the tables on SQLModel.metadata)

DEFAULT_URL = "sqlite:///mafiabot.db"
MIGRATIONS_DIR = Path(__file__).with_name("migrations")


def json_text(value: Any) -> str:
    """A JSON column's text, as the engine writes it: orjson's compact form, ≈ 10 times cheaper than the
    json module's (a running table's clock, ≈ 1 KB stored with every step: 8.3 → 0.7 µs; issue 18). Keys
    that are not strings become strings, as with the json module; NaN and the infinities become null."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def make_engine(url: str = DEFAULT_URL, **kwargs: Any) -> sa.Engine:
    """An engine for `url`; SQLite gets foreign keys on and may be used from worker threads. JSON columns
    are written by ``json_text`` (read back by the json module, as before)."""
    kwargs.setdefault("json_serializer", json_text)
    if url.startswith("sqlite"):
        kwargs.setdefault("connect_args", {"check_same_thread": False})
        engine = sa.create_engine(url, **kwargs)
        sa.event.listen(engine, "connect", _sqlite_on_connect)
        return engine
    kwargs.setdefault("pool_pre_ping", True)
    return sa.create_engine(url, **kwargs)


def _sqlite_on_connect(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    # Write-ahead log: a commit appends to the -wal file instead of rewriting pages through a rollback
    # journal (≈ 2.5 times cheaper here), and readers do not block the writer. synchronous=FULL keeps
    # what it always promised: a commit returns once the log is on disk (fsync), so an acknowledged
    # command survives kill -9 and a power cut alike; the group commit shares that fsync among every
    # command of one turn of the bot's loop. (NORMAL would skip it and lose the last commits to a power
    # cut.) A database in memory has no log and answers "memory".
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()


def _config(connection: sa.Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def _run(target: str | sa.Engine, action: Any, *args: Any, **kwargs: Any) -> None:
    engine = make_engine(target) if isinstance(target, str) else target
    try:
        with engine.connect() as connection:
            sqlite = connection.dialect.name == "sqlite"
            if sqlite:
                # SQLite rebuilds a table to alter it (batch mode): dropping the old copy would break the
                # foreign keys of every referencing row. The pragma only works outside a transaction.
                connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
                connection.commit()
            try:
                with connection.begin():
                    if connection.dialect.name == "postgresql":
                        # Several processes (shards) may start at once on one database: one migrates,
                        # the others wait for it here and then find the schema at head.
                        connection.exec_driver_sql("SELECT pg_advisory_xact_lock(1835099)")
                    action(_config(connection), *args, **kwargs)
                    if sqlite and connection.exec_driver_sql("PRAGMA foreign_key_check").first():
                        raise RuntimeError("the migration left rows whose foreign keys point nowhere")
            finally:
                if sqlite:
                    connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                    connection.commit()
    finally:
        if isinstance(target, str):
            engine.dispose()


def upgrade(target: str | sa.Engine = DEFAULT_URL, revision: str = "head") -> None:
    """Bring the database at `target` (URL or engine) up to `revision`; creates the tables if empty."""
    _run(target, command.upgrade, revision)


def downgrade(target: str | sa.Engine, revision: str) -> None:
    _run(target, command.downgrade, revision)


def head_revision() -> str:
    head = ScriptDirectory.from_config(_config()).get_current_head()
    assert head is not None
    return head


def current_revision(target: str | sa.Engine) -> str | None:
    engine = make_engine(target) if isinstance(target, str) else target
    try:
        with engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    finally:
        if isinstance(target, str):
            engine.dispose()


def schema_differences(target: str | sa.Engine) -> list[Any]:
    """What autogenerate would change to make the database match the models (empty when they agree)."""
    engine = make_engine(target) if isinstance(target, str) else target
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            return list(compare_metadata(context, SQLModel.metadata))
    finally:
        if isinstance(target, str):
            engine.dispose()


def revision(message: str, url: str | None = None) -> None:
    """Autogenerate a new revision file from the difference between head and the models."""
    with tempfile.TemporaryDirectory() as scratch:
        target = url or f"sqlite:///{scratch}/revision.db"
        upgrade(target)
        _run(target, command.revision, message=message, autogenerate=True)


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] != "revision":
        sys.exit('usage: python -m mafiabot.storage.migrate revision "message" [URL]')
    revision(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
