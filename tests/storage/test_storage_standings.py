"""Rating changes in the database and everything read back from them."""

from __future__ import annotations

import csv
import io

import pytest
from storage_helpers import GUILD, OTHER_GUILD, SEATS_7, START, FakeClock

from mafiabot.ratings import (
    POINTS_TRACK,
    BestMove,
    FinishedGame,
    RatedSeat,
    RatingDelta,
    RatingError,
    Result,
    SeasonLedger,
    Team,
)
from mafiabot.storage import NotFound, SeatAssignment, SeatResult, Storage, StorageError

TOWN_WINS = {1: "win", 2: "loss", 3: "win", 4: "win", 5: "loss", 6: "win", 7: "loss"}
MAFIA_WINS = {1: "loss", 2: "win", 3: "loss", 4: "loss", 5: "win", 6: "loss", 7: "loss"}
MODERATOR = 555


def play(storage: Storage, new_game, clock: FakeClock, results: dict[int, str], **flags: dict[int, bool]):
    """Create, finish and rate one seven-seat game; returns (game id, deltas)."""
    game = new_game()
    clock.advance(minutes=30)
    removed, left = flags.get("removed", {}), flags.get("left", {})
    winners = sorted({s.side_id for s in SEATS_7 if results[s.seat] == "win"})
    storage.finish_game(
        game.id,
        winners=winners,
        results=[
            SeatResult(seat, result, removed=removed.get(seat, False), left=left.get(seat, False))
            for seat, result in results.items()
        ],
    )
    clock.advance(minutes=1)
    return game.id, storage.rate_game(game.id, best_move=flags.get("best_move"))  # type: ignore[arg-type]


def test_rating_a_game_stores_both_tracks(storage: Storage, new_game, clock: FakeClock) -> None:
    game_id, deltas = play(
        storage, new_game, clock, TOWN_WINS, removed={2: True}, best_move=BestMove(1, (2, 5, 7))
    )
    record = storage.game_record(game_id)
    stored = sorted((c.user_id, c.track, round(c.delta, 4), c.reason) for c in record.rating_changes)
    assert stored == sorted((d.user_id, d.track, round(d.delta, 4), d.reason) for d in deltas)
    points = {(c.user_id, c.reason): c.delta for c in record.rating_changes if c.track == POINTS_TRACK}
    assert points == {
        (101, "win"): 1.0,
        (101, "best_move: 2, 5, 7"): 0.3,
        (102, "removed_by_fouls"): -0.5,
        (103, "win"): 1.0,
        (104, "win"): 1.0,
        (106, "win"): 1.0,
    }
    # Seven seats: four red, two black, the maniac unrated. Everyone new: K 32, E ½, N/2 = 3.
    elo = {c.user_id: (c.track, round(c.delta, 4)) for c in record.rating_changes if c.track != POINTS_TRACK}
    assert elo == {
        101: ("elo_red", 12.0),
        103: ("elo_red", 12.0),
        104: ("elo_red", 12.0),
        106: ("elo_red", 12.0),
        102: ("elo_black", -24.0),
        105: ("elo_black", -24.0),
    }
    assert {p.seat: p.points for p in record.participants} == {1: 1.3, 2: -0.5, 3: 1, 4: 1, 5: 0, 6: 1, 7: 0}


def test_a_game_is_rated_once_and_only_when_finished(storage: Storage, new_game, clock: FakeClock) -> None:
    running = new_game()
    with pytest.raises(StorageError, match="running"):
        storage.rate_game(running.id)
    game_id, _ = play(storage, new_game, clock, TOWN_WINS)
    with pytest.raises(StorageError, match="already rated"):
        storage.rate_game(game_id)


def test_stored_ledger_resumes_the_in_memory_fold(storage: Storage, new_game, clock: FakeClock) -> None:
    """After a few games, the ledger rebuilt from the database rates the next game exactly as a ledger
    that saw every game in memory (same points, ratings, K and side offset)."""
    sides = {s.seat: s.side_id for s in SEATS_7}
    memory = SeasonLedger()
    schedule = [TOWN_WINS, MAFIA_WINS, MAFIA_WINS, TOWN_WINS, MAFIA_WINS]
    for results in schedule:
        play(storage, new_game, clock, results, left={4: True})
        memory.rate_game(
            FinishedGame(
                [
                    RatedSeat(s, 100 + s, sides[s], Result(r), left_early=(s == 4))
                    for s, r in sorted(results.items())
                ]
            )
        )
    stored = storage.season_ledger(GUILD)
    assert (stored.black_wins, stored.red_wins) == (memory.black_wins, memory.red_wins) == (3, 2)
    for user in range(101, 108):
        a, b = stored.standing(user), memory.standing(user)
        assert a.points == pytest.approx(b.points)
        assert a.rated_games == b.rated_games
        for team in Team:
            assert stored.rating(user, team) == pytest.approx(memory.rating(user, team))
    assert stored.offset() == pytest.approx(memory.offset()) and stored.offset() > 0


def test_leaderboard_pages_and_minimum_games(storage: Storage, new_game, clock: FakeClock) -> None:
    play(storage, new_game, clock, TOWN_WINS, best_move=BestMove(1, (2, 5, 3)))
    play(storage, new_game, clock, MAFIA_WINS)
    storage.abort_game(new_game().id, "stopped")  # counts for nobody
    other_seats = [SeatAssignment(1, 901, "Чужой", "civilian", "town")]
    new_game(guild_id=OTHER_GUILD, seats=other_seats)

    board = storage.leaderboard(GUILD, min_games=2, limit=3)
    assert board.total == 7
    assert [(r.rank, r.user_id, r.value, r.games) for r in board.rows] == [
        (1, 101, pytest.approx(1.3), 2),
        (2, 102, 1.0, 2),
        (3, 103, 1.0, 2),
    ]
    assert board.rows[0].display_name == "Аня"
    page2 = storage.leaderboard(GUILD, min_games=2, limit=3, offset=3)
    assert [r.rank for r in page2.rows] == [4, 5, 6] and [r.user_id for r in page2.rows] == [104, 105, 106]
    assert storage.leaderboard(GUILD, min_games=3).total == 0

    black = storage.leaderboard(GUILD, track=Team.BLACK.track)
    assert [r.user_id for r in black.rows] == [102, 105] and black.rows[0].games == 2
    # Game 1: −24. Game 2 (one red win so far): offset 400·log10(10/11) = −16.557, red 1512 vs black 1476,
    # E_black = 1 / (1 + 10^((1512 − 1459.443) / 400)) = 0.42494; +32 · 0.57506 · 3/2 = +27.603.
    assert black.rows[0].value == pytest.approx(1503.603, abs=1e-3)
    with pytest.raises(StorageError):
        storage.leaderboard(GUILD, track="karma")


def test_profile_counts_sides_roles_points_and_fouls(storage: Storage, new_game, clock: FakeClock) -> None:
    game_id, _ = play(storage, new_game, clock, TOWN_WINS)
    play(storage, new_game, clock, MAFIA_WINS)
    foul = storage.add_foul(game_id, seat=3, user_id=103, reason="insult", day=1, given_by=MODERATOR)
    storage.add_foul(game_id, seat=3, user_id=103, reason="out_of_turn", day=1, given_by=MODERATOR)
    storage.withdraw_foul(foul.id, by=MODERATOR, reason="ошибка")

    profile = storage.player_profile(GUILD, 103)
    assert (profile.display_name, profile.games, profile.wins, profile.fouls) == ("Вера", 2, 1, 1)
    assert {side: (t.games, t.wins) for side, t in profile.by_side.items()} == {"town": (2, 1)}
    assert (profile.by_role["commissar"].games, profile.by_role["commissar"].wins) == (2, 1)
    assert profile.points == 1.0
    assert profile.elo_black == 1500 and profile.elo_red != 1500
    assert [g.game_id for g in profile.last_games] == [game_id + 1, game_id]
    assert profile.last_games[0].result == "loss" and profile.last_games[0].role_id == "commissar"

    stranger = storage.player_profile(GUILD, 999)
    assert (stranger.games, stranger.points, stranger.elo_red, stranger.display_name) == (0, 0.0, 1500, "999")


def test_history_pages_newest_first(storage: Storage, new_game, clock: FakeClock) -> None:
    ids = [play(storage, new_game, clock, TOWN_WINS)[0] for _ in range(3)]
    running = new_game()
    history = storage.game_history(GUILD, 105, limit=2)
    assert [g.game_id for g in history] == [running.id, ids[2]]
    assert history[0].status == "running" and history[0].result is None
    assert [g.game_id for g in storage.game_history(GUILD, 105, before_game_id=ids[2])] == ids[1::-1]
    assert [g.id for g in storage.recent_games(GUILD, limit=2)] == [running.id, ids[2]]
    assert storage.game_history(OTHER_GUILD, 105) == []


def test_game_record_has_the_whole_protocol(storage: Storage, new_game, clock: FakeClock) -> None:
    game = new_game()
    storage.append_command(game.id, {"type": "start"})
    storage.append_command(game.id, {"type": "nominate", "seat": 1, "target": 2})
    foul = storage.add_foul(game.id, seat=2, user_id=102, reason="self_vote", day=1, automatic=True)
    storage.withdraw_foul(foul.id, by=MODERATOR, reason="не засчитано")
    record = storage.game_record(game.id)
    assert record.game.id == game.id
    assert [p.seat for p in record.participants] == list(range(1, 8))
    assert record.commands == [{"type": "start"}, {"type": "nominate", "seat": 1, "target": 2}]
    assert [(f.reason, f.withdrawn_reason) for f in record.fouls] == [("self_vote", "не засчитано")]
    assert record.rating_changes == []


def test_extra_points_are_capped_per_player_and_game(storage: Storage, new_game, clock: FakeClock) -> None:
    game_id, _ = play(storage, new_game, clock, TOWN_WINS)
    row = storage.add_extra_points(game_id, user_id=103, amount=0.3, reason="лучшая речь", given_by=MODERATOR)
    assert (row.track, row.delta, row.reason) == ("points", 0.3, f"moderator: лучшая речь (by {MODERATOR})")
    with pytest.raises(RatingError, match="capped"):
        storage.add_extra_points(game_id, user_id=103, amount=0.3, reason="ещё", given_by=MODERATOR)
    storage.add_extra_points(game_id, user_id=104, amount=0.5, reason="ещё", given_by=MODERATOR)
    assert storage.player_profile(GUILD, 103).points == pytest.approx(1.3)
    assert {p.seat: p.points for p in storage.participants(game_id)}[3] == pytest.approx(1.3)
    with pytest.raises(StorageError):
        storage.add_extra_points(game_id, user_id=999, amount=0.1, reason="x", given_by=MODERATOR)


def test_extra_points_before_rating_do_not_block_it(storage: Storage, new_game, clock: FakeClock) -> None:
    game = new_game()
    storage.finish_game(game.id, winners=["town"], results=[SeatResult(s, r) for s, r in TOWN_WINS.items()])
    storage.add_extra_points(game.id, user_id=101, amount=0.2, reason="речь", given_by=MODERATOR)
    storage.rate_game(game.id)
    assert storage.player_profile(GUILD, 101).points == pytest.approx(1.2)


def test_new_season_starts_a_clean_board_and_keeps_the_old(
    storage: Storage, new_game, clock: FakeClock
) -> None:
    play(storage, new_game, clock, TOWN_WINS)
    old = storage.current_season(GUILD)
    storage.start_new_season(GUILD)
    assert storage.leaderboard(GUILD).total == 0
    assert storage.player_profile(GUILD, 101).points == 0
    assert storage.leaderboard(GUILD, season_id=old.id).rows[0].user_id == 101
    assert storage.player_profile(GUILD, 101, season_id=old.id).points == 1.0
    assert len(storage.game_history(GUILD, 101)) == 1  # history spans seasons
    ledger = storage.season_ledger(GUILD)
    assert (ledger.black_wins, ledger.red_wins, ledger.players) == (0, 0, {})


def test_rating_history_is_a_running_total(storage: Storage, new_game, clock: FakeClock) -> None:
    play(storage, new_game, clock, TOWN_WINS)
    play(storage, new_game, clock, TOWN_WINS)
    points = storage.rating_history(GUILD, 101, track=POINTS_TRACK)
    assert [v for _, v in points] == [0.0, 1.0, 2.0]
    assert points[0][0] == START
    red = storage.rating_history(GUILD, 101, track=Team.RED.track)
    assert red[0][1] == 1500 and red[1][1] == pytest.approx(1512.0) and red[2][1] > red[1][1]


def test_record_rating_changes_directly(storage: Storage, new_game) -> None:
    game = new_game()
    rows = storage.record_rating_changes(GUILD, [RatingDelta(101, "points", 0.5, "turnir")], game_id=game.id)
    assert rows[0].season_id == game.season_id
    with pytest.raises(StorageError, match="track"):
        storage.record_rating_changes(GUILD, [RatingDelta(101, "karma", 1, "x")])
    with pytest.raises(NotFound):
        storage.leaderboard(OTHER_GUILD, season_id=game.season_id)
    with pytest.raises(StorageError, match="another guild"):
        storage.record_rating_changes(OTHER_GUILD, [RatingDelta(101, "points", 1, "x")], game_id=game.id)


def test_season_csv_export(storage: Storage, new_game, clock: FakeClock) -> None:
    game_id, _ = play(storage, new_game, clock, TOWN_WINS, left={4: True})
    storage.add_foul(game_id, seat=2, user_id=102, reason="insult", day=1, given_by=MODERATOR)
    rows = list(csv.DictReader(io.StringIO(storage.export_season_csv(GUILD))))
    assert [r["user_id"] for r in rows][:4] == ["101", "103", "106", "102"]
    first = rows[0]
    assert (first["rank"], first["display_name"], first["games"], first["wins"], first["points"]) == (
        "1",
        "Аня",
        "1",
        "1",
        "1.00",
    )
    assert first["elo_red"] == "1512.0" and first["red_games"] == "1" and first["black_games"] == "0"
    by_user = {r["user_id"]: r for r in rows}
    assert by_user["104"]["points"] == "-5.00" and by_user["102"]["fouls"] == "1"
    assert by_user["107"]["elo_red"] == "1500.0"  # the maniac: not Elo-rated
    assert len(rows) == 7


def test_games_rated_at_once_are_folded_one_after_another(
    storage: Storage, new_game, clock: FakeClock
) -> None:
    """Two tables of one guild finish together; the second rating must start from the first's totals."""
    from concurrent.futures import ThreadPoolExecutor

    sides = {s.seat: s.side_id for s in SEATS_7}
    games = {}
    for results in (TOWN_WINS, MAFIA_WINS):
        game = new_game()
        storage.finish_game(game.id, winners=[], results=[SeatResult(s, r) for s, r in results.items()])
        games[game.id] = FinishedGame(
            [RatedSeat(s, 100 + s, sides[s], Result(r)) for s, r in sorted(results.items())]
        )
    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(storage.rate_game, games))

    stored = storage.season_ledger(GUILD)
    folds = []
    for order in (list(games), list(games)[::-1]):
        memory = SeasonLedger()
        for game_id in order:
            memory.rate_game(games[game_id])
        folds.append(
            {u: round(memory.rating(u, Team.RED) + memory.rating(u, Team.BLACK), 6) for u in range(101, 108)}
        )
    assert {
        u: round(stored.rating(u, Team.RED) + stored.rating(u, Team.BLACK), 6) for u in range(101, 108)
    } in folds
    assert all(stored.standing(u).rated_games == 2 for u in range(101, 107))
