"""Simulated players at a hosted game: open a lobby, start, and play steps by clicking, through the
stand-in Discord only (the engine state is read as the test's oracle, never changed)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

from fakediscord import Club, FakeDiscord
from fakediscord.driver import InteractionRecord
from fakediscord.rest import RestCall
from fakediscord.world import Member, Message

from engine.state import GameState
from mafiabot.bot import MafiaBot
from mafiabot.game.service import GameService
from mafiabot.game.table import Table
from mafiabot.i18n import text

MEMBER_EDIT = "PATCH /guilds/{guild_id}/members/{user_id}"
# The `restart` fixture (conftest.py): ``async with restart() as second:`` runs the next bot.
Restart = Callable[[], AbstractAsyncContextManager[MafiaBot]]


class TableDriver:
    flush_gateway = True  # settle the gateway too (a test that waits for what members were sent)

    def __init__(self, fake: FakeDiscord, club: Club, bot: MafiaBot, players: list[Member]) -> None:
        self.fake = fake
        self.club = club
        self.bot = bot
        self.players = players
        self.table: Table | None = None
        self.lobby_message_id = 0
        # Steps are skipped at machine speed, far faster than people talk: Discord's 5 messages per 5 s
        # per channel would only measure the driver (benchmarks/game_requests.py keeps them).
        fake.rate_limits.fast_forward()
        self.games.panel_edit_interval = 0.0  # and the panel need not keep under them

    @property
    def language(self) -> str:
        """The language the table (or its lobby, before the start) speaks: the driver reads its labels."""
        if self.table is not None:
            return self.table.session.language
        lobby = self.games.lobbies.get(self.club.voice.id)
        return lobby.language if lobby is not None else self.bot.settings.game.language  # type: ignore[attr-defined]

    def t(self, key: str, **args: Any) -> str:
        return text(self.language, key, **args)

    @property
    def games(self) -> GameService:
        games: GameService = self.bot.games  # type: ignore[attr-defined]
        return games

    # -- setup ------------------------------------------------------------------------------------

    async def seat_everyone(self) -> None:
        for p in self.players:
            if self.fake.voice_state(p) is None:
                await self.fake.join_voice(p, self.club.voice)

    def lobby_message(self) -> Message:
        return next(m for m in self.fake.messages(self.club.text) if m.id == self.lobby_message_id)

    async def open_lobby(self, ruleset: str = "classic", options: str = "") -> InteractionRecord:
        extra: dict[str, Any] = {"options": options} if options else {}
        opened = await self.fake.slash(
            self.players[0], "mafia new", channel=self.club.text, ruleset=ruleset, **extra
        )
        self.lobby_message_id = opened.message.id
        return opened

    def without_host_voice(self) -> None:
        """The host's speech (tested on its own) would hold every step's clock while it speaks."""
        storage = self.games.storage
        assert storage is not None
        storage.update_guild_settings(self.club.id, audio_enabled=False)

    async def start(self, ruleset: str = "classic", options: str = "") -> Table:
        self.without_host_voice()
        await self.seat_everyone()
        await self.open_lobby(ruleset, options)
        for p in self.players[1:]:
            joined = await self.fake.click(p, self.lobby_message(), label=self.t("lobby-button-join"))
            assert joined.callback_type == 7, joined.callback
        started = self.t("lobby-started")
        await self.fake.click(self.players[0], self.lobby_message(), label=self.t("lobby-button-start"))
        # The lobby message says so once the deal is posted and the opening events are rendered.
        await self.fake.wait_for(lambda: started in self.lobby_message().content, what="the start")
        table = self.games.tables[self.club.voice.id]
        self.table = table
        await self.settled()
        assert table.panel is not None
        return table

    # -- reading ----------------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        assert self.table is not None
        return self.table.session.state

    async def settled(self) -> None:
        assert self.table is not None
        async with self.table.session.lock:  # a command in flight (a timer's Advance) is finished
            pass
        await self.table.settled()
        if self.flush_gateway:
            await self.fake.gateway.flush()

    def member(self, seat: int) -> Member:
        assert self.table is not None
        uid = self.table.session.user_of(seat)
        return next(p for p in self.players if p.id == uid)

    def seat(self, member: Member) -> int:
        assert self.table is not None
        seat = self.table.session.seat_of(member.id)
        assert seat is not None
        return seat

    def seats_with(self, *roles: str) -> list[int]:
        return [i + 1 for i, r in enumerate(self.state.roles) if r in roles]

    def muted_seats(self) -> set[int]:
        assert self.table is not None
        out = set()
        for info in self.table.session.seats:
            vs = self.fake.voice_state(self.member(info.seat))
            if vs is not None and vs.mute:
                out.add(info.seat)
        return out

    def all_seats(self) -> set[int]:
        return set(range(1, self.state.n_seats + 1))

    def panel(self) -> Message:
        assert self.table is not None and self.table.panel is not None
        message = self.fake.world.find_message(self.table.panel.id)
        assert message is not None
        return message

    def public_texts(self) -> list[str]:
        return [m.content for m in self.fake.messages(self.club.text)]

    def edits_since(self, mark: int) -> list[RestCall]:
        return [c for c in self.fake.calls[mark:] if c.route == MEMBER_EDIT and c.status == 200]

    async def until(self, condition: Callable[[], bool], what: str) -> None:
        """Wait until the game reaches a condition on its own (a timer closed a step) and settles."""
        assert self.table is not None
        # The state changes before the bot sends anything about it, so the stand-in's records (which
        # wake `wait_for`) follow; `settled` then waits for the command to finish.
        await self.fake.wait_for(condition, what=what)
        await self.settled()

    # -- acting -----------------------------------------------------------------------------------

    async def click_panel(self, member: Member, label: str) -> InteractionRecord:
        record = await self.fake.click(member, self.panel(), label=label)
        await self.settled()
        return record

    async def skip_step(self) -> InteractionRecord:
        record = await self.fake.slash(self.players[0], "mafia skip", channel=self.club.text)
        assert record.ephemeral, record.content
        await self.settled()
        return record

    async def pass_speech(self) -> InteractionRecord:
        """«Пас»: answered by the panel's change itself (UPDATE_MESSAGE) when nothing was posted below
        it, else privately (the panel then moves below the lines)."""
        speaker = self.member(self.state.step.seat)
        panel = self.panel()
        record = await self.click_panel(speaker, self.t("control-pass"))
        if record.callback_type == 7:
            assert record.original is panel and self.table is not None and self.table.panel is not None
            assert self.table.panel.id == panel.id, "a panel updated by the answer stays where it was"
        else:
            assert record.ephemeral and record.content == self.t("answer-pass"), record.content
        return record

    @staticmethod
    def answered(record: InteractionRecord, content: str) -> bool:
        """A click on the panel was answered: privately with ``content``, or (issue 18) by the panel's
        change itself, when its command changed the panel and nothing was posted below it."""
        if record.callback_type == 7:
            data = (record.callback or {}).get("data") or {}
            return bool(data.get("components")) and record.message_id is not None
        return record.ephemeral and record.content == content

    async def nominate(self, by: int, target: int) -> InteractionRecord:
        select = next(c for c in self.panel().items() if c["type"] == 3)
        record = await self.fake.select(self.member(by), self.panel(), select["custom_id"], [str(target)])
        await self.settled()
        return record

    async def vote(self, seat: int) -> InteractionRecord:
        vote = self.t("control-vote", seat=0, name="").split("0")[0]  # «Голосую: №», «I vote: #»
        label = next(b["label"] for b in self.panel().buttons() if b["label"].startswith(vote))
        return await self.click_panel(self.member(seat), label)

    def latest_prompt(self, seat: int) -> Message:
        """The newest DM to this seat that has a select or buttons of the current step."""
        serial = f":{self.table.session.serial}:" if self.table else ""
        for message in reversed(self.fake.dms(self.member(seat))):
            ids = [c.get("custom_id", "") for c in message.items()]
            if any(serial in cid for cid in ids):
                return message
        raise LookupError(f"no current prompt in the DMs of seat {seat}")

    async def act_in_dm(self, seat: int, target: int) -> InteractionRecord:
        prompt = self.latest_prompt(seat)
        select = next(c for c in prompt.items() if c["type"] == 3)
        record = await self.fake.select(self.member(seat), prompt, select["custom_id"], [str(target)])
        await self.settled()
        return record

    async def act_via_my_turn(self, seat: int, target: int) -> InteractionRecord:
        """«Мой ход» on the public panel, then the select in the ephemeral answer."""
        opened = await self.click_panel(self.member(seat), self.t("control-turn"))
        assert opened.ephemeral
        prompt = opened.message
        select = next(c for c in prompt.items() if c["type"] == 3)
        record = await self.fake.select(self.member(seat), prompt, select["custom_id"], [str(target)])
        await self.settled()
        return record

    # -- oracles ----------------------------------------------------------------------------------

    def expected_speakers(self) -> set[int]:
        """Who may talk now, by the rules as the test reads them (not by the bot's own function)."""
        s = self.state
        if s.phase != "day":
            return set()
        if s.step.kind == "speech":
            return {s.step.seat}
        if s.step.kind in ("discussion", "nominations"):
            return set(s.alive)
        return set()

    def assert_mutes(self) -> None:
        """Every seat in voice is muted except who may talk now (the dead included)."""
        in_voice = {seat for seat in self.all_seats() if self.fake.voice_state(self.member(seat))}
        expected = in_voice - self.expected_speakers()
        s = self.state
        where = f"{s.phase} {s.day}/{s.night} {s.step.kind} seat {s.step.seat} {s.step.night_step}"
        assert self.muted_seats() == expected, (
            f"{where}: muted {sorted(self.muted_seats())}, want {sorted(expected)}"
        )

    def prompts_since(self, marks: dict[int, int]) -> set[int]:
        """Seats that got a DM with a select or buttons since `marks` (DM counts per seat)."""
        return {
            seat
            for seat, count in marks.items()
            if any(m.items() for m in self.fake.dms(self.member(seat))[count:])
        }

    def dm_counts(self) -> dict[int, int]:
        return {seat: len(self.fake.dms(self.member(seat))) for seat in self.all_seats()}

    def dm_texts(self, seat: int) -> list[str]:
        return [m.text for m in self.fake.dms(self.member(seat))]
