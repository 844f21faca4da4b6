"""The voice ledger: held before a mute, owed back with the game's end, gone only once confirmed."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from storage_helpers import GUILD, SEATS_7

import mafiabot.storage.games as games_storage
from mafiabot.storage import Game, MuteHold, SeatResult, Storage
from mafiabot.storage.ledger import Hold, Owe, Refuse, Release, Told

VOICE, TEXT = 700_000_000_000_000_001, 700_000_000_000_000_002


def _hold(storage: Storage, game_id: int | None, originals: dict[int, bool]) -> dict[int, bool]:
    return storage.hold_mutes(
        guild_id=GUILD, game_id=game_id, voice_channel_id=VOICE, text_channel_id=TEXT, originals=originals
    )


def _states(storage: Storage) -> dict[int, str]:
    return {row.user_id: row.state for row in storage.owed_rows(GUILD)}


def test_a_hold_keeps_the_members_own_state_from_before_the_first_game(
    storage: Storage, new_game: Callable[..., Game]
) -> None:
    first, second = new_game().id, new_game().id
    _hold(storage, first, {101: False, 102: True})
    # Seen muted by the bot's own mute: the first original stays, and the hold says so (what is owed).
    assert _hold(storage, second, {101: True}) == {101: False}
    rows = {row.user_id: row for row in storage.owed_rows(GUILD)}
    assert rows[101].original_mute is False and rows[101].game_id == second
    assert rows[102].original_mute is True and rows[102].game_id == first
    assert {row.state for row in rows.values()} == {MuteHold.HELD}
    assert (rows[101].voice_channel_id, rows[101].text_channel_id) == (VOICE, TEXT)


def test_finishing_a_game_owes_its_members_in_the_same_transaction(
    storage: Storage, new_game: Callable[..., Game]
) -> None:
    game, other = new_game().id, new_game().id
    assert game is not None and other is not None
    _hold(storage, game, {101: False, 102: False})
    _hold(storage, other, {103: False})
    results = [SeatResult(seat=s.seat, result="draw") for s in SEATS_7]
    storage.finish_game(game, winners=[], results=results)
    assert _states(storage) == {101: MuteHold.GIVE_BACK, 102: MuteHold.GIVE_BACK, 103: MuteHold.HELD}
    storage.abort_game(other, "стоп")
    assert set(_states(storage).values()) == {MuteHold.GIVE_BACK}


def test_a_player_who_left_is_owed_his_voice_with_the_mark(
    storage: Storage, new_game: Callable[..., Game]
) -> None:
    game = new_game().id
    _hold(storage, game, {101: False, 102: False})
    storage.mark_participant(game, 1, removed=True, left=True)
    assert _states(storage) == {101: MuteHold.GIVE_BACK, 102: MuteHold.HELD}
    storage.mark_participant(game, 2, removed=True)  # a removal for fouls: he stays at the table
    assert _states(storage) == {101: MuteHold.GIVE_BACK, 102: MuteHold.HELD}


def test_a_refusal_is_remembered_until_the_release_is_confirmed(
    storage: Storage, new_game: Callable[..., Game]
) -> None:
    game = new_game().id
    _hold(storage, game, {101: False, 102: False})
    storage.give_back(game, [101])
    storage.refused(GUILD, [101], "нет права «Отключать участникам микрофон»")
    [row] = storage.owed_rows(GUILD, user_id=101)
    assert row.state == MuteHold.GIVE_BACK and row.failure and not row.told
    storage.mark_told(GUILD, [101])
    assert storage.owed_rows(GUILD, user_id=101)[0].told
    storage.released(GUILD, 101)
    assert _states(storage) == {102: MuteHold.HELD}
    storage.give_back_member(GUILD, 102)
    assert _states(storage) == {102: MuteHold.GIVE_BACK}
    assert storage.owed_rows(GUILD, game_id=game)[0].user_id == 102


def test_a_release_lets_a_member_go_only_as_his_row_was_read(
    storage: Storage, new_game: Callable[..., Game]
) -> None:
    """The reconciler releases the rows it read once Discord confirmed them; a member held again in
    between (another game, or the same one taking him back) is not that release's to delete."""
    first, second = new_game().id, new_game().id
    _hold(storage, first, {101: False, 102: True, 103: False})
    _hold(storage, None, {104: False})  # held by no game (a row from before games had ids)
    storage.give_back(first)
    read = {row.user_id: (row.user_id, row.game_id, row.state) for row in storage.owed_rows(GUILD)}
    assert read[101] == (101, first, MuteHold.GIVE_BACK) and read[104] == (104, None, MuteHold.HELD)
    _hold(storage, second, {102: False})  # the next game takes him while his give-back is under way
    storage.write_ledger([Release(GUILD, as_read=(read[101], read[102], read[104]))])
    rows = {row.user_id: row for row in storage.owed_rows(GUILD)}
    assert set(rows) == {102, 103}
    assert (rows[102].game_id, rows[102].state, rows[102].original_mute) == (second, MuteHold.HELD, True)


def test_the_ledger_s_writes_join_the_commands_transaction_in_their_order(
    storage: Storage, new_game: Callable[..., Game]
) -> None:
    game = new_game().id
    assert game is not None
    hold = Hold(GUILD, game, VOICE, TEXT, {101: False, 102: True})
    seqs, _ = storage.write_batch(
        [(game, {"n": 1})],
        {},
        ledger=[
            Hold(GUILD, game, VOICE, TEXT, {103: False}),
            Release(GUILD, user_ids=(103,)),  # in order: held, then let go
            hold,
            Refuse(GUILD, (101,), "нет права"),
            Told(GUILD, (101,)),
            Owe(GUILD, (102,)),
        ],
    )
    assert seqs == [0] and hold.owed == {101: False, 102: True}
    rows = {row.user_id: row for row in storage.owed_rows(GUILD)}
    assert set(rows) == {101, 102}
    assert (rows[101].state, rows[101].failure, rows[101].told) == (MuteHold.HELD, "нет права", True)
    assert rows[102].state == MuteHold.GIVE_BACK
    assert storage.command_log(game) == [{"n": 1}]


def test_a_failed_transaction_keeps_none_of_the_ledger_s_writes(
    storage: Storage, new_game: Callable[..., Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game().id
    assert game is not None

    def down(*args: object, **kwargs: object) -> None:
        raise ConnectionError("the database went away")

    monkeypatch.setattr(games_storage, "kill_point", down)  # fails after every row is written
    with pytest.raises(ConnectionError):
        storage.write_batch([(game, {"n": 1})], {}, ledger=[Hold(GUILD, game, VOICE, TEXT, {101: False})])
    assert storage.owed_rows(GUILD) == [] and storage.command_log(game) == []
