"""A game seen from outside the bot's process: what the players see in Discord, and what is stored.

The bot runs in another process, so nothing here reads its memory. The table is read from the
stand-in (messages, the panel, voice states) and from the database the bot writes (the command log,
the seats, the step's stored clock); the engine, which is pure, replays that log as the oracle.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from fakediscord import Club, FakeDiscord
from fakediscord.world import Member, Message

import engine
from engine.commands import command_from_json
from engine.state import GameState

SEATING = re.compile(r"№(\d+) — <@(\d+)>")
GAME_ID = re.compile(r"mafia:g:(\d+):(\d+):")


@dataclass
class Stored:
    """One game as its rows say: enough to rebuild its state with the engine."""

    game_id: int
    status: str
    ruleset_id: str
    options: dict[str, Any]
    seed: int
    roles: list[str]
    users: dict[int, int]  # seat -> user id
    commands: list[dict[str, Any]]
    timers: dict[str, Any]

    def state(self) -> GameState:
        ruleset = engine.load_ruleset(self.ruleset_id, self.options)
        state, _ = engine.new_game(ruleset, self.roles, self.seed, immune=self.timers.get("immune", []))
        for row in self.commands:
            state, _ = engine.apply(state, command_from_json(row))
        return state


class Database:
    """Read-only access to the bot's database from the harness (a separate connection pool)."""

    def __init__(self, url: str) -> None:
        self.engine = sa.create_engine(url)

    def close(self) -> None:
        self.engine.dispose()

    def games(self) -> list[dict[str, Any]]:
        with self.engine.connect() as c:
            return [dict(r._mapping) for r in c.execute(sa.text("SELECT * FROM games ORDER BY id"))]

    def beats(self) -> dict[str, float]:
        """Each bot process's last heartbeat (its wall time), by its key (mafiabot/game/clock.py)."""
        query = sa.text("SELECT key, value FROM bot_state WHERE key LIKE 'clock beat %'")
        with self.engine.connect() as c:
            return {row.key.removeprefix("clock beat "): float(row.value) for row in c.execute(query)}

    def lobby_members(self, game_id: int) -> list[int] | None:
        """The players a stored lobby holds, in join order; None when no lobby of that id is stored."""
        with self.engine.connect() as c:
            status = c.execute(sa.text("SELECT status FROM games WHERE id = :id"), {"id": game_id}).scalar()
            if status != "lobby":
                return None
            rows = c.execute(
                sa.text("SELECT user_id FROM lobby_members WHERE game_id = :id ORDER BY position"),
                {"id": game_id},
            ).all()
        return [int(row.user_id) for row in rows]

    def stored(self, game_id: int) -> Stored:
        import json

        def loaded(value: Any) -> Any:
            return json.loads(value) if isinstance(value, str) else value

        with self.engine.connect() as c:
            game = c.execute(sa.text("SELECT * FROM games WHERE id = :id"), {"id": game_id}).one()._mapping
            seats = c.execute(
                sa.text("SELECT seat, user_id, role_id FROM participants WHERE game_id = :id ORDER BY seat"),
                {"id": game_id},
            ).all()
            log = c.execute(
                sa.text("SELECT command FROM game_commands WHERE game_id = :id ORDER BY seq"), {"id": game_id}
            ).all()
        return Stored(
            game_id=game_id,
            status=game["status"],
            ruleset_id=game["ruleset_id"],
            options=loaded(game["options"]) or {},
            seed=game["seed"],
            roles=[row.role_id for row in seats],
            users={row.seat: row.user_id for row in seats},
            commands=[loaded(row.command) for row in log],
            timers=loaded(game["timers"]) or {},
        )


class OutsideTable:
    def __init__(self, fake: FakeDiscord, club: Club, players: list[Member]) -> None:
        self.fake = fake
        self.club = club
        self.players = players
        self.lobby_message_id = 0
        self.game_id = 0  # once stored: the channel also holds earlier games' panels and seatings

    # -- reading the channel ------------------------------------------------------------------------

    def texts(self) -> list[str]:
        return [m.content for m in self.fake.messages(self.club.text)]

    def seats(self) -> dict[int, int]:
        """seat -> user id, from this game's newest seating message (re-sent after a restart)."""
        for message in reversed(self.fake.messages(self.club.text)):
            if message.id < self.lobby_message_id:
                break  # an earlier game's
            if message.content.startswith("**Рассадка**"):
                return {int(seat): int(user) for seat, user in SEATING.findall(message.content)}
        return {}

    def member(self, seat: int) -> Member:
        user_id = self.seats()[seat]
        return next(p for p in self.players if p.id == user_id)

    def panel(self) -> Message | None:
        """The game's newest panel: the bot's message whose buttons name this game (an earlier game's
        last panel may be posted after this one's first)."""
        for message in reversed(self.fake.messages(self.club.text)):
            for b in message.buttons():
                found = GAME_ID.match(b.get("custom_id", ""))
                if found and (not self.game_id or int(found[1]) == self.game_id):
                    return message
        return None

    def panel_serial(self) -> int | None:
        panel = self.panel()
        if panel is None:
            return None
        for b in panel.buttons():
            found = GAME_ID.match(b.get("custom_id", ""))
            if found:
                return int(found[2])
        return None

    def speaker(self) -> int | None:
        panel = self.panel()
        found = re.search(r"Говорит игрок №(\d+)", panel.text) if panel else None
        return int(found[1]) if found else None

    def muted(self) -> set[int]:
        """Seats whose member Discord holds server-muted (in voice or not: the mute outlasts leaving)."""
        return {seat for seat, user in self.seats().items() if self.member(seat).mute}

    # -- acting -------------------------------------------------------------------------------------

    def lobby_message(self) -> Message:
        return next(m for m in self.fake.messages(self.club.text) if m.id == self.lobby_message_id)

    async def start(self, ruleset: str = "classic", options: str = "") -> None:
        for p in self.players:
            if self.fake.voice_state(p) is None:
                await self.fake.join_voice(p, self.club.voice)
        extra: dict[str, Any] = {"options": options} if options else {}
        opened = await self.fake.slash(
            self.players[0], "mafia new", channel=self.club.text, ruleset=ruleset, **extra
        )
        self.lobby_message_id = opened.message.id
        for p in self.players[1:]:
            await self.fake.click(p, self.lobby_message(), label="Присоединиться")
        await self.fake.click(self.players[0], self.lobby_message(), label="Начать игру")
        # The host joins voice before the game starts (up to 15 s before it gives up and writes instead).
        await self.fake.wait_for(
            lambda: "Игра началась" in self.lobby_message().content, timeout=30, what="the start"
        )
        await self.fake.wait_for(self.panel, timeout=30, what="the panel")
