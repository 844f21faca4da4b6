"""What the benchmarks share: the tests' local Discord on the import path, and a bot set up against it.

Import this module before anything that imports aiohttp: importing `fakediscord` sets SSL_CERT_FILE.
The scripts run as `python benchmarks/NAME.py`, so this folder is first on the import path.
"""

from __future__ import annotations

import os
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
import fakediscord  # noqa: E402

sys.path.remove(str(ROOT / "tests"))  # tests/engine would hide the engine package

_ = fakediscord


def local_bot(token: str, *, database_url: str | None = None, **settings: Any) -> Any:
    """A MafiaBot for the local Discord's token: a fresh SQLite file (unless `database_url` is given),
    no voice engine, and a short wait for each server's GUILD_CREATE; `settings` go to `Settings`."""
    from mafiabot.bot import MafiaBot
    from mafiabot.config import AudioSettings, Secret, Settings

    tmp = Path(tempfile.mkdtemp(prefix="mafiabot-bench-"))
    config = Settings(
        token=Secret(token),
        database_url=database_url or f"sqlite:///{tmp}/bot.db",
        audio=AudioSettings(engine="none", cache_dir=tmp / "audio"),
        **settings,
    )
    return MafiaBot(config, guild_ready_timeout=0.05)


def scratch_postgres(prefix: str = "mafiabot_bench") -> tuple[str, Any]:
    """A new, empty database on the PostgreSQL server of MAFIABOT_TEST_POSTGRES_URL: its URL, and the
    function that drops it."""
    import sqlalchemy as sa
    from sqlalchemy.engine import make_url

    base = make_url(os.environ["MAFIABOT_TEST_POSTGRES_URL"])
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(sa.text(f'CREATE DATABASE "{name}"'))

    def drop() -> None:
        with admin.connect() as connection:
            connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()

    return base.set(database=name).render_as_string(hide_password=False), drop
