"""The whole table in its new state: time from each kind of transition to every player's server mute as
the step wants it, with 0–3 helper bots (issue 20; run by hand, not a test: takes a while).

python benchmarks/mute_bursts.py [--players 10 16] [--helpers 0 1 2 3] [--preset hobbyworld] [--seed 1]
                                 [--advance] [--unstaged] [--starts N]

For each table size and number of helpers: a fresh local Discord (tests/fakediscord) with Discord's
member-edit limit per token (10 edits per 10 s per guild) and 50 requests a second per token, the real
MafiaBot with that many helper tokens (each its own application, invited with View Channels, Connect,
Mute Members), a game opened through the lobby and played to its end by random legal players
(engine.simulate) through the game's one door, with the host's voice off and the clock paused (every
step ends by a player's or the host's command, none on its timer). Before a command the driver
works out (with the pure engine) which transition it makes; the first time each kind comes (and for
the start, the stop and the end), it waits until every token's bucket is full again, as it is at a
table where people talk, then measures from the command to the moment the local Discord holds every
player's mute as the new step wants it (and, of that, the time to the transition's first member edit,
which is the bot's other work — the deal, the final messages —, and the burst from its first edit to
its last). A second game is started and stopped during its first night
(the whole table muted → everyone given back) to measure the stop.

A transition made by an Advance (the step's end: its clock ran out, or the moderator's skip) is
reported on its own, "(by an Advance)": its mutes are staged, they leave beside the command's write
(Table.stage; its unmutes still wait for the write). With `--advance` the driver ends a speech or a
free discussion by an Advance the first time each such transition comes, so each is measured that way
too; `--unstaged` turns the staging off (Table.stage does nothing), to measure what it saves.

`--starts N` plays no game: it starts N games in a row and stops each in its first night (each start and
stop measured as above, the buckets full before each), for the spread of the start's and the stop's own
work before their first edit. `--db-delay S` makes every database transaction wait S seconds first (in
its thread: a loaded disk, a remote database); the lead before a burst's first edit then shows how many
transactions the bot waits for in turn on the way to it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from _local import ROOT, local_bot  # first: the local Discord's path, SSL_CERT_FILE

# isort: split

sys.path.insert(0, str(ROOT / "tests" / "bot"))
from fakediscord import FakeDiscord
from fakediscord.ratelimits import MEMBER_EDIT
from fakediscord.world import VoiceState
from game_driver import TableDriver

import engine
from engine import queries
from engine.commands import Advance
from engine.rng import Rng
from engine.simulate import random_commands
from engine.state import GameState
from mafiabot.bot import MafiaBot
from mafiabot.config import Secret, game_settings
from mafiabot.game.table import Table
from mafiabot.game.voice import wanted_mutes

REFILL = 10.2  # seconds after the last member edit: every token's window is over


def label(s: GameState) -> str:
    if s.over:
        return "end"
    talking = queries.speakers(s)
    if not talking:
        return "vote" if s.step.kind in ("vote", "tiebreak") else "silent"
    return "speech" if len(talking) <= 2 and s.step.kind == "speech" else "free discussion"


def kind(before: GameState, after: GameState) -> str | None:
    """The transition's name, or None when nobody's mute changes."""
    a, b = label(before), label(after)
    if b == "end":
        return "end"
    if (a, b) == ("speech", "speech"):
        return "hand-over" if queries.speakers(before) != queries.speakers(after) else None
    if a == b:
        return None
    names = {
        ("speech", "silent"): "nightfall",
        ("free discussion", "silent"): "nightfall",
        ("silent", "free discussion"): "free discussion opens",
        ("speech", "free discussion"): "free discussion opens",
        ("free discussion", "speech"): "free discussion closes",
        ("free discussion", "vote"): "free discussion closes (vote starts)",
        ("speech", "vote"): "vote starts",
        ("silent", "vote"): "vote starts",
        ("silent", "speech"): "day starts (first speaker)",
        ("vote", "speech"): "vote ends (a speech)",
        ("vote", "free discussion"): "vote ends (free discussion)",
        ("vote", "silent"): "nightfall",
    }
    return names.get((a, b), f"{a} → {b}")


def changes(table: Table, before: GameState, after: GameState) -> int:
    seat_users = {info.seat: info.user_id for info in table.session.seats}
    present = list(seat_users.values())
    old, new = wanted_mutes(before, seat_users, present), wanted_mutes(after, seat_users, present)
    return sum(1 for uid in present if old[uid] != new[uid])


def table_as_wanted(fake: FakeDiscord, club: Any, table: Table) -> bool:
    s = table.session.state
    seat_users = {info.seat: info.user_id for info in table.session.seats}
    want = wanted_mutes(s, seat_users, list(seat_users.values()))
    states = club.guild.voice_states
    return all(states[uid].mute == muted for uid, muted in want.items())


def nobody_muted(club: Any) -> bool:
    return not any(state.mute for state in club.guild.voice_states.values())


def burst(fake: FakeDiscord, mark: int, started: float, seconds: float, n: int) -> tuple[float, ...]:
    """(seconds to the whole table, to the burst's first edit, from its first edit to its last, edits)."""
    edits = [c.at for c in fake.calls[mark:] if c.route == MEMBER_EDIT and c.status == 200]
    if not edits:
        return (seconds, seconds, 0.0, n)
    return (seconds, edits[0] - started, edits[-1] - edits[0], n)


async def refill(fake: FakeDiscord) -> None:
    edits = fake.calls_to(MEMBER_EDIT)
    if edits:
        await asyncio.sleep(max(0.0, edits[-1].at + REFILL - time.monotonic()))


async def start(d: TableDriver, preset: str) -> tuple[Table, tuple[float, ...]]:
    d.without_host_voice()
    await d.open_lobby(preset)
    for p in d.players[1:]:
        await d.fake.click(p, d.lobby_message(), label="Присоединиться")
    await refill(d.fake)
    d.games.crew.forget_spending()
    mark, started = len(d.fake.calls), time.monotonic()
    await d.fake.click(d.players[0], d.lobby_message(), label="Начать игру")
    await d.fake.wait_for(lambda: d.club.voice.id in d.games.tables, timeout=60, what="the table")
    table = d.games.tables[d.club.voice.id]
    d.table = table
    await d.fake.wait_for(lambda: table_as_wanted(d.fake, d.club, table), timeout=120, what="the start")
    return table, burst(d.fake, mark, started, time.monotonic() - started, len(d.players))


BY_ADVANCE = " (by an Advance)"


def commands_now(table: Table, rnd: Rng, found: dict[str, list[Any]], advance: bool) -> Sequence[Any]:
    """The random players' commands; with `advance`, the step's end (an Advance: its clock ran out, or
    the moderator's skip) first, while its kind of transition has no sample by an Advance yet."""
    commands = random_commands(table.session.state, rnd)
    before = table.session.state
    if advance and label(before) in ("speech", "free discussion"):
        try:
            after, _ = engine.apply(before, Advance(at=table.session.clock()))
        except engine.IllegalCommand:
            return commands
        name = kind(before, after)
        if name is not None and f"{name}{BY_ADVANCE}" not in found and changes(table, before, after) > 2:
            return [Advance(), *commands]
    return commands


async def play(
    fake: FakeDiscord, club: Any, bot: MafiaBot, preset: str, seed: int, advance: bool = False
) -> dict[str, list[Any]]:
    d = TableDriver(fake, club, bot, club.players)
    d.flush_gateway = False  # the table's own settling is enough here; a loaded machine is slow to flush
    found: dict[str, list[Any]] = {}
    table, sample = await start(d, preset)
    found["start"] = [sample]
    await d.settled()
    table.session.pause()  # no step ends on its clock (the refills are long): the driver moves the game
    rnd = Rng(seed)
    commands = 0
    while not table.session.over and commands < 3000:
        for command in commands_now(table, rnd, found, advance):
            before = table.session.state
            try:
                after, _ = engine.apply(before, replace(command, at=table.session.clock()))
            except engine.IllegalCommand:
                continue
            name = kind(before, after)
            if name is not None and isinstance(command, Advance) and name != "end":
                name += BY_ADVANCE  # its mutes went beside the write (Table.stage); measured on their own
            n = changes(table, before, after) if name else 0
            measure = name is not None and (
                name not in found or (name == "hand-over" and len(found[name]) < 3)
            )
            if measure and n > 2:
                await refill(fake)
                d.games.crew.forget_spending()
                if table.session.state is not before:  # a timer moved the game on meanwhile
                    break
            mark, started = len(fake.calls), time.monotonic()
            try:
                await d.games.submit(table, command)
            except engine.IllegalCommand:
                continue
            commands += 1
            if measure:
                done = (
                    (lambda: nobody_muted(club))
                    if table.session.over
                    else (lambda: table_as_wanted(fake, club, table))
                )
                await fake.wait_for(done, timeout=120, what=str(name))
                found.setdefault(str(name), []).append(
                    burst(fake, mark, started, time.monotonic() - started, n)
                )
            await d.settled()
            if table.session.over:
                break
    await fake.wait_for(lambda: not d.games.tables, timeout=120, what="the table to close")
    await d.fake.gateway.flush(timeout=60)
    # A second game, stopped in its first night: everyone muted is given his voice back.
    d2 = TableDriver(fake, club, bot, club.players)
    d2.flush_gateway = False
    table2, sample = await start(d2, preset)
    found["start"].append(sample)
    await d2.settled()
    await refill(fake)
    d2.games.crew.forget_spending()
    muted = sum(1 for s in club.guild.voice_states.values() if s.mute)
    mark, started = len(fake.calls), time.monotonic()
    await fake.slash(club.players[0], "mafia stop", channel=club.text)
    await fake.wait_for(lambda: nobody_muted(club), timeout=120, what="the stop")
    found["stop"] = [burst(fake, mark, started, time.monotonic() - started, muted)]
    await fake.wait_for(lambda: not d2.games.tables, timeout=120, what="the second table to close")
    _ = table2
    return found


async def starts_and_stops(
    fake: FakeDiscord, club: Any, bot: MafiaBot, preset: str, n: int
) -> dict[str, list[Any]]:
    found: dict[str, list[Any]] = {"start": [], "stop": []}
    games = TableDriver(fake, club, bot, club.players).games
    for _ in range(n):
        d = TableDriver(fake, club, bot, club.players)
        d.flush_gateway = False
        table, sample = await start(d, preset)
        found["start"].append(sample)
        await d.settled()
        await refill(fake)
        d.games.crew.forget_spending()
        muted = sum(1 for s in club.guild.voice_states.values() if s.mute)
        mark, started = len(fake.calls), time.monotonic()
        await fake.slash(club.players[0], "mafia stop", channel=club.text)
        await fake.wait_for(lambda: nobody_muted(club), timeout=120, what="the stop")
        found["stop"].append(burst(fake, mark, started, time.monotonic() - started, muted))
        await fake.wait_for(lambda: not games.tables, timeout=120, what="the table to close")
        await fake.gateway.flush(timeout=60)
        _ = table
    return found


async def run(
    players: int, helpers: int, preset: str, seed: int, advance: bool = False, starts: int = 0
) -> dict[str, list[Any]]:
    fake = FakeDiscord()
    await fake.start()
    club = fake.create_club(players=players)
    for p in club.players:  # in voice before the bot connects (GUILD_CREATE carries it)
        club.guild.voice_states[p.id] = VoiceState(p.id, club.id, club.voice.id, secrets.token_hex(16))
    tokens = []
    for number in range(1, helpers + 1):
        account = fake.add_bot_account(f"helper-{number}")
        await fake.invite_bot(club, account)
        tokens.append(Secret(account.token))
    bot = local_bot(
        fake.token,
        helper_tokens=tuple(tokens),
        game=game_settings(speech_seconds=600, night_action_seconds=300),  # no timer during a refill
    )
    try:
        async with fake.connect(bot, timeout=120):
            if starts:
                found = await starts_and_stops(fake, club, bot, preset, starts)
            else:
                found = await play(fake, club, bot, preset, seed, advance)
            found["429s"] = [len([x for x in fake.rate_limits.limited if x[0] == MEMBER_EDIT])]
            return found
    finally:
        await fake.stop()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, nargs="+", default=[10, 16])
    parser.add_argument("--helpers", type=int, nargs="+", default=[0, 1, 2, 3])
    parser.add_argument("--preset", default="hobbyworld")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--advance", action="store_true", help="end speeches and discussions by an Advance")
    parser.add_argument("--unstaged", action="store_true", help="no staged mutes (Table.stage does nothing)")
    parser.add_argument("--starts", type=int, default=0, help="only start and stop this many games")
    parser.add_argument("--db-delay", type=float, default=0.0, help="seconds every transaction waits first")
    args = parser.parse_args()
    if args.db_delay:
        import sqlalchemy as sa

        sa.event.listen(sa.engine.Engine, "begin", lambda connection: time.sleep(args.db_delay))
    if args.unstaged:
        Table.stage = lambda self, after: None  # type: ignore[method-assign]
    for players in args.players:
        for helpers in args.helpers:
            found = await run(players, helpers, args.preset, args.seed, args.advance, args.starts)
            load = os.getloadavg()
            print(
                f"## {args.preset}, {players} players, {helpers} helper(s); load average "
                f"{load[0]:.1f} {load[1]:.1f} {load[2]:.1f}{'; staging off' if args.unstaged else ''}"
                f"{f'; every transaction {args.db_delay} s slower' if args.db_delay else ''}",
                flush=True,
            )
            for name, samples in found.items():
                if name == "429s":
                    print(f"   member-edit 429s served: {samples[0]}")
                    continue
                text = ", ".join(
                    f"{total:.2f} s ({n} edits; first edit after {lead:.2f} s, burst {span:.2f} s)"
                    for total, lead, span, n in samples
                )
                print(f"   {name}: {text}", flush=True)
                if len(samples) >= 4:
                    leads = sorted(lead for _, lead, _, _ in samples)
                    totals = sorted(total for total, _, _, _ in samples)
                    print(
                        f"      median / max: whole {totals[len(totals) // 2]:.3f} / {totals[-1]:.3f} s, "
                        f"first edit after {leads[len(leads) // 2]:.3f} / {leads[-1]:.3f} s",
                        flush=True,
                    )


if __name__ == "__main__":
    asyncio.run(main())
