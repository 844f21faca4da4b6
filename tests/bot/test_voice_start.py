"""The start's mutes come first (issue 20): nothing between the lobby's «Начать игру» and the table's
first mutes that they do not need — the click's acknowledgement goes beside the start, and the voice
ledger's rows of the table are written with the game, in its transaction, not by a write of their own
after it. Promise 1 holds: every member muted is in the ledger before his mute."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest
from fakediscord import Club, FakeDiscord
from game_driver import MEMBER_EDIT, TableDriver

from mafiabot.bot import MafiaBot
from mafiabot.game.voice import wanted_mutes
from mafiabot.storage import MuteHold
from mafiabot.storage.ledger import Hold, LedgerWrite

CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"


async def _lobby_of_seven(d: TableDriver) -> None:
    d.without_host_voice()
    await d.seat_everyone()
    await d.open_lobby("classic")
    for p in d.players[1:]:
        await d.fake.click(p, d.lobby_message(), label=d.t("lobby-button-join"))


def _muted(club: Club) -> set[int]:
    return {p.id for p in club.players if p.mute}


def _as_the_table_wants(d: TableDriver) -> bool:
    table = d.games.tables.get(d.club.voice.id)
    if table is None:
        return False
    seat_users = {info.seat: info.user_id for info in table.session.seats}
    wanted = wanted_mutes(table.session.state, seat_users, list(seat_users.values()))
    return sum(wanted.values()) >= 6 and all(p.mute == wanted[p.id] for p in d.players)


async def test_the_table_is_muted_while_the_start_click_s_acknowledgement_is_on_its_way(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)  # the buckets are not what this tests
    d = TableDriver(fake, club, bot, club.players[:7])
    await _lobby_of_seven(d)
    fake.faults.hold(CALLBACK)  # Discord is slow to take the click's answer
    click = asyncio.create_task(fake.click(d.players[0], d.lobby_message(), label=d.t("lobby-button-start")))
    try:
        # Before, the start waited for its acknowledgement (a round trip to Discord) before it began.
        await fake.wait_for(lambda: _as_the_table_wants(d), timeout=20, what="the mutes, the answer held")
        assert not click.done()
    finally:
        fake.faults.release(CALLBACK)
    started = await click
    assert started.callback_type == 6  # acknowledged (deferred) all the same
    await fake.wait_for(lambda: d.t("lobby-started") in d.lobby_message().content, what="the lobby says so")


async def test_the_ledger_holds_the_table_with_the_game_and_the_first_mutes_wait_for_no_other_write(
    bot: MafiaBot, fake: FakeDiscord, club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    storage = d.games.storage
    assert storage is not None
    holds: list[int] = []  # member edits Discord had applied at each separate write of the ledger
    real = storage.write_batch

    def write_batch(*args: Any, ledger: Sequence[LedgerWrite] = (), **kwargs: Any) -> Any:
        if any(isinstance(write, Hold) for write in ledger):
            holds.append(len([c for c in fake.calls_to(MEMBER_EDIT) if c.status == 200]))
        return real(*args, ledger=ledger, **kwargs)

    monkeypatch.setattr(storage, "write_batch", write_batch)
    table = await d.start("classic")
    await d.settled()
    assert _as_the_table_wants(d)
    assert holds == [], "the start's mutes waited for a write of their own (one transaction was enough)"
    rows = await asyncio.to_thread(storage.owed_rows, club.id)
    assert {row.user_id: (row.game_id, row.state, row.original_mute) for row in rows} == {
        p.id: (table.game_id, MuteHold.HELD, False) for p in d.players
    }
    await fake.slash(d.players[0], "mafia stop", channel=club.text)
    await fake.wait_for(lambda: not d.games.tables, what="the table to close")
    await d.settled()
    assert not _muted(club) and await d.games.ledger.owed() == []
