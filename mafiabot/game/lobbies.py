"""The open lobbies of the bot (one per voice channel) and everything that can stop a start, checked
before anything happens."""

from __future__ import annotations

from collections.abc import Container

import discord

import engine
from mafiabot import needs
from mafiabot.config import GameSettings
from mafiabot.errors import UserFacingError
from mafiabot.game.lobby import Lobby


class Lobbies(dict[int, Lobby]):
    """The open lobbies by voice channel id; ``playing`` holds the channels with a running game."""

    def __init__(self, playing: Container[int]) -> None:
        super().__init__()
        self.playing = playing

    def open(
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
    ) -> Lobby:
        if voice_channel_id in self or voice_channel_id in self.playing:
            raise UserFacingError("В этом голосовом канале уже идёт набор или игра: одна игра на канал.")
        lobby = Lobby(guild_id, text_channel_id, voice_channel_id, creator_id, ruleset_id, options)
        lobby.game = game or lobby.game
        try:
            lobby.ruleset  # noqa: B018 (loads the rules: a wrong name or option is refused here)
        except engine.RulesetError as exc:
            raise UserFacingError(f"Не получилось загрузить правила: {exc.message}.") from None
        lobby.nicknames = nicknames
        lobby.players.append(creator_id)
        lobby.names[creator_id] = creator_name
        self[voice_channel_id] = lobby
        return lobby

    def join(self, lobby: Lobby, member: discord.Member) -> None:
        if (
            member.voice is None
            or member.voice.channel is None
            or member.voice.channel.id != lobby.voice_channel_id
        ):
            raise UserFacingError(f"Чтобы играть, зайдите в голосовой канал <#{lobby.voice_channel_id}>.")
        if member.id in lobby.players:
            raise UserFacingError("Вы уже в списке игроков.")
        counts = lobby.counts()
        if counts and len(lobby.players) >= counts[-1]:
            raise UserFacingError(f"Мест нет: эти правила рассчитаны самое большее на {counts[-1]} игроков.")
        lobby.players.append(member.id)
        lobby.names[member.id] = member.display_name

    def leave(self, lobby: Lobby, user_id: int) -> None:
        if user_id not in lobby.players:
            raise UserFacingError("Вас нет в списке игроков.")
        lobby.players.remove(user_id)
        if not lobby.players:
            self.pop(lobby.voice_channel_id, None)


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
    return lobby.describe(needs.required_lines(found), needs.optional_lines(found))


def check_start(lobby: Lobby, guild: discord.Guild, by: int) -> None:
    """Everything that can stop a start, checked before anything happens (the engine's refusal of the
    table's size is answered by the error handler)."""
    if by != lobby.creator_id:
        raise UserFacingError("Начать игру может только тот, кто открыл набор.")
    engine.composition(lobby.ruleset, len(lobby.players))
    blocking = needs.required_lines(missing_permissions(guild, lobby))
    if blocking:
        raise UserFacingError(f"Боту не хватает прав — {'; '.join(blocking)}.")
