"""A tournament's seating schedule is stored with how it was drawn, and replaced by a new one."""

from __future__ import annotations

import pytest
from storage_helpers import GUILD

from mafiabot.storage import Storage
from mafiabot.storage.base import NotFound


def test_a_schedule_is_stored_and_replaced(storage: Storage) -> None:
    t = storage.start_tournament(GUILD, name="Кубок", judge_id=5, scoring="fiim_mr19")
    assert storage.schedule(int(t.id or 0)) is None
    games = [[(100 + i, f"p{i}") for i in order] for order in ([1, 2, 3], [3, 1, 2])]
    storage.save_schedule(int(t.id or 0), seating="fixed", seed=77, games=games)
    found = storage.schedule(int(t.id or 0))
    assert found is not None
    row, stored = found
    assert (row.seating, row.seed, row.games) == ("fixed", 77, 2)
    assert [[(s.position, s.user_id, s.name) for s in g] for g in stored] == [
        [(1, 101, "p1"), (2, 102, "p2"), (3, 103, "p3")],
        [(1, 103, "p3"), (2, 101, "p1"), (3, 102, "p2")],
    ]
    storage.save_schedule(int(t.id or 0), seating="drawn", seed=8, games=games[:1])
    again = storage.schedule(int(t.id or 0))
    assert again is not None and (again[0].seating, again[0].games, len(again[1])) == ("drawn", 1, 1)
    with pytest.raises(NotFound):
        storage.save_schedule(999_999, seating="fixed", seed=1, games=games)


def test_a_tournament_counts_its_confirmed_games_in_order(storage: Storage, new_game) -> None:
    t = storage.start_tournament(GUILD, name="Кубок", judge_id=5, scoring="fiim_mr19")
    tid = int(t.id or 0)
    assert storage.tournament_games_played(tid) == 0
    first, second, outside = new_game(), new_game(), new_game()
    storage.save_protocol(int(first.id or 0), by=5, sha256="a", signed={})
    storage.save_protocol(int(outside.id or 0), by=5, sha256="c", signed={}, tournament=False)
    storage.save_protocol(int(second.id or 0), by=5, sha256="b", signed={})
    assert storage.tournament_games_played(tid) == 2
    assert [p.game_id for p in storage.tournament_protocols(tid)] == [first.id, second.id]
    # The server's next tournament starts from nought, and its first game is number 1.
    storage.close_tournament(tid)
    later = storage.start_tournament(GUILD, name="Кубок-2", judge_id=5, scoring="fiim_mr19")
    assert storage.tournament_games_played(int(later.id or 0)) == 0
    third = new_game()
    storage.save_protocol(int(third.id or 0), by=5, sha256="d", signed={})
    assert storage.tournament_games_played(int(later.id or 0)) == 1
    assert storage.tournament_games_played(tid) == 2
