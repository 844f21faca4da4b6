"""The crash harness: whole games played through the stand-in by a table of scripted players while
`mafiabot run` (another process) is SIGKILLed at named code points and at random moments, then started
again on the same database. After every restart it checks what issue 12 promises:

- no acknowledged command lost or doubled: the log holds every command the players were answered for,
  in order, and the engine replays it;
- the game resumes at its step with the time it had left (the loss is measured, per restart);
- the mutes equal what the step needs;
- at the end of every game nobody is server-muted, including members who left voice while the bot was
  down, and no game is left running;
- a lobby the bot is killed in comes back with every player whose join was answered, its message's
  buttons fill it and start the game, and the game seats exactly the lobby's players.

The players: the speaker says «Пас», the creator skips any other step (`/mafia skip`) and now and then
removes a random living player (`/mafia kick`), so that every preset's games end in a few dozen steps
while going through speeches, ballots and nights.

It is one file past the usual 400 lines on purpose: `ChaosTable` is one state machine (the players'
moves, the kills and the checks after each restart share what was acknowledged and what was muted),
and split across files its checks would read that state from afar.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import signal
import time
from collections import Counter
from typing import Any

from fakediscord import Club, FakeDiscord
from fakediscord.driver import InteractionRecord
from fakediscord.world import Member

import engine
from chaos.bot_process import BotProcess
from chaos.figures import Figures
from chaos.outside import Database, OutsideTable, Stored
from mafiabot.chaos import POINTS
from mafiabot.game.voice import wanted_mutes

ALIVE = re.compile(r"За столом: ([\d, ]+)")
PRESETS = tuple(engine.available_presets())  # every bundled preset
PANEL_CHANGED = "\0the clicked message updated"  # an answer that is the update of the clicked message


class ChaosTable:
    """One game at a time in the club's voice channel, with kills in between."""

    def __init__(self, fake: FakeDiscord, club: Club, bot: BotProcess, rng: random.Random, figures: Figures):
        self.fake = fake
        self.club = club
        self.bot = bot
        self.rng = rng
        self.figures = figures
        self.db = Database(bot.database_url)
        self.table = OutsideTable(fake, club, [])
        self.game_id = 0
        self.acked: list[dict[str, Any]] = []  # the log as read right after the latest acknowledged command
        self.away: list[Member] = []  # members who left voice while the bot was down
        self.clock_at_kill: dict[str, Any] = {}  # the stored clock as the bot last left it
        self.killed_at = 0.0  # when the harness last killed the bot (0: it died at a named point)

    # -- the bot's life ---------------------------------------------------------------------------

    async def ensure_running(self, kill_at: str = "") -> None:
        if not self.bot.running:
            await self.restart(kill_at)

    async def restart(self, kill_at: str = "") -> None:
        killed_at = self.bot.killed_at  # (the next run's start clears it: kept here for the measure)
        if self.bot.process is not None and await self.bot.wait() == -signal.SIGKILL:
            self.figures.kills += 1
        # While the bot is down a muted player may leave voice: he must get his voice back anyway.
        if self.game_id and self.rng.random() < 0.3:
            muted = [m for m in self.table.players if m.mute and self.fake.voice_state(m) is not None]
            if muted:
                member = self.rng.choice(muted)
                # Nobody is connected to hear of it: the next session's GUILD_CREATE shows him gone.
                del self.club.guild.voice_states[member.id]
                self.away.append(member)
        await self.bot.start(kill_at=kill_at)
        self.killed_at = killed_at
        self.figures.restarts += 1
        if self.game_id:
            await self.check_resumed()

    def random_kill_later(self, low: float, high: float) -> asyncio.Task[None]:
        async def kill() -> None:
            await asyncio.sleep(self.rng.uniform(low, high))
            if self.bot.running:
                await self.bot.kill()

        return asyncio.create_task(kill(), name="random kill")

    # -- reading ----------------------------------------------------------------------------------

    def stored(self) -> Stored:
        return self.db.stored(self.game_id)

    def alive(self) -> list[int]:
        panel = self.table.panel()
        found = ALIVE.search(panel.text) if panel else None
        return [int(x) for x in found[1].split(",")] if found else []

    # -- checks -----------------------------------------------------------------------------------

    async def check_resumed(self) -> None:
        stored = self.stored()
        log = stored.commands
        if log[: len(self.acked)] != self.acked:
            self.figures.lost_commands += 1
            self.figures.defect(f"game {self.game_id}: an acknowledged command is not in the log")
        stamps = Counter(repr(sorted(c.items())) for c in log)
        if any(n > 1 for n in stamps.values()):
            self.figures.doubled_commands += 1
            self.figures.defect(f"game {self.game_id}: a command is in the log twice")
        try:
            state = stored.state()
        except Exception as exc:  # the log no longer replays: a doubled or torn command
            self.figures.defect(f"game {self.game_id}: the log does not replay: {exc}")
            return
        if stored.status != "running" or state.over:
            await self.check_closed()
            return
        try:
            await self.fake.wait_for(
                lambda: self.bot.log_has("Game resumed") and self.table.panel() is not None, timeout=20
            )
        except TimeoutError:
            self.figures.wrong_step += 1
            self.figures.defect(f"game {self.game_id}: did not resume")
            return
        await self.measure_time_lost()
        await self.check_mutes(state, stored)

    async def measure_time_lost(self) -> None:
        before, killed_at = self.clock_at_kill, self.killed_at
        if (
            not before
            or not before.get("left")
            or before.get("paused")
            or killed_at < before.get("stored_at", 0)
        ):
            return  # no clock, or a kill from inside (a named point) whose moment the harness cannot see
        # The clock the resumed game stores (after the kill): until then the stored one is the dead run's,
        # and reading that would count the whole downtime as lost.
        try:
            await self.fake.wait_for(
                lambda: self.stored().timers.get("stored_at", 0) > killed_at, timeout=15, what="the clock"
            )
        except TimeoutError:
            return  # the step ended at the restart, or the game is paused: nothing to measure
        after = self.stored().timers
        if after.get("serial") != before.get("serial") or after.get("left") is None:
            return  # the step ended on its own at the restart (it had no time left)
        # (A clock held for the host's opening line did not run; one stored before anchors had no flag.)
        running = before.get("running", True)
        left_at_kill = before["left"] - (killed_at - before["stored_at"]) if running else before["left"]
        if left_at_kill <= 0.5:
            return
        deadline = after["stored_at"] + after["left"]
        lost = left_at_kill - (deadline - self.bot.log_time("Game resumed"))
        self.figures.time_lost.append(lost)
        if lost > 1.0:
            self.figures.defect(f"game {self.game_id}: a step lost {lost:.2f} s to a restart")

    async def check_mutes(self, state: Any, stored: Stored) -> None:
        def wrong() -> list[int]:
            present = [m.id for m in self.table.players if self.fake.voice_state(m) is not None]
            wanted = wanted_mutes(state, stored.users, present)
            return [u for u, want in wanted.items() if self._member(u).mute != want]

        try:
            await self.fake.wait_for(lambda: not wrong(), timeout=15, what="the step's mutes")
        except TimeoutError:
            if self.stored().commands != stored.commands:
                return  # the game moved on meanwhile (a timer): its next check covers it
            self.figures.wrong_mutes += 1
            self.figures.defect(f"game {self.game_id}: mutes differ from the step's for {wrong()}")

    async def check_closed(self) -> None:
        """The game is over: stored as such, nobody muted (those who left, once they are back)."""
        for member in self.away:
            await self.fake.join_voice(member, self.club.voice)
        self.away.clear()
        # The close waits behind what the table still has to send (the last lines, the record, the
        # ratings: a restart's notices too) at Discord's 5 messages per 5 s in a channel, so on a loaded
        # machine it can take half a minute; a zombie is a game that does not close at all. The voice is
        # given back ahead of that queue: how long each took after the harness saw the game over is kept.
        seen = time.monotonic()
        given_back: float | None = None
        closed: float | None = None

        def progress() -> bool:
            nonlocal given_back, closed
            if given_back is None and not self.muted_members():
                given_back = time.monotonic() - seen
            if closed is None and self.stored().status in ("finished", "aborted"):
                closed = time.monotonic() - seen
            return given_back is not None and closed is not None

        with contextlib.suppress(TimeoutError):
            await self.fake.wait_for(progress, timeout=120, what="the game closed, every mute given back")
        if closed is None:
            self.figures.zombie_games += 1
            self.figures.defect(f"game {self.game_id}: over but still {self.stored().status}")
        else:
            self.figures.closed_after.append(closed)
        if given_back is not None:
            self.figures.given_back_after.append(given_back)
        else:
            muted = self.muted_members()
            self.figures.left_muted += len(muted)
            self.figures.defect(f"game {self.game_id}: {len(muted)} member(s) left muted")
            for member in muted:  # the next game starts clean: an admin unmutes them by hand
                await self.unmute_by_hand(member)

    async def unmute_by_hand(self, member: Member) -> None:
        member.mute = False
        state = self.fake.voice_state(member)
        if state is not None:
            state.mute = False
            guild = self.club.guild
            self.fake.dispatch("VOICE_STATE_UPDATE", self.fake.gateway.voice_state_event(guild, member.id))
            await self.fake.gateway.flush()

    def write_channel(self) -> None:
        """What the players saw, next to the bot's log, for whoever reads a failed run."""
        with (self.bot.workdir / "channel.txt").open("a", encoding="utf-8") as out:
            out.write(f"===== game {self.game_id}\n")
            for message in self.fake.messages(self.club.text):
                buttons = [b.get("custom_id", "") for b in message.buttons()]
                out.write(f"--- {message.id} {buttons}\n{message.content}\n")

    def muted_members(self) -> list[Member]:
        return [m for m in self.club.players if m.mute]

    def _member(self, user_id: int) -> Member:
        return next(m for m in self.club.players if m.id == user_id)

    # -- playing ----------------------------------------------------------------------------------

    async def _answer(self, record: InteractionRecord, timeout: float = 8.0) -> str | None:
        """The bot's answer, or None when it died first (an unanswered click was never acknowledged)."""
        try:
            await self.fake.wait_for(
                lambda: record.callback is not None or not self.bot.running, timeout=timeout, what="an answer"
            )
            if record.callback is None:
                return None
            if record.callback_type == 5:
                await record.wait_followup(timeout=timeout)
            if record.callback_type == 7:  # an update of the clicked message: the panel's change (issue 18)
                return PANEL_CHANGED
            return record.content if record.messages else ""
        except (TimeoutError, LookupError):
            return None

    async def _acknowledged(self, record: InteractionRecord, ok: str) -> None:
        answer = await self._answer(record)
        # A click on the panel is answered by the panel's change itself when its command changed it and
        # nothing was posted below: the bot draws it after the command is stored, so it acknowledges.
        if answer is not None and (answer.startswith(ok) or answer == PANEL_CHANGED):
            self.figures.acknowledged += 1
            self.acked = self.stored().commands

    async def open_game(self, preset: str, players: int = 0, *, kill_in_lobby: bool = False) -> bool:
        """Open a lobby, fill it and start the game. ``kill_in_lobby``: the bot is SIGKILLed once while
        the lobby fills (at a random join, right after the click, answered or not) and started again;
        the lobby must come back with everyone whose join was answered (check_lobby)."""
        await self.ensure_running()
        if not players:
            counts = sorted(engine.player_counts(engine.load_ruleset(preset)))
            players = next((n for n in counts if n >= 7), counts[0])
        self.table = OutsideTable(self.fake, self.club, self.club.players[:players])
        self.acked, self.away, self.game_id = [], [], 0
        for p in self.table.players:
            if self.fake.voice_state(p) is None:
                await self.fake.join_voice(p, self.club.voice)
        known = {g["id"] for g in self.db.games()}
        opened = await self.fake.slash(
            self.table.players[0], "mafia new", channel=self.club.text, ruleset=preset, wait=False
        )
        if await self._answer(opened) is None or opened.message.ephemeral:
            self.figures.defect(f"the lobby did not open: {opened.callback}")
            return False
        self.table.lobby_message_id = opened.message.id
        lobby_id = max({g["id"] for g in self.db.games() if g["status"] == "lobby"} - known, default=0)
        joined_ids = [self.table.players[0].id]  # answered: the bot said so in the lobby's message
        kill_at = self.rng.randrange(1, len(self.table.players)) if kill_in_lobby else 0
        pending = list(self.table.players[1:])
        while pending:
            p = pending.pop(0)
            joined = await self.fake.click(p, self.table.lobby_message(), label="Присоединиться", wait=False)
            if kill_at and len(joined_ids) == kill_at:
                kill_at = 0
                await self.bot.kill()  # the join may be stored or not: only an answered one must survive
                await self.restart()
                self.figures.lobby_kills += 1
                members = await self.check_lobby(lobby_id, joined_ids)
                if members is None:
                    return False
                if p.id not in members:
                    pending.insert(0, p)  # his click was lost with the bot, unanswered: he clicks again
                else:
                    joined_ids.append(p.id)
                continue
            if await self._answer(joined) is None:
                self.figures.defect(f"a join was not answered: {joined.callback}")
                return False
            joined_ids.append(p.id)
        start = await self.fake.click(
            self.table.players[0], self.table.lobby_message(), label="Начать игру", wait=False
        )
        await self._answer(start, timeout=15)

        def started() -> set[int]:  # (the lobby is a row of its own, status "lobby", until the start)
            return {g["id"] for g in self.db.games() if g["status"] != "lobby"} - known

        try:
            await self.fake.wait_for(started, timeout=15)
        except TimeoutError:
            self.figures.defect(f"no game was stored: {start.callback}")
            return False
        self.game_id = self.table.game_id = max(started())
        self.figures.games += 1
        self.figures.presets[preset] += 1
        if kill_in_lobby and sorted(self.stored().users.values()) != sorted(joined_ids):
            self.figures.lost_lobbies += 1
            self.figures.defect(f"game {self.game_id}: the game does not seat the lobby's players")
        return True

    async def check_lobby(self, lobby_id: int, answered: list[int]) -> list[int] | None:
        """After a restart with a lobby open: it is reopened, stored with everyone whose join was
        answered, and its message says so. Returns its players (None: the lobby is lost)."""
        members = self.db.lobby_members(lobby_id)
        if not self.bot.log_has("Reopened") or members is None or not set(answered) <= set(members):
            self.figures.lost_lobbies += 1
            self.figures.defect(
                f"lobby {lobby_id}: lost in a restart (stored: {members}, answered {answered})"
            )
            return None
        shown = f"Игроки ({len(members)})"
        try:
            await self.fake.wait_for(
                lambda: shown in self.table.lobby_message().content, timeout=15, what="the reopened lobby"
            )
        except TimeoutError:
            self.figures.lost_lobbies += 1
            self.figures.defect(f"lobby {lobby_id}: its message does not show its {len(members)} players")
            return None
        return members

    async def step(self) -> None:
        """One player action at the table, as the panel shows it."""
        panel = self.table.panel()
        if panel is None:
            await asyncio.sleep(0.1)
            return
        creator = self.table.players[0]
        speaker = self.table.speaker()
        if speaker is not None and speaker not in self.table.seats():
            await asyncio.sleep(0.1)  # the seating message is not read yet (it is re-sent after a restart)
            return
        roll = self.rng.random()
        if roll < 0.2 and len(self.alive()) > 1:
            seat = self.rng.choice(self.alive())
            record = await self.fake.slash(
                creator, "mafia kick", channel=self.club.text, seat=seat, wait=False
            )
            await self._acknowledged(record, f"Игрок №{seat} удалён")
        elif speaker is not None and any(b.get("label") == "Пас" for b in panel.buttons()):
            record = await self.fake.click(self.table.member(speaker), panel, label="Пас", wait=False)
            await self._acknowledged(record, "Пас.")
        else:
            record = await self.fake.slash(creator, "mafia skip", channel=self.club.text, wait=False)
            await self._acknowledged(record, "Шаг завершён")

    def over(self) -> bool:
        try:
            stored = self.stored()
        except Exception:
            return False
        return stored.status != "running" or stored.state().over

    async def play(
        self,
        *,
        steps: int = 400,
        kill_each: tuple[float, float] | None = None,
        max_kills: int = 10**6,
        stop_after_kill: int | None = None,
    ) -> None:
        """Play the open game to its end; with `kill_each`, SIGKILL the bot at random moments (every
        `kill_each` seconds of play, at most `max_kills` times). With `stop_after_kill`, the game is
        stopped (`/mafia stop`, then checked closed like an ended one) that many steps after the first
        restart: CI's named-point games need the restart and its checks, not the rest of the game."""
        kills = self.figures.kills
        killer = self.random_kill_later(*kill_each) if kill_each else None
        since_kill: int | None = None
        for _ in range(steps):
            if self.over():
                break
            if not self.bot.running:
                self.clock_at_kill = self.stored().timers
                await self.restart()
                since_kill = 0 if since_kill is None else since_kill
                if kill_each and self.figures.kills - kills < max_kills:
                    killer = self.random_kill_later(*kill_each)
                continue
            if stop_after_kill is not None and since_kill is not None:
                if since_kill >= stop_after_kill:
                    await self.stop_game()
                    for _ in range(300):  # the stop is answered before it is stored (another process)
                        if self.over():
                            break
                        await asyncio.sleep(0.2)
                    break
                since_kill += 1
            self.clock_at_kill = self.stored().timers
            await self.step()
        if killer is not None:
            killer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await killer
        if not self.bot.running:
            await self.restart()
        if not self.over():  # the harness's own failure, named as such; the mutes are still checked
            self.figures.defect(f"game {self.game_id}: the players did not end it in {steps} steps")
            self.write_channel()
            await self.stop_game()
        await self.check_closed()

    async def wait_for_panel(self) -> None:
        try:
            await self.fake.wait_for(self.table.panel, timeout=30, what="the panel")
        except TimeoutError:
            self.figures.defect(f"game {self.game_id}: no panel")

    async def stop_game(self) -> None:
        record = await self.fake.slash(
            self.table.players[0], "mafia stop", channel=self.club.text, wait=False
        )
        await self._answer(record)


async def named_point_game(
    chaos: ChaosTable, point: str, preset: str = "classic", *, stop_after_kill: int | None = None
) -> None:
    """A game in which the bot dies at `point` (its n-th pass), then goes on to its end (with
    `stop_after_kill`, that many steps, and is stopped: see `ChaosTable.play`)."""
    counts = {"command_committed": 3, "mid_transaction": 4, "after_mute": 5, "timers_stored": 2}
    if chaos.bot.running:
        await chaos.bot.terminate()
    await chaos.bot.start(kill_at=f"{point}:{counts.get(point, 1)}")
    kills = chaos.figures.kills
    if not await chaos.open_game(preset):
        chaos.figures.defect(f"{point}: the game did not open")
        return
    if point in ("after_stop", "during_release"):
        chaos.clock_at_kill = {}
        await chaos.stop_game()
        # The stop is answered before it is stored: the bot dies a moment after the answer.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(chaos.bot.wait(), 30)
        await chaos.restart()
    await chaos.play(stop_after_kill=stop_after_kill)
    if chaos.figures.kills > kills:
        chaos.figures.named_kills += 1
    else:
        chaos.figures.defect(f"{point}: the bot never reached the point")


__all__ = ["POINTS", "PRESETS", "ChaosTable", "Figures", "named_point_game"]
