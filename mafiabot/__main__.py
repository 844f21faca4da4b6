"""Command line: `mafiabot run` hosts games on Discord (without a token it explains how to get one and
exits with 2), `mafiabot demo` plays an offline game in the terminal, `mafiabot audio …` manages the
spoken announcements."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

from mafiabot.config import ConfigError, Settings, load_settings

NO_TOKEN_HELP = """\
No Discord bot token is configured, so mafiabot cannot connect to Discord.

To host games on your server:
  1. Open https://discord.com/developers/applications, create an application, and on its "Bot" page
     press "Reset Token" and copy the token. On the same page enable the "Server Members Intent".
  2. Invite the bot with the OAuth2 URL generator: scopes "bot" and "applications.commands";
     permissions Connect, Speak, Mute Members, Move Members, Manage Threads, Send Messages
     (and Manage Nicknames for the optional «1 · Имя» seat prefixes).
  3. Give mafiabot the token, either
       export MAFIABOT_TOKEN='your-token'          (environment variable), or
       [bot] token = "your-token"                  in config.toml (git-ignored; see config.example.toml)
  4. Start it again: mafiabot run   (or ./scripts/run)

Without Discord, `mafiabot demo` (or ./scripts/run demo) plays a simulated game in the terminal.
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mafiabot", description="Бот-ведущий игры «Мафия» для Discord.")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="connect to Discord (needs a token)")
    run.add_argument("--config", type=Path, help="settings file (default: config.toml, if present)")
    commands.add_parser("demo", help="play a simulated game in the terminal, no Discord needed")
    audio = commands.add_parser("audio", help="announcement audio tools (see `mafiabot audio --help`)")
    audio.add_argument("args", nargs=argparse.REMAINDER)
    return parser


def _demo() -> int:
    from engine.demo import main as demo_main  # the engine is pure and cheap, but only the demo needs it
    from mafiabot.game.render import demo_line

    return int(demo_main([], render=demo_line))


async def _serve(settings: Settings) -> int:
    import discord

    from mafiabot.bot import MafiaBot

    bot = MafiaBot(settings)
    try:
        async with bot:
            await bot.start(settings.token.get())
    except discord.LoginFailure:
        print("Discord rejected the token (MAFIABOT_TOKEN / [bot] token): check it on the developer portal.")
        return 1
    except discord.PrivilegedIntentsRequired:
        print('Enable the "Server Members Intent" on the bot page of the Discord developer portal.')
        return 1
    return 0


def run(config: Path | None) -> int:
    try:
        settings = load_settings(config)
    except ConfigError as exc:
        print(f"Invalid configuration: {exc}", file=sys.stderr)
        return 2
    if not settings.token:
        print(NO_TOKEN_HELP, file=sys.stderr)
        return 2
    from mafiabot.logs import setup_logging

    setup_logging(settings.log_level, settings.log_format, secrets=[settings.token.get()])
    logging.getLogger(__name__).info(
        "Starting: %d allowed guild(s), database %s",
        len(settings.guild_ids),
        settings.database_url.split("://", 1)[0],
    )
    try:
        return asyncio.run(_serve(settings))
    except KeyboardInterrupt:
        return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    if args.command == "audio":
        from audio.cli import main as audio_main

        return int(audio_main(list(args.args)))
    if args.command == "demo":
        return _demo()
    return run(args.config)


if __name__ == "__main__":
    sys.exit(main())
