"""The bot in its own process (`mafiabot run`, see run_bot.py) against this process's FakeDiscord.

Killing that process is a real crash: no `finally`, no flush, sockets cut by the kernel. The harness
keeps the FakeDiscord (and so the world: members, their mutes, messages) across the bot's restarts,
the way Discord outlives a bot, and starts the bot again on the same database.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from pathlib import Path

from fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]


class BotProcess:
    def __init__(
        self,
        fake: FakeDiscord,
        workdir: Path,
        *,
        database_url: str | None = None,
        shards: tuple[tuple[int, ...], int] | None = None,
    ) -> None:
        self.fake = fake
        self.workdir = workdir
        self.database_url = database_url or f"sqlite:///{workdir}/bot.db"
        self.shards = shards  # (this process's shard ids, the shard count); None: one unsharded bot
        self.config = workdir / "config.toml"
        self.config.write_text(
            f'[audio]\nengine = "none"\ncache_dir = "{workdir / "audio"}"\n', encoding="utf-8"
        )
        self.process: asyncio.subprocess.Process | None = None
        self.lines: list[str] = []  # the current run's log
        self.runs = 0
        self.killed_at = 0.0
        self._reader: asyncio.Task[None] | None = None

    async def start(self, *, kill_at: str = "", extra_args: tuple[str, ...] = ()) -> None:
        """Start `mafiabot run`; returns once it is connected and has restored what was stored."""
        await self.spawn(kill_at=kill_at, extra_args=extra_args)
        await self.wait_for_log("Restored", timeout=60)

    async def spawn(self, *, kill_at: str = "", extra_args: tuple[str, ...] = ()) -> None:
        assert self.process is None or self.process.returncode is not None, "the bot is still running"
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")]),
            "MAFIABOT_TOKEN": self.fake.token,
            "MAFIABOT_DATABASE_URL": self.database_url,
            "MAFIABOT_LOG_FORMAT": "text",
            "MAFIABOT_LOG_LEVEL": os.environ.get("CHAOS_LOG_LEVEL", "INFO"),
            "FAKEDISCORD_API": self.fake.api_base,
            "FAKEDISCORD_GATEWAY": self.fake.gateway_url,
            "MAFIABOT_CHAOS_KILL_AT": kill_at,
        }
        if self.shards is not None:
            env["MAFIABOT_SHARDS"] = ",".join(str(shard) for shard in self.shards[0])
            env["MAFIABOT_SHARD_COUNT"] = str(self.shards[1])
        self.lines = []
        self.runs += 1
        self.killed_at = 0.0  # set when the harness kills this run (a named point kills itself)
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "chaos.run_bot",
            "run",
            "--config",
            str(self.config),
            *extra_args,
            cwd=self.workdir,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        self._reader = asyncio.create_task(self._read(self.process, self.runs), name="bot log reader")

    async def _read(self, process: asyncio.subprocess.Process, run: int) -> None:
        assert process.stdout is not None
        with (self.workdir / "bot.log").open("a", encoding="utf-8") as log:
            log.write(f"===== run {run}\n")
            async for raw in process.stdout:
                line = raw.decode("utf-8", "replace").rstrip("\n")
                self.lines.append(line)
                log.write(line + "\n")
                self.fake.notify()
        self.fake.notify()

    @property
    def running(self) -> bool:
        # A run the harness has sent SIGKILL is dead even before the process is reaped: a random killer
        # cancelled between the signal and the reaping must not leave it counted as running.
        return self.process is not None and self.process.returncode is None and not self.killed_at

    def log_time(self, text: str) -> float:
        """When the current run logged its first line holding `text` (the log's own clock, in ms)."""
        from datetime import datetime

        line = next(line for line in self.lines if text in line)
        return datetime.strptime(line[:23], "%Y-%m-%d %H:%M:%S,%f").timestamp()

    def log_has(self, text: str) -> bool:
        return any(text in line for line in self.lines)

    async def wait_for_log(self, text: str, *, timeout: float = 30) -> None:
        def seen() -> bool:
            if self.log_has(text):
                return True
            if self.process is not None and self.process.returncode is not None:
                raise RuntimeError(
                    f"the bot exited ({self.process.returncode}):\n" + "\n".join(self.lines[-40:])
                )
            return False

        await self.fake.wait_for(seen, timeout=timeout, what=f"{text!r} in the bot's log")

    async def wait(self, timeout: float = 60) -> int:
        """Wait for the process to exit on its own; its exit status."""
        assert self.process is not None
        code = await asyncio.wait_for(self.process.wait(), timeout)
        if self._reader is not None:
            await self._reader
        await self._lost_connection()
        return code

    async def kill(self) -> None:
        """SIGKILL: the crash."""
        if self.running:
            assert self.process is not None
            self.killed_at = time.time()
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(signal.SIGKILL)
        await self.wait()

    async def terminate(self, sig: signal.Signals = signal.SIGTERM, timeout: float = 60) -> int:
        """What systemd or docker send on a stop; returns the exit status."""
        assert self.process is not None and self.running
        self.process.send_signal(sig)
        return await self.wait(timeout)

    async def _lost_connection(self) -> None:
        # The kernel closed the dead process's sockets; wait until the stand-in has noticed, so the next
        # run's IDENTIFY is the only connection (as on Discord after the session times out).
        def gone() -> bool:
            if self.shards is None:
                return not self.fake.gateway.connections
            # Another process's shards stay connected: only this one's sockets must be gone.
            mine = self.shards[0]
            return not any(c.session and c.session.shard in mine for c in self.fake.gateway.connections)

        await self.fake.wait_for(gone, timeout=10, what="the old socket")
