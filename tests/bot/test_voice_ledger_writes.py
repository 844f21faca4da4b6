"""The voice ledger's writes through the group commit (issue 18): every mute is in the ledger, committed,
before its request reaches Discord; a member leaves the ledger only after Discord answered his unmute;
and the writes of a game's end cost one transaction, not one per member. Read against the local Discord:
the stand-in looks at the database, through a connection of its own, as each member edit arrives."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
import sqlalchemy as sa
from fakediscord import Club, FakeDiscord
from fakediscord.rest import RestCall
from game_driver import MEMBER_EDIT, TableDriver

from mafiabot.bot import MafiaBot
from mafiabot.storage import MuteHold, make_engine

_MUTES = sa.table("voice_mutes", sa.column("user_id"), sa.column("state"))


@dataclass
class Arrival:
    user_id: int
    mute: bool
    ledger: str | None  # the member's row as committed when the edit reached the stand-in (None: none)


@dataclass
class LedgerOnArrival:
    """Each member edit as it reaches the stand-in, beside the member's ledger row as committed then
    (read through an engine of its own: the bot's uncommitted writes are not seen)."""

    engine: sa.Engine
    arrivals: list[Arrival] = field(default_factory=list)

    def rows(self) -> dict[int, str]:
        with self.engine.connect() as connection:
            return {row.user_id: row.state for row in connection.execute(sa.select(_MUTES))}

    def __call__(self, call: RestCall) -> None:
        if call.route == MEMBER_EDIT and "mute" in (call.json or {}):
            user_id = int(call.params["user_id"])
            self.arrivals.append(Arrival(user_id, bool(call.json["mute"]), self.rows().get(user_id)))


@contextmanager
def ledger_on_arrival(fake: FakeDiscord, bot: MafiaBot) -> Iterator[LedgerOnArrival]:
    engine = make_engine(bot.settings.database_url)
    seen = LedgerOnArrival(engine)
    fake.arrivals.append(seen)
    try:
        yield seen
    finally:
        fake.arrivals.remove(seen)
        engine.dispose()


class LedgerTransactions:
    """Committed transactions of the bot's database that wrote the voice ledger (a statement on
    voice_mutes that is not a read), counted with SQLAlchemy's events."""

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine
        self.count = 0
        self.all = 0  # every committed transaction

    def _statement(self, connection: sa.Connection, cursor: Any, statement: str, *args: Any) -> None:
        if "voice_mutes" in statement and not statement.lstrip().upper().startswith("SELECT"):
            connection.info["wrote the ledger"] = True

    def _commit(self, connection: sa.Connection) -> None:
        self.all += 1
        if connection.info.pop("wrote the ledger", False):
            self.count += 1

    def _rollback(self, connection: sa.Connection) -> None:
        connection.info.pop("wrote the ledger", None)

    def __enter__(self) -> LedgerTransactions:
        sa.event.listen(self.engine, "before_cursor_execute", self._statement)
        sa.event.listen(self.engine, "commit", self._commit)
        sa.event.listen(self.engine, "rollback", self._rollback)
        return self

    def __exit__(self, *exc: object) -> None:
        sa.event.remove(self.engine, "before_cursor_execute", self._statement)
        sa.event.remove(self.engine, "commit", self._commit)
        sa.event.remove(self.engine, "rollback", self._rollback)


async def test_every_mute_is_committed_before_it_reaches_discord_and_released_only_after_the_unmute(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)  # the buckets are not what this tests
    d = TableDriver(fake, club, bot, club.players[:7])
    with ledger_on_arrival(fake, bot) as seen:
        table = await d.start("classic")
        while d.state.step.kind != "speech":
            await d.skip_step()
        spectator = club.players[8]
        await fake.join_voice(spectator, club.voice)  # not held with the game: held before his mute
        await fake.wait_for(lambda: spectator.mute, what="the spectator muted")
        for _ in range(3):
            await d.pass_speech()
        await d.settled()
        mutes = [a for a in seen.arrivals if a.mute]
        assert len(mutes) >= 6 + 1 + 2 and spectator.id in {a.user_id for a in mutes}
        assert all(a.ledger == MuteHold.HELD for a in mutes), [a for a in mutes if a.ledger != MuteHold.HELD]
        muted = {p.id for p in club.players if p.mute}

        # The stop: the give-back's unmutes are held at the stand-in (sent, not answered).
        fake.faults.hold(MEMBER_EDIT)
        mark = len(seen.arrivals)
        await fake.slash(d.players[0], "mafia stop", channel=club.text)
        try:
            await fake.wait_for(lambda: seen.arrivals[mark:], what="the first unmutes sent")
            group = d.games.records.group
            assert group is not None
            await group.idle()  # whatever the bot wrote meanwhile is committed
            waiting = {a.user_id for a in seen.arrivals[mark:]}
            assert waiting <= set(seen.rows()), "a member left the ledger before Discord answered his unmute"
        finally:
            fake.faults.release(MEMBER_EDIT)
        await fake.wait_for(lambda: not d.games.tables, what="the table to close")
        await table.settled()
        await fake.wait_for(lambda: not seen.rows(), what="every member released once Discord answered")
    given_back = seen.arrivals[mark:]
    assert {a.user_id for a in given_back if not a.mute} == muted
    assert all(a.ledger is not None for a in given_back)


@pytest.mark.club(players=10)
async def test_a_pass_writes_nothing_to_the_ledger_and_a_game_s_end_releases_its_table_in_one_write(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """Before, every member given back cost a transaction of his own (ten at a ten-player table's end)."""
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:10])
    storage = d.games.storage
    assert storage is not None
    await d.start("classic")
    while d.state.step.kind != "speech":
        await d.skip_step()
    with LedgerTransactions(storage.engine) as written:
        for _ in range(4):
            await d.pass_speech()
        await d.settled()
        assert written.count == 0, "a «Пас» wrote to the voice ledger"
    muted = {p.id for p in club.players if p.mute}
    assert len(muted) == 9
    with LedgerTransactions(storage.engine) as written:
        await fake.slash(d.players[0], "mafia stop", channel=club.text)
        await fake.wait_for(lambda: not d.games.tables, what="the table to close")
        await d.settled()
        await fake.wait_for(lambda: not any(p.mute for p in club.players), what="everyone given back")
        assert await d.games.ledger.owed() == []
        # The abort owes the table back in its own transaction (the game's status); the releases of
        # the nine members Discord unmuted: one write.
        assert written.count == 2, written.count
