"""PostgreSQL for the tests: the server's URL, and brand-new empty databases on it.

The server comes from MAFIABOT_TEST_POSTGRES_URL (`eval "$(bash scripts/ci-postgres.sh)"` starts one).
Unset, a test that needs it is skipped with a message saying so; with CI=true it fails instead, so that a
green CI always means the PostgreSQL tests ran.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import make_url

POSTGRES_ENV = "MAFIABOT_TEST_POSTGRES_URL"


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def postgres_url() -> str:
    url = os.environ.get(POSTGRES_ENV, "").strip()
    if url:
        return url
    message = (
        f"{POSTGRES_ENV} is not set, so the PostgreSQL tests did NOT run. "
        'Start a server with: eval "$(bash scripts/ci-postgres.sh)"'
    )
    if in_ci():
        pytest.fail(f"CI=true: {message}", pytrace=False)
    pytest.skip(message)


@contextmanager
def fresh_database(prefix: str) -> Iterator[str]:
    """The URL of a new, empty database, dropped again afterwards (whoever is still connected)."""
    base = make_url(postgres_url())
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(sa.text(f'CREATE DATABASE "{name}"'))
        yield base.set(database=name).render_as_string(hide_password=False)
        drop_database(admin, name)
    finally:
        admin.dispose()


def drop_database(admin: sa.Engine, name: str, attempts: int = 5) -> None:
    """Drops a database whoever is connected to it.

    The role needs pg_signal_backend (scripts/ci-postgres.sh grants it) for the FORCE to end an autovacuum
    worker, which advertises no role. A server set up before that grant still refuses now and then, so a
    refusal is tried again after the worker had time to finish.
    """
    for attempt in range(attempts):
        try:
            with admin.connect() as connection:
                connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            return
        except sa.exc.DBAPIError as error:
            if attempt == attempts - 1 or "pg_signal_backend" not in str(error.orig):
                raise
            time.sleep(0.5 * (attempt + 1))
