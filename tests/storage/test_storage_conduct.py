from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from storage_helpers import GUILD, OTHER_GUILD, START, FakeClock

from mafiabot.storage import NotFound, Storage, StorageError

MODERATOR = 555_000_000_000_000_555


def test_fouls_are_logged_with_who_and_when(storage: Storage, new_game, clock: FakeClock) -> None:
    game = new_game()
    first = storage.add_foul(game.id, seat=3, user_id=103, reason="self_vote", day=1, automatic=True)
    clock.advance(minutes=2)
    second = storage.add_foul(game.id, seat=3, user_id=103, reason="insult", day=1, given_by=MODERATOR)
    assert (first.automatic, first.given_by, first.given_at) == (True, None, START)
    assert (second.automatic, second.given_by, second.reason) == (False, MODERATOR, "insult")
    assert [f.id for f in storage.fouls(game.id)] == [first.id, second.id]
    assert storage.fouls(game.id, seat=4) == []


def test_withdrawn_foul_no_longer_counts(storage: Storage, new_game, clock: FakeClock) -> None:
    game = new_game()
    foul = storage.add_foul(game.id, seat=2, user_id=102, reason="out_of_turn", day=2, given_by=MODERATOR)
    later = clock.advance(minutes=1)
    withdrawn = storage.withdraw_foul(foul.id, by=MODERATOR, reason="это был не он")
    assert (withdrawn.withdrawn_by, withdrawn.withdrawn_at, withdrawn.withdrawn_reason) == (
        MODERATOR,
        later,
        "это был не он",
    )
    assert storage.fouls(game.id) == []
    [kept] = storage.fouls(game.id, include_withdrawn=True)
    assert kept.withdrawn_at == later
    with pytest.raises(StorageError, match="already"):
        storage.withdraw_foul(foul.id, by=MODERATOR, reason="again")
    with pytest.raises(NotFound):
        storage.withdraw_foul(9999, by=MODERATOR, reason="x")


def test_a_foul_has_an_author(storage: Storage, new_game) -> None:
    game = new_game()
    with pytest.raises(StorageError):
        storage.add_foul(game.id, seat=1, user_id=101, reason="x", day=1)
    with pytest.raises(NotFound):
        storage.add_foul(12345, seat=1, user_id=101, reason="x", day=1, automatic=True)


def test_guild_values_written_at_once_keep_each_other(storage: Storage) -> None:
    """City immunity and the night pacing share the guild's stored defaults; writers of different keys
    from several threads (the bot's worker threads) must not lose each other's entries."""
    storage.update_guild_settings(GUILD, volume=0.5, ruleset_defaults={"city": {"speech": 60}})
    keys = [f"key{i}" for i in range(16)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(lambda k: storage.set_guild_value(GUILD, k, [k]), keys))
    stored = storage.guild_settings(GUILD)
    assert stored.ruleset_defaults == {"city": {"speech": 60}, **{k: [k] for k in keys}}
    assert stored.volume == 0.5
    storage.set_guild_value(OTHER_GUILD, "key0", 1)  # a guild without a row gets one
    assert storage.guild_settings(OTHER_GUILD).ruleset_defaults == {"key0": 1}
    assert storage.guild_values("key0") == {GUILD: ["key0"], OTHER_GUILD: 1}
    assert storage.guild_values("city") == {GUILD: {"speech": 60}}
    assert storage.guild_values("nothing") == {}


def test_guild_settings_default_and_update(storage: Storage) -> None:
    defaults = storage.guild_settings(GUILD)
    assert (defaults.host_role_id, defaults.volume, defaults.audio_enabled, defaults.ruleset_defaults) == (
        None,
        1.0,
        True,
        {},
    )
    storage.update_guild_settings(GUILD, host_role_id=333_000_000_000_000_333, volume=0.5)
    storage.update_guild_settings(GUILD, audio_enabled=False, ruleset_defaults={"city": {"speech": 60}})
    stored = storage.guild_settings(GUILD)
    assert (stored.host_role_id, stored.volume, stored.audio_enabled) == (333_000_000_000_000_333, 0.5, False)
    assert stored.ruleset_defaults == {"city": {"speech": 60}}
    assert storage.guild_settings(OTHER_GUILD).volume == 1.0
    with pytest.raises(StorageError, match="token"):
        storage.update_guild_settings(GUILD, token="secret")
