"""A running game at a Discord table: renders the session's events into the text channel and private
messages, keeps the control panel up to date, and drives the voice controller."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

import discord

from engine import queries
from engine.commands import Command
from engine.events import Event
from engine.state import GameState
from mafiabot.game.render import render
from mafiabot.game.session import GameSession
from mafiabot.game.speaker import Speaker
from mafiabot.game.voice import VoiceController, wanted_mutes

if TYPE_CHECKING:
    from mafiabot.game.service import GameService

log = logging.getLogger(__name__)

_STEP_OPENERS = {"speech", "night_step", "ballot", "announce", "question"}

STEP_TEXT = {
    "speech": "Говорит игрок №{seat}",
    "discussion": "Свободное обсуждение",
    "nominations": "Выдвижение кандидатур",
    "vote": "Голосование: игрок №{seat}",
    "tiebreak": "Решающий голос игрока №{seat}",
    "question": "Вопрос маньяку",
    "night": "Ночь",
    "meet": "Ночь: знакомство",
}


# The phases as presets name them (blood talks in its «night» and acts at dawn, day and sunset).
PHASE_NAMES = {"day": "День", "night": "Ночь", "dawn": "Рассвет", "sunset": "Закат"}


def phase_title(s: GameState) -> str:
    """«День 2», «Ночь 1»; where a preset names more phases (blood: night, dawn, day, sunset, its
    «night» being the talk), they are counted by cycle, after the introductory ones."""
    name = s.phase_name
    title = PHASE_NAMES.get(name, name)
    rules = s.ruleset
    if set(rules.loop_phases) <= {"day", "night"}:
        return f"{title} {s.day if s.phase == 'day' else s.night}"
    intro = len(rules.intro_phases)
    if s.position < intro:
        return f"{title} (вводный)"
    return f"{title} {(s.position - intro) // len(rules.loop_phases) + 1}"


class Table:
    def __init__(
        self,
        service: GameService,
        guild: discord.Guild,
        text_channel: discord.abc.Messageable,
        voice_channel_id: int,
        creator_id: int,
        voice_original: Mapping[int, bool] | None = None,
    ) -> None:
        self.service = service
        self.guild = guild
        self.channel = text_channel
        self.voice_channel_id = voice_channel_id
        self.creator_id = creator_id
        self.session: GameSession  # set by the service right after construction
        self.inbox: dict[int, list[str]] = {}
        self.panel: discord.Message | None = None
        self._outbox: asyncio.Queue[Callable[[], Awaitable[Any]] | None] = asyncio.Queue()
        self._sender: asyncio.Task[None] | None = None
        self._idle = asyncio.Event()
        self._idle.set()
        self.voice = VoiceController(
            guild,
            voice_channel_id,
            self._wanted,
            on_left_muted=self._left_muted,
            on_forbidden=self._forbidden,
            on_original=self.save_timers,
            original=voice_original,
        )
        self.speaker: Speaker | None = None
        self.finished = False  # the game is over and its end is being rendered
        self.closed = False  # voice given back, timers and workers stopped
        self._warned_forbidden = False
        self.leave_timers: dict[int, asyncio.Task[None]] = {}
        self.nick_original: dict[int, str | None] = {}  # nicknames before the seat numbers were added
        self._panel_shown: tuple[str, str] | None = None  # the panel's text and controls as last sent

    @property
    def game_id(self) -> int:
        return self.session.game_id

    def start_workers(self) -> None:
        self._sender = asyncio.create_task(self._send_loop(), name=f"game {self.game_id} sender")
        self.voice.start()

    # -- the session's listener -------------------------------------------------------------------

    async def on_command(self, session: GameSession, command: Command) -> None:
        await self.service.persist_command(session.game_id, command)

    async def on_tick(self, session: GameSession, seconds_left: int) -> None:
        if session.state.phase == "night":
            # Only the players who act hear it: a dead role's step ends at a drawn moment (D-G8, see
            # pacing.py), so a public warning would tell the table the role is alive.
            for seat in sorted(queries.actors(session.state)):
                self.dm(seat, "⏳ Осталось десять секунд.")
            return
        self.post("⏳ Осталось десять секунд.")

    async def on_events(self, session: GameSession, events: list[Event]) -> None:
        for hook in self.service.event_hooks:
            await hook(self, events)
        public: list[str] = []
        private: dict[int, list[str]] = {}
        spoken: list[asyncio.Future[Any]] = []
        for ev in events:
            line = render(ev, session.name_of)
            if line is None:
                continue
            if ev.audience.kind == "public":
                public.append(line.text)
                if self.speaker is not None and line.phrase is not None:
                    spoken.append(self.speaker.say(line.phrase, line.params, self._names()))
            elif ev.audience.kind in ("seats", "team"):
                for seat in ev.audience.seats:
                    private.setdefault(seat, []).append(line.text)
        if public:
            self.post("\n".join(public))
        for seat, lines in private.items():
            self.inbox.setdefault(seat, []).extend(lines)
            self.dm(seat, "\n".join(lines))
        if spoken and any(ev.type in _STEP_OPENERS for ev in events):
            session.hold(spoken[-1])  # the step's clock starts when the host has finished speaking
        self._prompt_actors(events)
        self.voice.update()
        self.refresh_panel()
        if session.over and not self.finished:
            self.finished = True
            self._enqueue(self._finish)

    def _names(self) -> dict[int, str]:
        return {info.seat: info.name for info in self.session.seats}

    # -- output -----------------------------------------------------------------------------------

    def post(self, text: str, **kwargs: Any) -> None:
        self._enqueue(lambda: self.channel.send(text[:2000], **kwargs))

    def dm(self, seat: int, text: str, view: discord.ui.View | None = None) -> None:
        user_id = self.session.user_of(seat)

        async def send() -> None:
            member = self.guild.get_member(user_id)
            if member is None:
                return
            try:
                if view is None:
                    await member.send(text[:2000])
                else:
                    await member.send(text[:2000], view=view)
            except discord.HTTPException:
                log.info(
                    "DM to seat %s failed; the player can use «Мой ход»",
                    seat,
                    extra={"game_id": self.game_id},
                )

        self._enqueue(send)

    def _enqueue(self, job: Callable[[], Awaitable[Any]]) -> None:
        self._idle.clear()
        self._outbox.put_nowait(job)

    async def _send_loop(self) -> None:
        while True:
            job = await self._outbox.get()
            if job is None:
                self._idle.set()
                return
            try:
                await job()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("Sending failed", extra={"game_id": self.game_id})
            if self._outbox.empty():
                self._idle.set()

    async def settled(self) -> None:
        """Everything queued so far is sent and voice has converged (tests wait on this)."""
        await self._idle.wait()
        await self.voice.settled()

    # -- panel and prompts ------------------------------------------------------------------------

    def status_text(self) -> str:
        s = self.session.state
        if s.over:
            return "Игра окончена."
        phase = phase_title(s)
        step = STEP_TEXT.get(s.step.kind, "").format(seat=s.step.seat)
        deadline = self.session.deadline()
        # No countdown at night: a dead role's step is shorter (D-G8), its deadline would give it away.
        timer = f" · до <t:{int(deadline)}:R>" if deadline and s.phase != "night" else ""
        if self.session.paused_left is not None:
            timer = " · пауза"
        alive = ", ".join(str(x) for x in s.living())
        nominees = ", ".join(str(t) for _, t in s.nominations if t in s.alive)
        lines = [f"**{phase}** — {step}{timer}", f"За столом: {alive}"]
        if nominees and s.phase == "day":
            lines.append(f"Выставлены: {nominees}")
        from mafiabot.game.components import STATUS_EXTRAS

        for extra in STATUS_EXTRAS:
            lines += extra(self)
        return "\n".join(lines)

    def refresh_panel(self) -> None:
        from mafiabot.game.components import panel_view

        async def update() -> None:
            view = panel_view(self)
            text = self.status_text()
            # An edit that changes nothing is still seen («изменено», a gateway update): at night it
            # would tell the table that somebody acted, so the panel is edited only when it changes.
            shown = (text, repr(view.to_components()))
            if self.panel is None:
                self.panel = await self.channel.send(text, view=view)
            elif shown == self._panel_shown:
                return
            else:
                try:
                    await self.panel.edit(content=text, view=view)
                except discord.NotFound:
                    self.panel = await self.channel.send(text, view=view)
            self._panel_shown = shown

        self._enqueue(update)

    def _prompt_actors(self, events: list[Event]) -> None:
        from mafiabot.game.components import PROMPT_EVENTS, prompt_for, prompted_seats

        if not any(e.type in PROMPT_EVENTS for e in events):
            return
        for seat in sorted(prompted_seats(self)):
            prompt = prompt_for(self, seat)
            if prompt is not None:
                text, view = prompt
                self.dm(seat, text, view)

    # -- voice ------------------------------------------------------------------------------------

    def _wanted(self, present: Any) -> dict[int, bool]:
        s = self.session.state
        if s.over or self.session.closed:
            return {}
        seat_users = {info.seat: info.user_id for info in self.session.seats}
        return wanted_mutes(s, seat_users, present, mute_spectators=self.service.mute_spectators)

    async def _left_muted(self, user_id: int) -> None:
        await self.service.remember_pending_unmute(self.guild.id, user_id)

    async def _forbidden(self) -> None:
        if not self._warned_forbidden:
            self._warned_forbidden = True
            self.post("⚠️ Боту не хватает права «Отключать участникам микрофон» в голосовом канале.")

    # -- the end ----------------------------------------------------------------------------------

    async def _finish(self) -> None:
        record = self.service.record_of(self)
        data = json.dumps(record, ensure_ascii=False, indent=1).encode("utf-8")
        await self.channel.send(
            "Протокол игры:", file=discord.File(io.BytesIO(data), filename=f"mafia-game-{self.game_id}.json")
        )
        await self.service.finished(self)

    def timer_state(self) -> dict[str, Any]:
        return {
            **self.session.timer_state(),
            "creator_id": self.creator_id,
            "voice_original": {str(uid): muted for uid, muted in self.voice.original.items()},
            "nicknames": {str(uid): nick for uid, nick in self.nick_original.items()},
        }

    def save_timers(self) -> None:
        """Store the clock and voice originals, in order with everything else this table sends."""
        if not self.closed:
            self._enqueue(lambda: self.service.save_timers(self))

    def number_nicknames(self) -> None:
        """«1 · Имя»: seat numbers in front of the players' names, after the opening messages."""

        async def rename() -> None:
            for info in self.session.seats:
                member = self.guild.get_member(info.user_id)
                if member is None or info.user_id in self.nick_original:
                    continue
                self.nick_original[info.user_id] = member.nick
                await self.service.save_timers(self)  # stored before the change, for a restart
                try:
                    await member.edit(
                        nick=f"{info.seat} · {member.display_name}"[:32], reason="Мафия: номер места"
                    )
                except discord.HTTPException:  # the server owner, or a member above the bot
                    del self.nick_original[info.user_id]

        self._enqueue(rename)

    def restore_nicknames(self) -> None:
        """Give every renamed player their own nickname back (queued after the final messages)."""
        originals, self.nick_original = dict(self.nick_original), {}

        async def restore() -> None:
            for user_id, nick in originals.items():
                member = self.guild.get_member(user_id)
                if member is not None:
                    with contextlib.suppress(discord.HTTPException):
                        await member.edit(nick=nick, reason="Мафия: игра окончена")

        if originals:
            self._enqueue(restore)

    def stop_sending(self) -> None:
        """The sender stops once everything queued so far is sent."""
        self._outbox.put_nowait(None)

    async def shutdown(self) -> None:
        """Stop every task of this table but leave the voice state as it is (a restart resumes it)."""
        await self.session.close()
        if self.speaker is not None:
            await self.speaker.close()
        for task in self.leave_timers.values():
            task.cancel()
        await self.voice.stop()
        self._outbox.put_nowait(None)
        if self._sender is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._sender, timeout=10)

    async def close(self) -> None:
        await self.session.close()
        if self.speaker is not None:
            await self.speaker.close()
        for task in self.leave_timers.values():
            task.cancel()
        await self.voice.release()
        self._outbox.put_nowait(None)
        if self._sender is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._sender, timeout=30)
