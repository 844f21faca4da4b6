"""The chaos soak, run by hand: `scripts/chaos --kills 200` (see RELIABILITY.md).

Whole games of every preset, one after another at one table, with `mafiabot run` SIGKILLed at random
moments and, every fourth game, at one of the named kill points in turn; every other game is also killed
once while its lobby fills. The checks after every restart are those of monkey.py. Prints the figures
at the end (and as JSON with --json).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import fakediscord  # noqa: F401  (first: it points SSL_CERT_FILE at its voice certificate before aiohttp)
from fakediscord import FakeDiscord

from chaos.bot_process import BotProcess
from chaos.monkey import POINTS, PRESETS, ChaosTable, Figures, named_point_game

MEMBER_EDIT = "PATCH /guilds/{guild_id}/members/{user_id}"


async def soak(
    kills: int, seed: int, presets: tuple[str, ...], workdir: Path, minutes: float | None = None
) -> Figures:
    fake = FakeDiscord()
    await fake.start()
    club = fake.create_club(players=12)
    fake.rate_limits.set(MEMBER_EDIT, 1000, 1)
    bot = BotProcess(fake, workdir)
    figures = Figures()
    chaos = ChaosTable(fake, club, bot, random.Random(seed), figures)
    started = time.time()
    try:
        await bot.start()
        game = shown = 0
        while figures.kills < kills and (minutes is None or time.time() - started < minutes * 60):
            preset = presets[game % len(presets)]
            if game % 4 == 3:
                point = POINTS[(game // 4) % len(POINTS)]
                await named_point_game(chaos, point, preset)
                what = f"named {point}"
            else:
                in_lobby = game % 2 == 0
                if await chaos.open_game(preset, kill_in_lobby=in_lobby):
                    await chaos.play(kill_each=(0.3, 2.5))
                what = "lobby and random" if in_lobby else "random"
            game += 1
            print(
                f"[{time.time() - started:6.0f} s] game {game} {preset} ({what}): {figures.kills} kills, "
                f"{figures.acknowledged} acknowledged, {len(figures.defects)} defects",
                flush=True,
            )
            for defect in figures.defects[shown:]:
                print(f"    defect: {defect}", flush=True)
            shown = len(figures.defects)
    finally:
        if bot.running:
            await bot.terminate()
        chaos.db.close()
        await fake.stop()
    return figures


def report(figures: Figures, seconds: float) -> str:
    lost = figures.time_lost or [0.0]
    lines = [
        f"games {figures.games} ({dict(figures.presets)}), {seconds / 60:.0f} min",
        f"kills {figures.kills} (at named points {figures.named_kills}, in a lobby {figures.lobby_kills}), "
        f"restarts {figures.restarts}, lobbies lost {figures.lost_lobbies}",
        f"acknowledged commands {figures.acknowledged}: lost {figures.lost_commands}, "
        f"doubled {figures.doubled_commands}",
        f"zombie games {figures.zombie_games}, members left muted {figures.left_muted}, "
        f"wrong mutes after a restart {figures.wrong_mutes}, games not resumed {figures.wrong_step}",
        f"step time lost per restart (n={len(figures.time_lost)}): max {max(lost):.2f} s, "
        f"mean {statistics.fmean(lost):.2f} s, median {statistics.median(lost):.2f} s",
    ]
    for name, measured in (("voice given back", figures.given_back_after), ("closed", figures.closed_after)):
        s = sorted(measured) or [0.0]
        lines.append(
            f"{name} after the game was seen over (n={len(measured)}): median {statistics.median(s):.1f} s, "
            f"90th {s[int(0.9 * (len(s) - 1))]:.1f} s, max {s[-1]:.1f} s"
        )
    lines += [f"defect: {d}" for d in figures.defects]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=200, help="stop after this many SIGKILLs")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--workdir", type=Path, help="where the database and the bot's log go")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument(
        "--minutes", type=float, help="or stop once this long has passed (after the game being played)"
    )
    args = parser.parse_args(argv)
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="mafiabot-chaos-"))
    workdir.mkdir(parents=True, exist_ok=True)
    print(f"workdir {workdir} (bot.db, bot.log)", flush=True)
    started = time.time()
    presets = tuple(args.presets.split(","))
    figures = asyncio.run(soak(args.kills, args.seed, presets, workdir, args.minutes))
    print(report(figures, time.time() - started))
    if args.json:
        data = {**figures.__dict__, "presets": dict(figures.presets)}
        args.json.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0 if not figures.defects else 1


if __name__ == "__main__":
    sys.exit(main())
