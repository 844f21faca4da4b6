"""The tournament's seating schedule as the judge reads it (FIIM.md F.2, engine/kinds/fiim_schedule.py):
who the players are (mentions, or the judge's voice channel), the schedule's lines and its CSV."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from typing import Any

import discord

from engine.kinds.fiim_schedule import SEATS
from mafiabot.errors import UserFacingError
from mafiabot.i18n import text

_MENTION = re.compile(r"<@!?(\d+)>")


async def schedule_players(
    interaction: discord.Interaction[Any], member: discord.Member, given: str | None, language: str
) -> list[tuple[int, str]]:
    """The tournament's players as (user id, name): the members mentioned in ``given``, in that order, or
    everyone (but bots) in the judge's voice channel. A member not in the cache (the bot does not load
    member lists) is asked of Discord, after the answer is deferred (a refusal before it stays private)."""
    guild = member.guild
    if given:
        ids = list(dict.fromkeys(int(x) for x in _MENTION.findall(given)))
        if not ids:
            raise UserFacingError(text(language, "tournament-schedule-no-mentions"))
        if len(ids) < SEATS:
            raise UserFacingError(text(language, "tournament-schedule-too-few", count=len(ids), seats=SEATS))
        out = []
        for uid in ids:
            found = guild.get_member(uid)
            if found is None:
                if not interaction.response.is_done():
                    await interaction.response.defer(thinking=True)
                try:
                    found = await guild.fetch_member(uid)
                except discord.NotFound:
                    missing = text(language, "tournament-schedule-not-member", id=str(uid))
                    raise UserFacingError(missing) from None
            out.append((uid, found.display_name))
        return out
    channel = member.voice.channel if member.voice else None
    if channel is None:
        raise UserFacingError(text(language, "tournament-schedule-no-voice"))
    return [(m.id, m.display_name) for m in channel.members if not m.bot]


def _name(name: str) -> str:
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def schedule_lines(seating: str, games: Sequence[Sequence[Any]], language: str) -> list[str]:
    """One line per game: «Игра 2: 1 Аня · 2 Борис …» (seats fixed) or its ten players (seats drawn)."""
    lines = []
    for number, places in enumerate(games, 1):
        if seating == "fixed":
            who = " · ".join(f"{p.position} {_name(p.name)}" for p in places)
            lines.append(text(language, "tournament-schedule-game-fixed", number=number, seats=who))
        else:
            who = ", ".join(_name(p.name) for p in sorted(places, key=lambda p: p.name.casefold()))
            lines.append(text(language, "tournament-schedule-game-drawn", number=number, players=who))
    return lines


def schedule_csv(seating: str, games: Sequence[Sequence[Any]]) -> str:
    """game, seat (empty when drawn at the table), player id, player name."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["game", "seat", "user_id", "player"])
    for number, places in enumerate(games, 1):
        for p in places:
            writer.writerow([number, p.position if seating == "fixed" else "", p.user_id, p.name])
    return buf.getvalue()


def fit(lines: Sequence[str], limit: int = 1900) -> str:
    """As many whole lines as fit in one Discord message (the CSV attached has them all)."""
    out: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) + 1 > limit:
            out.append("…")
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(out)
