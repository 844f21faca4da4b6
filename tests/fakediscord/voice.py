"""Voice: the bot's voice state (gateway op 4), the voice gateway over TLS, and the UDP media server.

The voice gateway speaks DAVE protocol version 1 (end-to-end encryption, `e2ee.py`) and closes a
client without it with 4017, as Discord does since March 2026. The media server answers IP discovery,
removes the transport encryption of each RTP packet (aead_xchacha20_poly1305_rtpsize) and hands the
end-to-end encrypted frame to the channel's simulated listeners; the Opus frames the first listener
decrypted are kept per speaker. `AudioStore.pcm()` decodes them with libopus so a test can check that
real sound arrived.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import ssl
import struct
import traceback
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import nacl.exceptions
import nacl.secret
from aiohttp import WSMsgType, web

from .audio import AudioStore
from .e2ee import CLOSE_DAVE_REQUIRED, BotMember, DaveVoice
from .world import VoiceState

if TYPE_CHECKING:
    from .server import FakeDiscord

# Voice gateway opcodes (v8)
V_IDENTIFY, V_SELECT_PROTOCOL, V_READY, V_HEARTBEAT, V_SESSION_DESCRIPTION, V_SPEAKING = 0, 1, 2, 3, 4, 5
V_HEARTBEAT_ACK, V_RESUME, V_HELLO, V_RESUMED = 6, 7, 8, 9
MODE = "aead_xchacha20_poly1305_rtpsize"
OGG_HEADERS = (b"OpusHead", b"OpusTags")  # FFmpegOpusAudio sends these as if they were audio


@dataclass
class VoiceSession:
    user_id: int
    guild_id: int
    ssrc: int
    ws: web.WebSocketResponse
    channel_id: int
    secret_key: bytes | None = None
    dave: BotMember | None = None
    transport: asyncio.BaseTransport | None = None  # the TCP (TLS) connection under the websocket


class _MediaProtocol(asyncio.DatagramProtocol):
    def __init__(self, voice: VoiceServer) -> None:
        self.voice = voice
        self.transport: asyncio.DatagramTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.DatagramTransport, transport)

    def datagram_received(self, data: bytes, addr: tuple[str, int]) -> None:
        if len(data) == 74 and data[:2] == b"\x00\x01":  # IP discovery request
            reply = bytearray(74)
            struct.pack_into(">HHI", reply, 0, 2, 70, struct.unpack_from(">I", data, 4)[0])
            reply[8 : 8 + len(addr[0])] = addr[0].encode()
            struct.pack_into(">H", reply, 72, addr[1])
            assert self.transport is not None
            self.transport.sendto(bytes(reply), addr)
            self.voice.client_addresses.add(addr)
        elif len(data) > 16 and data[1] & 0x7F == 0x78:  # RTP, Opus payload type
            self.voice.receive_rtp(data)


class VoiceServer:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.audio = AudioStore()
        self.sessions: dict[int, VoiceSession] = {}  # ssrc -> session
        self.tokens: dict[str, tuple[int, int]] = {}  # voice token -> (guild id, user id)
        self.speaking: dict[int, list[int]] = {}  # user id -> every SPEAKING flag sent (1: voice, 0: stopped)
        self.client_addresses: set[tuple[str, int]] = set()  # the bot's UDP sockets, from IP discovery
        self.dave = DaveVoice(fake.server_errors.append, fake.notify)
        self.port = 0
        self.udp_port = 0
        self._runner: web.AppRunner | None = None
        self._transport: asyncio.DatagramTransport | None = None
        self._closing: list[asyncio.Task[bool]] = []

    async def start(self, ssl_context: ssl.SSLContext) -> None:
        app = web.Application()
        app.router.add_get("/", self.handle)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0, ssl_context=ssl_context)
        await site.start()
        self.port = self._runner.addresses[0][1]
        loop = asyncio.get_running_loop()
        transport, _ = await loop.create_datagram_endpoint(
            lambda: _MediaProtocol(self), local_addr=("127.0.0.1", 0)
        )
        self._transport = transport
        self.udp_port = transport.get_extra_info("sockname")[1]

    def wake_client_sockets(self) -> None:
        """Send one datagram to each UDP socket the bot opened.

        discord.py's voice socket reader thread sleeps in select() for up to 30 s, and closing the
        socket does not wake it; a datagram does, and the thread then sees it was told to stop.
        """
        if self._transport is not None:
            for address in self.client_addresses:
                self._transport.sendto(b"\0", address)

    async def stop(self) -> None:
        self.dave.cancel()
        for task in self._closing:
            task.cancel()
        await asyncio.gather(*self._closing, return_exceptions=True)
        for session in list(self.sessions.values()):
            await session.ws.close()
        if self._transport is not None:
            self._transport.close()
        if self._runner is not None:
            await self._runner.cleanup()

    # -- the bot's voice state: gateway op 4 ------------------------------------------------------

    async def bot_voice_state(self, data: dict[str, Any]) -> None:
        world = self.fake.world
        guild = world.guilds[int(data["guild_id"])]
        bot_id = world.bot_user.id
        channel_id = int(data["channel_id"]) if data.get("channel_id") else None
        if channel_id is not None and not world.may_join(guild, bot_id, world.channels[channel_id]):
            return  # like Discord: no answer at all, the connection attempt times out
        state = guild.voice_states.get(bot_id)
        if state is None:
            state = guild.voice_states[bot_id] = VoiceState(bot_id, guild.id, None, secrets.token_hex(16))
        moved = state.channel_id is not None and channel_id is not None and channel_id != state.channel_id
        state.channel_id = channel_id
        if channel_id is not None:
            state.suppress = world.suppressed(guild, bot_id, world.channels[channel_id])
        state.self_mute, state.self_deaf = bool(data.get("self_mute")), bool(data.get("self_deaf"))
        if moved:
            # Like Discord: the old voice connection is closed with 4014 first, then the new state and
            # server come; discord.py reconnects with them. The close waits for the bot's answer, which
            # only comes once it has reconnected, so it runs as a task; the frame itself goes out now.
            old = [s for s in self.sessions.values() if (s.guild_id, s.user_id) == (guild.id, bot_id)]
            for session in old:
                self._closing.append(asyncio.create_task(session.ws.close(code=4014)))
            while not all(session.ws.closed for session in old):
                await asyncio.sleep(0)
        self.fake.dispatch("VOICE_STATE_UPDATE", self.fake.gateway.voice_state_event(guild, bot_id))
        if channel_id is None:
            del guild.voice_states[bot_id]
            return
        token = secrets.token_hex(8)
        self.tokens[token] = (guild.id, bot_id)
        endpoint = f"127.0.0.1:{self.port}"
        self.fake.dispatch(
            "VOICE_SERVER_UPDATE", {"token": token, "guild_id": str(guild.id), "endpoint": endpoint}
        )

    async def drop(self, guild_id: int, *, code: int = 4006) -> None:
        """Close the bot's voice websocket in `guild_id` from the server's side with `code` (4006: the
        session is no longer valid), as when Discord's voice server loses it or the link is cut."""
        bot_id = self.fake.world.bot_user.id
        dropped = [s for s in self.sessions.values() if (s.guild_id, s.user_id) == (guild_id, bot_id)]
        assert dropped, "the bot has no voice connection in that guild"
        for session in dropped:
            self._closing.append(asyncio.create_task(session.ws.close(code=code)))
        await self.fake.wait_for(lambda: all(s.ws.closed for s in dropped), what="the voice socket to close")

    async def cut(self, guild_id: int) -> None:
        """Cut the bot's voice connection in `guild_id` under the websocket: the TCP link is reset with no
        close frame and no TLS goodbye (a router that lost the link, a voice server that died), so
        discord.py sees the connection end abnormally (1006) rather than a close code it could read."""
        bot_id = self.fake.world.bot_user.id
        cut = [s for s in self.sessions.values() if (s.guild_id, s.user_id) == (guild_id, bot_id)]
        assert cut and all(s.transport is not None for s in cut), "the bot has no voice connection there"
        for session in cut:
            assert session.transport is not None
            session.transport.abort()
        await self.fake.wait_for(
            lambda: all(s.ssrc not in self.sessions for s in cut), what="the voice server to see the cut"
        )

    # -- the voice gateway ------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        await ws.send_json({"op": V_HELLO, "d": {"heartbeat_interval": 13750.0, "v": 8}})
        session: VoiceSession | None = None
        try:
            async for message in ws:
                try:
                    if message.type == WSMsgType.BINARY and session is not None:
                        self.dave.binary(session.channel_id, session.user_id, message.data)
                    elif message.type == WSMsgType.TEXT:
                        session = await self._receive(ws, session, json.loads(message.data)) or session
                        if session is not None and session.transport is None:
                            session.transport = request.transport
                except Exception:
                    self.fake.server_errors.append(f"voice gateway: {traceback.format_exc()}")
                self.fake.notify()
        finally:
            if session is not None:
                self.sessions.pop(session.ssrc, None)
                if session.dave is not None:
                    self.dave.bot_left(session.channel_id, session.user_id)
            self.fake.notify()
        return ws

    async def _receive(
        self, ws: web.WebSocketResponse, session: VoiceSession | None, payload: dict[str, Any]
    ) -> VoiceSession | None:
        """Handle one voice gateway frame; returns the session once IDENTIFY made one."""
        op, data = payload.get("op"), payload.get("d") or {}
        if op == V_IDENTIFY:
            return await self._identify(ws, data)
        elif op == V_SELECT_PROTOCOL and session is not None:
            await self._select_protocol(ws, session, data)
        elif op == V_HEARTBEAT:
            await ws.send_json({"op": V_HEARTBEAT_ACK, "d": {"t": data.get("t")}})
        elif op == V_SPEAKING and session is not None:
            self.speaking.setdefault(session.user_id, []).append(int(data.get("speaking", 0)))
        elif op == V_RESUME:
            await ws.send_json({"op": V_RESUMED, "d": None})
        elif session is not None and session.dave is not None:
            self.dave.json(session.channel_id, session.user_id, int(op or 0), data)
        return None

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> VoiceSession | None:
        owner = self.tokens.get(str(data.get("token")))
        if owner is None or owner != (int(data["server_id"]), int(data["user_id"])):
            await ws.close(code=4004)
            return None
        if int(data.get("max_dave_protocol_version") or 0) < 1:
            self.dave.refused.append(owner[1])
            await ws.close(code=CLOSE_DAVE_REQUIRED, message=b"E2EE/DAVE protocol required")
            return None
        state = self.fake.world.guilds[owner[0]].voice_states.get(owner[1])
        if state is None or state.channel_id is None:
            await ws.close(code=4006)  # Session no longer valid
            return None
        ssrc = len(self.sessions) + 1000 + secrets.randbelow(1000)
        session = self.sessions[ssrc] = VoiceSession(owner[1], owner[0], ssrc, ws, state.channel_id)
        await ws.send_json(
            {
                "op": V_READY,
                "d": {
                    "ssrc": ssrc,
                    "ip": "127.0.0.1",
                    "port": self.udp_port,
                    "modes": [MODE, "aead_aes256_gcm_rtpsize"],
                    "heartbeat_interval": 1,
                },
            }
        )
        return session

    async def _select_protocol(
        self, ws: web.WebSocketResponse, session: VoiceSession, data: dict[str, Any]
    ) -> None:
        mode = data.get("data", {}).get("mode")
        if mode != MODE:
            await ws.close(code=4016)  # Unknown encryption mode
            return
        session.secret_key = secrets.token_bytes(32)
        await ws.send_json(
            {
                "op": V_SESSION_DESCRIPTION,
                "d": {
                    "mode": MODE,
                    "secret_key": list(session.secret_key),
                    "dave_protocol_version": 1,
                    "audio_codec": "opus",
                    "media_session_id": secrets.token_hex(8),
                },
            }
        )
        session.dave = BotMember(session.user_id, ws)
        self.dave.bot_joined(session.channel_id, session.dave)

    # -- media ------------------------------------------------------------------------------------

    def receive_rtp(self, packet: bytes) -> None:
        ssrc = struct.unpack_from(">I", packet, 8)[0]
        session = self.sessions.get(ssrc)
        if session is None or session.secret_key is None:
            return
        header_size = 12
        if packet[0] & 0x10:  # RTP header extension: its 4-byte header stays in the clear with rtpsize
            header_size += 4
        header, ciphertext, nonce = packet[:header_size], packet[header_size:-4], packet[-4:]
        try:
            opus = nacl.secret.Aead(session.secret_key).decrypt(ciphertext, header, nonce + bytes(20))
        except nacl.exceptions.CryptoError:
            self.audio.undecryptable += 1
            return
        if not self.fake.world.heard(session.guild_id, session.user_id):
            self.audio.not_relayed += 1  # no Speak, suppressed or server-muted: Discord drops it
            self.fake.notify()
            return
        if not self.dave.listeners.get(session.channel_id):
            self.audio.unheard += 1  # nobody else is in the channel
            self.fake.notify()
            return
        heard = self.dave.hear(session.channel_id, session.user_id, opus)
        if heard is None:  # sent in the clear, or encrypted for a group the listener is not in
            self.audio.not_end_to_end += 1
            self.fake.notify()
            return
        opus = heard
        if opus.startswith(OGG_HEADERS):
            self.audio.skipped_headers += 1
            return
        self.audio.frames.setdefault(session.user_id, []).append(opus)
        self.fake.notify()
