"""A running game at a Discord table: renders the session's events into the text channel and private
messages, keeps the control panel up to date, and drives the voice controller and the host's voice.

The table changes no game: the game service applies every change (its one door) and hands the events
here. All output goes through one queue, in order, and a message Discord fails with a 5xx is sent again
(retry.py) rather than dropped. Before the voice controller changes a member's mute it holds him in the
voice ledger; at the end the reconciler gives everyone his own state back (ledger.py, reconciler.py)."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
import orjson
from discord.http import handle_message_parameters

from engine import queries
from engine.events import Event
from mafiabot.answers import send_message, update_message
from mafiabot.chaos import kill_point
from mafiabot.errors import expired
from mafiabot.game.clock import ClockKeeper
from mafiabot.game.components import PROMPT_EVENTS, prompt_for, prompted_seats
from mafiabot.game.panel import DrawnPanel, PanelKey, accent, panel_layout, panel_text, private_layout
from mafiabot.game.reconciler import Reconciler
from mafiabot.game.records import GameRecords
from mafiabot.game.render import announces_turn_only, render
from mafiabot.game.session import GameSession
from mafiabot.game.voice import VoiceController, wanted_mutes
from mafiabot.i18n import text
from mafiabot.retry import nonce, retried

if TYPE_CHECKING:
    from engine.state import GameState
    from mafiabot.game.speaker import Speaker

log = logging.getLogger(__name__)

_STEP_OPENERS = {"speech", "night_step", "ballot", "announce", "question"}

# One panel edit (or move to the bottom) per 1.25 s at most: under Discord's 5 edits per 5 s in a
# channel, whatever the pace.
PANEL_EDIT_INTERVAL = 1.25

CARRIED = "carried"  # a click's answer carried the panel's change: nothing else to answer
EXPIRED = "expired"  # Discord had forgotten the click (10062): nobody to answer
ALONGSIDE = "alongside"  # the panel was edited while the click's «думает…» was under way


class PanelClick:
    """A click on the panel whose command changes it: its answer may be the panel's change itself
    (Discord's UPDATE_MESSAGE, or the edit of @original after a late DEFERRED_UPDATE_MESSAGE), one
    request where an answer and an edit were two (issue 18). ``outcome`` is CARRIED, EXPIRED, or ""
    when the click is still to be answered (the panel did not change, or moved, or the answer failed), or
    ALONGSIDE when the panel's change was sent as its own edit because the click's late acknowledgement
    («думает…», mafiabot/cogs/_play.py) was under way: that acknowledgement is then the click's answer."""

    def __init__(self, interaction: discord.Interaction[Any]) -> None:
        self.interaction = interaction
        # Held by the answer or by a late acknowledgement while either is under way: the other, seeing it
        # held, does not wait for it (issue 18: in a burst the one behind came after Discord's 3 s).
        self.lock = asyncio.Lock()
        self.outcome: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    def settle(self, outcome: str = "") -> None:
        if not self.outcome.done():
            self.outcome.set_result(outcome)


class Table:
    def __init__(
        self,
        records: GameRecords,
        guild: discord.Guild,
        text_channel: discord.abc.Messageable,
        voice_channel_id: int,
        creator_id: int,
        voice_original: Mapping[int, bool] | None = None,
        *,
        reconciler: Reconciler,
        clocks: ClockKeeper,
        mute_spectators: bool = True,
        panel_edit_interval: float = 0.0,
    ) -> None:
        self.records = records
        self.reconciler = reconciler
        self.clocks = clocks
        self.mute_spectators = mute_spectators
        self.panel_edit_interval = panel_edit_interval
        self._panel_ticket = 0  # the latest refresh asked for; an older queued one is skipped
        self._panel_edited_at = float("-inf")
        self.guild = guild
        self.channel = text_channel
        self.text_channel_id: int = getattr(text_channel, "id", 0)
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
            lambda: self.guild,
            voice_channel_id,
            self._wanted,
            hold=self._hold,
            give_back=self._give_back,
            moved_away=self._moved_away,
            on_forbidden=self._forbidden,
            on_original=self.save_timers,
            original=voice_original,
            crew=reconciler.crew,
            first=self._next_speaker,
            language=lambda: self.session.language,
        )
        self.speaker: Speaker | None = None
        self.finished = False  # the game is over and its end is being rendered
        self.closed = False  # voice given back, timers and workers stopped
        self._giving_back: asyncio.Task[None] | None = None  # the over game's voice, ahead of the queue
        self._warned_forbidden = False
        self.leave_timers: dict[int, asyncio.Task[None]] = {}
        self.nick_original: dict[int, str | None] = {}  # nicknames before the seat numbers were added
        # The players' DM channels, kept by the table: discord.py keeps only the last 128 it used, so
        # with more players than that in the process every DM asked Discord for its channel again (a
        # request more each; ≈ 0.2 a click at 300 tables, issue 18). A channel's id never changes.
        self._dm_channels: dict[int, discord.DMChannel] = {}
        self._panel_shown: bytes | None = None  # the panel's components as last sent (JSON)
        self._panel_key: PanelKey | None = None  # what they were drawn from (panel.PanelKey)
        self.panels_drawn = 0  # panels drawn, sent or not (tests)
        self._panel_buried = False  # something was posted below the panel: it moves to the bottom
        self._panel_undecided = False  # a refresh is queued that has not drawn the panel yet
        self._panel_click: PanelClick | None = None  # the click whose answer may carry that refresh
        self.dealt = False  # the seating and the opening of the game were posted (a restart re-sends them)
        # A resumed table's clock as it was when its process stopped, until the step's time is given
        # back (start_keeping_time): whatever is stored meanwhile (voice originals) keeps that clock,
        # not the un-restored one.
        self.held_clock: dict[str, Any] | None = None
        self.anchor: dict[str, Any] | None = None  # the clock as last stored (mafiabot/game/clock.py)

    @property
    def game_id(self) -> int:
        return self.session.game_id

    def rebind(self, guild: discord.Guild) -> None:
        """discord.py has a new object for the guild (after INVALID_SESSION it re-reads every guild,
        channel and member): look everything up in it from now on, so a spectator who joins is seen."""
        self.guild = guild
        channel = guild.get_channel(self.text_channel_id)
        if isinstance(channel, discord.abc.Messageable):
            self.channel = channel
        self.voice.update()

    def start_workers(self) -> None:
        self._sender = asyncio.create_task(self._send_loop(), name=f"game {self.game_id} sender")
        self.voice.start()

    # -- the step's clock, stored -------------------------------------------------------------------

    def start_keeping_time(self) -> None:
        """Once the step's clock is right (a new game's, or a resumed one's with its time given back):
        before that, storing it would overwrite the time a restart must give back. From now on the
        process's heartbeat keeps it (mafiabot/game/clock.py): stored when it changes otherwise than
        by the time going by, with the next heartbeat."""
        self.held_clock = None
        if not self.closed:
            self.clocks.keep(self)

    async def stop_keeping_time(self) -> None:
        self.clocks.drop(self)

    @property
    def keeps_time(self) -> bool:
        """The game is on: not over, not closed (its clock is kept for a restart)."""
        return not (self.closed or self.finished or self.session.closed or self.session.over)

    def stored(self, clock: dict[str, Any]) -> None:
        """``clock`` (a timer_state) is stored: the anchor the next changes are told from."""
        if self.anchor is None or clock.get("stored_at", 0.0) >= self.anchor.get("stored_at", 0.0):
            self.anchor = clock

    # -- rendering --------------------------------------------------------------------------------

    def countdown(self, seconds_left: int) -> None:
        """Ten seconds are left of the current step."""
        session = self.session
        if session.state.phase == "night":
            # Only the players who act hear it: a dead role's step ends at a drawn moment (D-G8, see
            # pacing.py), so a public warning would tell the table the role is alive.
            for seat in sorted(queries.actors(session.state)):
                self.dm(seat, text(session.language, "countdown-ten"))
            return
        # The day's last ten seconds are on the panel and in the host's voice («Осталось десять секунд»,
        # timer_ten_seconds), not a line: a line would move the panel below it in every long speech (a
        # message, a new panel and a delete; issue 18), where the panel's one edit says it.
        session.ten_seconds_warned = session.serial
        self.refresh_panel()
        if self.speaker is not None:
            self.speaker.say("timer_ten_seconds", {}, self._names())

    def show(self, events: list[Event]) -> None:
        """Render a change: public lines (spoken too), private ones, prompts, the mutes and the panel."""
        session = self.session
        public: list[str] = []
        private: dict[int, list[str]] = {}
        spoken: list[asyncio.Future[Any]] = []
        for ev in events:
            public_turn = ev.audience.kind == "public" and announces_turn_only(ev)
            if public_turn and self.speaker is None:
                continue  # a hand-over without the host's voice is on the panel alone: nothing to render
            line = render(ev, session.name_of, session.state.ruleset, session.language)
            if line is None:
                continue
            if ev.audience.kind == "public":
                if not public_turn:  # a hand-over is on the panel (and spoken)
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
            self.hold_clock(spoken[-1])
        self._prompt_actors(events)
        self.refresh()

    def hold_clock(self, until: asyncio.Future[Any]) -> None:
        """The step's clock starts when the host has finished its opening line; the panel is drawn again
        then, with the countdown (issue 13: it used to keep a stale «пауза» until the next change)."""
        self.session.hold(until)  # first: the clock runs again before the panel is drawn
        until.add_done_callback(lambda _: None if self.closed else self._clock_released())

    def _clock_released(self) -> None:
        self.clocks.touch(self)  # it runs again: stored with the next heartbeat
        self.refresh_panel()

    def refresh(self) -> None:
        """The mutes and the panel follow the game's state (also after a change without events)."""
        self.clocks.touch(self)  # a new step, a closing one: its clock is looked at with the heartbeat
        self.voice.update()
        self.refresh_panel()

    def _names(self) -> dict[int, str]:
        return {info.seat: info.name for info in self.session.seats}

    # -- output -----------------------------------------------------------------------------------

    def post(self, text: str, **kwargs: Any) -> None:
        """A line in the game's channel. The panel's next change moves it below (refresh_panel) while the
        game runs; after its end the last lines (winners, roles, the record) stay last, and a stopping
        bot's notice leaves the panel where it is (the next start draws it anew)."""
        running = not self.session.state.over and not self.session.closed
        once = nonce()  # the send loop repeats a send whose answer was lost: Discord keeps one

        async def send() -> None:
            await send_message(self.channel, text[:2000], nonce=once, **kwargs)
            self._panel_buried = self.panel is not None and running

        self.enqueue(send)

    def dm(self, seat: int, text: str, view: discord.ui.View | None = None) -> None:
        """A private message in Components V2, like the panel (panel.private_layout): the text and the
        view's controls in one container of the phase's colour."""
        user_id = self.session.user_of(seat)
        items = list(view.children) if view is not None else []
        if view is not None:
            view.clear_items()  # its controls move into the layout
        layout = private_layout(text, items, accent(self.session.state))
        once = nonce()

        async def send() -> None:
            member = await self.member(user_id)
            if member is None:
                return

            async def deliver() -> int:
                channel = self._dm_channels.get(user_id)
                if channel is None:
                    channel = self._dm_channels[user_id] = await member.create_dm()
                return await send_message(channel, nonce=once, view=layout)

            try:
                await retried(
                    deliver,
                    what="A private message of the game",
                    extra={"game_id": self.game_id},
                )
            except (discord.HTTPException, aiohttp.ClientError):  # its own retries are spent: not again
                log.info(
                    "DM to seat %s failed; the player can use the panel's turn button",
                    seat,
                    extra={"game_id": self.game_id},
                )

        self.enqueue(send)

    async def member(self, user_id: int) -> discord.Member | None:
        """A seated member, from the cache or else from Discord: the bot does not ask for every server's
        member list at start, so after a restart a player who is not in voice is not cached."""
        member = self.guild.get_member(user_id)
        if member is not None:
            return member
        try:
            return await self.guild.fetch_member(user_id)
        except discord.NotFound:
            return None  # he left the server

    def enqueue(self, job: Callable[[], Awaitable[Any]]) -> None:
        self._idle.clear()
        self._outbox.put_nowait(job)

    async def _send_loop(self) -> None:
        try:
            await self._send_all()
        finally:  # a click waiting for the panel's change is answered on its own
            click, self._panel_click = self._panel_click, None
            if click is not None:
                click.settle()

    async def _send_all(self) -> None:
        while True:
            job = await self._outbox.get()
            if job is None:
                self._idle.set()
                return
            try:
                # A 5xx or 429 is sent again (a message, a panel edit); nothing is dropped in silence.
                await retried(job, what="Sending", extra={"game_id": self.game_id})
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("Sending failed; the next message goes on", extra={"game_id": self.game_id})
            if self._outbox.empty():
                self._idle.set()

    async def settled(self) -> None:
        """Everything queued so far is sent and voice has converged (tests wait on this)."""
        await self._idle.wait()
        await self.voice.settled()

    # -- panel and prompts ------------------------------------------------------------------------

    def status_text(self) -> str:
        """The panel's text as players read it."""
        return panel_text(self.session)

    def refresh_panel(self) -> None:
        """Draw the panel again, at the bottom of the channel if something was posted below it. Refreshes
        asked for meanwhile are coalesced into the latest one."""
        self._panel_ticket += 1
        self._panel_undecided = True
        ticket = self._panel_ticket
        once = nonce()  # for the one new panel message an update may send, however often it is tried

        async def update() -> None:
            if ticket != self._panel_ticket:
                return  # a later refresh is queued: it shows what this one would, and more (and its click)
            loop = asyncio.get_running_loop()
            wait = self._panel_edited_at + self.panel_edit_interval - loop.time()
            # Discord allows 5 edits per 5 s in a channel: never meet it. A click's answer is no edit
            # of the channel's (the interaction's own route): it need not wait.
            if self.panel is not None and wait > 0 and self._panel_click is None:
                await asyncio.sleep(wait)
                if ticket != self._panel_ticket:
                    return
            click, self._panel_click = self._panel_click, None
            self._panel_undecided = False
            try:
                await self._draw_panel(click, once)
            finally:
                if click is not None:
                    click.settle()  # not carried (unless settled so above): the click answers itself

        self.enqueue(update)

    async def _draw_panel(self, click: PanelClick | None, once: str) -> None:
        key = PanelKey(self.session)
        if self.panel is not None and key == self._panel_key:
            return  # nothing the panel shows changed since it was drawn: not drawn again (nor moved)
        view = panel_layout(self.session)  # (its components alone, DrawnPanel: nothing to take apart)
        self.panels_drawn += 1
        await self._send_panel(view, key, click, once)

    async def _send_panel(self, view: DrawnPanel, key: PanelKey, click: PanelClick | None, once: str) -> None:
        loop = asyncio.get_running_loop()
        # An edit that changes nothing is still seen («изменено», a gateway update): at night it would
        # tell the table that somebody acted, so the panel is edited (or moved to the bottom, as a new
        # message, when lines were posted below it) only when it changes; a click whose command left it
        # as it was is answered privately, never by an update of the panel. A move costs one message
        # create and a delete instead of an edit: the channel's 5 creates per 5 s go to the transcript
        # first.
        # (Compared as the components' JSON: their repr cost twice the drawing's to_components, ≈ 13 µs
        # a panel, and the dicts themselves, kept until the next panel, were a few dozen containers a
        # click for the collector to walk and promote; bytes are not tracked.)
        shown = orjson.dumps(view.components)
        if self.panel is None:
            self.panel = await self.channel.send(view=view, nonce=once)
        elif shown == self._panel_shown:
            self._panel_key = key
            return  # unchanged: not even moved (the host's lines come with the step that changes it)
        elif self._panel_buried:  # the change is sent as a new panel below the lines, the old deleted
            old = self.panel
            self.panel = await self.channel.send(view=view, nonce=once)
            self._panel_edited_at = loop.time()
            await self._delete_old_panel(old)
        elif click is None or not await self._answer_with_panel(click, view):
            wait = self._panel_edited_at + self.panel_edit_interval - loop.time()
            if click is not None and wait > 0:
                await asyncio.sleep(wait)  # (an answer that failed: the edit keeps the channel's pace)
            try:
                await self._edit_panel(view)
            except discord.NotFound:
                self.panel = await self.channel.send(view=view, nonce=once)
            self._panel_edited_at = loop.time()
        self._panel_buried = False
        self._panel_shown = shown
        self._panel_key = key

    async def _edit_panel(self, view: DrawnPanel) -> None:
        """The panel's edit, with the request `Message.edit` makes, without what it makes of Discord's
        answer: a whole Components V2 message built from it (≈ 25 µs) and the view stored for clicks that
        its items' class takes (≈ 9 µs), at every edit nobody clicked for (a step's clock, a speech's
        last ten seconds: two a speech that runs out; issue 18)."""
        panel = self.panel
        assert panel is not None
        flags = discord.MessageFlags()
        flags.value = panel.flags.value
        flags.suppress_embeds = False  # (as Message.edit sends them)
        with handle_message_parameters(view=view, flags=flags) as params:
            await self.reconciler.client.http.edit_message(panel.channel.id, panel.id, params=params)

    def is_panel(self, message: discord.Message | None) -> bool:
        return message is not None and self.panel is not None and message.id == self.panel.id

    def carry_answer(self, click: PanelClick) -> bool:
        """Let the panel's queued change answer this click on the panel (issue 18: one request, not an
        answer and an edit). False when it cannot: no change queued, another click's answer carries
        it, or lines wait to be posted (the panel then moves below them as a new message, which no
        answer can be)."""
        if (
            not self.is_panel(click.interaction.message)
            or not self._panel_undecided
            or self._panel_click is not None
            or self._panel_buried
            or self._outbox.qsize() > 1  # more than the refresh itself: lines to post, private messages
            or self._sender is None
            or self._sender.done()
        ):
            return False
        self._panel_click = click
        return True

    async def _answer_with_panel(self, click: PanelClick, view: DrawnPanel) -> bool:
        """The panel's change as the click's answer. False (the click not settled) when Discord refused
        it or it was answered otherwise («думает…»): the panel is then edited as usual."""
        interaction = click.interaction
        if not self.is_panel(interaction.message):
            return False  # (a panel moved since the click: the click was on the old one)
        if click.lock.locked():  # «думает…» is under way: the panel is edited beside it, not after it
            click.settle(ALONGSIDE)
            return False
        async with click.lock:
            response = interaction.response
            try:
                if not response.is_done():
                    await update_message(interaction, view)  # (without discord.py's models of the reply)
                elif response.type is discord.InteractionResponseType.deferred_message_update:
                    await interaction.edit_original_response(view=view)
                else:
                    return False
            except discord.HTTPException as error:
                if expired(error):  # answered after Discord's 3 s: the panel is edited as usual
                    click.settle(EXPIRED)
                else:
                    log.warning(
                        "A click's answer could not carry the panel: %s",
                        error,
                        extra={"game_id": self.game_id},
                    )
                return False
        click.settle(CARRIED)
        return True

    async def _delete_old_panel(self, old: discord.Message) -> None:
        try:
            await old.delete()
        except discord.NotFound:
            pass  # a moderator deleted it already
        except discord.HTTPException as exc:  # a stale panel left behind: its buttons are refused as stale
            log.warning("An old panel could not be deleted: %s", exc, extra={"game_id": self.game_id})

    def _prompt_actors(self, events: list[Event]) -> None:
        if not any(e.type in PROMPT_EVENTS for e in events):
            return
        for seat in sorted(prompted_seats(self.session)):
            prompt = prompt_for(self.session, seat)
            if prompt is not None:
                text, view = prompt
                self.dm(seat, text, view)

    # -- voice ------------------------------------------------------------------------------------

    def _wanted(self, present: Any) -> dict[int, bool]:
        s = self.session.state
        if s.over or self.session.closed:
            return {}
        seat_users = {info.seat: info.user_id for info in self.session.seats}
        return wanted_mutes(s, seat_users, present, mute_spectators=self.mute_spectators)

    def stage(self, after: GameState) -> None:
        """The rules fixed the game's next state (its step's clock ran out): its mutes may go while the
        command is stored (VoiceController.stage)."""
        if after.over or self.session.closed:
            return  # the end gives everyone his voice back; nothing to stage
        seat_users = {info.seat: info.user_id for info in self.session.seats}
        self.voice.stage(
            lambda present: wanted_mutes(after, seat_users, present, mute_spectators=self.mute_spectators)
        )

    def _next_speaker(self) -> int | None:
        step = self.session.state.step
        seat = step.seat if step.kind == "speech" else None
        return self.session.user_of(seat) if seat else None

    async def _hold(self, originals: dict[int, bool]) -> dict[int, bool]:
        return await self.reconciler.ledger.hold(
            guild_id=self.guild.id,
            game_id=self.game_id,
            voice_channel_id=self.voice_channel_id,
            text_channel_id=self.text_channel_id,
            originals=originals,
        )

    async def _give_back(self, sent: Mapping[int, bool], known: Mapping[int, bool]) -> None:
        """The game's end: (with a database the status change already owes its members back). `known`:
        what the ledger owes the members this process held (their edits need no read first)."""
        await self.reconciler.ledger.give_back_game(self.game_id)
        kill_point("during_release")  # the game is over in storage; its members still muted
        await self.reconciler.settle(self.guild.id, game_id=self.game_id, sent=sent, known=known)

    @property
    def owns_voice(self) -> bool:
        """The game still decides the mutes in its channel (until it is over: then they are owed back)."""
        return not self.finished and not self.closed

    def give_voice_back(self) -> None:
        """The game is over: its members get their own voice back now, not from the end of the queue.
        The queue can hold seconds of messages (Discord's 5 per 5 s in a channel: the result, the roles,
        the record) and the players must not sit muted through them; the member edits have buckets of
        their own. The ledger keeps each member until Discord confirms him (a crash from here on: the
        game is stored «over», and the next start closes it and gives back what is still owed)."""
        if self._giving_back is None:
            self._giving_back = asyncio.create_task(
                self._release_voice(), name=f"game {self.game_id} voice back"
            )

    async def _release_voice(self) -> None:
        try:
            await self.voice.release()
        except Exception:  # the ledger still owes them: the reconciler's next round gives them back
            if not self.reconciler.stopped:  # (a bot closing mid-release: the next start pays)
                log.exception("Giving voice back failed", extra={"game_id": self.game_id})

    async def _moved_away(self, member: discord.Member) -> None:
        await self.reconciler.ledger.give_back_member(self.guild.id, member.id)
        await self.reconciler.settle(self.guild.id, user_id=member.id)

    async def _forbidden(self) -> None:
        if not self._warned_forbidden:
            self._warned_forbidden = True
            self.post(text(self.session.language, "table-no-mute-permission"))

    # -- the end ----------------------------------------------------------------------------------

    async def send_record(self, record: dict[str, Any]) -> None:
        """The game's file, sent at its end (from the queue, after the final messages). An upload that
        fails (no Attach Files in the channel) is said in words and never keeps the game from closing."""
        data = json.dumps(record, ensure_ascii=False, indent=1).encode("utf-8")
        name = f"mafia-game-{self.game_id}.json"
        once = nonce()
        try:
            await retried(
                lambda: self.channel.send(
                    text(self.session.language, "table-record"),
                    file=discord.File(io.BytesIO(data), filename=name),
                    nonce=once,
                ),
                what="The game's record",
                extra={"game_id": self.game_id},
            )
        except discord.Forbidden:
            log.warning("No permission to attach the game's record", extra={"game_id": self.game_id})
            self.post(text(self.session.language, "table-record-not-attached"))
        except (discord.HTTPException, aiohttp.ClientError):  # a link that stayed down through the retries
            log.exception("The game's record could not be sent", extra={"game_id": self.game_id})

    def timer_state(self) -> dict[str, Any]:
        held = self.held_clock
        clock = self.session.timer_state() if held is None else held
        return {
            **clock,
            # The heartbeat that vouches for a running clock after this instant (mafiabot/game/clock.py).
            **({"beat": self.clocks.key} if held is None and clock.get("running") else {}),
            # When this clock was true (the crash harness measures the time a restart costs with it).
            "stored_at": time.time() if held is None else held.get("stored_at", 0.0),
            "dealt": self.dealt,
            "creator_id": self.creator_id,
            "language": self.session.language,  # a game keeps its language across restarts
            # ... and the server's timers and spectator rule as they were at its start
            "timers": dict(self.session.ruleset.timers),
            "mute_spectators": self.mute_spectators,
            "voice_original": {str(uid): muted for uid, muted in self.voice.original.items()},
            "nicknames": {str(uid): nick for uid, nick in self.nick_original.items()},
        }

    def mark_dealt(self) -> None:
        """The seating and the opening are queued: once the sender has sent them (this job runs after
        them), the game counts as dealt and that is stored. Set earlier, a clock stored meanwhile (a new
        step's, with the heartbeat) told a restart that the deal was out while it was still queued, and
        a crash then lost the seating for good."""

        async def dealt() -> None:
            self.dealt = True
            await self.keep_timers()

        if not self.closed:
            self.enqueue(dealt)

    def save_timers(self) -> None:
        """Store the clock and voice originals, in order with everything else this table sends."""
        if not self.closed:
            self.enqueue(self.keep_timers)

    async def keep_timers(self) -> None:
        clock = self.timer_state()
        await self.records.save_timers(self.game_id, clock)
        self.stored(clock)

    def number_nicknames(self) -> None:
        """«1 · Name»: seat numbers in front of the players' names, after the opening messages."""

        async def rename() -> None:
            unchanged: list[int] = []
            for info in self.session.seats:
                member = await self.member(info.user_id)
                if member is None or info.user_id in self.nick_original:
                    continue
                self.nick_original[info.user_id] = member.nick
                await self.keep_timers()  # stored before the change, for a restart
                try:
                    await member.edit(
                        nick=f"{info.seat} · {member.display_name}"[:32],
                        reason=text(self.session.language, "table-nick-reason"),
                    )
                except discord.HTTPException:  # the server owner, or a member above the bot
                    del self.nick_original[info.user_id]
                    unchanged.append(info.seat)
            if unchanged:
                try:
                    await self.channel.send(
                        text(
                            self.session.language,
                            "table-nick-not-numbered",
                            seats=", ".join(
                                text(self.session.language, "seat-number", seat=x) for x in unchanged
                            ),
                        )
                    )
                except discord.HTTPException as exc:  # a note only: the game goes on without it
                    log.warning(
                        "The nickname note could not be sent: %s", exc, extra={"game_id": self.game_id}
                    )

        self.enqueue(rename)

    def restore_nicknames(self) -> None:
        """Give every renamed player their own nickname back (queued after the final messages)."""
        originals, self.nick_original = dict(self.nick_original), {}

        async def restore() -> None:
            for user_id, nick in originals.items():
                member = await self.member(user_id)
                if member is None:
                    continue
                try:
                    await member.edit(nick=nick, reason=text(self.session.language, "table-nick-back-reason"))
                except discord.HTTPException:  # the others still get theirs; this one is said in the log
                    log.warning(
                        "Could not give a nickname back", exc_info=True, extra={"game_id": self.game_id}
                    )

        if originals:
            self.enqueue(restore)

    async def release(self) -> None:
        """The game is over: voice and nicknames given back, every timer of the table stopped, the last
        lines still heard; what is queued so far is still sent, then the sender stops. (This may run
        from the sender itself: it does not wait for it.)"""
        self.closed = True
        await self.stop_keeping_time()
        for task in self.leave_timers.values():
            task.cancel()
        self.restore_nicknames()
        self.give_voice_back()  # (given back when the game was over; a stop that was not comes here)
        assert self._giving_back is not None
        await self._giving_back
        await self.session.close()
        if self.speaker is not None:
            await self.speaker.queue.drain()  # the last lines (the winners) are still heard
            await self.speaker.close()
        self._outbox.put_nowait(None)

    def sending(self) -> asyncio.Task[None] | None:
        """The sender, while it still has lines to send."""
        return self._sender if self._sender is not None and not self._sender.done() else None

    def after_sent_all(self, callback: Callable[[], Any]) -> None:
        """Call ``callback`` once the sender has stopped (at once if it has, or never started)."""
        sender = self.sending()
        if sender is None:
            callback()
        else:
            sender.add_done_callback(lambda _: callback())

    async def sent_all(self) -> None:
        """After release(): every queued line is sent and the sender has stopped."""
        if self._sender is not None:
            await asyncio.shield(self._sender)

    async def shutdown(self) -> None:
        """Stop every task of this table but leave the voice state as it is (a restart resumes it)."""
        await self.session.close()
        await self.stop_keeping_time()
        if self.speaker is not None:
            await self.speaker.close()
        for task in self.leave_timers.values():
            task.cancel()
        if self._giving_back is not None:  # a stopping bot: what is still owed waits for the next start
            self._giving_back.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._giving_back
        await self.voice.stop()
        self._outbox.put_nowait(None)
        if self._sender is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._sender, timeout=10)
