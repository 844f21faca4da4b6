"""City immunity across games (RULESETS D-C5): «Иммунитет даётся игрокам, отстреленным в предыдущей игре
в первую ночь, либо покинувшим стол в результате голосования в первый день.»

After each finished city game the server remembers who earned it; the next city game of that server with
enough players (the preset's `immunity_from`, 9) makes those who take part immune, once.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import engine
from engine.kinds.city import shot_night

if TYPE_CHECKING:
    from mafiabot.game.table import Table
    from mafiabot.storage import Storage

KEY = "city_immunity"  # in the guild's ruleset_defaults: the user ids who earned it


def earned(state: engine.GameState, events: list[engine.Event]) -> set[int]:
    """Seats that earn immunity through these events: shot on the first night with shots, or voted out
    on day 1. ``state`` is the game after the events."""
    seats = set()
    for ev in events:
        first_night_shot = ev.type == "killed" and shot_night(state) == 1
        voted_out_on_day_one = ev.type == "executed" and state.day == 1
        if first_night_shot or voted_out_on_day_one:
            seats.add(int(ev.data["seat"]))
    return seats


def uses_immunity(ruleset: engine.Ruleset) -> bool:
    return bool(ruleset.params.get("immunity_from"))


class ImmunityKeeper:
    """Follows every game (the game service calls :meth:`on_events` and :meth:`on_finish`); stores and
    hands out immunity per server."""

    def __init__(self, storage: Storage | None) -> None:
        self.storage = storage
        self.earners: dict[int, set[int]] = {}  # game id -> seats

    async def on_events(self, table: Table, events: list[engine.Event]) -> None:
        if uses_immunity(table.session.ruleset):
            self.earners.setdefault(table.game_id, set()).update(earned(table.session.state, events))

    async def on_finish(self, table: Table) -> None:
        seats = self.earners.pop(table.game_id, set())
        storage = self.storage
        state = table.session.state
        if storage is None or not uses_immunity(state.ruleset) or "aborted" in state.flags:
            return
        users = sorted(str(table.session.user_of(seat)) for seat in seats)
        await asyncio.to_thread(self._store, table.guild.id, users)

    def _store(self, guild_id: int, users: list[str]) -> None:
        assert self.storage is not None
        self.storage.set_guild_value(guild_id, KEY, users)

    async def take(self, guild_id: int, ruleset: engine.Ruleset, players: dict[int, int]) -> list[int]:
        """The seats immune in a new game (``players``: seat -> user id); the memory is used up by a game
        big enough for immunity to apply (it does not carry further)."""
        storage = self.storage
        if storage is None or not uses_immunity(ruleset):
            return []
        settings = await asyncio.to_thread(storage.guild_settings, guild_id)
        remembered = set((settings.ruleset_defaults or {}).get(KEY, []))
        if len(players) < int(ruleset.params["immunity_from"]):
            return []
        if remembered:
            await asyncio.to_thread(self._store, guild_id, [])
        return sorted(seat for seat, user in players.items() if str(user) in remembered)
