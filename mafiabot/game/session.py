"""One running game: the engine state, its command log, a lock, and the step timer.

The session applies commands (:meth:`GameSession.apply`, under its lock) and keeps the clock; it does
no I/O. The game service holds the one door that locks, applies, persists and shows a change; the
session's listener (the service) hears when a step's time is up and when ten seconds are left.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

import engine
from engine import queries
from engine.abilities import step_complete
from engine.commands import Command
from engine.events import Event
from engine.state import GameState, same_step
from mafiabot.errors import NotStored, StaleAction, UserFacingError
from mafiabot.game.pacing import HIGH, LOW, NightPacing, step_key

log = logging.getLogger(__name__)

STORE_RETRY = 1.0  # seconds before a timer retries a step's end the database refused

WAITING_STEPS = ("speech", "discussion", "nominations", "vote", "tiebreak", "question", "night", "meet")


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    user_id: int
    name: str


@dataclass(frozen=True)
class Move:
    """A command applied to a copy of the game, not yet accepted (see GameSession.prepare)."""

    command: Command  # as logged: stamped with the time
    before: GameState
    after: GameState
    events: list[Event]


class Listener(Protocol):
    async def on_due(self, session: GameSession, serial: int) -> None:
        """The step ``serial`` ran out of time: the listener advances the game (through its door)."""

    async def on_tick(self, session: GameSession, seconds_left: int) -> None: ...


class GameSession:
    def __init__(
        self,
        *,
        game_id: int,
        ruleset: engine.Ruleset,
        seats: Sequence[SeatInfo],
        roles: Sequence[str],
        seed: int,
        listener: Listener,
        clock: Callable[[], float] = time.time,
        commands: Sequence[Command] = (),
        extension: float = 0.0,
        started_at: float | None = None,
        immune: Sequence[int] = (),
        pacing: NightPacing | None = None,
    ) -> None:
        self.game_id = game_id
        self.ruleset = ruleset
        self.seats = list(seats)
        self.language = "ru"  # the server's, for every text of the table (mafiabot/i18n.py)
        self.ten_seconds_warned: int | None = None  # the step (serial) whose ten last seconds are told
        self.roles = list(roles)
        self.seed = seed
        self.listener = listener
        self.clock = clock
        self.started_at = clock() if started_at is None else started_at
        self.immune = sorted(immune)  # city immunity earned in the server's previous game (D-C5)
        self.state, self.opening_events = engine.new_game(
            ruleset, roles, seed, immune=self.immune, at=self.started_at
        )
        self.log: list[Command] = []
        # The serial counts steps, not commands: a button or prompt stays valid for its whole step (the
        # second mafioso's select after the first one proposed) and is stale after it.
        self.serial = 0
        for command in commands:  # a restart: rebuild the state from the stored log
            new_state, _ = engine.apply(self.state, command)
            self.serial += not same_step(self.state.step, new_state.step)
            self.state = new_state
            self.log.append(command)
        self.lock = asyncio.Lock()
        self.extension = extension  # seconds added to the current step (pause, extend)
        self.paused_left: float | None = None
        self._timer: asyncio.Task[None] | None = None
        # The host's own draws (how long a night step lasts once everybody acted, or nobody could act) are
        # the night's timing, seen by all: from the system's randomness, not from the game's seed (which the
        # engine's public lots draw from), so that no step's length can be foretold from another.
        self._rng: random.Random = random.SystemRandom()
        # A step that is ready to close (the night's actors all acted, everybody voted) closes at this many
        # seconds of its own clock (see deadline()); None until it is ready.
        self._close_after: float | None = None
        self.pacing = pacing if pacing is not None else NightPacing()
        self._idle_step = self._opened_idle()  # a night step nobody could act in when it was called
        self._interfered = False  # a moderator paused or extended this step: its length says nothing
        self._holds = 0
        self.manually_paused = False
        self.closed = False

    # -- lookups ----------------------------------------------------------------------------------

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def user_of(self, seat: int) -> int:
        return self.seats[seat - 1].user_id

    def name_of(self, seat: int) -> str:
        return self.seats[seat - 1].name

    @property
    def over(self) -> bool:
        return self.state.over

    def deadline(self) -> float | None:
        if self.state.step.kind not in WAITING_STEPS or self.over:
            return None
        if self.paused_left is not None:
            return None
        return self.state.step.started_at + self.extension + self._limit()

    def _limit(self) -> float:
        """The current step's length on its own clock (which stops for pauses and the opening line)."""
        seconds = float(self.state.step.seconds)
        return seconds if self._close_after is None else min(seconds, self._close_after)

    def _step_time(self) -> float:
        """Seconds of the current step's own clock gone by."""
        return self.clock() - self.state.step.started_at - self.extension

    def _opened_idle(self) -> bool:
        """The current step is a night step in which nobody can act (a dead or jailed role's, D-G8)."""
        s = self.state
        if s.step.kind != "night" or s.over:
            return False
        nothing_done = not s.ledger.actions and not s.ledger.skipped and not s.ledger.proposals
        return nothing_done and step_complete(s)

    # -- commands ---------------------------------------------------------------------------------

    def apply(self, command: Command, *, serial: int | None = None) -> tuple[Command, list[Event]]:
        """Apply a command (the caller holds :attr:`lock`): :meth:`prepare` and :meth:`accept` at once,
        for a caller with nothing to store in between."""
        move = self.prepare(command, serial=serial)
        return move.command, self.accept(move)

    def prepare(self, command: Command, *, serial: int | None = None) -> Move:
        """What a command would do (the caller holds :attr:`lock`); nothing changes until
        :meth:`accept`, so the command can be stored first (write ahead). ``serial`` (from a button)
        must match the current step, or it is stale; on an error (StaleAction, engine.IllegalCommand)
        nothing has changed."""
        if self.closed:
            raise StaleAction("game closed")
        if serial is not None and serial != self.serial:
            raise StaleAction(f"serial {serial} != {self.serial}")
        stamped = replace(command, at=self.clock())
        new_state, events = engine.apply(self.state, stamped)  # IllegalCommand propagates
        return Move(stamped, self.state, new_state, events)

    def accept(self, move: Move) -> list[Event]:
        """The prepared command is stored: the game moves on. Returns its events."""
        if move.before is not self.state:
            raise StaleAction("the game moved on since the command was prepared")
        # «Разрешаю N» keeps the speech: its clock and buttons stay (issue 13, engine.state.same_step).
        step_changed = not same_step(self.state.step, move.after.step)
        if step_changed:
            self._step_ended()
        self.state = move.after
        self.log.append(move.command)
        if step_changed:
            self._new_step()
        return move.events

    def _new_step(self) -> None:
        self.serial += 1
        self.extension = 0.0
        self._close_after = None
        self._interfered = False
        self._idle_step = self._opened_idle()

    def withdraw(self, positions: set[int], *, keep_controls: bool = False) -> None:
        """Take the commands at these positions of the log out of the game, as if never given (a
        withdrawn foul: «a game is its command log»); buttons of the step as it was are stale after it
        (unless ``keep_controls``: a restart takes out what was withdrawn before it, and the buttons sent
        since stay good). Raises UserFacingError, changing nothing, when the rest no longer follows."""
        state = self._replay(set())
        if state != self.state:  # the log does not rebuild this game: change nothing
            raise UserFacingError("withdraw-not-replayed")
        try:
            state = self._replay(positions)
        except engine.IllegalCommand:
            raise UserFacingError("withdraw-too-late") from None
        self.state = state
        self.log = [c for i, c in enumerate(self.log) if i not in positions]
        if not keep_controls:
            self.serial += 1

    def _replay(self, skip: set[int]) -> GameState:
        state, _ = engine.new_game(
            self.ruleset, self.roles, self.seed, immune=self.immune, at=self.started_at
        )
        for i, command in enumerate(self.log):
            if i not in skip:
                state, _ = engine.apply(state, command)
        return state

    def position_of(self, command: Command) -> int | None:
        """Where this very command (not an equal one) stands in the log."""
        return next((i for i, c in enumerate(self.log) if c is command), None)

    def positions_of(self, event_type: str) -> list[int]:
        """Positions in the log of the commands that gave an event of this type, one per event."""
        state, _ = engine.new_game(
            self.ruleset, self.roles, self.seed, immune=self.immune, at=self.started_at
        )
        found = []
        for i, command in enumerate(self.log):
            state, events = engine.apply(state, command)
            found += [i for e in events if e.type == event_type]
        return found

    # -- timers -----------------------------------------------------------------------------------

    def arm(self) -> None:
        """Start the current step's timer (after a change, once it is shown)."""
        if self._timer is not None and self._timer is not asyncio.current_task():
            self._timer.cancel()
        self._timer = None
        if self.over or self.closed or self.paused_left is not None:
            return
        step = self.state.step
        if step.kind not in WAITING_STEPS:
            return
        if self._ready_to_close() and self._close_after is None:
            self._close_after = self._ready_length()
        deadline = self.deadline()
        if deadline is None:
            return
        self._timer = asyncio.create_task(
            self._run_timer(self.serial, deadline), name=f"game {self.game_id} timer"
        )

    def _ready_length(self) -> float:
        """When a step that is ready to close closes, on its own clock (D-G8 for the night)."""
        now = self._step_time()
        step = self.state.step
        if step.kind != "night":
            return now
        if self._idle_step:
            # Nobody can act: the step lasts as long as the steps that living players took.
            key = step_key(self.ruleset.id, step.night_step)
            return self.pacing.draw(key, self._rng, step.seconds)
        # Everybody acted: the host still gives the step a normal-looking length (5–15 s from its call).
        return max(now, self._rng.uniform(LOW, HIGH))

    def _step_ended(self) -> None:
        """The current step is over: a night step some living player could act in teaches the pacing how
        long such steps take (a moderator's pause or extension makes its length meaningless)."""
        step = self.state.step
        if step.kind == "night" and not self._idle_step and not self._interfered:
            length = min(float(step.seconds), self._step_time())
            self.pacing.record(step_key(self.ruleset.id, step.night_step), length)

    def _ready_to_close(self) -> bool:
        s = self.state
        if s.step.kind == "night":
            return step_complete(s)
        if s.step.kind == "vote":
            return not queries.voters(s)
        return False

    async def _run_timer(self, serial: int, deadline: float) -> None:
        try:
            warn_at = deadline - 10
            if self.state.step.seconds > 20 and warn_at > self.clock():
                await asyncio.sleep(warn_at - self.clock())
                if serial != self.serial:
                    return
                await self.listener.on_tick(self, 10)
            delay = deadline - self.clock()
            if delay > 0:
                await asyncio.sleep(delay)
            if serial != self.serial or self.closed:
                return
            with contextlib.suppress(StaleAction):
                await self.listener.on_due(self, serial)
        except NotStored:
            # The database did not take the step's end: try again shortly; the step is not over yet.
            await asyncio.sleep(STORE_RETRY)
            if serial == self.serial and not self.closed:
                self._timer = None
                self.arm()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("Timer failed", extra={"game_id": self.game_id})

    def hold(self, until: asyncio.Future[Any]) -> None:
        """Stop the clock until ``until`` resolves (the host is still speaking the step's opening line)."""
        if until.done():
            return
        self._holds += 1
        if self._holds == 1 and self.paused_left is None:
            self._pause_clock()
        until.add_done_callback(lambda _: self._release_hold())

    def _release_hold(self) -> None:
        self._holds -= 1
        if self._holds == 0 and not self.manually_paused and not self.closed:
            self._resume_clock()

    def pause(self) -> None:
        """A moderator's pause."""
        self.manually_paused = True
        self._interfered = True
        self._pause_clock()

    def resume(self) -> None:
        self.manually_paused = False
        if self._holds == 0:
            self._resume_clock()

    def _pause_clock(self) -> None:
        if self.paused_left is not None:
            return
        deadline = self.deadline()
        if deadline is None:
            return
        self.paused_left = max(0.0, deadline - self.clock())
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _resume_clock(self) -> None:
        if self.paused_left is None:
            return
        # The step's own clock stood still: it ends as far from now as it was from the pause.
        self.extension = self.clock() + self.paused_left - (self.state.step.started_at + self._limit())
        self.paused_left = None
        self.arm()

    def extend(self, seconds: float) -> None:
        self.extension += seconds
        self.ten_seconds_warned = None  # more time: the ten seconds come again
        self._close_after = None
        self._interfered = True
        self.arm()

    async def close(self) -> None:
        self.closed = True
        if self._timer is not None:
            self._timer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._timer
            self._timer = None

    def timer_state(self) -> dict[str, Any]:
        """What a restart needs to give the current step the time it had left (stored with the game):
        ``left`` now, and whether it is ``running`` (counting down; not when paused, held for the
        host's opening line, or stopped with a stopping bot)."""
        deadline = self.deadline()
        left = self.paused_left if self.paused_left is not None else None
        if left is None and deadline is not None:
            left = max(0.0, deadline - self.clock())
        return {
            "serial": self.serial,
            "left": left,
            "paused": self.manually_paused,
            "running": deadline is not None and not self.closed,
            "immune": self.immune,
        }

    def restore_clock(self, timers: dict[str, Any]) -> None:
        """After a restart: the step keeps the time it had left when the bot stopped, not less."""
        left = timers.get("left")
        if timers.get("serial") != self.serial:
            # The step began after the clock was last stored (a fraction of a second before the crash):
            # it starts afresh now, with its whole length, rather than losing the time the bot was down.
            if self.deadline() is not None:
                self.extension = self.clock() - self.state.step.started_at
            return
        if left is None:
            return
        if self._ready_to_close():
            # Its early close was drawn before the restart and is in the time it had left: drawn again
            # against a clock now set to the step's full length, it closed the step at once (issue 12).
            self._close_after = float(self.state.step.seconds)
        if timers.get("paused"):
            self.manually_paused = True
            self.paused_left = float(left)
            return
        self.extension = self.clock() + float(left) - (self.state.step.started_at + self._limit())
