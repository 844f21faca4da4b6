"""The open lobbies of the bot (one per voice channel), stored as they change so that a restart reopens
them, and everything that can stop a start, checked before anything happens.

Every change is stored first and made in memory after: a write the database refuses is answered and
changes nothing (as a game's commands are, write ahead).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Container
from typing import TYPE_CHECKING, Any

import discord

import engine
from mafiabot import needs
from mafiabot.config import GameSettings
from mafiabot.errors import UserFacingError, ruleset_refusal
from mafiabot.game.lobby import Lobby
from mafiabot.game.server_settings import server_settings
from mafiabot.i18n import DEFAULT, text

if TYPE_CHECKING:
    from mafiabot.storage import Storage

log = logging.getLogger(__name__)

LOBBY_NOT_STORED = text(DEFAULT, "lobby-not-stored")


class Lobbies(dict[int, Lobby]):
    """The open lobbies by voice channel id; ``playing`` holds the channels with a running game."""

    def __init__(self, playing: Container[int], storage: Storage | None = None) -> None:
        super().__init__()
        self.playing = playing
        self.storage = storage

    async def _store(self, what: str, *args: Any, **kwargs: Any) -> Any:
        if self.storage is None:
            return None
        try:
            return await asyncio.to_thread(getattr(self.storage, what), *args, **kwargs)
        except Exception as exc:
            log.warning("Could not store the lobby (%s)", what, exc_info=True)
            raise UserFacingError("lobby-not-stored") from exc

    async def open(
        self,
        *,
        guild_id: int,
        text_channel_id: int,
        voice_channel_id: int,
        creator_id: int,
        creator_name: str,
        ruleset_id: str,
        options: tuple[str, ...],
        nicknames: bool = False,
        game: GameSettings | None = None,
        mute_spectators: bool = True,
    ) -> Lobby:
        if voice_channel_id in self or voice_channel_id in self.playing:
            raise UserFacingError("lobby-channel-busy")
        lobby = Lobby(guild_id, text_channel_id, voice_channel_id, creator_id, ruleset_id, options)
        lobby.game = game or lobby.game
        try:
            lobby.ruleset  # noqa: B018 (loads the rules: a wrong name or option is refused here)
        except engine.RulesetError as exc:
            try:
                about = lobby.base_ruleset.options  # the variants in words
            except engine.RulesetError:
                about = {}
            why = ruleset_refusal(exc, lobby.language, ruleset_id, about)
            raise UserFacingError("lobby-rules-not-loaded", why=why) from None
        lobby.nicknames = nicknames
        lobby.mute_spectators = mute_spectators
        stored = await self._store(
            "open_lobby",
            guild_id=guild_id,
            voice_channel_id=voice_channel_id,
            text_channel_id=text_channel_id,
            ruleset_id=ruleset_id,
            options=options,
            creator_id=creator_id,
            creator_name=creator_name,
            nicknames=nicknames,
        )
        if voice_channel_id in self or voice_channel_id in self.playing:  # another opened it meanwhile
            if stored is not None:
                await self._store("close_lobby", stored.id)
            raise UserFacingError("lobby-channel-busy")
        lobby.game_id = stored.id if stored is not None else None
        lobby.players.append(creator_id)
        lobby.names[creator_id] = creator_name
        self[voice_channel_id] = lobby
        return lobby

    async def join(self, lobby: Lobby, member: discord.Member) -> None:
        if lobby.starting:
            raise UserFacingError("lobby-starting")
        if (
            member.voice is None
            or member.voice.channel is None
            or member.voice.channel.id != lobby.voice_channel_id
        ):
            raise UserFacingError("lobby-join-voice", channel=str(lobby.voice_channel_id))
        if member.id in lobby.players:
            raise UserFacingError("lobby-already-in")
        counts = lobby.counts()
        if counts and len(lobby.players) >= counts[-1]:
            raise UserFacingError("lobby-full", count=counts[-1])
        if lobby.game_id is not None:
            await self._store("join_lobby", lobby.game_id, member.id, member.display_name)
            if lobby.starting:  # the start took the players while the join was being stored
                raise UserFacingError("lobby-starting")
        if member.id not in lobby.players:  # (a double click stored once)
            lobby.players.append(member.id)
        lobby.names[member.id] = member.display_name

    async def leave(self, lobby: Lobby, user_id: int) -> None:
        """A player leaves; the last one closes the lobby. The creator's place as the lobby's host goes
        to the next player in join order: the lobby goes on without him."""
        if lobby.starting:
            raise UserFacingError("lobby-starting")
        if user_id not in lobby.players:
            raise UserFacingError("lobby-not-in")
        rest = [u for u in lobby.players if u != user_id]
        if not rest:
            await self.close(lobby)
            return
        if lobby.game_id is not None:
            await self._store("leave_lobby", lobby.game_id, user_id)
            if user_id == lobby.creator_id:
                await self._store("update_lobby", lobby.game_id, creator_id=rest[0])
        if user_id in lobby.players:
            lobby.players.remove(user_id)
        if user_id == lobby.creator_id:
            lobby.creator_id = lobby.players[0]

    async def set_options(self, lobby: Lobby, chosen: tuple[str, ...]) -> None:
        if lobby.starting:
            raise UserFacingError("lobby-starting")
        if lobby.game_id is not None:
            await self._store("update_lobby", lobby.game_id, options=chosen)
        lobby.options = chosen

    async def set_message(self, lobby: Lobby, message_id: int) -> None:
        lobby.message_id = message_id
        if lobby.game_id is None or self.storage is None or self.get(lobby.voice_channel_id) is not lobby:
            return  # (a lobby cancelled or started before its message was known: nothing to keep)
        try:
            await asyncio.to_thread(self.storage.update_lobby, lobby.game_id, message_id=message_id)
        except Exception:  # the buttons work without it (their ids name the channel, not the message)
            log.warning(
                "Could not store the lobby's message", exc_info=True, extra={"game_id": lobby.game_id}
            )

    async def close(self, lobby: Lobby) -> None:
        """The lobby will not start (cancelled, empty): it is forgotten, stored first."""
        if lobby.starting:  # (a cancel racing the start: the game it is becoming runs)
            raise UserFacingError("lobby-starting")
        if lobby.game_id is not None:
            await self._store("close_lobby", lobby.game_id)
        if self.get(lobby.voice_channel_id) is lobby:
            del self[lobby.voice_channel_id]

    async def reopen(self, client: discord.Client, base: GameSettings) -> int:
        """After a restart: the stored lobbies of the bot's guilds are open again, with their players,
        options and message (its buttons' ids name the voice channel: they work again as they are)."""
        if self.storage is None:
            return 0
        for stored in await asyncio.to_thread(self.storage.open_lobbies):
            row, keys = stored.game, stored.game.timers or {}
            if client.get_guild(row.guild_id) is None or row.voice_channel_id in self:
                continue
            server = await server_settings(self.storage, row.guild_id)
            lobby = Lobby(
                row.guild_id,
                row.text_channel_id,
                row.voice_channel_id,
                int(keys.get("creator_id", 0)),
                row.ruleset_id,
                tuple(sorted(o for o, on in (row.options or {}).items() if on)),
                players=[m.user_id for m in stored.members],
                names={m.user_id: m.display_name for m in stored.members},
                message_id=keys.get("message_id"),
                nicknames=bool(keys.get("nicknames", False)),
                game=server.game(base),
                opened_at=row.created_at.timestamp(),
                mute_spectators=server.mute_spectators,
                game_id=row.id,
            )
            try:
                lobby.ruleset  # noqa: B018 (a variant the settings no longer list)
            except engine.RulesetError:
                log.warning("A stored lobby's rules no longer load: it is closed", extra={"game_id": row.id})
                await asyncio.to_thread(self.storage.close_lobby, row.id or 0)
                continue
            if not lobby.players:
                await asyncio.to_thread(self.storage.close_lobby, row.id or 0)
                continue
            self[lobby.voice_channel_id] = lobby
        return len(self)


def missing_permissions(guild: discord.Guild, lobby: Lobby) -> list[needs.Missing]:
    """What the bot lacks for this lobby's game, by channel (`mafiabot.needs`)."""
    if guild.me is None:
        return []
    return needs.missing(
        guild.me,
        text=guild.get_channel(lobby.text_channel_id),
        voice=guild.get_channel(lobby.voice_channel_id),
        preset=lobby.ruleset_id,
        nicknames=lobby.nicknames,
    )


def describe_lobby(lobby: Lobby, guild: discord.Guild) -> str:
    found = missing_permissions(guild, lobby)
    language = lobby.language
    return lobby.describe(needs.required_lines(found, language), needs.optional_lines(found, language))


def check_start(lobby: Lobby, guild: discord.Guild, by: int) -> None:
    """Everything that can stop a start, checked before anything happens (the engine's refusal of the
    table's size is answered by the error handler)."""
    if by != lobby.creator_id:
        raise UserFacingError("lobby-creator-starts")
    engine.composition(lobby.ruleset, len(lobby.players))
    blocking = needs.required_lines(missing_permissions(guild, lobby), lobby.language)
    if blocking:
        raise UserFacingError("lobby-bot-lacks", missing="; ".join(blocking))
