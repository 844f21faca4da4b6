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
    from mafiabot.__main__ import main as mafiabot_main

    return mafiabot_main(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
