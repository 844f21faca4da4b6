"""The voice ledger as the bot uses it: stored when there is a database, in memory otherwise.

Every member whose server mute the bot changes is *held* before the edit (with his own state from
before the game); when the game no longer wants him he is *owed* that state back, and he leaves the
ledger only once Discord confirmed it. The reconciler (reconciler.py) pays what is owed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mafiabot.storage import Storage

HELD, GIVE_BACK = "held", "give_back"  # as mafiabot.storage.MuteHold


@dataclass(frozen=True)
class Owed:
    guild_id: int
    user_id: int
    game_id: int | None
    voice_channel_id: int
    text_channel_id: int
    original_mute: bool
    state: str
    failure: str | None = None
    told: bool = False


class VoiceLedger:
    def __init__(self, storage: Storage | None) -> None:
        self.storage = storage
        self._memory: dict[tuple[int, int], Owed] = {}  # without a database (lost with the process)

    async def hold(
        self,
        *,
        guild_id: int,
        game_id: int,
        voice_channel_id: int,
        text_channel_id: int,
        originals: Mapping[int, bool],
    ) -> dict[int, bool]:
        """Before the bot changes these members' mute (one transaction for them all). Returns what the
        ledger owes each of them now: his original as stored first (whichever game held him then)."""
        if not originals:
            return {}
        if self.storage is not None:
            return await asyncio.to_thread(
                self.storage.hold_mutes,
                guild_id=guild_id,
                game_id=game_id,
                voice_channel_id=voice_channel_id,
                text_channel_id=text_channel_id,
                originals=dict(originals),
            )
        stored: dict[int, bool] = {}
        for user_id, original in originals.items():
            known = self._memory.get((guild_id, user_id))
            row = self._memory[(guild_id, user_id)] = Owed(
                guild_id,
                user_id,
                game_id,
                voice_channel_id,
                text_channel_id,
                known.original_mute if known else original,
                HELD,
            )
            stored[user_id] = row.original_mute
        return stored

    async def give_back_game(self, game_id: int) -> None:
        """Without a database only: with one, the game's status change did it in its transaction."""
        if self.storage is None:
            for key, row in self._memory.items():
                if row.game_id == game_id and row.state == HELD:
                    self._memory[key] = replace(row, state=GIVE_BACK)

    async def give_back_member(self, guild_id: int, user_id: int) -> None:
        if self.storage is not None:
            await asyncio.to_thread(self.storage.give_back_member, guild_id, user_id)
        elif (row := self._memory.get((guild_id, user_id))) is not None:
            self._memory[(guild_id, user_id)] = replace(row, state=GIVE_BACK)

    async def released(self, guild_id: int, user_id: int) -> None:
        """Discord confirmed his own state."""
        if self.storage is not None:
            await asyncio.to_thread(self.storage.released, guild_id, user_id)
        else:
            self._memory.pop((guild_id, user_id), None)

    async def refused(self, guild_id: int, user_ids: Iterable[int], failure: str) -> None:
        users = list(user_ids)
        if self.storage is not None:
            await asyncio.to_thread(self.storage.refused, guild_id, users, failure)
            return
        for user_id in users:
            if (row := self._memory.get((guild_id, user_id))) is not None:
                self._memory[(guild_id, user_id)] = replace(row, failure=failure)

    async def mark_told(self, guild_id: int, user_ids: Iterable[int]) -> None:
        users = list(user_ids)
        if self.storage is not None:
            await asyncio.to_thread(self.storage.mark_told, guild_id, users)
            return
        for user_id in users:
            if (row := self._memory.get((guild_id, user_id))) is not None:
                self._memory[(guild_id, user_id)] = replace(row, told=True)

    async def owed(
        self, guild_id: int | None = None, *, user_id: int | None = None, game_id: int | None = None
    ) -> list[Owed]:
        if self.storage is not None:
            rows = await asyncio.to_thread(
                self.storage.held_mutes, guild_id, user_id=user_id, game_id=game_id
            )
            return [
                Owed(
                    r.guild_id,
                    r.user_id,
                    r.game_id,
                    r.voice_channel_id,
                    r.text_channel_id,
                    r.original_mute,
                    r.state,
                    r.failure,
                    r.told,
                )
                for r in rows
            ]
        return [
            row
            for row in sorted(self._memory.values(), key=lambda r: (r.guild_id, r.user_id))
            if (guild_id is None or row.guild_id == guild_id)
            and (user_id is None or row.user_id == user_id)
            and (game_id is None or row.game_id == game_id)
        ]
