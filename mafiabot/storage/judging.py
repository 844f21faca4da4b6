"""The judge's records (issue 19): extra points, the signed protocols of confirmed games, the bot's
protocol key, and tournaments (a series of confirmed games per server)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlmodel import Session, col, func, select

from mafiabot.storage.base import NotFound, StorageBase, StorageError
from mafiabot.storage.models import (
    Game,
    GameProtocol,
    GameStatus,
    JudgeAward,
    SigningKey,
    Tournament,
    TournamentGame,
    TournamentSchedule,
    TournamentSeat,
)


class JudgingMixin(StorageBase):
    # --- extra points ---------------------------------------------------------------------------------

    def add_award(
        self, game_id: int, *, seat: int, points: float, reason: str, by: int, at: datetime | None = None
    ) -> JudgeAward:
        with self._session() as session:
            if session.get(Game, game_id) is None:
                raise NotFound(f"no game {game_id}")
            if session.get(GameProtocol, game_id) is not None:
                raise StorageError(f"game {game_id}'s protocol is signed: its points are final")
            award = JudgeAward(
                game_id=game_id,
                seat=seat,
                points=points,
                reason=reason[:200],
                given_by=by,
                given_at=self._now(at),
            )
            session.add(award)
            session.flush()
            return award

    def awards(self, game_id: int) -> list[JudgeAward]:
        with self._session() as session:
            query = select(JudgeAward).where(col(JudgeAward.game_id) == game_id).order_by(col(JudgeAward.id))
            return list(session.exec(query))

    # --- protocols ------------------------------------------------------------------------------------

    def protocol_key(self, at: datetime | None = None, make: Any = None) -> str:
        """The bot's protocol key seed (hex); ``make()`` makes one the first time (nacl's generator)."""
        with self._session() as session:
            found = session.exec(select(SigningKey).order_by(col(SigningKey.id))).first()
            if found is not None:
                return found.seed
            if make is None:
                raise NotFound("no protocol key yet")
            key = SigningKey(seed=str(make()), created_at=self._now(at))
            session.add(key)
            return key.seed

    def save_protocol(
        self,
        game_id: int,
        *,
        by: int,
        sha256: str,
        signed: dict[str, Any],
        tournament: bool = True,
        at: datetime | None = None,
    ) -> GameProtocol:
        """Store a confirmed game's signed protocol; once only (a confirmed result is final), and with
        ``tournament`` the game joins its server's open tournament, if there is one."""
        with self._session() as session:
            game = session.get(Game, game_id)
            if game is None:
                raise NotFound(f"no game {game_id}")
            if session.get(GameProtocol, game_id) is not None:
                raise StorageError(f"game {game_id} is already confirmed")
            row = GameProtocol(
                game_id=game_id, confirmed_by=by, confirmed_at=self._now(at), sha256=sha256, signed=signed
            )
            session.add(row)
            open_one = self._open_tournament(session, game.guild_id) if tournament else None
            if open_one is not None and open_one.id is not None:
                count = self._games_played(session, open_one.id)
                session.add(TournamentGame(tournament_id=open_one.id, game_id=game_id, position=count + 1))
            session.flush()
            return row

    def last_finished_game(self, guild_id: int, text_channel_id: int) -> Game | None:
        """The last game of this channel that ended by the rules (not a stopped one)."""
        with self._session() as session:
            query = (
                select(Game)
                .where(
                    col(Game.guild_id) == guild_id,
                    col(Game.text_channel_id) == text_channel_id,
                    col(Game.status) == GameStatus.FINISHED,
                )
                .order_by(col(Game.id).desc())
            )
            found: Game | None = session.exec(query).first()
            return found

    def protocol(self, game_id: int) -> GameProtocol | None:
        with self._session() as session:
            return session.get(GameProtocol, game_id)

    # --- tournaments ----------------------------------------------------------------------------------

    @staticmethod
    def _open_tournament(session: Any, guild_id: int) -> Tournament | None:
        query = select(Tournament).where(
            col(Tournament.guild_id) == guild_id, col(Tournament.closed_at).is_(None)
        )
        found: Tournament | None = session.exec(query).first()
        return found

    def open_tournament(self, guild_id: int) -> Tournament | None:
        with self._session() as session:
            return self._open_tournament(session, guild_id)

    def start_tournament(
        self, guild_id: int, *, name: str, judge_id: int, scoring: str, at: datetime | None = None
    ) -> Tournament:
        with self._session() as session:
            if self._open_tournament(session, guild_id) is not None:
                raise StorageError("a tournament is already open on this server")
            row = Tournament(
                guild_id=guild_id,
                name=name[:100],
                judge_id=judge_id,
                scoring=scoring,
                created_at=self._now(at),
            )
            session.add(row)
            session.flush()
            return row

    def close_tournament(self, tournament_id: int, at: datetime | None = None) -> Tournament:
        with self._session() as session:
            row = session.get(Tournament, tournament_id)
            if row is None:
                raise NotFound(f"no tournament {tournament_id}")
            if row.closed_at is not None:
                raise StorageError(f"tournament {tournament_id} is already closed")
            row.closed_at = self._now(at)
            return row

    def tournaments(self, guild_id: int) -> list[Tournament]:
        with self._session() as session:
            query = (
                select(Tournament).where(col(Tournament.guild_id) == guild_id).order_by(col(Tournament.id))
            )
            return list(session.exec(query))

    def tournament_protocols(self, tournament_id: int) -> list[GameProtocol]:
        """The signed protocols of a tournament's games, in the order they were confirmed."""
        with self._session() as session:
            query = (
                select(GameProtocol)
                .join(TournamentGame, col(TournamentGame.game_id) == col(GameProtocol.game_id))
                .where(col(TournamentGame.tournament_id) == tournament_id)
                .order_by(col(TournamentGame.position))
            )
            return list(session.exec(query))

    def tournament_games_played(self, tournament_id: int) -> int:
        """How many games a tournament has (each joined it with its signed protocol): the schedule's
        next game is the one after them."""
        with self._session() as session:
            return self._games_played(session, tournament_id)

    @staticmethod
    def _games_played(session: Session, tournament_id: int) -> int:
        query = select(func.count()).where(col(TournamentGame.tournament_id) == tournament_id)
        return int(session.exec(query).one())

    # --- the seating schedule -------------------------------------------------------------------------

    def save_schedule(
        self,
        tournament_id: int,
        *,
        seating: str,
        seed: int,
        games: list[list[tuple[int, str]]],
        at: datetime | None = None,
    ) -> TournamentSchedule:
        """Store a tournament's schedule (``games``: each game's (user id, name) in seat or draw order),
        replacing an earlier one."""
        with self._session() as session:
            if session.get(Tournament, tournament_id) is None:
                raise NotFound(f"no tournament {tournament_id}")
            for old in session.exec(
                select(TournamentSeat).where(col(TournamentSeat.tournament_id) == tournament_id)
            ):
                session.delete(old)
            found = session.get(TournamentSchedule, tournament_id)
            if found is not None:
                session.delete(found)
            session.flush()
            row = TournamentSchedule(
                tournament_id=tournament_id,
                seating=seating,
                seed=seed,
                games=len(games),
                created_at=self._now(at),
            )
            session.add(row)
            for number, places in enumerate(games, 1):
                for position, (user_id, name) in enumerate(places, 1):
                    session.add(
                        TournamentSeat(
                            tournament_id=tournament_id,
                            game_no=number,
                            position=position,
                            user_id=user_id,
                            name=name[:100],
                        )
                    )
            session.flush()
            return row

    def schedule(self, tournament_id: int) -> tuple[TournamentSchedule, list[list[TournamentSeat]]] | None:
        """A tournament's schedule and each game's places in order, or None if it has none."""
        with self._session() as session:
            row = session.get(TournamentSchedule, tournament_id)
            if row is None:
                return None
            query = (
                select(TournamentSeat)
                .where(col(TournamentSeat.tournament_id) == tournament_id)
                .order_by(col(TournamentSeat.game_no), col(TournamentSeat.position))
            )
            games: list[list[TournamentSeat]] = [[] for _ in range(row.games)]
            for seat in session.exec(query):
                games[seat.game_no - 1].append(seat)
            return row, games
