"""Time from a phase change to the first audio packet at the stand-in's voice server, with the clip
cache warm and cold (offline engine, espeak-ng). Run by hand:

    python benchmarks/audio_latency.py [--rounds 5]

It starts the local Discord of the test suite, a real MafiaBot against it, a `simple` game of 8
players (it opens with the acquaintance night), and measures from the moment the game starts (the
first phase change) to the first RTP packet from the bot.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the packages first: tests/engine must not shadow engine

import fakediscord  # noqa: E402  (sets up the test certificate before aiohttp is imported)
from fakediscord import FakeDiscord  # noqa: E402

from mafiabot.bot import MafiaBot  # noqa: E402
from mafiabot.config import AudioSettings, Secret, Settings  # noqa: E402

_ = fakediscord


async def one_round(cache_dir: Path, db: Path) -> float:
    fake = FakeDiscord()
    await fake.start()
    club = fake.create_club(players=8)
    settings = Settings(
        token=Secret(fake.token),
        database_url=f"sqlite:///{db}",
        audio=AudioSettings(engine="espeak", cache_dir=cache_dir),
    )
    bot = MafiaBot(settings, guild_ready_timeout=0.05)
    try:
        async with fake.connect(bot):
            if "mafiabot.cogs.lobby" in bot.failed_cogs:
                raise RuntimeError(f"cogs failed: {bot.failed_cogs}")
            for member in club.players:
                await fake.join_voice(member, club.voice)
            opened = await fake.slash(club.players[0], "mafia new", channel=club.text, ruleset="simple")
            lobby_id = opened.message.id
            for member in club.players[1:]:
                lobby = next(m for m in fake.messages(club.text) if m.id == lobby_id)
                await fake.click(member, lobby, label="Присоединиться")
            lobby = next(m for m in fake.messages(club.text) if m.id == lobby_id)
            started = time.perf_counter()
            await fake.click(club.players[0], lobby, label="Начать игру")
            assert bot.user is not None
            bot_id = bot.user.id
            await fake.wait_for(lambda: fake.voice.audio.of(bot_id), timeout=60, what="first audio packet")
            return time.perf_counter() - started
    finally:
        await fake.stop()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    cold, warm = [], []
    for _ in range(args.rounds):
        with tempfile.TemporaryDirectory() as tmp:
            cache = Path(tmp) / "audio"
            cold.append(await one_round(cache, Path(tmp) / "a.db"))
            warm.append(await one_round(cache, Path(tmp) / "b.db"))
    print(f"start → first packet, cold cache: median {statistics.median(cold):.2f} s (n={len(cold)})")
    print(f"start → first packet, warm cache: median {statistics.median(warm):.2f} s (n={len(warm)})")


if __name__ == "__main__":
    asyncio.run(main())
