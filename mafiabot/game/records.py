"""What the running games store: the game and its seats, every command, the clock and voice originals,
and the end (the voice ledger is written through ledger.py). Without a database (it did not open) the
games still run: ids are counted here, and nothing survives a restart.

Every call runs the blocking database work in a thread, so the event loop never waits on it; the
commands, the clocks and the voice ledger's writes go through one group commit (group_commit.py).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from engine.commands import Command
from mafiabot.chaos import kill_point
from mafiabot.game.group_commit import GroupCommit
from mafiabot.game.session import GameSession, SeatInfo

if TYPE_CHECKING:
    from mafiabot.game.lobby import Lobby
    from mafiabot.storage import Storage
    from mafiabot.storage.reports import GameRecord


class GameRecords:
    def __init__(self, storage: Storage | None) -> None:
        self.storage = storage
        self._ids = 0  # game ids without a database
        # Commands and clocks of one turn of the event loop share a transaction (group_commit.py).
        self.group = GroupCommit(storage) if storage is not None else None

    async def create_game(
        self,
        lobby: Lobby,
        seed: int,
        seats: Sequence[SeatInfo],
        roles: Sequence[str],
        started_at: float,
        hold: Mapping[int, bool] | None = None,
    ) -> tuple[int, dict[int, bool]]:
        """The game's id, and what the voice ledger owes each member of ``hold`` (his own state as seen
        now; held under the game in the transaction that stores it, so the start's mutes need no write
        of their own). Without a database nobody is held here (the table's first mutes hold them)."""
        if self.storage is None:
            self._ids += 1
            return self._ids, {}
        from mafiabot.storage import SeatAssignment

        storage = self.storage
        ruleset = lobby.ruleset

        held = dict(hold or {})

        def create() -> int:
            # One transaction: the game with its deal and its moderator, or nothing (a game row without
            # its seats could never be resumed; one without its creator would lose his rights). A stored
            # lobby becomes its game; its players' rows go with the same commit, and so do the voice
            # ledger's rows of the members the game mutes first.
            deal = [
                SeatAssignment(
                    seat=s.seat,
                    user_id=s.user_id,
                    display_name=s.name,
                    role_id=roles[s.seat - 1],
                    side_id=ruleset.roles[roles[s.seat - 1]].side,
                )
                for s in seats
            ]
            at = datetime.fromtimestamp(started_at, UTC)
            if lobby.game_id is not None:
                game = storage.start_lobby(
                    lobby.game_id,
                    seed=seed,
                    seats=deal,
                    options=lobby.options,
                    creator_id=lobby.creator_id,
                    at=at,
                    hold=held,
                )
                assert game.id is not None
                return game.id
            game = storage.create_game(
                guild_id=lobby.guild_id,
                voice_channel_id=lobby.voice_channel_id,
                text_channel_id=lobby.text_channel_id,
                ruleset_id=lobby.ruleset_id,
                seed=seed,
                options={o: True for o in lobby.options},
                at=at,
                creator_id=lobby.creator_id,
                seats=deal,
                hold=held,
            )
            assert game.id is not None
            return game.id

        return await asyncio.to_thread(create), held

    async def append_command(self, game_id: int, command: Command, *, over: bool = False) -> None:
        """``over``: the command ends the game (stored as ``over`` with it, closed by ``finish``)."""
        if self.group is not None:
            await self.group.append_command(game_id, command.to_json(), over=over)

    async def save_timers(self, game_id: int, timers: dict[str, Any]) -> None:
        """What a restart needs beyond the command log: the clock, the creator, voice originals."""
        if self.group is not None:
            await self.group.save_timers(game_id, timers)
            kill_point("timers_stored")

    async def abort(self, game_id: int, reason: str, *, if_running: bool = False) -> None:
        """Store that the game was stopped; ``if_running``: unless that is stored already."""
        if self.storage is not None:
            from mafiabot.storage import StorageError

            try:
                await asyncio.to_thread(self.storage.abort_game, game_id, reason)
            except StorageError:
                if not if_running:
                    raise

    async def finish(self, session: GameSession) -> bool:
        """Store the results of a game the engine ended, rated; False when there is nothing to store
        (no database, or the game was stopped)."""
        s = session.state
        if self.storage is None or "aborted" in s.flags:
            return False
        from mafiabot.storage import SeatResult

        storage = self.storage
        # The engine counts fouls as its rules need them (city: by the day, D-F1); the game's total
        # is what the fouls table holds (withdrawn ones left out), when the conduct cog keeps it.
        rows = await asyncio.to_thread(storage.fouls, session.game_id)
        recorded = Counter(row.seat for row in rows)
        winners = list(s.winners or ())
        results = []
        for info in session.seats:
            side = s.ruleset.roles[s.role_of(info.seat)].side
            won = side in winners or (
                s.role_of(info.seat) == "maniac" and "maniac_town" in s.flags and "town" in winners
            )
            result = "draw" if s.draw else ("win" if won else "loss")
            fouls = max(recorded[info.seat], s.fouls_of(info.seat))
            results.append(SeatResult(seat=info.seat, result=result, fouls=fouls))
        # The results and both rating tracks in one transaction: a crash cannot leave it unrated.
        await asyncio.to_thread(
            storage.finish_and_rate_game, session.game_id, winners=winners, results=results
        )
        return True

    async def voice_settings(self, guild_id: int, volume: float) -> tuple[bool, float]:
        """Does the host speak on this server, and how loud (``volume`` without a database)."""
        if self.storage is None:
            return True, volume
        settings = await asyncio.to_thread(self.storage.guild_settings, guild_id)
        return settings.audio_enabled, settings.volume


def game_record(session: GameSession) -> dict[str, Any]:
    """The game's file posted at its end: a game record (README, "Game records") in the form of the game's
    commands, which `python -m engine replay` replays to the game's events."""
    options: dict[str, Any] = {o: True for o in session.ruleset.selected_options}
    if session.immune:
        options["immunity"] = list(session.immune)  # city: immunity from the server's previous game
    return {
        "ruleset": session.ruleset.id,
        "options": options,
        "seed": session.seed,
        "seats": list(session.roles),
        "players": [{"seat": i.seat, "user_id": str(i.user_id), "name": i.name} for i in session.seats],
        "commands": [c.to_json() for c in session.log],
    }


def stored_game_record(record: GameRecord, names: dict[int, str]) -> dict[str, Any]:
    """The same record of a finished game, from what the database keeps (``/mafia game``): its options,
    the immunity kept with its clock, the roles of its seats (``names``: who sat there), its commands."""
    game = record.game
    options: dict[str, Any] = {o: True for o, on in (game.options or {}).items() if on}
    immune = (game.timers or {}).get("immune") or []
    if immune:
        options["immunity"] = [int(x) for x in immune]
    seats = sorted(record.participants, key=lambda p: p.seat)
    return {
        "ruleset": game.ruleset_id,
        "options": options,
        "seed": game.seed,
        "seats": [p.role_id for p in seats],
        "players": [
            {"seat": p.seat, "user_id": str(p.user_id), "name": names.get(p.seat, "")} for p in seats
        ],
        "commands": list(record.commands),
    }
