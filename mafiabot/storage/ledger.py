"""The voice ledger's storage: who the bot muted (or unmuted), in which game, and his own state before.

A row is written before the bot changes a member's mute and deleted only once Discord confirmed his own
state given back (`Release`). Ending or stopping a game moves its rows to «give back» in the
transaction that changes the game's status (`give_back_game`, called by `finish_game`/`abort_game`);
a new game holds the members in its channel in the transaction that creates it (`hold_mutes`, called
by `create_game`/`start_lobby`), so that its first mutes need no write of their own.

The bot's own writes (`LedgerWrite`: a hold, a member owed back, a release, a refusal, the moderator
told) join the group commit of its event loop's turn (`Storage.write_batch`, beside the commands and
the clocks), through `write_ledger`: SQLAlchemy Core with statements built once, no ORM unit of work
(issue 18). A hold is awaited before the mute it records is sent; so is every other write, but many
tables' writes of one turn share one transaction and one commit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session, col

from mafiabot.storage.base import StorageBase
from mafiabot.storage.models import HeldMute, MuteHold

_MUTES: sa.Table = HeldMute.__table__  # type: ignore[attr-defined]
_C = _MUTES.c
_USERS: sa.BindParameter[Any] = sa.bindparam("users", expanding=True)
_GUILD: sa.BindParameter[Any] = sa.bindparam("guild")


def _hold_statement(insert: Any) -> Any:
    """A member already in the ledger keeps the original stored first (and his refusal, if any): only
    the game, the state and the channels are his new hold's."""
    statement = insert(_MUTES)
    return statement.on_conflict_do_update(
        index_elements=[_C.guild_id, _C.user_id],
        set_={
            "game_id": statement.excluded.game_id,
            "state": statement.excluded.state,
            "voice_channel_id": statement.excluded.voice_channel_id,
            "text_channel_id": statement.excluded.text_channel_id,
            "updated_at": statement.excluded.updated_at,
        },
    )


# Built once (see games.py: building a statement costs more than running it). The hold is one upsert
# (INSERT … ON CONFLICT DO UPDATE, SQLite ≥ 3.24 and PostgreSQL alike): no read before it, and two
# writers holding the same member cannot fail each other's transaction on the primary key.
_HOLD = {"sqlite": _hold_statement(sqlite.insert), "postgresql": _hold_statement(postgresql.insert)}
_ORIGINALS = sa.select(_C.user_id, _C.original_mute).where(_C.guild_id == _GUILD, _C.user_id.in_(_USERS))
_OWE = (
    sa.update(_MUTES)
    .where(_C.guild_id == _GUILD, _C.user_id.in_(_USERS))
    .values(state=MuteHold.GIVE_BACK, updated_at=sa.bindparam("now"))
)
# A release lets a member go as his row was read: a row held again meanwhile (by another game, or by the
# same game taking him back) is not this release's to delete, and stays owed until it is settled anew.
_RELEASE_AS_READ = sa.delete(_MUTES).where(
    _C.guild_id == _GUILD,
    _C.user_id == sa.bindparam("user"),
    _C.game_id.is_not_distinct_from(sa.bindparam("game", type_=sa.Integer)),
    _C.state == sa.bindparam("state"),
)
_RELEASE = sa.delete(_MUTES).where(_C.guild_id == _GUILD, _C.user_id.in_(_USERS))
_REFUSED = (
    sa.update(_MUTES)
    .where(_C.guild_id == _GUILD, _C.user_id.in_(_USERS))
    .values(failure=sa.bindparam("failure"), updated_at=sa.bindparam("now"))
)
_TOLD = sa.update(_MUTES).where(_C.guild_id == _GUILD, _C.user_id.in_(_USERS)).values(told=True)
_OWED = sa.select(
    _C.guild_id,
    _C.user_id,
    _C.game_id,
    _C.voice_channel_id,
    _C.text_channel_id,
    _C.original_mute,
    _C.state,
    _C.failure,
    _C.told,
).order_by(_C.guild_id, _C.user_id)


@dataclass(eq=False)
class Hold:
    """The game holds these members (``originals``: each one's own state as seen now). Written, ``owed``
    is what the ledger owes each: his original as stored first, whichever game held him then."""

    guild_id: int
    game_id: int | None
    voice_channel_id: int
    text_channel_id: int
    originals: Mapping[int, bool]
    owed: dict[int, bool] = field(default_factory=dict)


@dataclass(frozen=True)
class Owe:
    """Whichever game held them, these members are owed their own state (they left the game's channel)."""

    guild_id: int
    user_ids: tuple[int, ...]


@dataclass(frozen=True)
class Release:
    """Discord confirmed these members' own state: the bot owes them nothing any more. ``as_read``:
    (user, game, state) of each row as it was read, deleted only if it still is (see _RELEASE_AS_READ);
    ``user_ids``: deleted whatever they hold."""

    guild_id: int
    as_read: tuple[tuple[int, int | None, str], ...] = ()
    user_ids: tuple[int, ...] = ()


@dataclass(frozen=True)
class Refuse:
    """Discord refused to give these members their state back (why: ``failure``); they stay owed."""

    guild_id: int
    user_ids: tuple[int, ...]
    failure: str


@dataclass(frozen=True)
class Told:
    """The moderator was told which members could not be given their state back."""

    guild_id: int
    user_ids: tuple[int, ...]


LedgerWrite = Hold | Owe | Release | Refuse | Told


def write_ledger(connection: sa.Connection, writes: Sequence[LedgerWrite], now: datetime) -> None:
    """Inside a caller's transaction, in order: each write of ``writes`` (a hold's ``owed`` is filled in)."""
    for write in writes:
        if isinstance(write, Hold):
            _hold(connection, write, now)
        elif isinstance(write, Release):
            if write.as_read:
                rows = [
                    {"guild": write.guild_id, "user": user, "game": game, "state": state}
                    for user, game, state in write.as_read
                ]
                connection.execute(_RELEASE_AS_READ, rows)
            if write.user_ids:
                connection.execute(_RELEASE, {"guild": write.guild_id, "users": list(write.user_ids)})
        elif not write.user_ids:
            continue
        elif isinstance(write, Owe):
            connection.execute(_OWE, {"guild": write.guild_id, "users": list(write.user_ids), "now": now})
        elif isinstance(write, Refuse):
            values = {"guild": write.guild_id, "users": list(write.user_ids), "failure": write.failure[:200]}
            connection.execute(_REFUSED, {**values, "now": now})
        else:
            connection.execute(_TOLD, {"guild": write.guild_id, "users": list(write.user_ids)})


def _hold(connection: sa.Connection, hold: Hold, now: datetime) -> None:
    if not hold.originals:
        return
    users = sorted(hold.originals)  # (PostgreSQL: rows locked in one order by every writer)
    rows = [
        {
            "guild_id": hold.guild_id,
            "user_id": user,
            "game_id": hold.game_id,
            "voice_channel_id": hold.voice_channel_id,
            "text_channel_id": hold.text_channel_id,
            "original_mute": bool(hold.originals[user]),
            "state": MuteHold.HELD,
            "told": False,
            "created_at": now,
            "updated_at": now,
        }
        for user in users
    ]
    connection.execute(_HOLD[connection.dialect.name], rows)
    read = connection.execute(_ORIGINALS, {"guild": hold.guild_id, "users": users})
    stored = {row[0]: row[1] for row in read}
    hold.owed = {user: bool(stored[user]) for user in hold.originals}


def give_back_game(
    session: Session, game_id: int, now: datetime, user_ids: Iterable[int] | None = None
) -> None:
    """Inside a caller's transaction: every member held by the game (or only `user_ids`) is owed his
    own state back. The storage of the game's status calls this in the same transaction."""
    query = sa.update(HeldMute).where(col(HeldMute.game_id) == game_id, col(HeldMute.state) == MuteHold.HELD)
    if user_ids is not None:
        query = query.where(col(HeldMute.user_id).in_(list(user_ids)))
    session.execute(query.values(state=MuteHold.GIVE_BACK, updated_at=now))


def hold_mutes(
    session: Session,
    now: datetime,
    *,
    guild_id: int,
    game_id: int | None,
    voice_channel_id: int,
    text_channel_id: int,
    originals: Mapping[int, bool],
) -> dict[int, bool]:
    """Inside a caller's transaction: the game holds these members, with their own state. A member
    already in the ledger keeps the original stored first (his state before any game of the bot),
    whichever game held him then. Returns each member's original as stored: what the bot owes him,
    which the table keeps to give it back without reading the ledger again."""
    hold = Hold(guild_id, game_id, voice_channel_id, text_channel_id, originals)
    write_ledger(session.connection(), [hold], now)
    return hold.owed


@dataclass(frozen=True)
class OwedRow:
    """A row of the ledger as read; the bot's ledger keeps the same rows in memory without a database
    (mafiabot.game.ledger.Owed is this class)."""

    guild_id: int
    user_id: int
    game_id: int | None
    voice_channel_id: int
    text_channel_id: int
    original_mute: bool
    state: str
    failure: str | None = None
    told: bool = False


class LedgerMixin(StorageBase):
    def write_ledger(self, writes: Sequence[LedgerWrite], *, at: datetime | None = None) -> None:
        """These writes in one transaction of their own (the bot joins them to its group commit)."""
        now = self._now(at)
        with self._session() as session:
            write_ledger(session.connection(), writes, now)

    def hold_mutes(
        self,
        *,
        guild_id: int,
        game_id: int | None,
        voice_channel_id: int,
        text_channel_id: int,
        originals: Mapping[int, bool],
        at: datetime | None = None,
    ) -> dict[int, bool]:
        """Before the bot changes these members' mute (see the function hold_mutes)."""
        hold = Hold(guild_id, game_id, voice_channel_id, text_channel_id, originals)
        self.write_ledger([hold], at=at)
        return hold.owed

    def give_back(
        self, game_id: int, user_ids: Iterable[int] | None = None, *, at: datetime | None = None
    ) -> None:
        """The game no longer holds these members (all of them when `user_ids` is None)."""
        now = self._now(at)
        with self._session() as session:
            give_back_game(session, game_id, now, user_ids)

    def give_back_member(self, guild_id: int, user_id: int, *, at: datetime | None = None) -> None:
        """Whichever game held him, he is owed his own state (he left the game's channel)."""
        self.write_ledger([Owe(guild_id, (user_id,))], at=at)

    def released(self, guild_id: int, user_id: int) -> None:
        """Discord confirmed his own state: the bot owes him nothing any more."""
        self.write_ledger([Release(guild_id, user_ids=(user_id,))])

    def refused(
        self, guild_id: int, user_ids: Iterable[int], failure: str, *, at: datetime | None = None
    ) -> None:
        """Discord refused to give these members their state back (why: `failure`); they stay owed."""
        self.write_ledger([Refuse(guild_id, tuple(user_ids), failure)], at=at)

    def mark_told(self, guild_id: int, user_ids: Iterable[int]) -> None:
        """The moderator was told which members could not be given their state back."""
        self.write_ledger([Told(guild_id, tuple(user_ids))])

    def owed_rows(
        self, guild_id: int | None = None, *, user_id: int | None = None, game_id: int | None = None
    ) -> list[OwedRow]:
        """The ledger's rows (of a server, a member, a game), read with SQLAlchemy Core: the reconciler's
        read, which a round over every server makes of every row (ten thousand at 1,000 tables)."""
        query = _OWED
        if guild_id is not None:
            query = query.where(_C.guild_id == guild_id)
        if user_id is not None:
            query = query.where(_C.user_id == user_id)
        if game_id is not None:
            query = query.where(_C.game_id == game_id)
        with self._sqlite_lock or nullcontext(), self.engine.connect() as connection:
            return [OwedRow(*row) for row in connection.execute(query)]
