"""The web server on a free loopback port over a seeded SQLite database, and a client for it."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import aiohttp
import pytest
import sqlalchemy as sa
from club_seed import GUILD, OTHER_GUILD, Seeded, seed_club
from web_helpers import SECRET, Clock, Site

from mafiabot.config import WebSettings
from mafiabot.storage import Storage, make_engine, upgrade
from mafiabot.web.app import make_server


@pytest.fixture(scope="session")
def seeded_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Seeded]:
    """The club's games are stored once (one transaction per command, as the bot does: seconds); each
    test gets its own copy of the file."""
    path = tmp_path_factory.mktemp("club") / "club.db"
    engine = make_engine(f"sqlite:///{path}")
    # A scratch file: no need to wait for the disk at each of its hundreds of commits.
    sa.event.listen(engine, "connect", lambda connection, _: connection.execute("PRAGMA synchronous=OFF"))
    upgrade(engine)
    storage = Storage(engine)
    try:
        return path, seed_club(storage)
    finally:
        storage.close()


@pytest.fixture
def storage(seeded_file: tuple[Path, Seeded], tmp_path: Path) -> Iterator[Storage]:
    copy = tmp_path / "web.db"
    shutil.copyfile(seeded_file[0], copy)
    opened = Storage.open(f"sqlite:///{copy}")
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
def seeded(seeded_file: tuple[Path, Seeded]) -> Seeded:
    return seeded_file[1]


@pytest.fixture
async def site(storage: Storage, seeded: Seeded) -> AsyncIterator[Site]:
    clock = Clock()
    names = {GUILD: "Клуб «Полночь»", OTHER_GUILD: "Другой клуб"}
    server = make_server(
        WebSettings(enabled=True, port=0, requests_per_minute=0),  # the limit has its own tests
        secret=SECRET,
        storage=storage,
        guild_name=names.get,
        clock=clock,
    )
    await server.start()
    try:
        async with aiohttp.ClientSession() as http:
            yield Site(server, storage, seeded, clock, http)
    finally:
        await server.stop()
