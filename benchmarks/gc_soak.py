"""Games that start and end for many minutes against one bot process: is its memory flat under the garbage
collector's policy (mafiabot/gcpolicy.py)? Run by hand, not a test.

python benchmarks/gc_soak.py --tables 30 --minutes 10 [--thaw-minutes 2] [--no-freeze] [--passes 5]

The local Discord (tests/fakediscord) here, the bot as `mafiabot run` in its own process, as in
load_model.py (whose game opening it uses). Each table plays games one after the other: the lobby, the
start, `--passes` «Пас» clicks, `/mafia stop`. Every 30 s it prints the games played, the bot's resident
memory and its collections since the last line (from the probe, mafiabot.gcpolicy.Probe): a policy that
froze the cycles of ended games and never thawed them would show the memory growing with the games. The
probe's census of the heap by type, before the games and after them, is written beside the bot's log
(the frozen objects are not listed in it: for what stays alive, run it with --no-freeze).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load_model
from chaos.bot_process import BotProcess
from chaos.outside import OutsideTable
from fakediscord import FakeDiscord
from fakediscord.world import VoiceState


async def play(fake: FakeDiscord, table: OutsideTable, passes: int, end: float, played: list[int]) -> None:
    while time.monotonic() < end:
        try:
            await asyncio.wait_for(load_model.open_game(fake, table), timeout=120)
            for _ in range(passes):
                speaker, panel = table.speaker(), table.panel()
                if speaker is None or panel is None:
                    break
                try:
                    await fake.click(table.member(speaker), panel, label="Пас")
                except (AssertionError, KeyError, StopIteration):
                    break
                await asyncio.sleep(0.5)
            await fake.slash(table.players[0], "mafia stop", channel=table.club.text)
            await load_model.until(lambda: load_model.whole_table(table, muted=False), timeout=60)
        except TimeoutError:
            continue
        played.append(1)
        await asyncio.sleep(1)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--thaw-minutes", type=float, help="[bot] gc_thaw_minutes (default: the bot's)")
    parser.add_argument("--no-freeze", action="store_true", help="[bot] gc_freeze = false")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="mafiabot-gc-soak-"))
    probe = workdir / "gc.log"
    os.environ["MAFIABOT_GC_PROBE"] = str(probe)
    os.environ["MAFIABOT_REQUESTS_PER_SECOND"] = "100000"
    if args.thaw_minutes is not None:
        os.environ["MAFIABOT_GC_THAW_MINUTES"] = str(args.thaw_minutes)
    if args.no_freeze:
        os.environ["MAFIABOT_GC_FREEZE"] = "false"
    fake = FakeDiscord()
    await fake.start()
    fake.rate_limits.fast_forward()  # (Discord's 5 messages per 5 s per channel: games here are far faster)
    fake.rate_limits.set(load_model.MEMBER_EDIT, 1000, 1.0)
    fake.rate_limits.global_limit.requests = 100000
    clubs = [fake.create_club(players=10) for _ in range(args.tables)]
    for club in clubs:
        for p in club.players:
            club.guild.voice_states[p.id] = VoiceState(p.id, club.id, club.voice.id, uuid.uuid4().hex)
    url = f"sqlite:///{workdir}/bot.db"
    from mafiabot.storage import Storage

    storage = Storage.open(url)
    for club in clubs:
        storage.update_guild_settings(club.id, audio_enabled=False)
    storage.close()
    bot = BotProcess(fake, workdir, database_url=url)
    print(f"the bot's log: {workdir / 'bot.log'}", flush=True)
    try:
        await bot.spawn()
        await bot.wait_for_log("Restored", timeout=300)
        assert bot.process is not None
        pid = bot.process.pid
        bot.process.send_signal(signal.SIGUSR2)  # the heap before the games (the probe's census)
        started = time.monotonic()
        end = started + args.minutes * 60
        played: list[int] = []
        tables = [OutsideTable(fake, club, club.players) for club in clubs]
        players = asyncio.gather(*(play(fake, t, args.passes, end, played) for t in tables))
        mark = time.monotonic()
        while not players.done():
            await asyncio.wait([players], timeout=30)
            now = time.monotonic()
            print(
                f"{now - started:5.0f} s: {len(played)} games played; bot resident "
                f"{load_model.rss_bytes(pid) / 2**20:.0f} MiB; load {os.getloadavg()[0]:.1f}; "
                f"collections: {load_model.gc_pauses(probe, mark, now)}",
                flush=True,
            )
            mark = now
        await asyncio.sleep(5)
        gc_before = sum(1 for _ in probe.read_text().splitlines())
        bot.process.send_signal(signal.SIGUSR2)  # and after them, every table waiting for /mafia new
        await load_model.until(lambda: sum(1 for _ in probe.read_text().splitlines()) >= gc_before)
        await asyncio.sleep(2)
        print(f"the heap by type, before the games and after: {probe}.census", flush=True)
        thaws = [line for line in bot.lines if "Collector:" in line]
        print("the policy's lines:\n  " + "\n  ".join(thaws[-12:]), flush=True)
    finally:
        if bot.running:
            await bot.kill()
        await fake.stop()


if __name__ == "__main__":
    asyncio.run(main())
