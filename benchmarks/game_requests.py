"""Requests per route and time waited on Discord's limits over a whole game of each preset (run by
hand, not a test).

python benchmarks/game_requests.py [--players 16] [--presets classic,simple,hobbyworld,city,blood]

The local Discord keeps Discord's limits (member edits 10 / 10 s per guild, message creates and edits
5 / 5 s per channel, 50 requests / s in all, the invalid-request count). The real MafiaBot opens each
game through the lobby; then random legal players (engine.simulate.random_commands) play it to the end
through the game's one door (GameService.submit), as fast as the bot will take them, waiting after each
command until the table has sent everything. Interactions are left out (players' clicks are answered on
interaction routes, which are not bound by the channel buckets).

Reported per game: requests per route; the largest burst one step sends to one bucket (a step is the
time between two of the host's Advance commands; a burst within a bucket's size is never delayed when
steps are at least the bucket's window apart); the seconds discord.py slept on rate limits (at machine
speed, far more steps per minute than people play: an upper bound); 429s served; the most invalid
requests (401/403/429) in any ten minutes, against Discord's 10,000.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
import time
from collections import Counter
from typing import Any

from _local import ROOT, local_bot  # first: the local Discord's path, SSL_CERT_FILE

# isort: split

sys.path.insert(0, str(ROOT / "tests" / "bot"))
from fakediscord import FakeDiscord
from fakediscord.ratelimits import discord_limits
from fakediscord.world import VoiceState
from game_driver import TableDriver

import engine
from engine.commands import Advance
from engine.rng import Rng
from engine.simulate import random_commands
from mafiabot.bot import MafiaBot
from mafiabot.game.table import PANEL_EDIT_INTERVAL

SLEPT = [0.0]


def count_rate_limit_sleeps() -> None:
    """Add up the sleeps discord.py's HTTP client takes on rate limits (its own module's calls)."""
    real_sleep = asyncio.sleep

    async def sleep(delay: float, result: Any = None) -> Any:
        if sys._getframe(1).f_globals.get("__name__") == "discord.http" and delay > 0:
            SLEPT[0] += delay
        return await real_sleep(delay, result)

    asyncio.sleep = sleep  # type: ignore[assignment]


def _major(call: Any) -> str:
    return "+".join(call.params[k] for k in ("channel_id", "guild_id") if k in call.params)


def seated_club(fake: FakeDiscord, preset: str, players: int) -> Any:
    club = fake.create_club(players=players, name=f"Клуб {preset}")
    for p in club.players:  # in voice before the bot connects (GUILD_CREATE carries it)
        club.guild.voice_states[p.id] = VoiceState(p.id, club.id, club.voice.id, secrets.token_hex(16))
    return club


async def play(fake: FakeDiscord, bot: MafiaBot, club: Any, preset: str, seed: int) -> dict[str, Any]:
    players = len(club.players)
    d = TableDriver(fake, club, bot, club.players)
    fake.rate_limits.routes = discord_limits()  # the driver lifted them; a real game meets them
    d.games.panel_edit_interval = PANEL_EDIT_INTERVAL  # and the panel keeps its spacing, as in the bot
    first = len(fake.calls)
    slept, limited = SLEPT[0], len(fake.rate_limits.limited)
    started = time.monotonic()
    table = await d.start(preset)
    rnd = Rng(seed)
    bursts: Counter[tuple[str, str]] = Counter()
    worst: Counter[str] = Counter()
    step_mark = len(fake.calls)
    commands = 0
    while not table.session.over and commands < 3000:
        for command in random_commands(table.session.state, rnd):
            try:
                await d.games.submit(table, command)
            except engine.IllegalCommand:
                continue
            commands += 1
            await table.settled()
            if isinstance(command, Advance) or table.session.over:
                bursts = Counter((c.route, _major(c)) for c in fake.calls[step_mark:] if c.status != 429)
                for (route, _), n in bursts.items():
                    worst[route] = max(worst[route], n)
                step_mark = len(fake.calls)
            if table.session.over:
                break
    await fake.wait_for(lambda: not d.games.tables, timeout=120, what="the table to close")
    await table.settled()
    calls = fake.calls[first:]
    return {
        "preset": preset,
        "players": players,
        "commands": commands,
        "seconds": time.monotonic() - started,
        "routes": Counter(c.route for c in calls),
        "worst_step_burst": worst,
        "slept": SLEPT[0] - slept,
        "limited": len(fake.rate_limits.limited) - limited,
        "forbidden": sum(1 for c in calls if c.status in (401, 403)),
    }


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--presets", default="classic,simple,hobbyworld,city,blood")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    count_rate_limit_sleeps()
    fake = FakeDiscord()
    await fake.start()
    tables = {}
    for preset in args.presets.split(","):
        counts = engine.player_counts(engine.load_ruleset(preset))
        tables[preset] = seated_club(fake, preset, max(n for n in counts if n <= args.players))
    bot = local_bot(fake.token)
    try:
        async with fake.connect(bot, timeout=120):
            for preset, club in tables.items():
                players = len(club.players)
                result = await play(fake, bot, club, preset, args.seed)
                routes = ", ".join(f"{r} ×{n}" for r, n in result["routes"].most_common())
                worst = ", ".join(f"{r} {n}" for r, n in result["worst_step_burst"].most_common())
                print(
                    f"## {preset}, {players} players: {result['commands']} commands in "
                    f"{result['seconds']:.1f} s; slept on limits {result['slept']:.1f} s; "
                    f"429s {result['limited']}; 401/403 {result['forbidden']}; "
                    f"peak invalid per 10 min {fake.rate_limits.peak_invalid}\n"
                    f"   requests: {routes}\n   largest burst in one step, per bucket: {worst}",
                    flush=True,
                )
    finally:
        await fake.stop()


if __name__ == "__main__":
    asyncio.run(main())
