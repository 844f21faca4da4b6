"""A hosted game for the conduct and ratings tests: started through the lobby, moved on with
`/mafia skip`, played by clicks; the engine state is read as the oracle and never changed."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fakediscord import Club, FakeDiscord
from fakediscord.driver import InteractionRecord
from fakediscord.world import Member
from game_driver import MEMBER_EDIT, TableDriver

from mafiabot.bot import MafiaBot
from mafiabot.config import Secret, Settings
from mafiabot.game.table import Table


class Game(TableDriver):
    """The table driver with the moderator's commands; many steps are skipped, so Discord's member-edit
    limit is lifted and settling does not flush the gateway (each flush costs a heartbeat, and discord.py
    sends at most 110 a minute)."""

    flush_gateway = False

    def __init__(self, fake: FakeDiscord, club: Club, bot: MafiaBot, players: int = 7) -> None:
        super().__init__(fake, club, bot, club.players[:players])

    @property
    def moderator(self) -> Member:
        return self.players[0]  # opens the lobby, so he moderates the table

    async def start(self, ruleset: str = "classic", options: str = "") -> Table:
        # Not Discord's 10 member edits per 10 s: every step re-mutes the table.
        self.fake.rate_limits.set(MEMBER_EDIT, 1000, 1.0)
        return await super().start(ruleset, options)

    def muted(self, seat: int) -> bool:
        return seat in self.muted_seats()

    def said(self, text: str) -> bool:
        """The bot posted `text` in the game channel (lines of one step are posted together)."""
        return any(text in t for t in self.public_texts())

    async def command(self, name: str, **options: Any) -> InteractionRecord:
        record = await self.fake.slash(self.moderator, f"mafia {name}", channel=self.club.text, **options)
        await self.settled()
        return record

    async def skip(self) -> None:
        record = await self.command("skip")
        assert record.content == self.t("mod-skipped"), record.content

    async def skip_until(self, done: Any, limit: int = 80) -> None:
        for _ in range(limit):
            if done(self.state):
                return
            await self.skip()
        raise AssertionError(f"not reached in {limit} steps: {self.state.phase} {self.state.step}")

    async def to_speech_of(self, seat: int, day: int) -> None:
        await self.skip_until(
            lambda s: s.phase == "day" and s.day == day and s.step.kind == "speech" and s.step.seat == seat
        )

    async def foul(self, seat: int, reason: str = "insults") -> InteractionRecord:
        record = await self.command("foul", reason=reason, seat=seat)
        assert record.ephemeral
        return record

    async def click(self, seat: int, label: str) -> InteractionRecord:
        return await self.click_panel(self.member(seat), label)


@asynccontextmanager
async def restarted(g: Game, tmp_path: Path) -> AsyncIterator[MafiaBot]:
    """Close the game's bot and run a second MafiaBot on the same database; `g` follows the new table."""
    await g.bot.close()
    settings = Settings(token=Secret(g.fake.token), database_url=f"sqlite:///{tmp_path}/bot.db")
    client = MafiaBot(settings, guild_ready_timeout=0.05)
    async with g.fake.connect(client):
        g.bot = client
        g.table = await g.fake.wait_for(
            lambda: g.games.tables.get(g.club.voice.id), what="the game to resume"
        )
        await g.settled()
        yield client
