"""Fixtures for bot tests: `fake` (the stand-in Discord), `club` (a guild ready for a game) and
`bot` (the real MafiaBot connected to them). See tests/fakediscord/README.md."""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from fakediscord import Club, FakeDiscord
from fakediscord.accounts import HELPER_DEFAULT
from game_driver import Restart

from mafiabot.bot import MafiaBot
from mafiabot.config import AudioSettings, Secret, Settings, WebSettings, game_settings
from mafiabot.logs import ContextFilter


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "club(players=10, bot_permissions=..., everyone_permissions=..., guild_allow_list=False): "
        "how `club` builds the guild",
    )
    config.addinivalue_line(
        "markers", "game(speech_seconds=45, variants=[...], ...): the bot's `[game]` settings"
    )
    config.addinivalue_line(
        "markers",
        "helpers(count=1, permissions=...): helper bot accounts invited to the club, their tokens in "
        "`[voice] helper_tokens` (fake.accounts)",
    )
    config.addinivalue_line("markers", "web(enabled=True, port=0, ...): the bot's `[web]` settings")


def _open_sockets() -> set[str]:
    fd_dir = "/proc/self/fd"
    found = set()
    for fd in os.listdir(fd_dir):
        try:
            target = os.readlink(os.path.join(fd_dir, fd))
        except OSError:
            continue
        if target.startswith("socket:"):
            found.add(target)
    return found


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
    server.check()


@pytest.fixture
def club(fake: FakeDiscord, request: pytest.FixtureRequest) -> Club:
    marker = request.node.get_closest_marker("club")
    options = dict(marker.kwargs) if marker else {}
    options.pop("guild_allow_list", None)
    return fake.create_club(**options)


class _ErrorRecords(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def logged_errors() -> Iterator[list[logging.LogRecord]]:
    """Errors the bot or discord.py logged (an exception in a handler, a view, a task).

    Any left at teardown fail the test; a test that provokes one on purpose checks it and clears the list.
    """
    handler = _ErrorRecords()
    handler.addFilter(ContextFilter())  # as in production: records carry guild/game ids
    loggers = [logging.getLogger(name) for name in ("discord", "mafiabot", "asyncio")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield handler.records
    finally:
        for logger in loggers:
            logger.removeHandler(handler)
    assert not handler.records, "errors were logged: " + "; ".join(r.getMessage() for r in handler.records)


@pytest.fixture
async def bot(
    fake: FakeDiscord,
    club: Club,
    logged_errors: list[logging.LogRecord],
    request: pytest.FixtureRequest,
    tmp_path: Path,
) -> AsyncIterator[MafiaBot]:
    """The real bot, logged in to the stand-in and past READY; closed with nothing left running."""
    marker = request.node.get_closest_marker("club")
    allow_list = (club.id,) if marker and marker.kwargs.get("guild_allow_list") else ()
    threads_before = set(threading.enumerate())
    sockets_before = _open_sockets()
    helper_tokens: list[Secret] = []
    if (helpers := request.node.get_closest_marker("helpers")) is not None:
        for number in range(1, helpers.kwargs.get("count", 1) + 1):
            account = fake.add_bot_account(f"helper-{number}")
            bits = helpers.kwargs.get("permissions", HELPER_DEFAULT)
            await fake.invite_bot(club, account, permissions=bits)
            helper_tokens.append(Secret(account.token))
    settings = Settings(
        token=Secret(fake.token),
        helper_tokens=tuple(helper_tokens),
        guild_ids=allow_list,
        database_url=f"sqlite:///{tmp_path}/bot.db",
        audio=AudioSettings(engine="none", cache_dir=tmp_path / "audio"),  # tests never reach Google
        game=game_settings(**(game.kwargs if (game := request.node.get_closest_marker("game")) else {})),
        web=WebSettings(**(web.kwargs if (web := request.node.get_closest_marker("web")) else {})),
    )
    client = MafiaBot(settings, guild_ready_timeout=0.05)
    async with fake.connect(client):
        yield client
    await _assert_nothing_left(threads_before, sockets_before, fake)


@pytest.fixture
def restart(bot: MafiaBot, fake: FakeDiscord) -> Restart:
    """Close the fixture's bot and run a second MafiaBot with the same settings on the same database file
    (``async with restart() as second: ...``); the stand-in and its world stay, as Discord does."""

    @asynccontextmanager
    async def second() -> AsyncIterator[MafiaBot]:
        await bot.close()
        client = MafiaBot(bot.settings, guild_ready_timeout=0.05)
        async with fake.connect(client):
            yield client

    return second


async def _assert_nothing_left(
    threads_before: set[threading.Thread], sockets_before: set[str], fake: FakeDiscord
) -> None:
    # discord.py's heartbeat and voice threads stop on close; join them rather than sleeping. Work the
    # bot handed to the loop's default executor (asyncio.to_thread) must be finished too.
    await asyncio.wait_for(asyncio.get_running_loop().shutdown_default_executor(), timeout=5)
    for thread in set(threading.enumerate()) - threads_before:
        thread.join(timeout=5)
    leftover = [t.name for t in set(threading.enumerate()) - threads_before]
    assert not leftover, f"threads left running: {leftover}"
    tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task() and not t.done()]
    assert not tasks, f"tasks left running: {[(t, getattr(t.get_coro(), 'cr_frame', None)) for t in tasks]}"
    # The stand-in still listens until its own fixture stops it; only the bot's side must be gone.
    leaked = _open_sockets() - sockets_before
    assert not leaked, f"sockets left open: {leaked}"
