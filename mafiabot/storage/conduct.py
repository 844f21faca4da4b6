"""Fouls, members waiting to be unmuted, and per-guild settings."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select

from mafiabot.storage.base import NotFound, StorageBase, StorageError
from mafiabot.storage.models import Foul, Game, GuildSettings

_SETTINGS_FIELDS = frozenset({"host_role_id", "volume", "audio_enabled", "ruleset_defaults"})


class ConductMixin(StorageBase):
    # --- fouls ---------------------------------------------------------------------------------------

    def add_foul(
        self,
        game_id: int,
        *,
        seat: int,
        user_id: int,
        reason: str,
        day: int,
        given_by: int | None = None,
        automatic: bool = False,
        at: datetime | None = None,
    ) -> Foul:
        """Record a foul; `given_by` is the moderator, or None with `automatic` for the bot's own."""
        if not automatic and given_by is None:
            raise StorageError("a foul is given by a moderator or marked automatic")
        with self._session() as session:
            if session.get(Game, game_id) is None:
                raise NotFound(f"no game {game_id}")
            foul = Foul(
                game_id=game_id,
                seat=seat,
                user_id=user_id,
                reason=reason[:200],
                day=day,
                given_by=given_by,
                automatic=automatic,
                given_at=self._now(at),
            )
            session.add(foul)
            session.flush()
            return foul

    def withdraw_foul(self, foul_id: int, *, by: int, reason: str, at: datetime | None = None) -> Foul:
        with self._session() as session:
            foul = session.get(Foul, foul_id)
            if foul is None:
                raise NotFound(f"no foul {foul_id}")
            if foul.withdrawn_at is not None:
                raise StorageError(f"foul {foul_id} is already withdrawn")
            foul.withdrawn_by, foul.withdrawn_at, foul.withdrawn_reason = by, self._now(at), reason[:200]
            session.add(foul)
            session.flush()
            return foul

    def fouls(self, game_id: int, *, include_withdrawn: bool = False, seat: int | None = None) -> list[Foul]:
        with self._session() as session:
            query = select(Foul).where(Foul.game_id == game_id)
            if not include_withdrawn:
                query = query.where(col(Foul.withdrawn_at).is_(None))
            if seat is not None:
                query = query.where(Foul.seat == seat)
            return list(session.exec(query.order_by(col(Foul.given_at), col(Foul.id))))

    # --- guild settings ------------------------------------------------------------------------------

    def guild_settings(self, guild_id: int) -> GuildSettings:
        """The stored settings, or the defaults for a guild that never changed any."""
        with self._session() as session:
            row = session.get(GuildSettings, guild_id)
            return row if row is not None else GuildSettings(guild_id=guild_id, ruleset_defaults={})

    def set_guild_value(self, guild_id: int, key: str, value: Any) -> None:
        """Set one entry of the guild's stored ``ruleset_defaults`` (the bot keeps city immunity and the
        night pacing there). Read and written in one transaction with the row locked, so two writers of
        different entries cannot lose each other's."""
        for attempt in range(2):
            try:
                with self._session() as session:
                    query = select(GuildSettings).where(GuildSettings.guild_id == guild_id).with_for_update()
                    row = session.exec(query).first()
                    if row is None:
                        row = GuildSettings(guild_id=guild_id, ruleset_defaults={})
                    row.ruleset_defaults = {**(row.ruleset_defaults or {}), key: value}
                    session.add(row)
                return
            except IntegrityError:
                if attempt:  # the row was created by another writer meanwhile: the second try finds it
                    raise

    def guild_values(self, key: str) -> dict[int, Any]:
        """One entry of every guild's stored defaults (``set_guild_value``), by guild id."""
        with self._session() as session:
            rows = session.exec(select(GuildSettings.guild_id, GuildSettings.ruleset_defaults))
            return {int(g): d[key] for g, d in rows if isinstance(d, dict) and key in d}

    def update_guild_settings(self, guild_id: int, **changes: Any) -> GuildSettings:
        unknown = set(changes) - _SETTINGS_FIELDS
        if unknown:
            raise StorageError(f"unknown guild settings: {', '.join(sorted(unknown))}")
        with self._session() as session:
            row = session.get(GuildSettings, guild_id)
            if row is None:
                row = GuildSettings(guild_id=guild_id, ruleset_defaults={})
            for name, value in changes.items():
                setattr(row, name, dict(value) if name == "ruleset_defaults" else value)
            session.add(row)
            session.flush()
            return row
