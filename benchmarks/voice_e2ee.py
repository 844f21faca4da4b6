"""End-to-end encrypted voice (DAVE): how long the bot waits for its group, and what a frame costs
(run by hand, not a test).

python benchmarks/voice_e2ee.py [--rounds 10] [--frames 3000]

- join: the real MafiaBot joins the local Discord's voice channel (tests/fakediscord), which holds one
  simulated listener; the time `channel.connect()` takes, then the time from its return until the MLS
  group is agreed (discord.py's `voice_privacy_code` is set): that second part is what the host's first
  line waits for.
- frames: davey encrypting a 20 ms Opus frame for the group and the listener decrypting it, per frame.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from _local import local_bot  # first: the local Discord's path, SSL_CERT_FILE

# isort: split
import davey
import discord
from fakediscord import FakeDiscord, encode_opus, tone_pcm


async def joins(rounds: int) -> tuple[list[float], list[float]]:
    fake = FakeDiscord()
    await fake.start()
    club = fake.create_club(players=4)
    bot = local_bot(fake.token)
    connect_times, group_times = [], []
    try:
        async with fake.connect(bot):
            channel = bot.get_channel(club.voice.id)
            assert isinstance(channel, discord.VoiceChannel)
            for _ in range(rounds):
                start = time.perf_counter()
                voice = await channel.connect(timeout=10, self_deaf=True)
                connected = time.perf_counter()
                await fake.wait_for(lambda v=voice: v.voice_privacy_code, timeout=10, what="the group")
                agreed = time.perf_counter()
                connect_times.append(connected - start)
                group_times.append(agreed - connected)
                await voice.disconnect()
                await fake.gateway.flush()
    finally:
        await fake.stop()
    return connect_times, group_times


def frames(count: int) -> tuple[float, float]:
    """Microseconds per frame: (encrypt, decrypt), for a two-member group made by the stand-in's code."""
    from fakediscord.mls import ExternalSender, parse_commit_welcome, parse_key_package, vec, welcome_for

    sender, channel = ExternalSender(), 1
    bot, listener = davey.DaveSession(1, 10, channel), davey.DaveSession(1, 20, channel)
    for session in (bot, listener):
        session.set_external_sender(sender.package())
    package = parse_key_package(listener.get_serialized_key_package())
    message, _ = sender.add(channel.to_bytes(8, "big"), 0, package)
    result = bot.process_proposals(davey.ProposalsOperationType.append, vec(message))
    assert result is not None and result.welcome is not None
    commit = parse_commit_welcome(result.commit + result.welcome)
    bot.process_commit(commit.message)
    listener.process_welcome(welcome_for(result.welcome, package.ref))
    opus = encode_opus(tone_pcm(440.0, 0.02))[0]
    start = time.perf_counter()
    sealed = [bot.encrypt_opus(opus) for _ in range(count)]
    encrypted = time.perf_counter()
    for frame in sealed:
        listener.decrypt(10, davey.MediaType.audio, frame)
    decrypted = time.perf_counter()
    return (encrypted - start) / count * 1e6, (decrypted - encrypted) / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--frames", type=int, default=3000)
    args = parser.parse_args()
    connect_times, group_times = asyncio.run(joins(args.rounds))
    print(f"connect(): median {statistics.median(connect_times) * 1000:.0f} ms ({args.rounds} joins)")
    print(
        f"connect() return -> group agreed: median {statistics.median(group_times) * 1000:.0f} ms, "
        f"max {max(group_times) * 1000:.0f} ms"
    )
    encrypt, decrypt = frames(args.frames)
    print(f"per 20 ms Opus frame: encrypt {encrypt:.1f} µs, decrypt {decrypt:.1f} µs")


if __name__ == "__main__":
    main()
