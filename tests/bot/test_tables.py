"""The running tables' indexes (mafiabot.game.tables) follow the mapping by voice channel exactly."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mafiabot.game.tables import Tables


@dataclass
class _Guild:
    id: int


@dataclass
class _Table:  # what the indexes read of a Table
    game_id: int
    guild: _Guild
    text_channel_id: int


def _tables(*rows: tuple[int, int, int, int]) -> tuple[Tables, dict[int, Any]]:
    tables = Tables()
    made = {}
    for voice, game, guild, text in rows:
        made[voice] = tables[voice] = _Table(game, _Guild(guild), text)  # type: ignore[assignment]
    return tables, made


def test_each_way_in_finds_its_table() -> None:
    tables, t = _tables((11, 1, 100, 21), (12, 2, 100, 22), (13, 3, 200, 21))
    assert tables.by_game(2) is t[12] and tables.by_game(9) is None
    assert tables.in_guild(100) == [t[11], t[12]] and tables.in_guild(300) == []
    assert tables.in_text_channel(21) is t[11]  # the oldest of the channel's two tables
    assert tables.in_text_channel(None) is None


def test_a_closed_table_leaves_every_index() -> None:
    tables, t = _tables((11, 1, 100, 21), (13, 3, 200, 21))
    del tables[11]
    assert tables.by_game(1) is None and tables.in_guild(100) == []
    assert tables.in_text_channel(21) is t[13]
    assert tables.pop(13) is t[13] and tables.pop(13, None) is None
    assert tables.in_text_channel(21) is None and tables._by_guild == {} and tables._by_text == {}


def test_a_table_seated_again_in_its_channel_replaces_the_old_one() -> None:
    tables, _ = _tables((11, 1, 100, 21))
    newer = tables[11] = _Table(5, _Guild(100), 22)  # type: ignore[assignment]
    assert tables.by_game(1) is None and tables.by_game(5) is newer
    assert tables.in_guild(100) == [newer] and tables.in_text_channel(21) is None
    tables.clear()
    assert not tables and tables.by_game(5) is None and tables.in_guild(100) == []
