"""The gateway websocket: HELLO, heartbeats, IDENTIFY → READY → GUILD_CREATE, member chunking,
RECONNECT/RESUME, the bot's own voice state (op 4) and every dispatch the stand-in sends — to a session
only those of the intents its IDENTIFY asked for, as Discord does.

Sharding as Discord does it: an IDENTIFY names its shard ``[shard_id, shard_count]``; that session gets
the servers with ``(guild_id >> 22) % shard_count == shard_id`` and every later event of theirs (events
without a server, such as DMs, go to shard 0). A shard id outside the count is closed with 4010.

A session outlives its connection: dispatches go to a backlog with sequence numbers, so a RESUME
replays what the bot missed, exactly as Discord does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from . import wire
from .payloads import guild_json, member_json, user_json, voice_state_json
from .world import Guild, Member

if TYPE_CHECKING:
    from .server import FakeDiscord

HELLO, HEARTBEAT, IDENTIFY, VOICE_STATE, RESUME, RECONNECT, REQUEST_MEMBERS = 10, 1, 2, 4, 6, 7, 8
INVALID_SESSION, HEARTBEAT_ACK, DISPATCH = 9, 11, 0
INVALID_SHARD = 4010
# Events whose server is named by "id" rather than "guild_id".
_GUILD_EVENTS = {"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"}


def shard_of(guild_id: int, shard_count: int) -> int:
    return (guild_id >> 22) % shard_count


# Gateway intents (IDENTIFY's "intents"): Discord sends a session only the events of the intents it
# asked for. Events with no intent here (READY, INTERACTION_CREATE, member chunks…) always come.
GUILDS, GUILD_MEMBERS, GUILD_VOICE_STATES, GUILD_MESSAGES = 1 << 0, 1 << 1, 1 << 7, 1 << 9
GUILD_MESSAGE_REACTIONS, GUILD_MESSAGE_TYPING = 1 << 10, 1 << 11
DIRECT_MESSAGES, DIRECT_MESSAGE_REACTIONS, DIRECT_MESSAGE_TYPING = 1 << 12, 1 << 13, 1 << 14
ALL_INTENTS = (1 << 26) - 1
_GUILDS_EVENTS = {
    *_GUILD_EVENTS,
    *(f"GUILD_ROLE_{x}" for x in ("CREATE", "UPDATE", "DELETE")),
    *(f"{kind}_{x}" for kind in ("CHANNEL", "THREAD") for x in ("CREATE", "UPDATE", "DELETE")),
    "THREAD_MEMBERS_UPDATE",
}
# (an event's intent in a server, and in a DM)
_BY_PLACE = {
    **{f"MESSAGE_{x}": (GUILD_MESSAGES, DIRECT_MESSAGES) for x in ("CREATE", "UPDATE", "DELETE")},
    **{
        f"MESSAGE_REACTION_{x}": (GUILD_MESSAGE_REACTIONS, DIRECT_MESSAGE_REACTIONS)
        for x in ("ADD", "REMOVE")
    },
    "TYPING_START": (GUILD_MESSAGE_TYPING, DIRECT_MESSAGE_TYPING),
}


def intent_of(event: str, data: Any) -> int | None:
    """The intent a session needs to be sent this event (None: every session gets it)."""
    if event in _GUILDS_EVENTS:
        return GUILDS
    if event.startswith("GUILD_MEMBER_") and event != "GUILD_MEMBERS_CHUNK":
        return GUILD_MEMBERS
    if event == "VOICE_STATE_UPDATE":
        return GUILD_VOICE_STATES
    if event in _BY_PLACE:
        in_guild, in_dm = _BY_PLACE[event]
        return in_guild if isinstance(data, dict) and data.get("guild_id") else in_dm
    return None


class Connection:
    """One websocket; frames go out in order through a queue so `dispatch` can be called anywhere."""

    def __init__(
        self, ws: web.WebSocketResponse, sent: Callable[[dict[str, Any]], None] | None = None
    ) -> None:
        self.ws = ws
        self.sent = sent  # told of every frame as it is written
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.writer = asyncio.create_task(self._write(), name="fakediscord-gateway-writer")
        self.session: Session | None = None
        self.last_acked_seq = -1  # the sequence number in the bot's latest heartbeat

    def send(self, payload: dict[str, Any]) -> None:
        self.queue.put_nowait(payload)

    async def _write(self) -> None:
        while (payload := await self.queue.get()) is not None:
            if self.ws.closed:
                return
            text = wire.dumps(payload)
            if self.sent is not None:
                self.sent(payload)  # (before the write: on uvloop the bot may read it before it returns)
            with contextlib.suppress(ConnectionError):
                await self.ws.send_str(text)

    async def close(self, code: int = 1000) -> None:
        self.queue.put_nowait(None)
        await self.writer
        await self.ws.close(code=code)


@dataclass
class Session:
    id: str
    seq: int = 0
    backlog: list[dict[str, Any]] = field(default_factory=list)
    connection: Connection | None = None
    shard: int = 0
    token: str = ""
    intents: int = ALL_INTENTS  # as its IDENTIFY asked
    dropped: dict[str, int] = field(default_factory=dict)  # events not sent for want of an intent

    def dispatch(self, event: str, data: Any) -> None:
        needed = intent_of(event, data)
        if needed is not None and not self.intents & needed:
            self.dropped[event] = self.dropped.get(event, 0) + 1
            return
        self.seq += 1
        payload = {"op": DISPATCH, "t": event, "s": self.seq, "d": data}
        self.backlog.append(payload)
        if self.connection is not None:
            self.connection.send(payload)


class Gateway:
    heartbeat_interval_ms = 41250

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.sessions: dict[str, Session] = {}
        self.connections: list[Connection] = []
        self.session: Session | None = None  # the bot's current session (the latest to identify)
        self.shard_count = 1  # as the bot's IDENTIFY says
        self.shards: dict[int, Session] = {}  # the current session of each shard
        self.identifies = 0
        self.resumes = 0
        self.heartbeats = 0
        self.chunk_requests: list[dict[str, Any]] = []
        self.chunk_size = 1000

    # -- serving ----------------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        connection = Connection(ws, self._sent)
        self.connections.append(connection)
        connection.send({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
        try:
            async for message in ws:
                if message.type == WSMsgType.TEXT:
                    try:
                        await self._receive(connection, json.loads(message.data))
                    except Exception:
                        self.fake.server_errors.append(f"gateway: {traceback.format_exc()}")
        finally:
            if connection.session is not None and connection.session.connection is connection:
                connection.session.connection = None
            self.connections.remove(connection)
            connection.queue.put_nowait(None)
            await connection.writer
            self.fake.notify()
        return ws

    def _sent(self, payload: dict[str, Any]) -> None:
        if payload.get("t") == "INTERACTION_CREATE":  # (InteractionRecord.sent: when the bot could have it)
            record = self.fake.interactions.get(int(payload["d"]["id"]))
            if record is not None and not record.sent:
                record.sent = time.monotonic()

    async def _receive(self, connection: Connection, payload: dict[str, Any]) -> None:
        op, data = payload.get("op"), payload.get("d")
        if op == HEARTBEAT:
            self.heartbeats += 1
            connection.last_acked_seq = data if isinstance(data, int) else -1
            connection.send({"op": HEARTBEAT_ACK})
        elif op == IDENTIFY:
            await self._identify(connection, data)
        elif op == RESUME:
            self._resume(connection, data)
        elif op == REQUEST_MEMBERS:
            self._send_chunks(data)
        elif op == VOICE_STATE:
            await self.fake.voice.bot_voice_state(data)
        self.fake.notify()

    async def _identify(self, connection: Connection, data: dict[str, Any]) -> None:
        bot = self.fake.tokens.get(str(data.get("token")))
        if bot is None:
            await connection.close(code=4004)  # Authentication failed
            return
        shard_id, shard_count = (int(x) for x in data.get("shard") or (0, 1))
        if not 0 <= shard_id < shard_count:
            await connection.close(code=INVALID_SHARD)
            return
        session = Session(
            secrets.token_hex(16),
            shard=shard_id,
            token=str(data.get("token")),
            intents=int(data.get("intents", ALL_INTENTS)),
        )
        self.sessions[session.id] = session
        session.connection, connection.session = connection, session
        if bot is self.fake.world.bot_user:
            self.identifies += 1
            self.session = session
            self.shard_count, self.shards[shard_id] = shard_count, session
        # Another bot account (accounts.py) gets its READY and guilds; the stand-in's dispatches go to
        # the bot under test only.
        guilds = [
            g
            for g in self.fake.world.guilds.values()
            if bot.id in g.members and shard_of(g.id, shard_count) == shard_id
        ]
        session.dispatch(
            "READY",
            {
                "v": 10,
                "user": {**user_json(bot), "verified": True, "mfa_enabled": False, "flags": 0},
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session.id,
                "session_type": "normal",
                "resume_gateway_url": self.fake.gateway_url,
                "shard": [shard_id, shard_count],
                "application": {
                    "id": str(self.fake.world.application_id if self.session is session else bot.id),
                    "flags": 0,
                },
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "user_settings": {},
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": ["russia"],
            },
        )
        for guild in guilds:
            session.dispatch("GUILD_CREATE", self.guild_create(guild, bot.id))

    def guild_create(self, guild: Guild, bot_id: int | None = None) -> dict[str, Any]:
        # Like a large guild: only the bot and members in voice come inline; the rest needs chunking.
        me = bot_id or self.fake.world.bot_user.id
        inline = [m for m in guild.members.values() if m.id == me or m.id in guild.voice_states]
        return guild_json(guild, self.fake.world, members=inline)

    def _resume(self, connection: Connection, data: dict[str, Any]) -> None:
        session = self.sessions.get(data.get("session_id", ""))
        if session is None or data.get("token") != session.token or session.token not in self.fake.tokens:
            connection.send({"op": INVALID_SESSION, "d": False})
            return
        self.resumes += 1
        session.connection, connection.session = connection, session
        if session.token == self.fake.token:  # (another bot account's session is no shard of the bot's)
            self.shards.setdefault(session.shard, session)
        for payload in session.backlog:
            if payload["s"] > int(data.get("seq") or 0):
                connection.send(payload)
        session.dispatch("RESUMED", {})

    def _send_chunks(self, data: dict[str, Any]) -> None:
        self.chunk_requests.append(data)
        guild = self.fake.world.guilds[int(data["guild_id"])]
        members: list[Member] = list(guild.members.values())
        if data.get("user_ids"):
            wanted = {int(user_id) for user_id in data["user_ids"]}
            members = [m for m in members if m.id in wanted]
        elif data.get("query"):
            query = str(data["query"]).lower()
            members = [m for m in members if m.user.username.lower().startswith(query)]
        if data.get("limit"):
            members = members[: int(data["limit"])]
        chunks = [members[i : i + self.chunk_size] for i in range(0, len(members), self.chunk_size)] or [[]]
        for index, chunk in enumerate(chunks):
            payload: dict[str, Any] = {
                "guild_id": str(guild.id),
                "members": [member_json(m) for m in chunk],
                "chunk_index": index,
                "chunk_count": len(chunks),
            }
            if data.get("nonce"):
                payload["nonce"] = data["nonce"]
            self.dispatch("GUILD_MEMBERS_CHUNK", payload)

    # -- what the driver uses ---------------------------------------------------------------------

    def dispatch(self, event: str, data: Any) -> None:
        session = self.session_for(event, data)
        if session is not None:
            session.dispatch(event, data)

    def session_for(self, event: str, data: Any) -> Session | None:
        """The session an event goes to: its server's shard (shard 0 for events without a server)."""
        if self.shard_count == 1:
            return self.session
        guild_id = data.get("guild_id") if isinstance(data, dict) else None
        if guild_id is None and event in _GUILD_EVENTS:
            guild_id = data.get("id")
        return self.shards.get(shard_of(int(guild_id), self.shard_count) if guild_id else 0)

    def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: the bot must close, reconnect to resume_gateway_url and RESUME."""
        assert self.session is not None and self.session.connection is not None, "the bot is not connected"
        self.session.connection.send({"op": RECONNECT, "d": None})

    def invalidate_session(self) -> None:
        """Send op 9 INVALID_SESSION (not resumable), as Discord does when it lost the session: the bot
        must IDENTIFY again, and the new READY and GUILD_CREATEs replace every object it had cached."""
        session = self.session
        assert session is not None and session.connection is not None, "the bot is not connected"
        del self.sessions[session.id]  # a RESUME of it fails from now on
        self.session = None
        if self.shards.get(session.shard) is session:
            del self.shards[session.shard]
        session.connection.send({"op": INVALID_SESSION, "d": False})

    async def wait_identified(self, count: int, timeout: float = 15.0) -> None:
        """Wait until the bot has identified `count` times and processed what followed."""
        await self.fake.wait_for(
            lambda: self.identifies >= count and self.session is not None,
            timeout=timeout,
            what=f"IDENTIFY number {count}",
        )
        await self.flush(timeout)

    async def flush(self, timeout: float = 5.0) -> None:
        """Return once the bot has processed every event sent so far.

        Discord may ask for a heartbeat (op 1); discord.py answers from its reader, in order, with the
        last sequence number it processed. So the answer proves every earlier event reached the cache.
        If the bot is reconnecting, this waits for its RESUME and asks on the new connection. A sharded
        bot is asked on every shard's connection.
        """
        if self.shard_count == 1:
            await self._flush(lambda: self.session, timeout)
            return
        for shard, session in list(self.shards.items()):
            if session.connection is not None:  # a shard whose process is down has nothing to process
                await self._flush(lambda shard=shard: self.shards.get(shard), timeout)  # type: ignore[misc]

    async def _flush(self, current: Callable[[], Session | None], timeout: float) -> None:
        while (session := current()) is not None:
            connection = session.connection
            if connection is None:
                await self.fake.wait_for(
                    lambda s=session: current() is not s or s.connection is not None,
                    timeout=timeout,
                    what="the bot to reconnect to the gateway",
                )
                continue
            target = session.seq
            connection.send({"op": HEARTBEAT, "d": None})
            await self.fake.wait_for(
                lambda c=connection, t=target: c.last_acked_seq >= t or c.ws.closed,
                timeout=timeout,
                what=f"the bot to process gateway events up to seq {target}",
            )
            if connection.last_acked_seq >= target:
                return

    def voice_state_event(self, guild: Guild, user_id: int) -> dict[str, Any]:
        state = guild.voice_states[user_id]
        return voice_state_json(state, guild.members.get(user_id))

    async def close_all(self) -> None:
        for connection in list(self.connections):
            await connection.close(code=1001)
