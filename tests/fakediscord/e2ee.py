"""End-to-end encrypted voice in the stand-in: the bot's DAVE member, simulated listeners, and what the
voice server (`voice.py`) asks of DAVE.

Discord closes a voice connection whose client does not speak DAVE with 4017 (since 1 March 2026);
every other connection gets protocol version 1 in SESSION_DESCRIPTION and joins its channel's group
(`dave.MediaSession`). Each channel the bot joins already has one listener, a Discord client run
in-process on `davey`: what the stand-in records as the bot's audio is what that listener decrypted.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

import davey
from aiohttp import web

from . import mls
from .dave import (
    ANNOUNCE_COMMIT,
    APPEND,
    COMMIT_WELCOME,
    DAVE_MAGIC,
    EXTERNAL_SENDER,
    INVALID_COMMIT_WELCOME,
    KEY_PACKAGE,
    PREPARE_EPOCH,
    PROPOSALS,
    PROTOCOL_VERSION,
    READY_FOR_TRANSITION,
    WELCOME,
    MediaSession,
    Member,
)

CLOSE_DAVE_REQUIRED = 4017
OPUS_SILENCE = b"\xf8\xff\xfe"
LISTENER_ID = 900_000_000_000_000_001  # the first simulated listener; further ones count up


class BotMember(Member):
    """The bot's voice connection as a DAVE member: messages go over its voice websocket."""

    def __init__(self, user_id: int, ws: web.WebSocketResponse) -> None:
        self.user_id = user_id
        self.ws = ws
        self.seq = 0  # the voice gateway numbers what it sends; clients echo it as seq_ack

    def _next_seq(self) -> int:
        self.seq = (self.seq + 1) % 0x10000
        return self.seq

    async def send_json(self, op: int, data: dict[str, Any]) -> None:
        if not self.ws.closed:
            await self.ws.send_json({"op": op, "d": data, "seq": self._next_seq()})

    async def send_binary(self, op: int, body: bytes) -> None:
        if not self.ws.closed:
            await self.ws.send_bytes(struct.pack(">HB", self._next_seq(), op) + body)


class SimulatedListener(Member):
    """A Discord client in the voice channel: a DAVE member through `davey`, hearing the bot."""

    def __init__(self, session: MediaSession, user_id: int, *, commits: bool = True) -> None:
        self.session = session
        self.user_id = user_id
        self.commits = commits  # every v1 member commits; False lets the other side's commit win
        self.dave = davey.DaveSession(PROTOCOL_VERSION, user_id, session.channel_id)
        self.heard: dict[int, list[bytes]] = {}  # decrypted Opus frames per speaker
        self.failures: list[str] = []  # MLS messages it could not process
        self.external_sender: bytes | None = None

    @property
    def privacy_code(self) -> str | None:
        return self.dave.voice_privacy_code

    async def send_json(self, op: int, data: dict[str, Any]) -> None:
        if op == PREPARE_EPOCH and data["epoch"] == 1:  # the group is re-created: a new key package
            self.dave.reinit(PROTOCOL_VERSION, self.user_id, self.session.channel_id)
            if self.external_sender is not None:
                self.dave.set_external_sender(self.external_sender)
            self._send_key_package()

    def _send_key_package(self) -> None:
        self.session.post(self.session.key_package, self.user_id, self.dave.get_serialized_key_package())

    async def send_binary(self, op: int, body: bytes) -> None:
        session = self.session
        try:
            if op == EXTERNAL_SENDER:
                self.external_sender = body
                self.dave.set_external_sender(body)
                self._send_key_package()
            elif op == PROPOSALS:
                kind = (
                    davey.ProposalsOperationType.append
                    if body[0] == APPEND
                    else davey.ProposalsOperationType.revoke
                )
                result = self.dave.process_proposals(kind, body[1:])
                if result is not None and self.commits:
                    session.post(session.commit, self.user_id, result.commit + (result.welcome or b""))
            elif op in (ANNOUNCE_COMMIT, WELCOME):
                transition_id = struct.unpack_from(">H", body)[0]
                if op == ANNOUNCE_COMMIT:
                    self.dave.process_commit(body[2:])
                else:
                    self.dave.process_welcome(body[2:])
                session.post(session.ready, self.user_id, transition_id)
        except Exception as exc:  # a real client reports it (op 31) and starts over
            self.failures.append(f"op {op}: {exc}")

    def hear(self, speaker: int, frame: bytes) -> bytes | None:
        """The Opus frame a speaker sent, decrypted; None if it was not end-to-end encrypted for us.

        Opus silence (F8 FF FE) passes untransformed, as DAVE allows ("Silence Packets"); discord.py
        sends five after each clip. `heard` keeps only what was decrypted."""
        if frame == OPUS_SILENCE:
            return frame
        if not frame.endswith(DAVE_MAGIC) or not self.dave.ready:
            return None
        try:
            opus = self.dave.decrypt(speaker, davey.MediaType.audio, frame)
        except Exception:
            return None
        self.heard.setdefault(speaker, []).append(opus)
        return opus


class DaveVoice:
    """Every channel's DAVE group, the listeners in them, and the bot members."""

    def __init__(self, report_error: Callable[[str], None], notify: Callable[[], None]) -> None:
        self.report_error = report_error
        self.notify = notify
        self.sender = mls.ExternalSender()
        self.sessions: dict[int, MediaSession] = {}  # voice channel id -> its group
        self.listeners: dict[int, list[SimulatedListener]] = {}  # voice channel id -> listeners
        self.default_listener = True  # each channel the bot joins has a listener already
        self.listener_commits = True
        self.refused: list[int] = []  # user ids closed with 4017
        self._next_listener = LISTENER_ID

    def session(self, channel_id: int) -> MediaSession:
        session = self.sessions.get(channel_id)
        if session is None:
            session = self.sessions[channel_id] = MediaSession(
                channel_id, self.sender, self.report_error, self.notify
            )
            if self.default_listener:
                self.add_listener(channel_id)
        return session

    def add_listener(self, channel_id: int, *, commits: bool | None = None) -> SimulatedListener:
        """A Discord client joins the channel's media session (its DAVE handshake runs at once)."""
        session = self.session(channel_id)
        listener = SimulatedListener(
            session, self._next_listener, commits=self.listener_commits if commits is None else commits
        )
        self._next_listener += 1
        self.listeners.setdefault(channel_id, []).append(listener)
        session.post(session.join, listener)
        return listener

    async def remove_listener(self, listener: SimulatedListener) -> None:
        session = listener.session
        self.listeners[session.channel_id].remove(listener)
        session.post(session.leave, listener.user_id)
        await session.idle()

    async def idle(self) -> None:
        for session in list(self.sessions.values()):
            await session.idle()

    # -- what voice.py hands over ---------------------------------------------------------------------

    def bot_joined(self, channel_id: int, member: BotMember) -> None:
        session = self.session(channel_id)
        session.post(session.join, member)

    def bot_left(self, channel_id: int, user_id: int) -> None:
        session = self.sessions.get(channel_id)
        if session is not None:
            session.post(session.leave, user_id)

    def binary(self, channel_id: int, user_id: int, message: bytes) -> None:
        session = self.session(channel_id)
        op, body = message[0], message[1:]
        if op == KEY_PACKAGE:
            session.post(session.key_package, user_id, body)
        elif op == COMMIT_WELCOME:
            session.post(session.commit, user_id, body)

    def json(self, channel_id: int, user_id: int, op: int, data: dict[str, Any]) -> None:
        session = self.session(channel_id)
        if op == READY_FOR_TRANSITION:
            session.post(session.ready, user_id, int(data["transition_id"]))
        elif op == INVALID_COMMIT_WELCOME:
            session.post(session.invalid, user_id, int(data["transition_id"]))

    def hear(self, channel_id: int, speaker: int, frame: bytes) -> bytes | None:
        """What the channel's first listener decrypted of a frame (every listener tries)."""
        heard = [listener.hear(speaker, frame) for listener in self.listeners.get(channel_id, [])]
        return heard[0] if heard else None

    def cancel(self) -> None:
        for session in self.sessions.values():
            if session.worker is not None:
                session.worker.cancel()
