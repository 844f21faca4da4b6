"""Many concurrent games against one bot process, as real tables load it (run by hand, not a test).
(Over 400 lines: one benchmark, whose phases share its set-up and read best in order.)

python benchmarks/load_model.py --games 100 [--database sqlite|postgresql] [--steady 40] [--every 3 5]
                                [--bursts 2] [--startup-only] [--helpers 0-3] [--stop-all]
                                [--open-timeout 600] [--profile FILE [--profile-gil]] [--gc-probe]
                                [--probe [--gc-off]]

The local Discord (tests/fakediscord) runs here; the bot is `mafiabot run` in its own process (as the
crash tests start it), so its CPU time and memory are its own. One server per game, ten players already
in voice when the bot connects (they come with each server), the host's voice off (no voice connection
per table). Every game is opened through the lobby, twenty at a time. Then:

- steady: every table's speaker clicks «Пас» every `--every` seconds (a uniform draw per click, the
  tables out of step with each other), for `--steady` seconds: the load of tables in their day;
- burst: every table's speaker clicks «Пас» at the same moment, `--bursts` times (its CPU is counted
  until 5 s after the last acknowledgement, less the bot's background CPU measured just before).

For each: the clicks, the acknowledgement time (click made → the bot's interaction callback served by
the stand-in, on its clock; Discord fails a click after 3 s) at the median and p99, the answers later
than 3 s, those that had to go through «думает…», and the bot's CPU time divided by the clicks
(everything the bot did meanwhile: clocks, panels, mutes). Memory: the bot's resident set after the
games started, less before, per game. Start-up: from the bot's IDENTIFY to its «Restored» line (it
serves from then on).

Whole-table transitions (issue 20): each game's start, from the «Начать игру» click to every player
server-muted in the local Discord (the openings twenty at a time, beside the other tables' load; watched
from the click, and split into the start's work before its first member edit and the burst), and
with `--stop-all` the end: `/mafia stop` at every table at once, from each command to its whole table
unmuted. `--helpers N` gives the bot N helper tokens (each its own account, invited to every server with
Mute Members), so the member edits spread over N + 1 tokens, each with its own 50 requests a second.
`--requests-per-second` is the bot's own limit per token (`[bot] requests_per_second`); lift it together
with `--global-limit` to measure the bot rather than Discord's quota.
`--gc-probe` times the bot's garbage collections from inside it (mafiabot.gcpolicy.Probe) and prints,
per phase, the collections of each generation: how many, their pauses in all and the longest, the
objects they found; it also writes a census of the bot's heap by type (before the games, after they
opened, after the steady phase) beside the bot's log.

`--probe` (tests/chaos/latency_probe.py, in the bot's process and in this one) splits the steady clicks'
acknowledgement: the click made → its INTERACTION_CREATE frame written by the stand-in → taken by the bot's
process → the bot asking to answer → the callback served by the stand-in → seen here; and says how busy
each process was (CPU % of a core), how late each event loop ran, the bot's collections, and what the
bot's loop was running while it was late by more than 40 ms. `--gc-off` also disables the bot's
collector once it is connected (a measurement of the tail without it, never a setting).
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import collections
import gc
import os
import random
import re
import signal
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
import fakediscord  # noqa: E402  (before aiohttp is imported: it sets SSL_CERT_FILE)
from chaos import latency_probe  # noqa: E402
from chaos.bot_process import BotProcess  # noqa: E402
from chaos.outside import OutsideTable  # noqa: E402
from fakediscord import FakeDiscord  # noqa: E402
from fakediscord.world import VoiceState  # noqa: E402

sys.path.remove(str(ROOT / "tests"))  # tests/engine would hide the engine package

from _local import scratch_postgres  # noqa: E402

MEMBER_EDIT = "PATCH /guilds/{guild_id}/members/{user_id}"
TICK = os.sysconf("SC_CLK_TCK")
SETTLE = 5.0  # seconds after a burst in which its panels and mutes are done
EXPIRED = 15.0  # a click not acknowledged by then is counted as failed (Discord fails it after 3 s)
_ = fakediscord


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime + stime


def thread_cpu(pid: int) -> dict[str, float]:
    """CPU seconds of the event loop's thread (the process's first) and of the others (the database's
    writes in asyncio.to_thread's workers, the logging thread)."""
    spent: dict[str, float] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        name = "event loop" if task.name == str(pid) else "other threads"
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the thread ended meanwhile
        spent[name] = spent.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / TICK
    return spent


def traffic(fake: FakeDiscord, calls: int, events: int, clicks: float, per_what: str = "click") -> str:
    """The REST requests the bot made and the gateway events it was sent since (counts), per click (or
    per second: ``clicks`` the seconds, ``per_what`` "second")."""
    routes = collections.Counter(call.route for call in fake.calls[calls:])
    session = fake.gateway.session
    sent = collections.Counter(p["t"] for p in session.backlog[events:]) if session is not None else {}

    def per(counter: Any) -> str:
        total = sum(counter.values())
        top = ", ".join(f"{route} {n / clicks:.2f}" for route, n in counter.most_common(6))
        return f"{total / clicks:.2f} ({top})"

    return f"per {per_what}: requests {per(routes)}; gateway events {per(sent)}"


def gc_pauses(path: Path, since: float, until: float) -> str:
    """The bot's collections that started in [since, until) (the probe's lines, see --gc-probe)."""
    per: dict[int, list[tuple[float, int]]] = collections.defaultdict(list)
    if path.exists():
        for line in path.read_text().splitlines():
            at, generation, took, found, _ = line.split()
            if since <= float(at) < until:
                per[int(generation)].append((float(took), int(found)))
    return (
        "; ".join(
            f"gen {g}: {len(c)}, {sum(t for t, _ in c) * 1000:.0f} ms in all, longest "
            f"{max(t for t, _ in c) * 1000:.0f} ms, {sum(f for _, f in c)} objects found"
            for g, c in sorted(per.items())
        )
        or "no collection"
    )


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


class Clicks:
    def __init__(self, what: str) -> None:
        self.what = what
        self.records: list[tuple[float, Any, float]] = []  # (clicked, the interaction, acknowledged here)
        self.acks: list[float] = []
        self.answers: list[float] = []  # the player's answer («Пас.»), after «думает…» if it came
        self.deferred = 0
        self.refused = 0
        self.expired = 0

    async def click(
        self, fake: FakeDiscord, table: OutsideTable, passed: dict[int, int] | None = None
    ) -> None:
        speaker, panel = table.speaker(), table.panel()
        if speaker is None or panel is None:
            return  # no speech now (voting, night): this table has no «Пас» to click
        if passed is not None:
            if passed.get(table.club.id) == speaker:
                return  # the panel still shows who just passed (its edits are paced): not his turn
            passed[table.club.id] = speaker
        try:
            member = table.member(speaker)
            started = time.monotonic()
            record = await fake.click(member, panel, label="Пас", wait=False)
        except (AssertionError, KeyError, StopIteration):
            return  # the panel changed under the click (no «Пас» on it now)
        # Not fake.wait_for: that wakes every waiter on every request the stand-in serves, and with a
        # thousand clicks waiting the stand-in's own loop fell behind (and expired the clicks); nor a poll
        # every 20 ms, whose wake-ups grew with the clicks waiting, that is with the latency measured.
        if not await record.acknowledged(EXPIRED - (time.monotonic() - started)):
            self.expired += 1  # Discord failed the click: the bot answered after the 3 s, or never
            return
        # Acknowledged when the stand-in served the callback (Discord's 3 s end there), not when this
        # task was woken (later while this process's loop is busy).
        self.acks.append((record.answered or time.monotonic()) - started)
        self.records.append((started, record, time.monotonic()))
        # Answered by the panel's change itself (issue 18: UPDATE_MESSAGE, or after a late deferral
        # the edit of @original, the panel), else privately («Пас.», or the refusal of a stale click).
        content = "Пас." if record.callback_type in (6, 7) else record.content
        if record.callback_type in (5, 6):
            self.deferred += 1
        if record.callback_type == 5:  # «думает…»: the answer is a follow-up (or @original's edit)
            answer = await record.wait_followup(timeout=60)
            content = answer.content
        # A late acknowledgement of the panel's change (6, DEFERRED_UPDATE_MESSAGE) needs no follow-up:
        # the panel's edit answers it, through @original or, when another click's change carried it
        # (one panel change in flight, the latest wins: 37fe77d), as the panel's ordinary edit.
        self.answers.append(time.monotonic() - started)
        if content != "Пас.":
            self.refused += 1  # a click that came as the speech ended: answered, nothing changed

    def report(self, cpu: float, games: int) -> str:
        if not self.acks:
            return f"{self.what}: no clicks"
        ordered = sorted(self.acks + [float("inf")] * self.expired)  # a failed click: the slowest
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        late = sum(1 for a in ordered if a > 3.0)
        answered = sorted(self.answers)
        answer_p99 = answered[min(len(answered) - 1, int(len(answered) * 0.99))]
        median, per_click = statistics.median(ordered) * 1000, cpu / len(ordered) * 1000
        return (
            f"{self.what}: {len(ordered)} clicks ({self.refused} refused as stale), "
            f"ack median {median:.0f} ms, p99 {p99 * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms; "
            f"{late} over 3 s ({self.expired} never acknowledged in time), "
            f"{self.deferred} through «думает…» (answer p99 {answer_p99 * 1000:.0f} ms); "
            f"bot CPU {per_click:.1f} ms per click ({cpu:.1f} s for {games} games)"
        )


async def steady(
    fake: FakeDiscord, tables: list[OutsideTable], seconds: float, every: tuple[float, float]
) -> Clicks:
    clicks = Clicks(f"steady, a «Пас» every {every[0]:g}–{every[1]:g} s per table for {seconds:g} s")
    end = time.monotonic() + seconds
    rng = random.Random(1)
    passed: dict[int, int] = {}  # the last speaker who passed at each table

    async def one(table: OutsideTable) -> None:
        await asyncio.sleep(rng.uniform(0, every[1]))  # out of step with each other
        while time.monotonic() < end:
            await clicks.click(fake, table, passed)
            await asyncio.sleep(rng.uniform(*every))

    await asyncio.gather(*(one(t) for t in tables))
    return clicks


async def burst(fake: FakeDiscord, tables: list[OutsideTable]) -> Clicks:
    clicks = Clicks(f"burst, every table's «Пас» at once ({len(tables)} tables)")
    await asyncio.gather(*(clicks.click(fake, t) for t in tables))
    return clicks


async def until(predicate: Any, timeout: float = 600.0) -> Any:
    """Poll (see Clicks.click) until `predicate()` is truthy."""
    deadline = time.monotonic() + timeout
    while not (result := predicate()):
        if time.monotonic() > deadline:
            raise TimeoutError(f"{predicate} after {timeout} s")
        await asyncio.sleep(0.05)
    return result


def whole_table(table: OutsideTable, muted: bool) -> bool:
    """The table in its new state in the local Discord: muted, every player but the first speaker (a
    game opens with the first speech); unmuted, every player."""
    states = table.club.guild.voice_states
    count = sum(1 for p in table.players if p.id in states and states[p.id].mute)
    return count == len(table.players) - 1 if muted else count == 0


async def whole_table_after(table: OutsideTable, muted: bool, since: float, into: list[float]) -> None:
    try:
        await until(lambda: whole_table(table, muted), timeout=300)
    except TimeoutError:
        into.append(float("inf"))
        return
    into.append(time.monotonic() - since)


def spread(times: list[float]) -> str:
    if not times:
        return "none"
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"median {statistics.median(ordered):.2f} s, p99 {p99:.2f} s, max {ordered[-1]:.2f} s "
        f"({len(ordered)} tables, {sum(1 for t in ordered if t <= 1.0)} within 1 s)"
    )


def first_edits(fake: FakeDiscord, since: dict[int, float]) -> tuple[list[float], list[float]]:
    """For each server's start (``since``: server id -> its last «Начать игру» click): the time to its
    first member edit reaching the local Discord (the start's own work before the burst), and from that
    edit to its last one within ten seconds (the burst)."""
    edits: dict[int, list[float]] = collections.defaultdict(list)
    for call in fake.calls:
        if call.route == MEMBER_EDIT and call.status == 200:
            guild = int(call.params["guild_id"])
            if guild in since and call.at >= since[guild]:
                edits[guild].append(call.at)
    leads, bursts = [], []
    for guild, at in edits.items():
        leads.append(at[0] - since[guild])
        bursts.append(max(t for t in at if t - at[0] < 10.0) - at[0])
    return leads, bursts


async def open_game(
    fake: FakeDiscord,
    table: OutsideTable,
    muted_after: list[float] | None = None,
    clicks: dict[int, float] | None = None,
) -> None:
    """The lobby, its players joining and the start, as OutsideTable.start does, with the patience a
    loaded bot needs: a click Discord failed (not acknowledged in 3 s) is clicked again, as a player
    would."""
    players = table.players
    text = table.club.text

    async def answered(record: Any) -> bool:
        try:
            await until(lambda: record.callback is not None, timeout=EXPIRED)
        except TimeoutError:
            return False
        return True

    def lobby() -> Any:
        return next(
            (m for m in fake.messages(text) if any(b.get("label") == "Присоединиться" for b in m.buttons())),
            None,
        )

    while lobby() is None:
        # (a /mafia new whose answer Discord failed may still have opened the lobby: then it is used)
        await answered(await fake.slash(players[0], "mafia new", channel=text, ruleset="classic", wait=False))
    table.lobby_message_id = lobby().id

    def joined(player: Any) -> bool:
        return f"<@{player.id}>" in table.lobby_message().content

    for player in players[1:]:
        while not joined(player):
            await answered(
                await fake.click(player, table.lobby_message(), label="Присоединиться", wait=False)
            )
    since = {"clicked": time.monotonic()}

    async def muted() -> None:
        # From the (last) start click, watched from before it: the lobby's «Игра началась» and the
        # panel are messages, which queue behind the other tables' in the token's second, while the
        # mutes go first (before, this waited for the panel and measured the messages' queue).
        try:
            await until(lambda: whole_table(table, True), timeout=300)
        except TimeoutError:
            assert muted_after is not None
            muted_after.append(float("inf"))
            return
        assert muted_after is not None
        muted_after.append(time.monotonic() - since["clicked"])

    watching = asyncio.create_task(muted()) if muted_after is not None else None
    while "Игра началась" not in table.lobby_message().content:
        since["clicked"] = time.monotonic()
        if clicks is not None:
            clicks[table.club.id] = since["clicked"]
        await answered(await fake.click(players[0], table.lobby_message(), label="Начать игру", wait=False))
        try:
            await until(lambda: "Игра началась" in table.lobby_message().content, timeout=60)
        except TimeoutError:
            continue
    await until(table.panel)
    if watching is not None:
        await watching


WAITED = re.compile(
    r"Requests of (.+?) that waited for Discord's global limit: (\d+) got their place in the last "
    r"[\d.]+ s \((\d+) new requests\), ([\d.]+) s on average, the longest ([\d.]+) s"
)


def quota_waits(lines: list[str]) -> str:
    """What the bot's own quota (mafiabot/quota.py) logged about requests that waited for a place in
    their token's second, per token (its lines come at most every 10 s, while requests wait)."""
    tokens: dict[str, list[float]] = {}
    for line in lines:
        if (found := WAITED.search(line)) is None:
            continue
        delayed, requests, mean, longest = int(found[2]), int(found[3]), float(found[4]), float(found[5])
        total = tokens.setdefault(found[1], [0, 0, 0.0, 0.0])
        total[0] += delayed
        total[1] += requests
        total[2] += delayed * mean
        total[3] = max(total[3], longest)
    if not tokens:
        return "no request waited for a place in its token's second"
    return "; ".join(
        f"{name}: {int(d)} requests waited for a place ({int(r)} asked for one; mean wait {w / d:.2f} s, "
        f"longest {m:.2f} s)"
        for name, (d, r, w, m) in sorted(tokens.items())
    )


def busy_seconds() -> tuple[float, float]:
    """The machine's CPU seconds spent (all cores, not idle or waiting for I/O) and its wall clock."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) / TICK, time.monotonic()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else float("nan")


SEGMENTS = (
    ("made → frame sent", 0, 1),
    ("frame → bot took it", 1, 2),
    ("bot took → asked to answer", 2, 3),
    ("asked → callback served", 3, 4),
    ("served → seen by the load generator", 4, 5),
)


def split(clicks: Clicks, bot: dict[str, Any]) -> list[str]:
    """Each steady click's acknowledgement in its segments (see SEGMENTS), from the stand-in's times and
    the bot's probe: the median and p99 of each, and where the slowest 1 % of clicks spent theirs."""
    rows: list[tuple[float, ...]] = []
    for started, record, seen in clicks.records:
        took, asked = bot["in"].get(str(record.id)), bot["out"].get(str(record.id))
        if took is None or asked is None or not record.sent or not record.answered:
            continue
        rows.append((started, record.sent, took, asked, record.answered, seen))
    if not rows:
        return ["split: no click with every time (is the probe on?)"]
    ack = [r[4] - r[0] for r in rows]  # (as Clicks: the callback served)
    slow = sorted(range(len(rows)), key=lambda i: ack[i])[-max(1, len(rows) // 100) :]
    lines = [
        f"split of {len(rows)} steady clicks (ms; median / p99 / mean of the slowest 1 %, whose ack "
        f"averaged {statistics.mean(ack[i] for i in slow) * 1000:.0f} ms):"
    ]
    for name, a, b in SEGMENTS:
        values = [r[b] - r[a] for r in rows]
        lines.append(
            f"    {name}: {statistics.median(values) * 1000:.1f} / {percentile(values, 0.99) * 1000:.1f} / "
            f"{statistics.mean(values[i] for i in slow) * 1000:.1f}"
        )

    def overlapping(spans: list[tuple[float, float]], since: float, until: float) -> float:
        return sum(max(0.0, min(end, until) - max(start, since)) for start, end in spans)

    # What the slowest clicks waited behind, from their frame sent to their callback served (ms, mean):
    # the bot's collections, its loop's lateness beyond 10 ms, its transactions (the longest overlapping).
    pauses = [(at, at + took) for _, at, took, _ in bot["gc"]]
    lateness = [(at + 0.01, at + 0.01 + late) for at, late in bot["late"] if late > 0.01]
    txs = [(start, end) for start, end, *_ in bot["tx"]]

    def mean_of(measure: Any) -> float:
        return statistics.mean(measure(rows[i][1], rows[i][4]) for i in slow) * 1000

    longest_tx = mean_of(lambda a, b: max((e - s for s, e in txs if s < b and e > a), default=0.0))
    collected = mean_of(lambda a, b: overlapping(pauses, a, b))
    behind = mean_of(lambda a, b: overlapping(lateness, a, b))
    lines.append(
        f"    the slowest 1 % overlapped: the bot's collections {collected:.0f} ms, its loop late "
        f"{behind:.0f} ms, its longest transaction {longest_tx:.0f} ms"
    )
    return lines


def slow_company(fake: FakeDiscord, tables: list[OutsideTable], clicks: Clicks) -> str:
    """What the slowest 1 % of the steady clicks' tables sent meanwhile (the bot's other requests of the
    same server, its channel or its players' DMs, from the frame sent to the callback served): a click's
    answer leaves through its table's send queue, behind what the table had to send before it."""
    channel_guild: dict[int, int] = {}
    for table in tables:
        channel_guild[table.club.text.id] = table.club.id
        for player in table.players:
            if (dm := fake.world.dm_channels.get(player.id)) is not None:
                channel_guild[dm] = table.club.id
    timed = [(r.answered - started, started, r) for started, r, _ in clicks.records if r.sent and r.answered]
    slow = sorted(timed, key=lambda t: t[0])[-max(1, len(timed) // 100) :]
    if not slow:
        return "the slowest clicks' tables: none"
    calls = sorted(fake.calls, key=lambda c: c.at)
    starts = [c.at for c in calls]
    routes: collections.Counter[str] = collections.Counter()
    for _, _, record in slow:
        for call in calls[
            bisect.bisect_left(starts, record.sent) : bisect.bisect_right(starts, record.answered)
        ]:
            params = call.params
            guild = int(params["guild_id"]) if "guild_id" in params else None
            if guild is None and "channel_id" in params:
                guild = channel_guild.get(int(params["channel_id"]))
            if guild == record.guild_id and "/interactions/" not in call.route:
                routes[call.route.replace("{guild_id}", "…").replace("{channel_id}", "…")] += 1
    mean = sum(routes.values()) / len(slow)
    top = ", ".join(f"{route} {n / len(slow):.2f}" for route, n in routes.most_common(5))
    return (
        f"the slowest 1 % of clicks ({len(slow)}): their table's other requests meanwhile, {mean:.2f} a "
        f"click ({top or 'none'})"
    )


def tx_report(found: dict[str, Any], since: float, until: float) -> str:
    spans = [(end - start, n) for start, end, n, *_ in found["tx"] if since <= start <= until]
    if not spans:
        return "the group commit's transactions: none seen"
    took = [t for t, _ in spans]
    return (
        f"the group commit's transactions: {len(spans)} ({sum(n for _, n in spans) / len(spans):.1f} "
        f"commands each), in the thread median {statistics.median(took) * 1000:.1f} ms, p99 "
        f"{percentile(took, 0.99) * 1000:.0f} ms, max {max(took) * 1000:.0f} ms; "
        f"busy {sum(took) / (until - since):.0%} of the time"
    )


def lag_report(name: str, found: dict[str, Any], since: float, until: float) -> str:
    """How late an event loop's 10 ms ticks ran between two times: ticks, the late ones' p99/max, and the
    share of the time the loop was behind by more than 50 ms."""
    ticks = sum(n for at, n in found["ticks"] if since <= at <= until + 1.0)
    late = [lateness for at, lateness in found["late"] if since <= at <= until]
    if not ticks:
        return f"{name}'s loop: no ticks"
    over = sum(1 for x in late if x > 0.05)
    stalled = sum(x for x in late if x > 0.05)
    everything = sorted(late + [0.0] * max(0, ticks - len(late)))
    return (
        f"{name}'s loop: {ticks} ticks, lateness p50 {percentile(everything, 0.5) * 1000:.1f} ms, p99 "
        f"{percentile(everything, 0.99) * 1000:.1f} ms, max {max(late, default=0) * 1000:.0f} ms; "
        f"{over} ticks late > 50 ms ({stalled:.1f} s of {until - since:.0f} s)"
    )


def gc_report(found: dict[str, Any], since: float, until: float) -> str:
    by: dict[int, list[float]] = collections.defaultdict(list)
    for generation, at, took, _ in found["gc"]:
        if since <= at <= until:
            by[generation].append(took)
    if not by:
        return "the bot's collections > 2 ms: none"
    return "the bot's collections > 2 ms: " + "; ".join(
        f"generation {g}: {len(t)}, {sum(t) * 1000:.0f} ms in all, longest {max(t) * 1000:.0f} ms"
        for g, t in sorted(by.items())
    )


ENTRY = (
    "<frozen runpy>",
    "tests/chaos/run_bot.py",
    "mafiabot/__main__.py",
    "python3.11/asyncio/",
    "site-packages/uvloop/",
)


def stall_report(found: dict[str, Any], since: float, until: float, top: int = 12) -> list[str]:
    """What the bot's loop ran while it was late by more than 40 ms: the samples by the outermost frame
    of ours or discord.py's / aiohttp's (the work the loop turned to) and by the innermost frame."""
    outer: collections.Counter[str] = collections.Counter()
    inner: collections.Counter[str] = collections.Counter()
    for at, stack, n in found["stall"]:
        if not since <= at <= until + 1.0:
            continue
        frames = list(stack)
        while len(frames) > 1 and frames[0].startswith(ENTRY):
            frames.pop(0)  # (the process's entry and the loop's own frames: no work of their own)
        outer[":".join(frames[0].split(":")[:2])] += n
        inner[":".join(stack[-1].split(":")[:2])] += n
    total = sum(outer.values())
    if not total:
        return ["stall samples of the bot's loop: none"]
    lines = [f"stall samples of the bot's loop (every 5 ms while > 40 ms late): {total}; by outermost frame:"]
    lines += [f"    {n / total:5.1%} {where}" for where, n in outer.most_common(top)]
    lines.append("  by innermost frame:")
    lines += [f"    {n / total:5.1%} {where}" for where, n in inner.most_common(top)]
    return lines


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--steady", type=float, default=40.0)
    parser.add_argument("--every", type=float, nargs=2, default=(3.0, 5.0))
    parser.add_argument("--bursts", type=int, default=2)
    parser.add_argument("--startup-only", action="store_true", help="servers without games: start-up only")
    parser.add_argument("--profile", type=Path, help="py-spy's raw samples of the bot during the clicks")
    parser.add_argument(
        "--profile-gil", action="store_true", help="sample only the thread holding the GIL (its CPU)"
    )
    parser.add_argument(
        "--cprofile",
        type=Path,
        help="the bot loop's cProfile by CPU time: FILE.1 the background, FILE.2 the steady clicks",
    )
    parser.add_argument("--profile-rate", type=int, default=50, help="py-spy's samples a second")
    parser.add_argument(
        "--profile-threads", action="store_true", help="each sample under its thread's id (py-spy --threads)"
    )
    parser.add_argument(
        "--global-limit",
        type=int,
        default=50,
        help="requests a second in all (Discord's: 50; acks are exempt)",
    )
    parser.add_argument("--open-global-limit", type=int, help="the global limit while the games open")
    parser.add_argument("--helpers", type=int, default=0, help="helper bot tokens for the member edits")
    parser.add_argument("--requests-per-second", type=int, help="the bot's own limit per token")
    parser.add_argument("--stop-all", action="store_true", help="at the end, /mafia stop at every table")
    parser.add_argument("--gc-probe", action="store_true", help="the bot's garbage collections, per phase")
    parser.add_argument(
        "--open-timeout", type=float, default=600.0, help="seconds a game may take to open, else left out"
    )
    parser.add_argument("--probe", action="store_true", help="split the acknowledgement (latency_probe)")
    parser.add_argument("--gc-off", action="store_true", help="with --probe: the bot's collector disabled")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="mafiabot-load-"))
    here_probe = None
    if args.probe:
        os.environ["MAFIABOT_LATENCY_PROBE"] = str(workdir / "probe-bot.jsonl")
        if args.gc_off:  # (and the bot's collector policy off: its freezes collect first)
            os.environ["MAFIABOT_PROBE_GC_OFF"] = "1"
            os.environ["MAFIABOT_GC_FREEZE"] = "false"
        here_probe = latency_probe.install_here(workdir / "probe-here.jsonl")
    drop = None
    if args.database == "postgresql":
        url, drop = scratch_postgres()
    else:
        url = f"sqlite:///{workdir}/bot.db"
    fake = FakeDiscord()
    await fake.start()
    fake.rate_limits.set(MEMBER_EDIT, 10, 10.0)  # Discord's: ten member edits per ten seconds per server
    fake.rate_limits.global_limit.requests = args.open_global_limit or args.global_limit
    clubs = [fake.create_club(players=args.players) for _ in range(args.games)]
    for club in clubs:  # everyone is in voice before the bot connects (GUILD_CREATE carries it)
        for p in club.players:
            club.guild.voice_states[p.id] = VoiceState(p.id, club.id, club.voice.id, uuid.uuid4().hex)
    from mafiabot.storage import Storage

    storage = Storage.open(url)  # the schema, and the host's voice off on every server
    for club in clubs:
        storage.update_guild_settings(club.id, audio_enabled=False)
    storage.close()
    helpers = [fake.add_bot_account(f"helper-{n}") for n in range(1, args.helpers + 1)]
    for account in helpers:
        for club in clubs:
            await fake.invite_bot(club, account)
    os.environ["MAFIABOT_HELPER_TOKENS"] = ",".join(account.token for account in helpers)
    if args.requests_per_second:
        os.environ["MAFIABOT_REQUESTS_PER_SECOND"] = str(args.requests_per_second)
    probe = workdir / "gc.log"
    if args.gc_probe:
        os.environ["MAFIABOT_GC_PROBE"] = str(probe)
    if args.cprofile:
        os.environ["MAFIABOT_CPROFILE"] = str(args.cprofile)
    bot = BotProcess(fake, workdir, database_url=url)
    loop_kind = type(asyncio.get_running_loop()).__module__.split(".")[0]
    print(f"the bot's log: {workdir / 'bot.log'}; this process's loop: {loop_kind}", flush=True)
    try:
        spawned = time.monotonic()
        await bot.spawn()
        await fake.wait_for(lambda: fake.gateway.identifies >= 1, timeout=120, what="IDENTIFY")
        identified = time.monotonic()
        await bot.wait_for_log("Restored", timeout=600)
        serving = time.monotonic()
        assert bot.process is not None
        pid = bot.process.pid
        print(
            f"{args.games} servers: IDENTIFY {identified - spawned:.1f} s after the process started, "
            f"serving {serving - identified:.2f} s after IDENTIFY ({args.database})",
            flush=True,
        )
        if args.startup_only:
            return
        rss_before = rss_bytes(pid)
        if args.gc_probe:  # the heap before the first game (a census, see mafiabot.gcpolicy.Probe)
            bot.process.send_signal(signal.SIGUSR2)
        tables = [OutsideTable(fake, club, club.players[: args.players]) for club in clubs]
        opening = asyncio.Semaphore(20)

        muted_after: list[float] = []
        clicks: dict[int, float] = {}

        async def open_one(table: OutsideTable) -> OutsideTable | None:
            async with opening:
                try:
                    await asyncio.wait_for(
                        open_game(fake, table, muted_after, clicks), timeout=args.open_timeout
                    )
                except TimeoutError:
                    return None  # left out of the measurement (a loaded machine, see BENCHMARKS.md)
                return table

        started, mark = time.monotonic(), len(bot.lines)

        async def progress() -> None:
            """How far the openings got, every half minute (a run stopped for time still says so)."""
            while True:
                await asyncio.sleep(30)
                behind = sum(1 for line in bot.lines[mark:] if "Can't keep up" in line)
                print(
                    f"  {time.monotonic() - started:.0f} s: {len(muted_after)} of {len(tables)} games "
                    f"opened; load average {os.getloadavg()[0]:.1f}; «Can't keep up» logged {behind} times",
                    flush=True,
                )

        reporting = asyncio.create_task(progress())
        try:
            opened = [t for t in await asyncio.gather(*(open_one(t) for t in tables)) if t is not None]
        finally:
            reporting.cancel()
        if len(opened) < len(tables):
            print(
                f"{len(tables) - len(opened)} of {len(tables)} games did not open in time: left out",
                flush=True,
            )
            tables = opened
        print(
            f"start, «Начать игру» → the whole table muted but the speaker, {args.helpers} helper(s): "
            f"{spread(muted_after)}; "
            f"load average {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        leads, bursts = first_edits(fake, clicks)
        print(f"  of which the start's work before its first member edit: {spread(leads)}", flush=True)
        print(f"  and the burst, first member edit to last: {spread(bursts)}", flush=True)
        if args.gc_probe:
            print(f"  the bot's collections meanwhile: {gc_pauses(probe, started, time.monotonic())}")
        await asyncio.sleep(12)  # the openings' mutes (ten member edits per ten seconds per server)
        print(f"  the bot's quota while the games opened: {quota_waits(bot.lines[mark:])}", flush=True)
        print(
            f"{args.games} games of {args.players} started in {time.monotonic() - started:.0f} s; "
            f"bot resident memory +{(rss_bytes(pid) - rss_before) / args.games / 1024:.0f} KiB per game "
            f"({rss_bytes(pid) / 2**20:.0f} MiB in all)",
            flush=True,
        )
        if args.gc_probe:
            bot.process.send_signal(signal.SIGUSR2)  # the heap with every game open
        profiler = None
        if args.profile:
            profiler = await asyncio.create_subprocess_exec(
                "py-spy",
                "record",
                "--pid",
                str(pid),
                "--format",
                "raw",
                "--output",
                str(args.profile),
                "--nonblocking",
                "--rate",
                str(args.profile_rate),
                *(["--gil"] if args.profile_gil else []),
                *(["--threads"] if args.profile_threads else []),
                stdout=asyncio.subprocess.DEVNULL,
            )
        fake.rate_limits.global_limit.requests = args.global_limit
        # This process's own collector (the stand-in's world and records: a thousand servers, every
        # request and frame) stopped its loop 370 ms a full collection at 300 tables, and still 103 ms
        # with what was alive once the games opened frozen (what the measured phases record is kept to
        # the end): it is off from here, in this process only (a measuring tool that exits when done;
        # its cyclic garbage meanwhile is some megabytes). The bot's collector is the bot's own.
        gc.collect()
        gc.freeze()
        gc.disable()
        if args.cprofile:
            bot.process.send_signal(signal.SIGRTMIN)  # the background's profile (tests/chaos/run_bot.py)
        quiet, quiet_at = cpu_seconds(pid), time.monotonic()
        calls, events = len(fake.calls), len(fake.gateway.session.backlog) if fake.gateway.session else 0
        await asyncio.sleep(SETTLE)
        if args.cprofile:
            bot.process.send_signal(signal.SIGRTMIN + 1)
            await asyncio.sleep(0.5)  # (pending together, the start's lower number would be taken first)
        background = (cpu_seconds(pid) - quiet) / (time.monotonic() - quiet_at)
        print(f"the bot's background with every table waiting: {background * 1000:.0f} ms of CPU a second")
        # (Not idle: every table's step runs on its clock, and a speech that runs out is handed over by
        # the bot as a click would be: its ten seconds' warning, the panel, two member edits.)
        seconds = time.monotonic() - quiet_at
        print("  meanwhile " + traffic(fake, calls, events, seconds, "second"), flush=True)
        before, threads = cpu_seconds(pid), thread_cpu(pid)
        calls, events = len(fake.calls), len(fake.gateway.session.backlog) if fake.gateway.session else 0
        mark = len(bot.lines)
        steady_at = time.monotonic()
        here_before, machine_before = time.process_time(), busy_seconds()
        if args.cprofile:
            bot.process.send_signal(signal.SIGRTMIN)  # the steady clicks' profile
        result = await steady(fake, tables, args.steady, tuple(args.every))  # type: ignore[arg-type]
        spent = cpu_seconds(pid) - before
        if args.cprofile:
            bot.process.send_signal(signal.SIGRTMIN + 1)
            await asyncio.sleep(3)  # (the profile written before anything stops the bot)
        here_spent, machine_after = time.process_time() - here_before, busy_seconds()
        print(result.report(spent, args.games), flush=True)
        wall = machine_after[1] - machine_before[1]
        by_thread = {n: t - threads.get(n, 0.0) for n, t in thread_cpu(pid).items()}
        print(
            f"  busy during the steady phase ({wall:.0f} s; % of one core): the bot {spent / wall:.0%} "
            f"(its event loop's thread {by_thread.get('event loop', 0.0) / wall:.0%}), this process (the "
            f"stand-in and the load generator, one loop) {here_spent / wall:.0%}, the machine "
            f"{(machine_after[0] - machine_before[0]) / wall:.0%} of its {os.cpu_count()} cores; "
            f"load average {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        if here_probe is not None:
            await asyncio.sleep(2.5)  # the probes' last records flushed (once a second)
            await asyncio.to_thread(here_probe.flush)
            steady_from, steady_to = machine_before[1], machine_after[1]
            found = latency_probe.read(workdir / "probe-bot.jsonl")
            here = latency_probe.read(workdir / "probe-here.jsonl")
            for line in split(result, found):
                print("  " + line, flush=True)
            print("  " + slow_company(fake, tables, result), flush=True)
            print("  " + lag_report("the bot", found, steady_from, steady_to), flush=True)
            print("  " + lag_report("the stand-in", here, steady_from, steady_to), flush=True)
            print("  " + gc_report(found, steady_from, steady_to), flush=True)
            print("  " + tx_report(found, steady_from, steady_to), flush=True)
            opened = sum(1 for at in found["conn"] if steady_from <= at <= steady_to)
            print(f"  the bot's HTTP connections opened meanwhile: {opened}", flush=True)
            print("  " + gc_report(here, steady_from, steady_to).replace("the bot's", "this process's"))
            for line in stall_report(found, steady_from, steady_to):
                print("  " + line, flush=True)
        print(f"  the bot's quota meanwhile: {quota_waits(bot.lines[mark:])}", flush=True)
        if args.gc_probe:
            print(f"  the bot's collections meanwhile: {gc_pauses(probe, steady_at, time.monotonic())}")
            bot.process.send_signal(signal.SIGUSR2)  # the heap after the steady phase
            print(f"  the bot's heap by type, before the games, after they opened and now: {probe}.census")
        if result.acks:
            less = (spent - background * args.steady) / len(result.acks) * 1000
            print(f"  (less the background: {less:.1f} ms per click)", flush=True)
            clicked = len(result.acks) + result.expired  # (as the report counts them)
            by_thread = {n: t - threads.get(n, 0.0) for n, t in thread_cpu(pid).items()}
            print(
                "  by thread: "
                + ", ".join(f"{n} {t / clicked * 1000:.1f} ms" for n, t in by_thread.items() if t),
                flush=True,
            )
            print("  " + traffic(fake, calls, events, clicked), flush=True)
        for _ in range(args.bursts):
            # The steady clicks' panels and mutes settle first; meanwhile the bot's own background
            # (the heartbeat twice a second, timers) is measured, and taken out of the burst's
            # CPU, which is counted until its panels and mutes are done too.
            await asyncio.sleep(3)
            quiet, quiet_at = cpu_seconds(pid), time.monotonic()
            await asyncio.sleep(SETTLE)
            background = (cpu_seconds(pid) - quiet) / (time.monotonic() - quiet_at)
            before, began = cpu_seconds(pid), time.monotonic()
            result = await burst(fake, tables)
            await asyncio.sleep(SETTLE)
            spent = cpu_seconds(pid) - before - background * (time.monotonic() - began)
            print(result.report(spent, args.games), flush=True)
            print(
                f"  (the bot's background meanwhile: {background * 1000:.0f} ms of CPU a second)", flush=True
            )
            if args.gc_probe:
                print(f"  the bot's collections meanwhile: {gc_pauses(probe, began, time.monotonic())}")
        if profiler is not None:
            profiler.send_signal(2)  # SIGINT: py-spy writes its samples and exits
            await profiler.wait()
        if args.stop_all:
            quiet, quiet_at = cpu_seconds(pid), time.monotonic()
            await asyncio.sleep(SETTLE)
            background = (cpu_seconds(pid) - quiet) / (time.monotonic() - quiet_at)
            unmuted_after: list[float] = []
            already = 0  # tables in a free discussion (classic's day after the first night): none muted
            limited, mark = len(fake.rate_limits.limited), len(bot.lines)

            async def stop(table: OutsideTable) -> None:
                nonlocal already
                began = time.monotonic()
                if whole_table(table, False):
                    already += 1
                    await fake.slash(table.players[0], "mafia stop", channel=table.club.text, wait=False)
                    return
                await fake.slash(table.players[0], "mafia stop", channel=table.club.text, wait=False)
                await whole_table_after(table, False, began, unmuted_after)

            before, threads, stopped_at = cpu_seconds(pid), thread_cpu(pid), time.monotonic()
            await asyncio.gather(*(stop(t) for t in tables))
            print(
                f"stop at every table at once → the whole table unmuted, {args.helpers} helper(s): "
                f"{spread(unmuted_after)}, of the tables with members muted ({already} had none muted: "
                f"left out); 429s meanwhile: {len(fake.rate_limits.limited) - limited}; "
                f"load average {os.getloadavg()[0]:.1f}",
                flush=True,
            )
            await asyncio.sleep(12)  # the last quota lines (and the ledger's releases, after the unmutes)
            print(f"  the bot's quota meanwhile: {quota_waits(bot.lines[mark:])}", flush=True)
            spent = cpu_seconds(pid) - before
            by_thread = {n: t - threads.get(n, 0.0) for n, t in thread_cpu(pid).items()}
            less = spent - background * (time.monotonic() - stopped_at)
            print(
                f"  the bot's CPU for the stop: {spent / len(tables) * 1000:.1f} ms per table "
                f"(less the background before it: {less / len(tables) * 1000:.1f} ms); by thread: "
                + ", ".join(f"{n} {t / len(tables) * 1000:.1f} ms" for n, t in by_thread.items() if t),
                flush=True,
            )
        global_429s = sum(1 for _, major in fake.rate_limits.limited if major == "global")
        print(
            f"429s served in the whole run: {len(fake.rate_limits.limited)} ({global_429s} global)",
            flush=True,
        )
        load = os.getloadavg()
        print(f"load average at the end: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}", flush=True)
        if args.gc_probe:
            print(f"the bot's collections in the whole run: {gc_pauses(probe, 0.0, time.monotonic())}")
    finally:
        if bot.running:
            await bot.kill()
        await fake.stop()
        if drop is not None:
            drop()


def harness_loop() -> Any:
    """The benchmark's own event loop (the stand-in's and the load generator's): uvloop's where it is
    installed, as the bot's (its sockets' writes were a tenth of this process's samples on asyncio's)."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


if __name__ == "__main__":
    with asyncio.Runner(loop_factory=harness_loop()) as runner:
        runner.run(main())
