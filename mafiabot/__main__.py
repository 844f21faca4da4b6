"""Command line: `mafiabot run` hosts games on Discord (without a token it explains how to get one and
exits with 2; with `--demo-without-token`, as `./scripts/run` calls it, it plays the demo instead),
`mafiabot demo` plays an offline game in the terminal, `mafiabot invite [--helper]` prints the bot's
(or a helper bot's) invite link, `mafiabot audio …` manages the spoken announcements."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Callable
from pathlib import Path

from mafiabot.config import ConfigError, Settings, load_settings

NO_TOKEN_HELP = """\
No Discord bot token is configured, so mafiabot cannot connect to Discord.

To host games on your server:
  1. Open https://discord.com/developers/applications, create an application, and on its "Bot" page
     press "Reset Token" and copy the token. On the same page enable the "Server Members Intent".
  2. Invite the bot with this link (your application's id in place of APPLICATION_ID):
       {invite}
     (scopes "bot" and "applications.commands"; permissions {labels}. The README says what each is for.)
  3. Give mafiabot the token, either
       export MAFIABOT_TOKEN='your-token'          (environment variable), or
       [bot] token = "your-token"                  in config.toml (git-ignored; see config.example.toml)
  4. Start it again: mafiabot run   (or ./scripts/run)

Without Discord, `mafiabot demo` (or ./scripts/run demo) plays a simulated game in the terminal.
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mafiabot",
        description="mafiabot hosts the party game Mafia in Discord voice channels: the lobby, the "
        "private role deal, mutes for night, day and each speech, the host's voice, votes, fouls, ratings.",
        epilog="Each command has its own --help. Settings: config.toml (see config.example.toml) or "
        "MAFIABOT_* environment variables.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="{run,demo,invite,audio}")
    run = commands.add_parser(
        "run",
        help="connect to Discord and host games (needs a token)",
        description="Connect to Discord and host games. Without a token it explains how to get one "
        "and exits with 2. SIGTERM is a clean stop: running games resume on the next start.",
    )
    run.add_argument("--config", type=Path, help="settings file (default: config.toml, if present)")
    from mafiabot import demo

    demo.add_arguments(
        commands.add_parser(
            "demo",
            help="play a simulated game in the terminal, no Discord needed",
            description=demo.DESCRIPTION,
        )
    )
    run.add_argument(
        "--memory-only",
        action="store_true",
        help="play without a database: nothing is stored, a restart loses every game (for a broken database)",
    )
    run.add_argument(
        "--sync-commands",
        action="store_true",
        help="publish the slash commands to Discord even if they did not change since the last start "
        "(e.g. after they were deleted in the developer portal); otherwise only changed commands are",
    )
    run.add_argument(
        "--demo-without-token",
        action="store_true",
        help="with no token configured, explain how to get one and play the offline demo (./scripts/run)",
    )
    invite = commands.add_parser(
        "invite",
        help="print the invite link of the bot, or of a helper bot",
        description="Print the OAuth2 link that adds the bot to a server (scopes bot and "
        "applications.commands, exactly the permissions in mafiabot/needs.py), or a helper bot's.",
    )
    invite.add_argument(
        "--helper",
        action="store_true",
        help="a helper bot for mute bursts ([voice] helper_tokens): scope bot, Mute Members only",
    )
    invite.add_argument(
        "application_id",
        nargs="?",
        default="APPLICATION_ID",
        help="the application's id (developer portal → General Information); default: a placeholder",
    )
    audio = commands.add_parser("audio", help="announcement audio tools (see `mafiabot audio --help`)")
    audio.add_argument("args", nargs=argparse.REMAINDER)
    return parser


HELPER_HELP = """\
A helper bot is another application of yours on https://discord.com/developers/applications (one per
helper: each has its own Discord limit of 10 mute changes per 10 s on a server). On its "Bot" page press
"Reset Token", then give the bot the helper tokens, either
  export MAFIABOT_HELPER_TOKENS='token1,token2'      (environment variable), or
  [voice] helper_tokens = ["token1", "token2"]       in config.toml (see config.example.toml)
Invite each helper to the server with its own application id in this link (it asks for View Channels,
Connect and Mute Members; it has no commands):"""


def _invite(helper: bool, application_id: str) -> int:
    from mafiabot import needs

    if application_id != "APPLICATION_ID" and not application_id.isdigit():
        print(f"mafiabot invite: {application_id!r} is not an application id (digits)", file=sys.stderr)
        return 2
    if helper:
        print(HELPER_HELP)
        print(f"  {needs.helper_invite_url(application_id)}")
        print("`/mafia check` in a voice channel says how many are ready there and how many a table needs.")
    else:
        print(needs.invite_url(application_id))
    return 0


def _demo(args: argparse.Namespace | None = None) -> int:
    from mafiabot import demo

    return demo.run(args if args is not None else _parser().parse_args(["demo"]))


# How long a stop (SIGTERM, SIGINT) may take: the tables are stored and told, voice is left, the gateway
# closed. Past it the process exits anyway, with status 1. A supervisor's own timeout must be longer
# (docs/deploy.md: TimeoutStopSec=30).
STOP_SECONDS = 20.0


def _hard_exit_after(seconds: float) -> None:
    """A stop that hangs (a stuck thread, a dead socket) must still end: a daemon timer exits the process."""
    import os
    import threading

    def expire() -> None:
        print(f"mafiabot: the stop took longer than {seconds:.0f} s; exiting anyway", file=sys.stderr)
        sys.stderr.flush()
        os._exit(1)

    timer = threading.Timer(seconds, expire)
    timer.daemon = True
    timer.start()


DATABASE_HELP = """\
mafiabot: the database cannot be used, so the bot does not start ({where}: {problem}).
Without it no game would survive a restart and nobody's mute would be on record. Fix the database (or
[database] url / MAFIABOT_DATABASE_URL), or start with `mafiabot run --memory-only` to play without one."""


def _database_problem(url: str) -> str | None:
    """Why the database cannot serve the bot (it cannot be opened or migrated, or fails its integrity
    check), or None when it can. This is where `mafiabot run` migrates the database, once."""
    from mafiabot.storage import Storage

    try:
        storage = Storage.open(url)
    except Exception as exc:
        return f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}".rstrip(": ")
    try:
        return storage.integrity_problem()
    finally:
        storage.close()


def event_loop_factory(choice: str) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The event loop `mafiabot run` runs on (``[bot] event_loop``): uvloop's for "uvloop", and for "auto"
    where uvloop is installed; None for asyncio's own. uvloop keeps asyncio's API (signals, subprocesses,
    threads, aiohttp) with its loop, handles and transports in C: less CPU for each request and event."""
    if choice == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        if choice == "uvloop":  # (the settings checked that it is installed)
            raise
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


def loop_name(loop: asyncio.AbstractEventLoop) -> str:
    """«uvloop» or «asyncio», and the loop's class, for the log."""
    kind = type(loop)
    name = "uvloop" if kind.__module__.split(".")[0] == "uvloop" else "asyncio"
    return f"{name} ({kind.__module__}.{kind.__qualname__})"


async def _serve(
    settings: Settings, *, memory_only: bool = False, migrated: bool = False, sync_commands: bool = False
) -> int:
    import signal

    import discord

    from mafiabot.bot import make_bot
    from mafiabot.gcpolicy import CollectorPolicy

    logging.getLogger(__name__).info("Event loop: %s", loop_name(asyncio.get_running_loop()))
    bot = make_bot(settings, memory_only=memory_only, migrated=migrated)
    bot.force_sync = sync_commands
    bot.collector = CollectorPolicy(enabled=settings.gc_freeze, thaw_every=settings.gc_thaw_minutes * 60)
    loop = asyncio.get_running_loop()
    stopping: list[asyncio.Task[None]] = []

    def stop(name: str) -> None:
        # SIGTERM is what systemd, docker and kubernetes send before a deploy: a clean stop, not a crash.
        if stopping:
            return
        logging.getLogger(__name__).info("%s: stopping; running games are stored and resume on start", name)
        _hard_exit_after(STOP_SECONDS)
        stopping.append(asyncio.create_task(bot.close(), name="stop"))

    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop, sig.name)
    try:
        async with bot:
            await bot.start(settings.token.get())
    except discord.LoginFailure:
        print("Discord rejected the token (MAFIABOT_TOKEN / [bot] token): check it on the developer portal.")
        return 1
    except discord.PrivilegedIntentsRequired:
        print('Enable the "Server Members Intent" on the bot page of the Discord developer portal.')
        return 1
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)
    if stopping:
        await stopping[0]
    return 0


def run(
    config: Path | None,
    *,
    memory_only: bool = False,
    demo_without_token: bool = False,
    sync_commands: bool = False,
) -> int:
    try:
        settings = load_settings(config)
    except ConfigError as exc:
        print(f"Invalid configuration: {exc}", file=sys.stderr)
        return 2
    if not settings.token:
        from mafiabot import needs

        labels = ", ".join(needs.invite_labels())
        print(NO_TOKEN_HELP.format(invite=needs.invite_url("APPLICATION_ID"), labels=labels), file=sys.stderr)
        if demo_without_token:
            print("Meanwhile, here is an offline demo game.\n", file=sys.stderr)
            return _demo()
        return 2
    from mafiabot.logs import setup_logging

    setup_logging(settings.log_level, settings.log_format, secrets=settings.secrets(), debug=settings.debug)
    logging.getLogger(__name__).info(
        "Starting: %d allowed guild(s), database %s, %d helper bot(s)",
        len(settings.guild_ids),
        settings.database_url.split("://", 1)[0],
        len(settings.helper_tokens),
    )
    if memory_only:
        logging.getLogger(__name__).warning(
            "Memory-only mode: games are not stored and do not survive a restart"
        )
    else:
        problem = _database_problem(settings.database_url)
        if problem is not None:
            where = settings.database_url.split("://", 1)[0]
            print(DATABASE_HELP.format(where=where, problem=problem), file=sys.stderr)
            return 3
    try:
        # The check above migrated the database (once): the bot opens it as it is.
        with asyncio.Runner(loop_factory=event_loop_factory(settings.event_loop)) as runner:
            return runner.run(
                _serve(
                    settings, memory_only=memory_only, migrated=not memory_only, sync_commands=sync_commands
                )
            )
    except KeyboardInterrupt:
        return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    if args.command == "audio":
        from audio.cli import main as audio_main

        return int(audio_main(list(args.args)))
    if args.command == "demo":
        return _demo(args)
    if args.command == "invite":
        return _invite(args.helper, args.application_id)
    return run(
        args.config,
        memory_only=args.memory_only,
        demo_without_token=args.demo_without_token,
        sync_commands=args.sync_commands,
    )


if __name__ == "__main__":
    sys.exit(main())
