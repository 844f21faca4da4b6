"""The bot's CPU for one REST request through discord.py's HTTP client, and for one gateway event
(run by hand, not a test; issue 18 item 1).

python benchmarks/request_cpu.py [--requests 3000] [--events 3000] [--profile] [--variants ...]

REST: the local Discord (tests/fakediscord) runs in a child process, so this process's CPU is the
client's alone; discord.py's `HTTPClient`, made as `MafiaBot` makes it (the quota's trace), sends a
click's mix of requests one after the other (a message sent, a message edited, a member's mute
edited), with the stand-in's limits lifted. Printed: this process's CPU per request (`time.process_time`
over all of them; the loop's wake-ups included), and with `--profile` its split by package (cProfile's
own time per function, grouped by the file it is in: discord.py, aiohttp and its helpers yarl/multidict,
the quota, asyncio and the loop, JSON, the rest; cProfile slows Python code more than C, so read the
split as shares, the CPU per request from the run without it).

Variants of REST (`--variants`): "bot" = the quota as the session's middleware on aiohttp's path (what the
bot did before mafiabot/rest.py), "lean" = the same through the lean client (`quota.lean_requests`, the
bot's default: ``[bot] lean_rest``), "trace" = the quota as discord.py's http_trace, "none" = no quota.

Gateway: a click's events as the bot receives them (a MESSAGE_CREATE of the bot's own panel, a
MESSAGE_UPDATE of its edit, two VOICE_STATE_UPDATEs, a MESSAGE_DELETE), handed to a connected
`MafiaBot`'s `DiscordWebSocket.received_message` as text (what the stand-in sends) and as the zlib-stream
frames Discord sends by default (`compress=zlib-stream` in the gateway URL): CPU per event each way,
and the bytes on the wire each way.

Answer (`--only answer [--variants discordpy,lean]`): the child's stand-in makes clicks on a panel (its
3 s deadline lifted), and this process answers them one after the other with a panel of about the
game's size, by discord.py's `InteractionResponse.edit_message` ("discordpy") or the bot's
`mafiabot.answers.update_message` ("lean"; "leanhttp": the same through the lean REST client,
mafiabot/rest.py): CPU per answer, less the making of the interactions and views
(`--top N`: cProfile's top functions of each).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import pstats
import re
import secrets
import subprocess
import sys
import time
import zlib
from collections import Counter
from typing import Any

from _local import local_bot  # first: the local Discord's path, SSL_CERT_FILE

# isort: split


async def serve() -> None:
    """The stand-in for the REST measurement, in its own process: tells where it is, serves until stdin
    closes."""
    from fakediscord import FakeDiscord
    from fakediscord.ratelimits import Limit
    from fakediscord.world import VoiceState

    fake = FakeDiscord()
    await fake.start()
    fake.rate_limits.routes = {}
    fake.rate_limits.default = Limit(10**9, 1.0)
    fake.rate_limits.global_limit = Limit(10**9, 1.0)
    club = fake.create_club(players=10)
    for p in club.players:  # in voice: a member's mute is edited only there
        club.guild.voice_states[p.id] = VoiceState(p.id, club.id, club.voice.id, secrets.token_hex(16))
    # Clicks on a panel to answer (--only answer): made here, each answerable once, without the 3 s
    # (the measurement takes longer); the panel is the message they were made on.
    import fakediscord.routes_app
    from fakediscord.driver import InteractionRecord

    fakediscord.routes_app.INITIAL_RESPONSE_DEADLINE = 10.0**9
    panel = fake.world.add_message(
        club.text, fake.world.bot_user, components=PANEL["components"], flags=PANEL["flags"]
    )
    clicks = []
    for i in range(ANSWERS):
        player = club.players[i % 10]
        data = {"custom_id": "mafia:g:1234:7:vote:3", "component_type": 2}
        record = InteractionRecord(
            fake,
            fake.world.snowflake(),
            f"itoken.{i}",
            3,
            player.id,
            club.guild.id,
            club.text.id,
            data,
            message_id=panel.id,
        )
        fake.interactions[record.id] = record
        fake.interactions_by_token[record.token] = record
        clicks.append([str(record.id), record.token, str(player.id)])
    from fakediscord.payloads import member_json, message_json

    line = {
        "panel": {**message_json(panel), "components": []},  # (as the bot keeps it of a click)
        "members": {str(p.id): member_json(p) for p in club.players},
        "clicks": clicks,
        "api": fake.api_base,
        "token": fake.token,
        "guild": club.guild.id,
        "channel": club.text.id,
        "players": [p.id for p in club.players],
    }
    print(json.dumps(line), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    await fake.stop()


PANEL = {  # a Components V2 message about the size of a table's panel
    "flags": 1 << 15,
    "components": [
        {
            "type": 17,
            "components": [
                {"type": 10, "content": "**День 1.** Говорит игрок 3. " + "x" * 200},
                {
                    "type": 1,
                    "components": [
                        {"type": 2, "style": 2, "label": f"Игрок {i}", "custom_id": f"mafia:g:vote:{i}:1234"}
                        for i in range(1, 6)
                    ],
                },
                {
                    "type": 1,
                    "components": [
                        {"type": 2, "style": 1, "label": "Пас", "custom_id": "mafia:g:pass:0:1234"}
                    ],
                },
            ],
        }
    ],
}


async def rest(where: dict[str, Any], requests: int, variant: str, profile: bool) -> dict[str, Any]:
    import discord
    import discord.http
    from discord.http import Route

    from mafiabot.quota import Quota, lean_requests

    Route.BASE = where["api"]
    quota = Quota(10**9, name="bench")
    http = discord.http.HTTPClient(
        asyncio.get_running_loop(), http_trace=trace(quota) if variant == "trace" else None
    )
    if variant in ("bot", "lean"):
        quota.keep(http)
    if variant == "lean":
        lean_requests(http, quota)
    await http.static_login(where["token"])
    channel, guild, players = where["channel"], where["guild"], where["players"]
    first = await http.send_message(channel, params=discord.http.handle_message_parameters(content="x"))
    message_id = first["id"]
    params = discord.http.handle_message_parameters

    async def click(i: int) -> None:
        # a click's mix: a line sent, the panel edited, two mutes changed (≈ 4.4 requests a click)
        await http.send_message(channel, params=params(content=f"Игрок {i % 10 + 1} говорит."))
        await http.edit_message(channel, message_id, params=_edit())
        await http.edit_member(guild, players[i % 10], mute=True)
        await http.edit_member(guild, players[(i + 1) % 10], mute=False)

    def _edit() -> Any:
        return discord.http.MultipartParameters(payload=PANEL, multipart=None, files=None)

    for i in range(50):  # warm-up: connections, buckets, caches
        await click(i)
    if POOL > 1:  # that many requests at once: as many connections, which aiohttp then reuses in turn
        await asyncio.gather(*(http.get_channel(channel) for _ in range(POOL)))
        connector = http._HTTPClient__session.connector
        print(f"  ({sum(len(c) for c in connector._conns.values())} connections open)", flush=True)
    profiler = cProfile.Profile(time.process_time) if profile else None  # CPU, not wall time
    clicks = max(1, requests // 4)
    cpu = time.process_time()
    times = os.times()
    wall = time.perf_counter()
    if profiler:
        profiler.enable()
    for i in range(clicks):
        await click(i)
    if profiler:
        profiler.disable()
    cpu = time.process_time() - cpu
    after = os.times()
    user, system = after.user - times.user, after.system - times.system
    wall = time.perf_counter() - wall
    await http.close()
    n = clicks * 4
    result: dict[str, Any] = {
        "requests": n,
        "cpu_us": cpu / n * 1e6,
        "user_us": user / n * 1e6,
        "system_us": system / n * 1e6,
        "wall": wall,
    }
    if profiler:
        result["split"] = split(profiler)
        if TOP:
            top(profiler, TOP)
    return result


ANSWERS = 20_000  # clicks the stand-in makes for --only answer (each answered once)


async def answers(
    where: dict[str, Any], requests: int, variant: str, clicks: list[list[str]]
) -> dict[str, Any]:
    """A click's answer carrying the panel (UPDATE_MESSAGE), `requests` of them one after the other:
    discord.py's `InteractionResponse.edit_message` ("discordpy") or the bot's (`mafiabot.answers`)."""
    import discord
    import discord.http

    from mafiabot.answers import update_message
    from mafiabot.game.components import GameItem

    discord.http.Route.BASE = where["api"]
    client = discord.Client(intents=discord.Intents.none())
    if variant == "leanhttp":
        from mafiabot.quota import lean_requests

        lean_requests(client.http)
    await client.login(where["token"])
    state = client._connection

    def interaction(click: list[str]) -> discord.Interaction[Any]:
        interaction_id, token, user = click
        data = {
            "id": interaction_id,
            "application_id": str(state.application_id),
            "type": 3,
            "token": token,
            "version": 1,
            "locale": "ru",
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "guild_id": str(where["guild"]),
            "channel_id": str(where["channel"]),
            "member": where["members"][user],
            "data": {"custom_id": "mafia:g:1234:7:vote:3", "component_type": 2},
            "message": where["panel"],
        }
        return discord.Interaction(data=data, state=state)  # type: ignore[arg-type]

    def panel(i: int) -> discord.ui.LayoutView:
        view = discord.ui.LayoutView()
        rows: list[Any] = [discord.ui.TextDisplay(f"**День 1.** Говорит игрок {i % 10}. " + "x" * 200)]
        rows.append(
            discord.ui.ActionRow(
                *(
                    GameItem(discord.ui.Button(label=f"Игрок {n}", custom_id=f"mafia:g:1234:7:vote:{n}"))
                    for n in range(1, 6)
                )
            )
        )
        view.add_item(discord.ui.Container(*rows))
        return view

    async def answer(i: int) -> None:
        item = interaction(clicks.pop())
        view = panel(i)
        if variant in ("lean", "leanhttp"):
            await update_message(item, view)
        else:
            await item.response.edit_message(view=view)

    for i in range(50):
        await answer(i)
    # what is measured: the answers alone (the interactions and views made for each are counted apart)
    made = time.process_time()
    for i in range(requests):
        interaction(clicks[-1 - i])
        panel(i)
    made = time.process_time() - made
    profiler = cProfile.Profile(time.process_time) if TOP else None
    cpu = time.process_time()
    if profiler:
        profiler.enable()
    for i in range(requests):
        await answer(i)
    if profiler:
        profiler.disable()
        print(variant)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(TOP)
    cpu = time.process_time() - cpu - made
    await client.close()
    return {"requests": requests, "cpu_us": cpu / requests * 1e6}


POOL = 1  # --pool N: connections open to the stand-in while measuring (a burst's leftovers)
TOP = 0  # --top N: the N functions with the most own time (cProfile's table)


async def gateway(events: int, profile: bool) -> list[str]:
    """A click's events handed to a connected bot's websocket, as text and as zlib-stream frames."""
    from fakediscord import FakeDiscord
    from fakediscord.payloads import message_json
    from fakediscord.world import VoiceState

    fake = FakeDiscord()
    await fake.start()
    club = fake.create_club(players=10)
    for p in club.players:
        club.guild.voice_states[p.id] = VoiceState(p.id, club.id, club.voice.id, secrets.token_hex(16))
    bot = local_bot(fake.token)
    lines = []
    try:
        async with fake.connect(bot, timeout=120):
            world = fake.world
            panel = world.add_message(
                club.text, world.bot_user, components=PANEL["components"], flags=PANEL["flags"]
            )
            line = world.add_message(club.text, world.bot_user, content="Игрок 4 говорит.")
            state = club.guild.voice_states[club.players[3].id]
            sequence = [
                ("MESSAGE_CREATE", message_json(line)),
                ("MESSAGE_CREATE", message_json(panel)),
                ("MESSAGE_UPDATE", message_json(panel)),
                (
                    "MESSAGE_DELETE",
                    {"id": str(line.id), "channel_id": str(club.text.id), "guild_id": str(club.id)},
                ),
                ("VOICE_STATE_UPDATE", fake.gateway.voice_state_event(club.guild, state.user_id)),
            ]
            frames = [
                json.dumps({"op": 0, "t": name, "s": 10**6 + i, "d": data}, ensure_ascii=False)
                for i, (name, data) in enumerate(sequence)
            ]
            ws = bot.ws
            compressor = zlib.compressobj()

            def varied(frames: list[str], rounds: int) -> list[str]:
                """The frames of `rounds` clicks, each with its own message ids and sequence numbers (the
                same frame again would compress to a few bytes)."""
                ids = (str(line.id), str(panel.id))
                out = []
                for r in range(rounds):
                    for f in frames:
                        for i in ids:
                            f = f.replace(i, str(int(i) + 4096 * r + 1))
                        out.append(re.sub(r'"s": \d+', f'"s": {len(out) + 10**6}', f, count=1))
                return out

            def compressed(text: str) -> bytes:
                return compressor.compress(text.encode()) + compressor.flush(zlib.Z_SYNC_FLUSH)

            import discord.utils

            for kind in ("text", "zlib-stream"):
                rounds = max(1, events // len(frames))
                if kind == "zlib-stream":  # one stream: every frame compressed in order, beforehand
                    ws._decompressor = discord.utils._ZlibDecompressionContext()
                    compressor = zlib.compressobj()
                    warm = [compressed(f) for f in varied(frames, 20)]
                    batch = [compressed(f) for f in varied(frames, rounds)]
                else:
                    warm, batch = frames * 20, frames * rounds
                for frame in warm:
                    await ws.received_message(frame)
                profiler = cProfile.Profile(time.process_time) if profile and kind == "text" else None
                cpu = time.process_time()
                if profiler:
                    profiler.enable()
                for frame in batch:
                    await ws.received_message(frame)
                if profiler:
                    profiler.disable()
                cpu = time.process_time() - cpu
                rounds = len(batch) // len(frames)
                size = sum(len(f.encode()) if isinstance(f, str) else len(f) for f in batch) / len(batch)
                text = (
                    f"gateway {kind}: {cpu / len(batch) * 1e6:.1f} µs of CPU an event "
                    f"({len(batch)} events, {size:.0f} bytes an event on the wire)"
                )
                if profiler:
                    text += "; " + ", ".join(f"{k} {v:.0%}" for k, v in split(profiler).items())
                    if TOP:
                        top(profiler, TOP)
                lines.append(text)
            # each kind of event alone, as text
            for (name, _), frame in zip(sequence, frames, strict=True):
                for _ in range(50):
                    await ws.received_message(frame)
                cpu = time.process_time()
                for _ in range(max(1, events // 5)):
                    await ws.received_message(frame)
                cpu = time.process_time() - cpu
                lines.append(f"  {name}: {cpu / max(1, events // 5) * 1e6:.1f} µs")
    finally:
        await fake.stop()
    return lines


def trace(quota: Any) -> Any:
    """The quota as an aiohttp trace, as the bot had it before Quota.keep (for the comparison)."""
    import aiohttp

    from mafiabot.quota import counted, urgency

    async def start(_session: Any, context: Any, params: Any) -> None:
        if counted(params.url):
            context.quota_place = await quota.take(urgency.get())

    async def end(_session: Any, context: Any, params: Any) -> None:
        if (place := getattr(context, "quota_place", None)) is not None:
            quota.answered(place)
        response = getattr(params, "response", None)
        if response is not None and response.status == 429:
            response.headers.get("X-RateLimit-Global", "")

    config = aiohttp.TraceConfig()
    config.on_request_start.append(start)
    config.on_request_end.append(end)
    config.on_request_exception.append(end)
    return config


CATEGORIES = (
    ("quota", ("mafiabot/quota",)),
    ("discord.py", ("/discord/",)),
    (
        "aiohttp",
        (
            "/aiohttp/",
            "/yarl/",
            "/multidict/",
            "/propcache/",
            "/aiohappyeyeballs/",
            "/frozenlist/",
            "/aiosignal/",
            "/attr/",
        ),
    ),
    ("json", ("/json/", "orjson")),
    ("asyncio / loop", ("/asyncio/", "selectors", "uvloop", "socket.py", "contextvars")),
)


def category(filename: str, name: str) -> str:
    where = f"{filename}:{name}"
    for label, marks in CATEGORIES:
        if any(mark in where for mark in marks):
            return label
    if filename == "~":  # a builtin: counted where its caller is (unknown here)
        return "builtins (C calls)"
    return "other"


def split(profiler: cProfile.Profile) -> dict[str, float]:
    stats = pstats.Stats(profiler)
    shares: Counter[str] = Counter()
    builtins: Counter[str] = Counter()
    for (filename, _line, name), (_cc, _nc, tottime, _ct, callers) in stats.stats.items():  # type: ignore[attr-defined]
        label = category(filename, name)
        if label == "builtins (C calls)":
            # a C function's time goes to the package of its callers (by their share of the calls)
            total = sum(c[1] for c in callers.values()) or 1
            for (cfile, _cl, cname), caller in callers.items():
                builtins[category(cfile, cname)] += tottime * caller[1] / total
            continue
        shares[label] += tottime
    shares.update(builtins)
    total = sum(shares.values())
    return {label: value / total for label, value in shares.most_common()}


def top(profiler: cProfile.Profile, n: int = 40) -> None:
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(n)
    stats.sort_stats("cumulative").print_callees("client.py.*_request|http.py:589")


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=4000)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--variants", default="bot,trace,none")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--top", type=int, default=0)
    parser.add_argument("--pool", type=int, default=1)
    parser.add_argument("--events", type=int, default=5000)
    parser.add_argument("--only", choices=("rest", "gateway", "answer"))
    args = parser.parse_args()
    global TOP, POOL
    TOP, POOL = args.top, args.pool
    if args.serve:
        await serve()
        return
    if args.only not in ("rest", "answer"):
        for run in range(args.runs):
            for line in await gateway(args.events, args.profile and run == 0):
                print(line, flush=True)
    if args.only == "gateway":
        return
    child = subprocess.Popen(
        [sys.executable, __file__, "--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        where = json.loads(child.stdout.readline())
        clicks = where.pop("clicks")
        if args.only == "answer":
            variants = args.variants.split(",")
            if args.variants == "bot,trace,none":  # (the default of the REST variants)
                variants = ["discordpy", "lean"]
            for _ in range(args.runs):
                for variant in variants:
                    result = await answers(where, args.requests, variant, clicks)
                    print(
                        f"answer {variant}: {result['cpu_us']:.0f} µs of CPU an answer "
                        f"({result['requests']} answers)",
                        flush=True,
                    )
            return
        for run in range(args.runs):
            for variant in args.variants.split(","):
                result = await rest(where, args.requests, variant, args.profile and run == 0)
                line = (
                    f"REST {variant}: {result['cpu_us']:.0f} µs of CPU a request "
                    f"(user {result['user_us']:.0f}, system {result['system_us']:.0f}; "
                    f"{result['requests']} requests, {result['wall']:.1f} s)"
                )
                if "split" in result:
                    line += "; " + ", ".join(f"{k} {v:.0%}" for k, v in result["split"].items())
                print(line, flush=True)
    finally:
        if child.stdin:
            child.stdin.close()
        child.wait(timeout=30)


if __name__ == "__main__":
    try:
        import uvloop  # as `mafiabot run` (its default event loop)
    except ImportError:
        asyncio.run(main())
    else:
        uvloop.run(main())
