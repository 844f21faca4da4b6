"""The voice ledger as the bot uses it: stored when there is a database, in memory otherwise.

Every member whose server mute the bot changes is *held* before the edit (with his own state from
before the game); when the game no longer wants him he is *owed* that state back, and he leaves the
ledger only once Discord confirmed it. The reconciler (reconciler.py) pays what is owed.

With a database every write joins the group commit of the loop's turn (group_commit.py), beside the
games' commands and clocks: each caller resumes once its write is committed (a hold before the mute
it records is sent), and the writes of many tables in one turn cost one transaction, not one each.
A release names the rows as they were read (`released`): a member held again meanwhile stays held.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from mafiabot.game.group_commit import GroupCommit
from mafiabot.storage.ledger import Hold, Owe, OwedRow, Refuse, Release, Told

if TYPE_CHECKING:
    from mafiabot.storage import Storage

HELD, GIVE_BACK = "held", "give_back"  # as mafiabot.storage.MuteHold


Owed = OwedRow  # a member the ledger holds or owes, as read or kept in memory


class VoiceLedger:
    def __init__(self, storage: Storage | None, group: GroupCommit | None = None) -> None:
        self.storage = storage
        # The games' group commit (GameRecords.group), so that the ledger's writes share its transactions.
        self.group = group if group is not None or storage is None else GroupCommit(storage)
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
        """Before the bot changes these members' mute (one write for them all, committed when this
        returns). Returns what the ledger owes each of them now: his original as stored first (whichever
        game held him then)."""
        if not originals:
            return {}
        if self.group is not None:
            hold = Hold(guild_id, game_id, voice_channel_id, text_channel_id, dict(originals))
            await self.group.write_ledger(hold)
            return hold.owed
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
        if self.group is not None:
            await self.group.write_ledger(Owe(guild_id, (user_id,)))
        elif (row := self._memory.get((guild_id, user_id))) is not None:
            self._memory[(guild_id, user_id)] = replace(row, state=GIVE_BACK)

    async def released(self, rows: Iterable[Owed]) -> None:
        """Discord confirmed these members' own state (rows as read, of one server or several): each
        leaves the ledger if his row still is as read (held again meanwhile, he stays)."""
        by_guild: dict[int, list[tuple[int, int | None, str]]] = {}
        for row in rows:
            by_guild.setdefault(row.guild_id, []).append((row.user_id, row.game_id, row.state))
        if self.group is not None:
            if by_guild:  # (each write joins the same transaction)
                await asyncio.gather(
                    *(self.group.write_ledger(Release(g, tuple(read))) for g, read in by_guild.items())
                )
            return
        for guild_id, read in by_guild.items():
            for user_id, game_id, state in read:
                held = self._memory.get((guild_id, user_id))
                if held is not None and (held.game_id, held.state) == (game_id, state):
                    del self._memory[(guild_id, user_id)]

    async def refused(self, guild_id: int, user_ids: Iterable[int], failure: str) -> None:
        users = tuple(user_ids)
        if self.group is not None:
            await self.group.write_ledger(Refuse(guild_id, users, failure))
            return
        for user_id in users:
            if (row := self._memory.get((guild_id, user_id))) is not None:
                self._memory[(guild_id, user_id)] = replace(row, failure=failure)

    async def mark_told(self, guild_id: int, user_ids: Iterable[int]) -> None:
        users = tuple(user_ids)
        if self.group is not None:
            await self.group.write_ledger(Told(guild_id, users))
            return
        for user_id in users:
            if (row := self._memory.get((guild_id, user_id))) is not None:
                self._memory[(guild_id, user_id)] = replace(row, told=True)

    async def owed(
        self, guild_id: int | None = None, *, user_id: int | None = None, game_id: int | None = None
    ) -> list[Owed]:
        if self.storage is not None:
            rows = await asyncio.to_thread(self.storage.owed_rows, guild_id, user_id=user_id, game_id=game_id)
            return rows
        return [
            row
            for row in sorted(self._memory.values(), key=lambda r: (r.guild_id, r.user_id))
            if (guild_id is None or row.guild_id == guild_id)
            and (user_id is None or row.user_id == user_id)
            and (game_id is None or row.game_id == game_id)
        ]
