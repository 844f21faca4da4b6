"""Every storage test runs twice: on SQLite and on a real PostgreSQL.

PostgreSQL comes from MAFIABOT_TEST_POSTGRES_URL (`eval "$(bash scripts/ci-postgres.sh)"` starts one).
Unset, the PostgreSQL half is skipped with a message saying so; with CI=true it fails instead, so that a
green CI always means both backends ran.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import pytest
import sqlalchemy as sa
from pg_databases import fresh_database, postgres_url
from storage_helpers import GUILD, SEATS_7, FakeClock

from mafiabot.storage import Game, SeatAssignment, Storage, make_engine, upgrade


def drop_everything(engine: sa.Engine) -> None:
    """Leave the database empty, whatever an earlier run left in it (tables of any revision)."""
    metadata = sa.MetaData()
    metadata.reflect(engine)
    metadata.drop_all(engine)


@pytest.fixture(scope="session", params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="session")
def database_url(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('sqlite')}/suite.db"
        return
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:
        yield postgres_url()
        return
    with fresh_database(f"mafiabot_{worker}") as url:  # parallel workers: a database each
        yield url


@pytest.fixture(scope="session")
def migrated_engine(database_url: str) -> Iterator[sa.Engine]:
    engine = make_engine(database_url)
    drop_everything(engine)
    upgrade(engine)
    yield engine
    engine.dispose()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def storage(migrated_engine: sa.Engine, clock: FakeClock) -> Storage:
    """A migrated, empty database per test (rows are wiped, the schema is kept)."""
    from sqlmodel import SQLModel

    tables = list(reversed(SQLModel.metadata.sorted_tables))
    with migrated_engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            names = ", ".join(f'"{t.name}"' for t in tables)
            connection.execute(sa.text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
        else:
            for table in tables:
                connection.execute(table.delete())
    storage = Storage(migrated_engine, clock)
    # (The group commit's note of the clocks' static parts it stored, by game, is the engine's: the
    # games it names are gone and their ids are given again.)
    storage._writer.statics.clear()
    return storage


@pytest.fixture
def scratch_url(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A brand-new empty database on the test's backend, for migration tests."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('scratch')}/scratch.db"
        return
    with fresh_database("mafiabot_scratch") as url:
        yield url


@pytest.fixture
def new_game(storage: Storage) -> Callable[..., Game]:
    """A running game in GUILD with the seven seats above, unless told otherwise."""

    def make(guild_id: int = GUILD, seats: list[SeatAssignment] | None = None, **kwargs: object) -> Game:
        fields: dict[str, object] = {
            "voice_channel_id": 700_000_000_000_000_001,
            "text_channel_id": 700_000_000_000_000_002,
            "ruleset_id": "classic",
            "seed": 2**63 - 1,
            "options": {"night_seconds": 30},
        }
        fields.update(kwargs)
        game = storage.create_game(guild_id=guild_id, **fields)  # type: ignore[arg-type]
        assert game.id is not None
        storage.set_participants(game.id, SEATS_7 if seats is None else seats)
        return game

    return make
