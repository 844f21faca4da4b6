"""`mafiabot run` as a deploy would start it, but pointed at a FakeDiscord in another process.

The only difference from `python -m mafiabot run` is where discord.py connects: its REST base and
gateway URL come from FAKEDISCORD_API and FAKEDISCORD_GATEWAY. The voice gateway's certificate is
trusted through SSL_CERT_FILE, which the parent set before starting us (aiohttp reads it on import).
With MAFIABOT_GC_PROBE=FILE (the load model's --gc-probe) every garbage collection of the bot is timed
into FILE, and SIGUSR2 writes a census of the heap beside it (mafiabot.gcpolicy.Probe); off otherwise.
"""

from __future__ import annotations

import os
import sys
from typing import Any


def main() -> int:
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = os.environ["FAKEDISCORD_API"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["FAKEDISCORD_GATEWAY"])
    if os.environ.get("MAFIABOT_LATENCY_PROBE"):  # benchmarks/load_model.py --probe only
        from chaos.latency_probe import install_in_bot

        install_in_bot(os.environ["MAFIABOT_LATENCY_PROBE"])

    if probe := os.environ.get("MAFIABOT_GC_PROBE"):
        from pathlib import Path

        from mafiabot.gcpolicy import Probe

        Probe(Path(probe)).install()
    if profile := os.environ.get("MAFIABOT_CPROFILE"):
        install_cprofile(profile)
    from mafiabot.__main__ import main as mafiabot_main

    return mafiabot_main(sys.argv[1:])


def install_cprofile(path: str) -> None:
    """The load model's --cprofile: SIGRTMIN starts a profile of the thread that takes the signal (the
    event loop's, the main thread) timed by that thread's CPU time, SIGRTMIN+1 writes it to PATH.1,
    PATH.2… (a wall-clock profile counts a loaded machine's preemptions where they fall). Each is
    idempotent: under uvloop a signal's handler can be called twice."""
    import cProfile
    import signal
    import time

    windows: dict[str, Any] = {"profile": None, "count": 0}

    def start(signum: int, frame: object) -> None:
        if windows["profile"] is None:
            windows["profile"] = cProfile.Profile(time.thread_time)
            windows["profile"].enable()

    def stop(signum: int, frame: object) -> None:
        profile, windows["profile"] = windows["profile"], None
        if profile is not None:
            profile.disable()
            windows["count"] += 1
            profile.dump_stats(f"{path}.{windows['count']}")

    signal.signal(signal.SIGRTMIN, start)
    signal.signal(signal.SIGRTMIN + 1, stop)


if __name__ == "__main__":
    sys.exit(main())
