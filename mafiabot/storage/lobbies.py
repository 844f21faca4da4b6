"""Stored lobbies: a game row with status ``lobby`` (its rules, options, creator and lobby message), its
players in ``lobby_members``. A restarted bot reopens them; the start turns the row into the running
game in one transaction; a lobby that never starts is deleted."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col, select

from mafiabot.storage.base import StorageError
from mafiabot.storage.games import GamesMixin, SeatAssignment
from mafiabot.storage.models import Game, GameStatus, LobbyMember


@dataclass(frozen=True)
class StoredLobby:
    game: Game  # ``timers`` holds the lobby's own keys: creator_id, nicknames, message_id
    members: list[LobbyMember]  # in join order


class LobbiesMixin(GamesMixin):
    def open_lobby(
        self,
        *,
        guild_id: int,
        voice_channel_id: int,
        text_channel_id: int,
        ruleset_id: str,
        options: Sequence[str],
        creator_id: int,
        creator_name: str,
        nicknames: bool = False,
        at: datetime | None = None,
    ) -> Game:
        """A new lobby with its creator as the first player."""
        with self._session() as session:
            game = self._add_game(
                session,
                self._now(at),
                guild_id=guild_id,
                voice_channel_id=voice_channel_id,
                text_channel_id=text_channel_id,
                ruleset_id=ruleset_id,
                options={o: True for o in options},
                seed=0,  # drawn at the start
                status=GameStatus.LOBBY,
                timers={"creator_id": creator_id, "nicknames": nicknames},
            )
            assert game.id is not None
            session.add(
                LobbyMember(game_id=game.id, user_id=creator_id, display_name=creator_name[:100], position=0)
            )
            return game

    def _lobby(self, session: Session, game_id: int) -> Game:
        game = self._game(session, game_id, lock=True)
        if game.status != GameStatus.LOBBY:
            raise StorageError(f"game {game_id} is {game.status}, not a lobby")
        return game

    def join_lobby(self, game_id: int, user_id: int, display_name: str) -> None:
        """Add a player at the end of the lobby; a player already in it stays where he is."""
        with self._session() as session:
            self._lobby(session, game_id)
            if session.get(LobbyMember, (game_id, user_id)) is not None:
                return
            last = session.exec(
                select(sa.func.max(LobbyMember.position)).where(LobbyMember.game_id == game_id)
            ).one()
            position = 0 if last is None else last + 1
            session.add(
                LobbyMember(
                    game_id=game_id, user_id=user_id, display_name=display_name[:100], position=position
                )
            )

    def leave_lobby(self, game_id: int, user_id: int) -> None:
        with self._session() as session:
            self._lobby(session, game_id)
            session.execute(
                sa.delete(LobbyMember).where(
                    col(LobbyMember.game_id) == game_id, col(LobbyMember.user_id) == user_id
                )
            )

    def update_lobby(self, game_id: int, *, options: Sequence[str] | None = None, **keys: Any) -> None:
        """Change the lobby's options, or its own keys (``creator_id``, ``message_id``, ``nicknames``)."""
        with self._session() as session:
            game = self._lobby(session, game_id)
            if options is not None:
                game.options = {o: True for o in options}
            if keys:
                game.timers = {**(game.timers or {}), **keys}
            session.add(game)

    def close_lobby(self, game_id: int) -> bool:
        """Delete a lobby that will not start (cancelled, empty, timed out); False if it is no lobby."""
        with self._session() as session:
            game = self._game(session, game_id, lock=True)
            if game.status != GameStatus.LOBBY:
                return False
            session.execute(sa.delete(LobbyMember).where(col(LobbyMember.game_id) == game_id))
            session.delete(game)
            return True

    def open_lobbies(self, guild_id: int | None = None) -> list[StoredLobby]:
        """The lobbies to reopen after a restart, oldest first, with their players in join order."""
        with self._session() as session:
            query = select(Game).where(Game.status == GameStatus.LOBBY)
            if guild_id is not None:
                query = query.where(Game.guild_id == guild_id)
            lobbies = []
            for game in session.exec(query.order_by(col(Game.id))):
                members = session.exec(
                    select(LobbyMember)
                    .where(LobbyMember.game_id == game.id)
                    .order_by(col(LobbyMember.position))
                )
                lobbies.append(StoredLobby(game, list(members)))
            return lobbies

    def start_lobby(
        self,
        game_id: int,
        *,
        seed: int,
        seats: Sequence[SeatAssignment],
        options: Sequence[str],
        creator_id: int,
        at: datetime | None = None,
        hold: dict[int, bool] | None = None,
    ) -> Game:
        """The lobby becomes its running game, in one transaction: the deal, the seed, the season it
        starts in; its members' rows go. A crash leaves the lobby or the whole game, never half of it.
        ``hold``: as create_game's (the voice ledger's first rows of the game, in its transaction)."""
        now = self._now(at)
        with self._session() as session:
            game = self._lobby(session, game_id)
            season = self._current_season(session, game.guild_id, now)
            assert season.id is not None
            session.execute(sa.delete(LobbyMember).where(col(LobbyMember.game_id) == game_id))
            game.season_id = season.id
            game.seed = seed
            game.options = {o: True for o in options}
            game.status = GameStatus.RUNNING
            game.created_at = now
            game.timers = {"creator_id": creator_id}
            session.add(game)
            session.flush()
            self._set_participants(session, game, seats)
            self._hold_from_start(session, now, game, hold)
            return game
