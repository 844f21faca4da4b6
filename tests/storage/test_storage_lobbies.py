"""The stored lifecycle of a game: lobby → running → over → finished (rated in the same transaction)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from storage_helpers import GUILD, SEATS_7

from mafiabot.storage import Game, GameStatus, RatingChange, SeatResult, Storage, StorageError


def _lobby(storage: Storage, **kwargs: object) -> Game:
    fields: dict[str, object] = {
        "guild_id": GUILD,
        "voice_channel_id": 11,
        "text_channel_id": 12,
        "ruleset_id": "classic",
        "options": ("maniac",),
        "creator_id": 101,
        "creator_name": "Аня",
    }
    fields.update(kwargs)
    game = storage.open_lobby(**fields)  # type: ignore[arg-type]
    assert game.id is not None
    return game


def test_a_lobby_is_reopened_with_its_players_in_join_order_and_its_settings(storage: Storage) -> None:
    lobby = _lobby(storage, nicknames=True)
    assert lobby.id is not None
    storage.join_lobby(lobby.id, 103, "Вера")
    storage.join_lobby(lobby.id, 102, "Борис")
    storage.join_lobby(lobby.id, 103, "Вера")  # a second click of the same player changes nothing
    storage.leave_lobby(lobby.id, 101)
    storage.join_lobby(lobby.id, 101, "Аня")
    storage.update_lobby(lobby.id, options=("doctor",), message_id=555, creator_id=103)
    [stored] = storage.open_lobbies()
    assert [(m.user_id, m.display_name) for m in stored.members] == [
        (103, "Вера"),
        (102, "Борис"),
        (101, "Аня"),
    ]
    assert stored.game.options == {"doctor": True} and stored.game.status == GameStatus.LOBBY
    assert stored.game.timers == {"creator_id": 103, "nicknames": True, "message_id": 555}
    # A lobby is no game yet: not resumed as one, not listed among a server's games.
    assert storage.running_games() == [] and storage.recent_games(GUILD) == []


def test_the_start_turns_the_lobby_into_its_running_game_in_one_transaction(storage: Storage) -> None:
    lobby = _lobby(storage)
    assert lobby.id is not None
    game = storage.start_lobby(lobby.id, seed=42, seats=SEATS_7, options=("maniac",), creator_id=101)
    assert (game.id, game.status, game.seed, game.timers) == (
        lobby.id,
        GameStatus.RUNNING,
        42,
        {"creator_id": 101},
    )
    assert [p.seat for p in storage.participants(lobby.id)] == [s.seat for s in SEATS_7]
    assert storage.open_lobbies() == [] and [g.id for g in storage.running_games()] == [lobby.id]
    with pytest.raises(StorageError):  # started once
        storage.start_lobby(lobby.id, seed=1, seats=SEATS_7, options=(), creator_id=101)
    with pytest.raises(StorageError):
        storage.join_lobby(lobby.id, 200, "поздно")


def test_a_deal_that_cannot_be_stored_leaves_the_lobby_as_it_was(storage: Storage) -> None:
    lobby = _lobby(storage)
    assert lobby.id is not None
    with pytest.raises(StorageError):
        storage.start_lobby(lobby.id, seed=1, seats=[*SEATS_7, SEATS_7[0]], options=(), creator_id=101)
    [stored] = storage.open_lobbies()
    assert [m.user_id for m in stored.members] == [101] and stored.game.status == GameStatus.LOBBY


def test_a_closed_lobby_leaves_nothing_and_a_game_is_never_closed_as_a_lobby(storage: Storage) -> None:
    lobby = _lobby(storage)
    assert lobby.id is not None
    assert storage.close_lobby(lobby.id) is True
    assert storage.open_lobbies() == []
    with storage.engine.connect() as c:
        assert c.execute(sa.text("SELECT count(*) FROM lobby_members")).scalar_one() == 0
    other = _lobby(storage)
    assert other.id is not None
    storage.start_lobby(other.id, seed=1, seats=SEATS_7, options=(), creator_id=101)
    assert storage.close_lobby(other.id) is False and storage.game(other.id).status == GameStatus.RUNNING


def test_the_last_command_makes_the_game_over_until_it_is_closed_and_rated_at_once(storage: Storage) -> None:
    lobby = _lobby(storage)
    assert lobby.id is not None
    storage.start_lobby(lobby.id, seed=1, seats=SEATS_7, options=(), creator_id=101)
    storage.append_command(lobby.id, {"type": "start"})
    storage.append_command(lobby.id, {"type": "vote"}, over=True)
    assert storage.game(lobby.id).status == GameStatus.OVER
    assert [g.id for g in storage.running_games()] == [lobby.id]  # a restart closes it
    with pytest.raises(StorageError):  # nothing comes after the end
        storage.append_command(lobby.id, {"type": "late"})
    storage.set_timers(lobby.id, {"serial": 3})  # a stopping bot still stores its clock
    results = [SeatResult(s.seat, "win" if s.side_id == "town" else "loss") for s in SEATS_7]
    deltas = storage.finish_and_rate_game(lobby.id, winners=["town"], results=results)
    assert deltas and storage.game(lobby.id).status == GameStatus.FINISHED
    stored = storage.game_rating_changes(lobby.id)
    assert sorted((c.user_id, c.track, c.delta) for c in stored) == sorted(
        (d.user_id, d.track, d.delta) for d in deltas
    )
    assert storage.running_games() == []
    with pytest.raises(StorageError):  # rated once
        storage.rate_game(lobby.id)


def test_a_rating_that_fails_still_closes_the_game(storage: Storage, new_game, monkeypatch) -> None:
    game = new_game()

    def broken(*args: object) -> None:
        raise StorageError("a bug in the rating")

    monkeypatch.setattr(Storage, "_rate_game", broken)
    results = [SeatResult(s.seat, "draw") for s in SEATS_7]
    assert storage.finish_and_rate_game(game.id, winners=[], results=results) == []
    assert storage.game(game.id).status == GameStatus.FINISHED
    with storage.engine.connect() as c:
        assert c.execute(sa.select(sa.func.count()).select_from(RatingChange)).scalar_one() == 0
