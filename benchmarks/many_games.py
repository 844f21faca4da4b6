"""Many games in one bot process: interaction acknowledgement time and memory per running game (run
by hand, not a test).

python benchmarks/many_games.py [--games 100] [--players 10] [--rounds 3]

The local Discord (tests/fakediscord) gets one server per game (each with its own member-edit bucket,
as when the bot is in many servers), the players already in voice. The real MafiaBot starts every game
through the lobby, then in each round every game's speaker clicks «Пас» at the same moment. The time
from sending a click to the bot's interaction callback reaching the stand-in is recorded (Discord
allows 3 s); memory is the growth of the Python heap (tracemalloc, allocations made by the stand-in's own
code left out) from before the first lobby to all games running, divided by the number of games.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import secrets
import statistics
import time
import tracemalloc
from typing import Any

from _local import local_bot  # first: the local Discord's path, SSL_CERT_FILE

# isort: split
from fakediscord import FakeDiscord
from fakediscord.world import VoiceState

MEMBER_EDIT = "PATCH /guilds/{guild_id}/members/{user_id}"


async def timed(coro: Any) -> float:
    started = time.monotonic()
    await coro
    return time.monotonic() - started


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    fake = FakeDiscord()
    await fake.start()
    clubs = [fake.create_club(players=args.players) for _ in range(args.games)]
    for club in clubs:  # everyone is in voice before the bot connects (GUILD_CREATE carries it)
        for p in club.players:
            club.guild.voice_states[p.id] = VoiceState(p.id, club.id, club.voice.id, secrets.token_hex(16))
    bot = local_bot(fake.token)
    try:
        async with fake.connect(bot, timeout=120):
            games = bot.games  # type: ignore[attr-defined]
            for club in clubs:
                games.storage.update_guild_settings(club.id, audio_enabled=False)
            gc.collect()
            tracemalloc.start()
            before = tracemalloc.take_snapshot()
            started = time.monotonic()
            acks: list[float] = []
            opening = asyncio.Semaphore(10)  # games open ten at a time, as they would over a few minutes

            async def open_one(club: Any) -> list[float]:
                async with opening:
                    return await start_game(fake, club)

            acks += await asyncio.gather(*(open_one(club) for club in clubs))
            tables = [games.tables[club.voice.id] for club in clubs]
            await asyncio.gather(*(t.settled() for t in tables))
            gc.collect()
            after = tracemalloc.take_snapshot()
            tracemalloc.stop()
            # The stand-in runs in this process: what its own code allocates (messages, records) is left out.
            outside = [
                tracemalloc.Filter(False, "*fakediscord*"),
                tracemalloc.Filter(False, tracemalloc.__file__),
            ]
            grown = sum(
                d.size_diff
                for d in after.filter_traces(outside).compare_to(before.filter_traces(outside), "filename")
            )
            print(
                f"{args.games} games of {args.players} started in {time.monotonic() - started:.1f} s; "
                f"heap +{grown / args.games / 1024:.0f} KiB per running game (the stand-in's own excluded)",
                flush=True,
            )
            lobby_acks = [a for group in acks for a in group]
            passes: list[float] = []
            for _ in range(args.rounds):
                round_acks = await asyncio.gather(
                    *(pass_speech(fake, club, t) for club, t in zip(clubs, tables, strict=True))
                )
                passes += round_acks
            report("lobby clicks (join/start)", lobby_acks)
            report(f"«Пас», {args.games} games at once", passes)
    finally:
        await fake.stop()


async def start_game(fake: FakeDiscord, club: Any) -> list[float]:
    fake.rate_limits.set(MEMBER_EDIT, 10, 10.0)
    opened = await fake.slash(club.players[0], "mafia new", channel=club.text, ruleset="classic")

    def lobby() -> Any:
        return next(m for m in fake.messages(club.text) if m.id == opened.message.id)

    acks = []
    for p in club.players[1:]:
        acks.append(await timed(fake.click(p, lobby(), label="Присоединиться")))
    acks.append(await timed(fake.click(club.players[0], lobby(), label="Начать игру")))
    await fake.wait_for(lambda: "Игра началась" in lobby().content, timeout=120, what="the start")
    return acks


async def pass_speech(fake: FakeDiscord, club: Any, table: Any) -> float:
    await table.settled()
    seat = table.session.state.step.seat
    uid = table.session.user_of(seat)
    member = next(p for p in club.players if p.id == uid)
    panel = fake.world.find_message(table.panel.id)
    return await timed(fake.click(member, panel, label="Пас"))


def report(what: str, samples: list[float]) -> None:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    print(
        f"{what}: {len(samples)} clicks, ack median {statistics.median(samples) * 1000:.0f} ms, "
        f"p99 {p99 * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms",
        flush=True,
    )


if __name__ == "__main__":
    asyncio.run(main())
