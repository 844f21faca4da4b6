"""A game's life in storage: it is created whole (with its deal and its moderator) or not at all, and the
database is checked before the bot trusts it."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from storage_helpers import GUILD, SEATS_7

from mafiabot.storage import Game, SeatAssignment, Storage, StorageError


def _count(storage: Storage) -> int:
    with storage.engine.connect() as c:
        return int(c.execute(sa.select(sa.func.count()).select_from(Game)).scalar_one())


def test_a_game_is_created_with_its_seats_and_creator_in_one_transaction(storage: Storage) -> None:
    game = storage.create_game(
        guild_id=GUILD,
        voice_channel_id=1,
        text_channel_id=2,
        ruleset_id="classic",
        seed=3,
        creator_id=777,
        seats=SEATS_7,
    )
    assert game.id is not None
    assert [p.seat for p in storage.participants(game.id)] == [s.seat for s in SEATS_7]
    # The moderator is known from the first moment: a crash before any clock is stored keeps him.
    assert storage.game(game.id).timers == {"creator_id": 777}


def test_a_deal_that_cannot_be_stored_leaves_no_game_behind(storage: Storage) -> None:
    before = _count(storage)
    twice = [
        *SEATS_7,
        SeatAssignment(seat=1, user_id=99, display_name="x", role_id="civilian", side_id="town"),
    ]
    with pytest.raises(StorageError):
        storage.create_game(
            guild_id=GUILD, voice_channel_id=1, text_channel_id=2, ruleset_id="classic", seed=3, seats=twice
        )
    assert _count(storage) == before, "a game row without its seats could never be resumed"


def test_a_healthy_database_has_no_integrity_problem(storage: Storage) -> None:
    assert storage.integrity_problem() is None


def test_a_damaged_sqlite_file_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    Storage.open(f"sqlite:///{path}").close()
    data = bytearray(path.read_bytes())
    page = 4096
    # Scribble over the pages after the header: the file still opens, its b-trees are broken.
    for i in range(page + 16, min(len(data), 3 * page), 7):
        data[i] = 0xA5
    path.write_bytes(bytes(data))
    storage = Storage(sa.create_engine(f"sqlite:///{path}"))
    try:
        assert storage.integrity_problem() is not None
    finally:
        storage.close()
