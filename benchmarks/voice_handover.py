"""Voice latency under Discord's member-edit limit (10 edits per 10 s per guild): the bot's voice
controller against a naive one (run by hand, not a test; takes a few minutes).

python benchmarks/voice_handover.py [--players 10 16] [--handovers 4] [--controllers smart naive]

For each table size and controller, a `simple` game is started in the local Discord (tests/fakediscord)
with the real MafiaBot; after the acquaintance night is skipped and the member bucket has refilled:

- hand-over: a speaker clicks «Пас» as soon as they are unmuted; the time from the click to the stand-in
  applying the next speaker's unmute (several hand-overs in a row, as when players pass quickly);
- a hand-over with the bucket refilled, and right after it nightfall: the last speaker passes at once;
  the time until everyone is muted.

The naive controller mutes or unmutes every member at every change, in seat order, one change after
the other (no diff, no ordering of mutes before unmutes, no skipping stale states).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import time
from collections.abc import Iterator
from typing import Any

from _local import local_bot  # first: the local Discord's path, SSL_CERT_FILE

# isort: split
import discord
from fakediscord import FakeDiscord

import mafiabot.game.table as table_module
from mafiabot.bot import MafiaBot
from mafiabot.game.voice import VoiceController

MEMBER_EDIT = "PATCH /guilds/{guild_id}/members/{user_id}"
REFILL = 10.5  # seconds: one whole window of the member bucket


class NaiveController(VoiceController):
    """Every update sets every member's mute again, in order, each update after the previous one."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._queue: asyncio.Queue[None] = asyncio.Queue()

    def update(self) -> None:
        self._idle.clear()
        self._queue.put_nowait(None)

    async def _run(self) -> None:
        while True:
            await self._queue.get()
            if self._released:
                continue
            members = {m.id: m for m in self.members_in_channel()}
            wanted = self._wanted(members)
            for uid in sorted(wanted):
                member = members[uid]
                with contextlib.suppress(discord.HTTPException):
                    await member.edit(mute=wanted[uid], reason="naive")
                    self.edits += 1
                (self.bot_muted.add if wanted[uid] else self.bot_muted.discard)(uid)
            if self._queue.empty():
                self._idle.set()


@contextlib.contextmanager
def controller(kind: str) -> Iterator[None]:
    saved = table_module.VoiceController
    table_module.VoiceController = NaiveController if kind == "naive" else VoiceController  # type: ignore[misc]
    try:
        yield
    finally:
        table_module.VoiceController = saved  # type: ignore[misc]


async def run(players: int, kind: str, handovers: int) -> dict[str, Any]:
    fake = FakeDiscord()
    await fake.start()
    club = fake.create_club(players=players)
    bot = local_bot(fake.token)
    try:
        with controller(kind):
            async with fake.connect(bot):
                return await _measure(fake, club, bot, handovers)
    finally:
        await fake.stop()


async def _measure(fake: FakeDiscord, club: Any, bot: MafiaBot, handovers: int) -> dict[str, Any]:
    assert not bot.failed_cogs, bot.failed_cogs
    games = bot.games  # type: ignore[attr-defined]
    storage = games.storage
    storage.update_guild_settings(club.id, audio_enabled=False)
    fake.rate_limits.set(MEMBER_EDIT, 1000, 1)  # the start is not measured
    for p in club.players:
        await fake.join_voice(p, club.voice)
    opened = await fake.slash(club.players[0], "mafia new", channel=club.text, ruleset="simple")

    def lobby() -> Any:
        return next(m for m in fake.messages(club.text) if m.id == opened.message.id)

    for p in club.players[1:]:
        await fake.click(p, lobby(), label="Присоединиться")
    await fake.click(club.players[0], lobby(), label="Начать игру")
    await fake.wait_for(lambda: "Игра началась" in lobby().content, what="the start")
    table = games.tables[club.voice.id]
    await table.settled()
    await fake.slash(club.players[0], "mafia skip", channel=club.text)  # the acquaintance night
    await fake.slash(club.players[0], "mafia pause", channel=club.text)  # no speech times out meanwhile
    await table.settled()
    fake.rate_limits.set(MEMBER_EDIT, 10, 10.0)  # from here on, Discord's limit
    await asyncio.sleep(REFILL)

    def member(seat: int) -> Any:
        uid = table.session.user_of(seat)
        return next(p for p in club.players if p.id == uid)

    def panel() -> Any:
        return fake.world.find_message(table.panel.id)

    async def fresh_panel() -> None:
        """The speaker clicks the panel once it shows their speech (as a player would)."""
        current = f":{table.session.serial}:pass"
        await fake.wait_for(
            lambda: any(current in b.get("custom_id", "") for b in panel().buttons()), what="the panel"
        )

    async def pass_speech() -> float:
        """Click «Пас»; return when the next speaker is unmuted: the seconds it took."""
        speaker = table.session.state.step.seat
        await fresh_panel()
        mark = len(fake.calls)
        started = time.monotonic()
        await fake.click(member(speaker), panel(), label="Пас")
        following = table.session.state.step.seat
        uid = member(following).id

        def unmuted() -> Any:
            return next(
                (
                    c
                    for c in fake.calls[mark:]
                    if c.route == MEMBER_EDIT
                    and c.status == 200
                    and int(c.params["user_id"]) == uid
                    and c.json.get("mute") is False
                ),
                None,
            )

        call = await fake.wait_for(unmuted, timeout=60, what="the next speaker's unmute")
        return float(call.at - started)

    handover = [await pass_speech() for _ in range(handovers)]

    # Fast-forward to the last two speeches without voice, then let voice and the bucket catch up.
    update = table.voice.update
    table.voice.update = lambda: None
    while len(table.session.state.step.queue) > 1:
        await fresh_panel()
        await fake.click(member(table.session.state.step.seat), panel(), label="Пас")
    table.voice.update = update
    table.voice.update()
    await table.settled()
    await asyncio.sleep(REFILL)
    fresh = await pass_speech()  # a hand-over with the bucket full

    # Nightfall right after that hand-over: the last speaker passes at once.
    await fresh_panel()
    mark = len(fake.calls)
    started = time.monotonic()
    await fake.click(member(table.session.state.step.seat), panel(), label="Пас")
    assert table.session.state.phase == "night", table.session.state.step
    in_voice = [p for p in club.players if fake.voice_state(p) is not None]
    await fake.wait_for(
        lambda: all(fake.voice_state(p).mute for p in in_voice), timeout=600, what="the whole table muted"
    )
    edits = [c for c in fake.calls[mark:] if c.route == MEMBER_EDIT and c.status == 200]
    nightfall = edits[-1].at - started if edits else 0.0
    await table.settled()
    return {"handover": handover, "fresh": fresh, "nightfall": nightfall, "nightfall_edits": len(edits)}


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, nargs="+", default=[10, 16])
    parser.add_argument("--handovers", type=int, default=4)
    parser.add_argument("--controllers", nargs="+", default=["smart", "naive"], choices=["smart", "naive"])
    args = parser.parse_args()
    print(
        "players | controller | hand-overs in a row, click → next speaker unmuted (s) | median | "
        "hand-over with a full bucket | nightfall right after it → whole table muted (edits sent)"
    )
    for players in args.players:
        for kind in args.controllers:
            r = await run(players, kind, args.handovers)
            each = ", ".join(f"{x:.2f}" for x in r["handover"])
            print(
                f"{players} | {kind} | {each} | {statistics.median(r['handover']):.2f} | {r['fresh']:.2f} | "
                f"{r['nightfall']:.2f} ({r['nightfall_edits']})",
                flush=True,
            )


if __name__ == "__main__":
    asyncio.run(main())
