"""`mafiabot run` as a deploy would start it, but pointed at a FakeDiscord in another process.

The only difference from `python -m mafiabot run` is where discord.py connects: its REST base and
gateway URL come from FAKEDISCORD_API and FAKEDISCORD_GATEWAY. The voice gateway's certificate is
trusted through SSL_CERT_FILE, which the parent set before starting us (aiohttp reads it on import).
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

    from mafiabot.__main__ import main as mafiabot_main

    return mafiabot_main(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
