"""The voice controller: who must be server-muted now, and only the edits that change something.

Discord allows about ten member edits per ten seconds per guild, so the controller never re-sends a
mute that is already in place and always converges on the latest state (a worker applies the newest
wish, not a queue of old ones). At a hand-over it mutes the previous speaker before it unmutes the next
one (issue 13): two people talking at once is never right at the table, while the gap — one member
edit, tens of milliseconds — falls inside the host's «Слово предоставляется игроку номер N», and the
speech's clock starts only when the host has finished. (Unmuting first left the previous speaker
audible into the next one's minute, for up to ten seconds when the edit bucket was empty.)
It never touches a member outside the game's voice channel. Before it changes anyone's mute it holds him
in the voice ledger (ledger.py: who, which game, his own state before the game), so a crash right after
the edit still knows the mute is the bot's; at the end the reconciler gives every member his own state
back and lets him go from the ledger only once Discord confirmed it.

A burst (many edits at one transition) goes out at once, spread over the main bot and its helper bots
(crew.py: each token has its own edit bucket): first every mute of the step, then the unmutes, the next
speaker's first. Only what the tokens have room for is sent together; the rest follows one by one, each
checking that the step still wants it, so nobody is unmuted after his turn has passed.

Where the rules fix the next state before the bot has stored it (a step's clock ran out, the moderator
ended the step), the table stages it (`stage`): its mutes go out at once, beside the command's write,
instead of after it; its unmutes wait until it is the game's state, because nobody may speak before
the bot's game (and a restart's) says he may. Nothing is sent before the step's end itself: muting a
speaker before his time is up would cut his speech short.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Collection, Iterable, Mapping

import discord

from engine import queries
from engine.state import GameState
from mafiabot.chaos import kill_point
from mafiabot.game.crew import Crew
from mafiabot.i18n import DEFAULT, LANGUAGES, text
from mafiabot.retry import passing

log = logging.getLogger(__name__)

# After a convergence failed (each edit already retried by mafiabot/retry.py): the next try, doubling.
RETRY_PAUSE = 1.0
RETRY_PAUSE_MAX = 30.0


def wanted_mutes(
    state: GameState,
    seat_users: Mapping[int, int],
    present: Iterable[int],
    *,
    mute_spectators: bool = True,
) -> dict[int, bool]:
    """For each user in the channel: must the bot have them server-muted? (The game must be running.)

    The speaker (or everyone living in a free discussion) is unmuted; at night nobody speaks; the
    eliminated stay muted (D-G6, except a farewell speech); spectators are muted by default.
    """
    speakers = queries.speakers(state)
    seat_of = {user: seat for seat, user in seat_users.items()}
    out: dict[int, bool] = {}
    for user in present:
        seat = seat_of.get(user)
        out[user] = mute_spectators if seat is None else seat not in speakers
    return out


def order_edits(current: Mapping[int, bool], wanted: Mapping[int, bool]) -> list[tuple[int, bool]]:
    """The edits to make, mutes first: nobody talks over the next speaker (see the module's note)."""
    changes = [(user, want) for user, want in wanted.items() if current.get(user) != want]
    return sorted(changes, key=lambda change: (not change[1], change[0]))


# The audit log's reason for a game's mute, in each language (formatted once, not per mute).
_REASONS = {language: text(language, "audit-mute") for language in LANGUAGES}


class VoiceController:
    def __init__(
        self,
        guild: Callable[[], discord.Guild],
        channel_id: int,
        wanted: Callable[[Iterable[int]], dict[int, bool]],
        *,
        hold: Callable[[dict[int, bool]], Awaitable[Mapping[int, bool]]],
        give_back: Callable[[Mapping[int, bool], Mapping[int, bool]], Awaitable[None]],
        moved_away: Callable[[discord.Member], Awaitable[None]],
        on_forbidden: Callable[[], Awaitable[None]] | None = None,
        on_original: Callable[[], None] | None = None,
        original: Mapping[int, bool] | None = None,
        crew: Crew | None = None,
        first: Callable[[], int | None] | None = None,
        language: Callable[[], str] = lambda: DEFAULT,
    ) -> None:
        self._guild = guild  # looked up on every use: after INVALID_SESSION discord.py has new objects
        self.channel_id = channel_id
        self._wanted = wanted
        self._hold = hold
        self._give_back = give_back
        self._moved_away = moved_away
        self._on_forbidden = on_forbidden
        self._on_original = on_original
        self.crew = crew or Crew()
        self._first = first  # the user who speaks next: his unmute goes first
        # The game's language (the audit log's reason): the server's setting or, with none, the bot's.
        self._language = language
        self._staged: Callable[[Iterable[int]], dict[int, bool]] | None = None  # the next state's wish
        # The mute state each member had when the bot first saw him; stored with the game, so that after
        # a restart the bot still knows which mutes are its own. (The ledger keeps the authoritative one.)
        self.original: dict[int, bool] = dict(original or {})
        self.bot_muted: set[int] = set()
        # In the ledger under this game, as far as this process knows, with the state the ledger owes
        # each (his original as stored first): the give-back starts from it, not from a read.
        self._held: dict[int, bool] = {}
        # Mutes sent whose VOICE_STATE_UPDATE has not come back yet: discord.py's cache still shows the
        # old state, and converging again from the cache alone would send the same edit twice.
        self._sent: dict[int, bool] = {}
        # Edits under way, until their answer: Discord's echo can come first (the gateway overtakes the
        # answer), and then discord.py's cache shows the edit already; None once it has come.
        self._sending: dict[int, bool | None] = {}
        self.convergences = 0  # the channel read and compared with what the step wants (tests)
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._released = False
        # A convergence holds this while it edits: the release waits for an edit under way to be answered
        # (cancelled mid-request, a mute Discord applied would be one the bot does not know it made).
        self._converging = asyncio.Lock()
        self._worker: asyncio.Task[None] | None = None
        self._retry: asyncio.TimerHandle | None = None  # the next try after a failed convergence
        self.edits = 0  # member edits sent (benchmarks and tests)

    @property
    def guild(self) -> discord.Guild:
        return self._guild()

    def start(self) -> None:
        if self._worker is None:
            self._worker = asyncio.create_task(self._run(), name=f"voice {self.channel_id}")
        self.update()

    def first_holds(self, players: Collection[int], *, spectators: bool) -> dict[int, bool]:
        """A new table: the members in its channel the game will hold (its players, and the others when
        spectators are muted), with their own state as seen now, their originals from here on. The
        game's creation stores them in the ledger (`held`), so its first mutes wait for no write."""
        out: dict[int, bool] = {}
        for member in self.members_in_channel():
            if member.id in players or spectators:
                own = bool(member.voice and member.voice.mute) and member.id not in self.bot_muted
                out[member.id] = self.original.setdefault(member.id, own)
        return out

    def held(self, owed: Mapping[int, bool]) -> None:
        """These members are in the ledger under this game (stored elsewhere), owed these states."""
        self._held.update(owed)

    def update(self) -> None:
        """Ask the worker to converge on the state as it is now."""
        self._idle.clear()
        self._wake.set()

    def stage(self, later: Callable[[Iterable[int]], dict[int, bool]]) -> None:
        """The rules fixed the next state and the bot is storing it: its mutes go now (see the module)."""
        self._staged = later
        self.update()

    def unstage(self) -> None:
        """The staged state is the game's now, or it was not stored: converge on the game's alone."""
        if self._staged is not None:
            self._staged = None
            self.update()

    async def settled(self) -> None:
        await self._idle.wait()

    def members_in_channel(self) -> list[discord.Member]:
        guild = self.guild
        channel = guild.get_channel(self.channel_id)
        if not isinstance(channel, discord.VoiceChannel | discord.StageChannel):
            return []
        me = guild.me.id if guild.me else 0
        return [m for m in channel.members if m.id != me]

    async def _run(self) -> None:
        try:
            await self.crew.meet(self.guild)  # which helper bots are on this server (crew.py)
        except Exception:
            log.exception("Meeting the helper bots failed", extra={"guild_id": self.guild.id})
        failures = 0
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                async with self._converging:
                    await self._converge()
                failures = 0
            except asyncio.CancelledError:
                raise
            except Exception as error:
                # Discord stayed down through the edit's own retries (a 5xx, a dropped link), or a bug:
                # the step still wants its mutes, so the table converges again later, whether or not
                # the game moves meanwhile (a speaker would otherwise stay muted through his speech).
                failures += 1
                pause = min(RETRY_PAUSE_MAX, RETRY_PAUSE * 2 ** (failures - 1))
                extra = {"guild_id": self.guild.id}
                if passing(error):  # Discord's side: said, without a traceback
                    log.warning("Voice update failed (%r); trying again in %.0f s", error, pause, extra=extra)
                else:
                    log.exception("Voice update failed; trying again in %.0f s", pause, extra=extra)
                self._retry_later(pause)
            if not self._wake.is_set():
                self._idle.set()

    def _retry_later(self, pause: float) -> None:
        self._cancel_retry()
        self._retry = asyncio.get_running_loop().call_later(pause, self._wake_if_running)

    def _cancel_retry(self) -> None:
        if self._retry is not None:
            self._retry.cancel()
            self._retry = None

    def _wake_if_running(self) -> None:
        self._retry = None
        if not self._released and self._worker is not None:
            self.update()

    async def _converge(self) -> None:
        if self._released:
            return
        self.convergences += 1
        members = {m.id: m for m in self.members_in_channel()}
        wanted = self._wanted(members)
        if self._staged is not None:  # only its mutes: nobody is unmuted before he may speak
            wanted.update({uid: True for uid, want in self._staged(members).items() if want})
        current: dict[int, bool] = {}
        for uid, m in members.items():  # (what was sent, else discord.py's cache: read only when needed)
            sent = self._sent.get(uid)
            if sent is None:
                voice = m.voice
                sent = voice is not None and voice.mute
            current[uid] = sent
        new_members = False
        for uid, muted in current.items():
            if uid not in self.original:
                self.original[uid] = muted and uid not in self.bot_muted
                new_members = True
            elif muted and not self.original[uid]:
                self.bot_muted.add(uid)  # muted since the bot first saw them: the bot's (after a restart)
        if new_members and self._on_original is not None:
            self._on_original()
        edits = order_edits(current, wanted)
        # Into the ledger before any edit: everyone about to be changed, and everyone the step keeps muted
        # whose mute may be another game's leftover (the table takes him over).
        to_hold = {uid: self.original[uid] for uid, _ in edits if uid not in self._held}
        to_hold.update(
            {uid: self.original[uid] for uid, want in wanted.items() if want and uid not in self._held}
        )
        if to_hold:
            # A failed write raises: no mute that is not recorded.
            self._held.update(await self._hold(to_hold))
        first = self._first() if self._first is not None else None
        mutes = [(members[uid], want) for uid, want in edits if want]
        unmutes = sorted(
            ((members[uid], want) for uid, want in edits if not want), key=lambda e: e[0].id != first
        )
        for phase in (mutes, unmutes):
            if not phase:
                continue
            if self._wake.is_set() or self._released:
                return  # a newer state arrived: start over from it
            room = self.crew.room(phase[0][0])
            together, one_by_one = phase[: max(1, room)], phase[max(1, room) :]
            results = await asyncio.gather(
                *(self._apply(m, want) for m, want in together), return_exceptions=True
            )
            for result in results:
                if isinstance(result, BaseException):
                    raise result
            for member, want in one_by_one:  # waits for a bucket: each checks the step still wants it
                await self._apply(member, want)

    async def _apply(self, member: discord.Member, want: bool) -> None:
        if self._wake.is_set() or self._released:
            return  # a newer state arrived: start over from it
        self._sending[member.id] = want
        try:
            applied = await self._edit(member, want)
        finally:
            echoed = self._sending.pop(member.id, want) is None
        if applied:
            if echoed:  # the cache shows it: nothing is waited for
                self._sent.pop(member.id, None)
            else:
                self._sent[member.id] = want
            (self.bot_muted.add if want else self.bot_muted.discard)(member.id)

    def observed(self, user_id: int, muted: bool | None = None) -> None:
        """Discord told the member's voice state (the echo of an edit, or someone else's change): the
        cache is current again; converge from it, so a mute lifted out of turn is put back. The echo of
        the table's own last edit (``muted`` as it was sent) changes nothing the table wants: no
        convergence for it (two a click, each reading the whole channel: issue 18); what the table
        wants changes only with the game, which wakes it itself. Nor does the echo of an edit still
        waiting for its answer: the convergence under way made it, and would have stopped to start over
        (its unmutes, the next speaker's first, sent one pass later: issue 18)."""
        if muted is not None and self._sending.get(user_id) == muted:
            self._sending[user_id] = None
            return
        sent = self._sent.pop(user_id, None)
        if sent is not None and sent == muted:
            return
        self.update()

    async def _edit(self, member: discord.Member, mute: bool) -> bool:
        voice = member.voice  # (a lookup in the guild's voice states each time it is read)
        channel = voice.channel if voice is not None else None
        if channel is None or channel.id != self.channel_id:
            return False  # never touch a member outside the game channel
        me = self.guild.me
        if me is not None and not channel.permissions_for(me).mute_members:
            # Known refused: asking anyway costs a 403 per member and step, and Discord bans a bot's
            # address for a while after 10,000 refusals in ten minutes (every server it is on).
            if self._on_forbidden is not None:
                await self._on_forbidden()
            return False
        try:
            next_speaker = not mute and self._first is not None and self._first() == member.id
            await self.crew.set_mute(
                member,
                mute,
                reason=_REASONS.get(self._language(), _REASONS[DEFAULT]),
                what="A mute of the game",
                next_speaker=next_speaker,
            )
        except discord.Forbidden:
            log.warning("Missing permission to mute", extra={"guild_id": member.guild.id})
            if self._on_forbidden is not None:
                await self._on_forbidden()
            return False
        except discord.HTTPException as exc:
            if exc.status == 400:  # not connected to voice any more
                return False
            raise
        self.edits += 1
        if mute:
            kill_point("after_mute")
        return True

    async def member_left(self, member: discord.Member) -> None:
        """A member left the game channel. Moved to another channel of the server, a server mute follows
        him: the ledger owes him his state now. Disconnected, Discord keeps the mute until he connects
        again; the ledger still holds him, and the reconciler pays on his next connect outside the game
        (back at the table, the mute stays the table's)."""
        if member.voice is not None and member.voice.channel is not None:
            self._held.pop(member.id, None)
            self.bot_muted.discard(member.id)
            self._sent.pop(member.id, None)
            await self._moved_away(member)

    async def stop(self) -> None:
        """Stop converging and leave every mute as it is (a restart resumes them)."""
        self._cancel_retry()
        if self._worker is not None:
            self._worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._worker
            self._worker = None
        self._idle.set()

    async def release(self) -> None:
        """The game ended or was stopped: everyone it held is owed his own state; the reconciler gives
        it back now to everyone in voice (the others on their next connect). Errors are raised.

        An edit under way is answered first (the convergence stops after it: nothing newer is sent), and
        the mutes sent whose echo discord.py has not yet cached are handed over as they are: the cache
        alone would take a member muted a moment ago for unmuted and let him go from the ledger. So is
        what the ledger owes the members this process held who are still in the channel: their edits
        leave before the ledger is read (issue 20), which only confirms them and finds the others."""
        self._released = True
        self._cancel_retry()
        self._idle.clear()  # settled() waits for the mutes given back
        try:
            async with self._converging:
                if self._worker is not None:  # (not stop(): it would say "settled" before the give-back)
                    self._worker.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await self._worker
                    self._worker = None
                here = {member.id for member in self.members_in_channel()}
                known = {uid: owed for uid, owed in self._held.items() if uid in here}
                await self._give_back(dict(self._sent), known)
            self.bot_muted.clear()
            self._held.clear()
        finally:
            self._idle.set()
