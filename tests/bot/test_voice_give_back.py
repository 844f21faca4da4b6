"""The give-back at a game's end starts from what the process knows (issue 20): its unmutes leave
before the voice ledger is read, and the ledger stays the truth — a member leaves it only once his row,
as read, asks for the state Discord confirmed, and a member the ledger holds but the process does not
know (held before a restart) is still given back."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

import pytest
from fakediscord import Club, FakeDiscord
from game_driver import MEMBER_EDIT, TableDriver
from voice_helpers import muted_in_voice

from mafiabot.bot import MafiaBot
from mafiabot.game.ledger import Owed, VoiceLedger
from mafiabot.game.reconciler import Reconciler
from mafiabot.storage.ledger import OwedRow

GAME = 7


def _muted(club: Club) -> set[int]:
    return {p.id for p in club.players if p.mute}


class _HeldRead:
    """The storage's read of the ledger for one game, held until the test lets it go (in the
    database's thread, as a slow read would be)."""

    def __init__(self, real: Callable[..., list[OwedRow]], game_id: int) -> None:
        self.real = real
        self.game_id = game_id
        self.reading = threading.Event()
        self.go = threading.Event()

    def __call__(
        self, guild_id: int | None = None, *, user_id: int | None = None, game_id: int | None = None
    ) -> list[OwedRow]:
        if game_id == self.game_id and not self.go.is_set():
            self.reading.set()
            self.go.wait(timeout=60)
        return self.real(guild_id, user_id=user_id, game_id=game_id)


async def test_the_stop_unmutes_the_table_before_the_ledger_is_read_and_releases_it_after(
    bot: MafiaBot, fake: FakeDiscord, club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)  # the buckets are not what this tests
    d = TableDriver(fake, club, bot, club.players[:7])
    table = await d.start("classic")
    await d.settled()
    muted = _muted(club)
    assert len(muted) == 6
    storage = d.games.storage
    assert storage is not None
    read = _HeldRead(storage.owed_rows, table.game_id)
    monkeypatch.setattr(storage, "owed_rows", read)
    try:
        await fake.slash(d.players[0], "mafia stop", channel=club.text)
        # Before, the give-back's first edit waited for this read: nobody was unmuted while it was held.
        await fake.wait_for(lambda: not _muted(club), timeout=20, what="the table unmuted, the read held")
        assert read.reading.is_set(), "the give-back still reads the ledger (to confirm, and for the others)"
        # Discord confirmed every unmute, but nobody leaves the ledger before his row was read.
        rows = await asyncio.to_thread(read.real, club.id, game_id=table.game_id)
        assert muted <= {row.user_id for row in rows}
    finally:
        read.go.set()
    await fake.wait_for(lambda: not d.games.tables, timeout=20, what="the table to close")
    await d.settled()
    assert await d.games.ledger.owed() == []


class _HeldLedger(VoiceLedger):
    """An in-memory ledger whose reads wait until the test lets them go."""

    def __init__(self) -> None:
        super().__init__(None)
        self.reading = asyncio.Event()
        self.go = asyncio.Event()

    async def owed(
        self, guild_id: int | None = None, *, user_id: int | None = None, game_id: int | None = None
    ) -> list[Owed]:
        self.reading.set()
        await self.go.wait()
        return await super().owed(guild_id, user_id=user_id, game_id=game_id)


@pytest.mark.club(players=3)
async def test_a_member_the_process_does_not_know_is_still_given_back_and_the_ledger_s_state_wins(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    known, unknown, wrong = [await muted_in_voice(fake, bot, club, n) for n in range(3)]
    ledger = _HeldLedger()
    stored = await ledger.hold(
        guild_id=club.id,
        game_id=GAME,
        voice_channel_id=club.voice.id,
        text_channel_id=club.text.id,
        originals={known: False, unknown: False, wrong: True},  # `wrong` was muted before the game
    )
    assert stored == {known: False, unknown: False, wrong: True}
    await ledger.give_back_game(GAME)
    reconciler = Reconciler(bot, ledger, owned=lambda member: False)
    # The caller knows two of them, one with a state the ledger does not owe (its memory is wrong).
    settle = asyncio.create_task(reconciler.settle(club.id, game_id=GAME, known={known: False, wrong: False}))
    await ledger.reading.wait()
    await fake.wait_for(lambda: not club.players[0].mute, what="the known member's unmute, the read held")
    assert club.players[1].mute, "nobody the caller did not name is edited before the read"
    assert {row.user_id for row in await VoiceLedger.owed(ledger)} == {known, unknown, wrong}
    ledger.go.set()
    assert await settle == []
    assert not club.players[1].mute  # known only to the ledger: given back all the same
    assert club.players[2].mute  # the ledger's original, not the caller's
    assert await ledger.owed() == []
