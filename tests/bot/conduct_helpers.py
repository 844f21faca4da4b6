"""A hosted game for the conduct and ratings tests: started through the lobby, moved on with
`/mafia skip`, played by clicks; the engine state is read as the oracle and never changed."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fakediscord import Club, FakeDiscord
from fakediscord.driver import InteractionRecord
from fakediscord.world import Member, Message

from engine.state import GameState
from mafiabot.bot import MafiaBot
from mafiabot.config import Secret, Settings
from mafiabot.game.service import GameService
from mafiabot.game.table import Table

MEMBER_EDIT = "PATCH /guilds/{guild_id}/members/{user_id}"


class Game:
    def __init__(self, fake: FakeDiscord, club: Club, bot: MafiaBot, players: int = 7) -> None:
        self.fake, self.club, self.bot = fake, club, bot
        self.players = club.players[:players]
        self.moderator = self.players[0]  # opens the lobby, so he moderates the table
        self.table: Table | None = None

    @property
    def games(self) -> GameService:
        games: GameService = self.bot.games  # type: ignore[attr-defined]
        return games

    async def start(self, ruleset: str) -> Table:
        storage = self.games.storage
        assert storage is not None
        # The host's voice is not what these tests are about: the game goes on in text, without waits.
        storage.update_guild_settings(self.club.id, audio_enabled=False)
        # Nor Discord's 10 member edits per 10 s: every step re-mutes the table.
        self.fake.rate_limits.set(MEMBER_EDIT, 1000, 1.0)
        for p in self.players:
            await self.fake.join_voice(p, self.club.voice)
        opened = await self.fake.slash(self.moderator, "mafia new", channel=self.club.text, ruleset=ruleset)
        lobby_id = opened.message.id

        def lobby() -> Message:
            return next(m for m in self.fake.messages(self.club.text) if m.id == lobby_id)

        for p in self.players[1:]:
            await self.fake.click(p, lobby(), label="Присоединиться")
        await self.fake.click(self.moderator, lobby(), label="Начать игру")
        # The lobby message says so once the game has started (deal posted, opening events rendered).
        await self.fake.wait_for(lambda: "Игра началась" in lobby().content, what="the game to start")
        table = self.games.tables[self.club.voice.id]
        self.table = table
        await self.settled()
        assert table.panel is not None
        return table

    @property
    def state(self) -> GameState:
        assert self.table is not None
        return self.table.session.state

    async def settled(self) -> None:
        assert self.table is not None
        # Not `gateway.flush()`: each one costs a heartbeat, and discord.py sends at most 110 a minute.
        await self.table.settled()

    def member(self, seat: int) -> Member:
        assert self.table is not None
        uid = self.table.session.user_of(seat)
        return next(p for p in self.players if p.id == uid)

    def muted(self, seat: int) -> bool:
        vs = self.fake.voice_state(self.member(seat))
        return bool(vs is not None and vs.mute)

    def panel(self) -> Message:
        assert self.table is not None and self.table.panel is not None
        message = self.fake.world.find_message(self.table.panel.id)
        assert message is not None
        return message

    def texts(self) -> list[str]:
        return [m.content for m in self.fake.messages(self.club.text)]

    def said(self, text: str) -> bool:
        """The bot posted `text` in the game channel (lines of one step are posted together)."""
        return any(text in t for t in self.texts())

    async def command(self, name: str, **options: Any) -> InteractionRecord:
        record = await self.fake.slash(self.moderator, f"mafia {name}", channel=self.club.text, **options)
        await self.settled()
        return record

    async def skip(self) -> None:
        record = await self.command("skip")
        assert record.content == "Шаг завершён.", record.content

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
        record = await self.fake.click(self.member(seat), self.panel(), label=label)
        await self.settled()
        return record

    async def nominate(self, by: int, target: int) -> InteractionRecord:
        select = next(c for row in self.panel().components for c in row["components"] if c["type"] == 3)
        record = await self.fake.select(self.member(by), self.panel(), select["custom_id"], [str(target)])
        await self.settled()
        return record

    async def vote(self, seat: int) -> InteractionRecord:
        button = next(
            c
            for row in self.panel().components
            for c in row["components"]
            if c.get("label", "").startswith("Голосую")
        )
        return await self.click(seat, button["label"])


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
