"""The voice ledger's storage: who the bot muted (or unmuted), in which game, and his own state before.

A row is written before the bot changes a member's mute and deleted only once Discord confirmed his own
state given back (`released`). Ending or stopping a game moves its rows to «give back» in the
transaction that changes the game's status (`give_back_game`, called by `finish_game`/`abort_game`);
a new game holds the members in its channel in the transaction that creates it (`hold_mutes`, called
by `create_game`/`start_lobby`), so that its first mutes need no write of their own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Session, col, select

from mafiabot.storage.base import StorageBase
from mafiabot.storage.models import HeldMute, MuteHold


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
    stored: dict[int, bool] = {}
    if not originals:
        return stored
    rows = {
        row.user_id: row
        for row in session.exec(
            select(HeldMute).where(HeldMute.guild_id == guild_id, col(HeldMute.user_id).in_(list(originals)))
        )
    }
    for user_id, original in originals.items():
        row = rows.get(user_id)
        if row is None:
            row = HeldMute(
                guild_id=guild_id,
                user_id=user_id,
                original_mute=original,
                voice_channel_id=voice_channel_id,
                text_channel_id=text_channel_id,
                created_at=now,
                updated_at=now,
            )
        row.game_id, row.state, row.updated_at = game_id, MuteHold.HELD, now
        row.voice_channel_id, row.text_channel_id = voice_channel_id, text_channel_id
        session.add(row)
        stored[user_id] = row.original_mute
    return stored


class LedgerMixin(StorageBase):
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
        now = self._now(at)
        with self._session() as session:
            return hold_mutes(
                session,
                now,
                guild_id=guild_id,
                game_id=game_id,
                voice_channel_id=voice_channel_id,
                text_channel_id=text_channel_id,
                originals=originals,
            )

    def give_back(
        self, game_id: int, user_ids: Iterable[int] | None = None, *, at: datetime | None = None
    ) -> None:
        """The game no longer holds these members (all of them when `user_ids` is None)."""
        now = self._now(at)
        with self._session() as session:
            give_back_game(session, game_id, now, user_ids)

    def give_back_member(self, guild_id: int, user_id: int, *, at: datetime | None = None) -> None:
        """Whichever game held him, he is owed his own state (he left the game's channel)."""
        now = self._now(at)
        with self._session() as session:
            session.execute(
                sa.update(HeldMute)
                .where(col(HeldMute.guild_id) == guild_id, col(HeldMute.user_id) == user_id)
                .values(state=MuteHold.GIVE_BACK, updated_at=now)
            )

    def released(self, guild_id: int, user_id: int) -> None:
        """Discord confirmed his own state: the bot owes him nothing any more."""
        with self._session() as session:
            session.execute(
                sa.delete(HeldMute).where(
                    col(HeldMute.guild_id) == guild_id, col(HeldMute.user_id) == user_id
                )
            )

    def refused(
        self, guild_id: int, user_ids: Iterable[int], failure: str, *, at: datetime | None = None
    ) -> None:
        """Discord refused to give these members their state back (why: `failure`); they stay owed."""
        now = self._now(at)
        with self._session() as session:
            session.execute(
                sa.update(HeldMute)
                .where(col(HeldMute.guild_id) == guild_id, col(HeldMute.user_id).in_(list(user_ids)))
                .values(failure=failure[:200], updated_at=now)
            )

    def mark_told(self, guild_id: int, user_ids: Iterable[int]) -> None:
        """The moderator was told which members could not be given their state back."""
        with self._session() as session:
            session.execute(
                sa.update(HeldMute)
                .where(col(HeldMute.guild_id) == guild_id, col(HeldMute.user_id).in_(list(user_ids)))
                .values(told=True)
            )

    def held_mutes(
        self, guild_id: int | None = None, *, user_id: int | None = None, game_id: int | None = None
    ) -> list[HeldMute]:
        with self._session() as session:
            query = select(HeldMute)
            if guild_id is not None:
                query = query.where(HeldMute.guild_id == guild_id)
            if user_id is not None:
                query = query.where(HeldMute.user_id == user_id)
            if game_id is not None:
                query = query.where(HeldMute.game_id == game_id)
            return list(session.exec(query.order_by(col(HeldMute.guild_id), col(HeldMute.user_id))))
