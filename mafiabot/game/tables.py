"""The running tables of one bot process, by voice channel, with the other ways in kept as indexes.

A click names its game, a voice-state event its server, a message its text channel: each finds its
table in one dictionary lookup instead of a walk over every table of the process (issue 18: with a
thousand tables the walk on every voice-state event cost more than the game itself). The indexes
change only where the mapping does (a table is seated or closed), so they cannot drift from it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mafiabot.game.table import Table


class Tables(dict[int, "Table"]):
    """The running tables by voice channel id (one game per voice channel), and by game, server and
    text channel. Only ``[]=``, ``del``, ``pop`` and ``clear`` change it."""

    def __init__(self) -> None:
        super().__init__()
        self._by_game: dict[int, Table] = {}
        # Insertion-ordered: where a server or a text channel has several tables, the oldest comes first.
        self._by_guild: dict[int, dict[int, Table]] = {}
        self._by_text: dict[int, dict[int, Table]] = {}

    def __setitem__(self, voice_channel_id: int, table: Table) -> None:
        if voice_channel_id in self:
            self._forget(voice_channel_id, dict.__getitem__(self, voice_channel_id))
        super().__setitem__(voice_channel_id, table)
        self._by_game[table.game_id] = table
        self._by_guild.setdefault(table.guild.id, {})[voice_channel_id] = table
        self._by_text.setdefault(table.text_channel_id, {})[voice_channel_id] = table

    def __delitem__(self, voice_channel_id: int) -> None:
        table = dict.__getitem__(self, voice_channel_id)
        super().__delitem__(voice_channel_id)
        self._forget(voice_channel_id, table)

    def pop(self, voice_channel_id: int, *default: Table | None) -> Table | None:  # type: ignore[override]
        if voice_channel_id not in self:
            if default:
                return default[0]
            raise KeyError(voice_channel_id)
        table = dict.__getitem__(self, voice_channel_id)
        del self[voice_channel_id]
        return table

    def clear(self) -> None:
        super().clear()
        self._by_game.clear()
        self._by_guild.clear()
        self._by_text.clear()

    def _forget(self, voice_channel_id: int, table: Table) -> None:
        if self._by_game.get(table.game_id) is table:
            del self._by_game[table.game_id]
        for index, key in ((self._by_guild, table.guild.id), (self._by_text, table.text_channel_id)):
            group = index.get(key)
            if group is not None and group.get(voice_channel_id) is table:
                del group[voice_channel_id]
                if not group:
                    del index[key]

    # -- the other ways in ---------------------------------------------------------------------------

    def by_game(self, game_id: int) -> Table | None:
        return self._by_game.get(game_id)

    def in_guild(self, guild_id: int) -> list[Table]:
        return list(self._by_guild.get(guild_id, {}).values())

    def in_text_channel(self, channel_id: int | None) -> Table | None:
        """The (oldest) table whose game is played in this text channel."""
        group = self._by_text.get(channel_id) if channel_id is not None else None
        return next(iter(group.values())) if group else None
