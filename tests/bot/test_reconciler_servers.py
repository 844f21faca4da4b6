"""The reconciler settles each server on its own (issue 20, item 4): a server whose give-back is slow
(its ledger read, its member edits waiting for a bucket) never holds up another server's. With one
lock for the whole bot, 300 tables stopped at once gave their voice back one server after another."""

from __future__ import annotations

import asyncio

import pytest
from fakediscord import Club, FakeDiscord
from voice_helpers import muted_in_voice

from mafiabot.bot import MafiaBot
from mafiabot.game.ledger import Owed, VoiceLedger
from mafiabot.game.reconciler import Reconciler

GAME = 7


@pytest.fixture
def clubs(fake: FakeDiscord) -> list[Club]:
    return [fake.create_club(players=2, name=f"Клуб {n}") for n in (1, 2)]


@pytest.fixture
def club(clubs: list[Club]) -> Club:
    return clubs[0]  # the `bot` fixture's club; the bot knows both from its start


class _StuckLedger(VoiceLedger):
    """An in-memory ledger whose reads for one server wait until the test lets them go."""

    def __init__(self, stuck_guild: int) -> None:
        super().__init__(None)
        self.stuck_guild = stuck_guild
        self.reading = asyncio.Event()
        self.go = asyncio.Event()

    async def owed(
        self, guild_id: int | None = None, *, user_id: int | None = None, game_id: int | None = None
    ) -> list[Owed]:
        if guild_id == self.stuck_guild:
            self.reading.set()
            await self.go.wait()
        return await super().owed(guild_id, user_id=user_id, game_id=game_id)


async def _muted_and_owed(fake: FakeDiscord, bot: MafiaBot, club: Club, ledger: VoiceLedger) -> None:
    player = club.players[0]
    await muted_in_voice(fake, bot, club, 0)
    await ledger.hold(
        guild_id=club.id,
        game_id=GAME,
        voice_channel_id=club.voice.id,
        text_channel_id=club.text.id,
        originals={player.id: False},
    )
    await ledger.give_back_game(GAME)


async def test_a_server_whose_give_back_is_stuck_does_not_hold_up_another_server(
    bot: MafiaBot, fake: FakeDiscord, clubs: list[Club]
) -> None:
    slow, quick = clubs
    ledger = _StuckLedger(slow.id)
    for club in clubs:
        await _muted_and_owed(fake, bot, club, ledger)
    reconciler = Reconciler(bot, ledger, owned=lambda member: False)
    stuck = asyncio.create_task(reconciler.settle(slow.id, game_id=GAME))
    await ledger.reading.wait()  # the slow server's settle is under way, inside its lock
    # One lock for the whole bot kept this waiting for the slow server (the test's timeout).
    assert await asyncio.wait_for(reconciler.settle(quick.id, game_id=GAME), timeout=10) == []
    assert not quick.players[0].mute
    assert not stuck.done() and slow.players[0].mute
    ledger.go.set()
    assert await stuck == []
    assert not slow.players[0].mute
    assert await ledger.owed() == []


async def test_a_round_over_every_server_pays_each_beside_a_server_s_own_settle(
    bot: MafiaBot, fake: FakeDiscord, clubs: list[Club]
) -> None:
    ledger = VoiceLedger(None)
    for club in clubs:
        await _muted_and_owed(fake, bot, club, ledger)
    reconciler = Reconciler(bot, ledger, owned=lambda member: False)
    # The first server's member is also given back by a settle of his own, at the same moment.
    first = reconciler.settle(clubs[0].id, user_id=clubs[0].players[0].id)
    assert await asyncio.gather(first, reconciler.settle()) == [[], []]
    assert not any(club.players[0].mute for club in clubs)
    assert await ledger.owed() == []
