"""`/mafia new` and the lobby's Join / Leave / Settings / Start / Cancel buttons."""

from __future__ import annotations

import dataclasses
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import engine
from mafiabot import needs
from mafiabot.bot import MafiaBot, bind_interaction
from mafiabot.config import GameSettings
from mafiabot.errors import UserFacingError, answering
from mafiabot.game.lobbies import check_start, describe_lobby
from mafiabot.game.lobby import Lobby
from mafiabot.game.service import GameService
from mafiabot.presets import PRESETS, load_ruleset, offered
from mafiabot.views import MafiaView

log = logging.getLogger(__name__)

LABELS = {
    "join": "Присоединиться",
    "leave": "Выйти",
    "settings": "Настройки",
    "start": "Начать игру",
    "cancel": "Отменить набор",
}
STYLES = {
    "join": discord.ButtonStyle.success,
    "leave": discord.ButtonStyle.secondary,
    "settings": discord.ButtonStyle.secondary,
    "start": discord.ButtonStyle.primary,
    "cancel": discord.ButtonStyle.danger,
}


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mafia:lobby:(?P<vc>\d+):(?P<action>[a-z]+)"
):
    def __init__(self, voice_channel_id: int, action: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=LABELS[action],
                style=STYLES[action],
                custom_id=f"mafia:lobby:{voice_channel_id}:{action}",
            )
        )
        self.voice_channel_id = voice_channel_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyButton:
        if match["action"] not in LABELS:
            raise ValueError(match["action"])
        return cls(int(match["vc"]), match["action"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bind_interaction(interaction)
        cog = interaction.client.get_cog("Lobby")
        assert isinstance(cog, LobbyCog)
        await answering(interaction, cog.on_button(interaction, self.voice_channel_id, self.action))


class LobbyOptionsSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"mafia:lobbyopt:(?P<vc>\d+)"
):
    """The creator's choice of the preset's variants (the book's own options): the composition follows."""

    def __init__(self, lobby: Lobby) -> None:
        options = [
            discord.SelectOption(
                label=name[:100], description=text[:100], value=name, default=name in lobby.options
            )
            for name, text in sorted(lobby.base_ruleset.options.items())
        ][:25]
        super().__init__(
            discord.ui.Select(
                custom_id=f"mafia:lobbyopt:{lobby.voice_channel_id}",
                placeholder="Варианты правил",
                min_values=0,
                max_values=max(1, len(options)),
                options=options or [discord.SelectOption(label="нет вариантов", value="-")],
            )
        )
        self.voice_channel_id = lobby.voice_channel_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyOptionsSelect:
        cog = interaction.client.get_cog("Lobby")
        assert isinstance(cog, LobbyCog)
        lobby = cog.games.lobbies.get(int(match["vc"]))
        if lobby is None:
            return cls.closed(int(match["vc"]))  # answered «набор закрыт», not «interaction failed»
        return cls(lobby)

    @classmethod
    def closed(cls, voice_channel_id: int) -> LobbyOptionsSelect:
        """The select of a lobby that is gone: its callback finds no lobby and says so."""
        obj = cls.__new__(cls)
        discord.ui.DynamicItem.__init__(
            obj, discord.ui.Select(custom_id=f"mafia:lobbyopt:{voice_channel_id}")
        )
        obj.voice_channel_id = voice_channel_id
        return obj

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bind_interaction(interaction)
        cog = interaction.client.get_cog("Lobby")
        assert isinstance(cog, LobbyCog)
        data: Any = interaction.data or {}
        chosen = tuple(sorted(v for v in data.get("values", []) if v != "-"))
        await answering(interaction, cog.set_options(interaction, self.voice_channel_id, chosen))


def lobby_view(lobby: Lobby) -> MafiaView:
    view = MafiaView(timeout=None)
    for action in LABELS:
        view.add_item(LobbyButton(lobby.voice_channel_id, action))
    return view


def _preset_choices(game: GameSettings | None = None) -> list[app_commands.Choice[str | int | float]]:
    """Every bundled preset that loads (a broken one is logged and left out, never fatal), and the
    server's own variants of the bot's settings."""
    infos = offered(game) if game is not None else PRESETS
    return [app_commands.Choice[str | int | float](name=info.title, value=info.id) for info in infos]


class LobbyCog(commands.Cog, name="Lobby"):
    def __init__(self, bot: MafiaBot) -> None:
        self.bot = bot
        # The rulesets offered depend on the settings (`[game] variants`), known only now: this cog's own
        # copy of the command gets them before the command is synced.
        params = self.new._params
        params["ruleset"] = dataclasses.replace(params["ruleset"], choices=_preset_choices(bot.settings.game))

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(LobbyButton, LobbyOptionsSelect)

    @property
    def games(self) -> GameService:
        return self.bot.games

    @app_commands.command(name="new", description="Открыть набор в игру в вашем голосовом канале")
    @app_commands.describe(
        ruleset="Правила",
        options="Варианты правил через запятую (например: maniac, doctor)",
        nicknames="Номера мест в никах игроков («1 · Имя»), на время игры",
    )
    @app_commands.choices(ruleset=_preset_choices())
    async def new(
        self,
        interaction: discord.Interaction[MafiaBot],
        ruleset: str | None = None,
        options: str = "",
        nicknames: bool = False,
    ) -> None:
        member = interaction.user
        if not isinstance(member, discord.Member) or interaction.guild is None or interaction.channel is None:
            raise UserFacingError("Эта команда работает только на сервере.")
        if member.voice is None or member.voice.channel is None:
            raise UserFacingError("Сначала зайдите в голосовой канал: игра будет идти в нём.")
        if isinstance(member.voice.channel, discord.StageChannel):
            reason = needs.STAGE_REFUSAL
            raise UserFacingError(f"{reason[0].upper()}{reason[1:]}")
        chosen = tuple(sorted(o.strip() for o in options.split(",") if o.strip()))
        lobby = await self.games.lobbies.open(
            guild_id=interaction.guild.id,
            text_channel_id=interaction.channel.id,
            voice_channel_id=member.voice.channel.id,
            creator_id=member.id,
            creator_name=member.display_name,
            ruleset_id=ruleset or self.bot.settings.game.default_preset,
            options=chosen,
            nicknames=nicknames,
            game=self.bot.settings.game,
        )
        await interaction.response.send_message(
            describe_lobby(lobby, interaction.guild), view=lobby_view(lobby)
        )
        message = await interaction.original_response()
        await self.games.lobbies.set_message(lobby, message.id)
        await self.games.meet_voice_members(interaction.guild, member.voice.channel)

    async def on_button(
        self, interaction: discord.Interaction[Any], voice_channel_id: int, action: str
    ) -> None:
        lobby = self.games.lobbies.get(voice_channel_id)
        if lobby is None:
            raise UserFacingError("Этот набор уже закрыт.")
        member = interaction.user
        assert isinstance(member, discord.Member) and interaction.guild is not None
        if action == "join":
            await self.games.lobbies.join(lobby, member)
        elif action == "leave":
            await self.games.lobbies.leave(lobby, member.id)
            if self.games.lobbies.get(voice_channel_id) is not lobby:  # the last player left
                await interaction.response.edit_message(content="Набор закрыт: все игроки вышли.", view=None)
                return
        elif action == "cancel":
            if member.id != lobby.creator_id:
                raise UserFacingError("Отменить набор может только тот, кто его открыл.")
            await self.games.lobbies.close(lobby)
            await interaction.response.edit_message(content="Набор отменён.", view=None)
            return
        elif action == "settings":
            if member.id != lobby.creator_id:
                raise UserFacingError("Настраивать игру может только тот, кто открыл набор.")
            view = MafiaView(timeout=600)
            view.add_item(LobbyOptionsSelect(lobby))
            await interaction.response.send_message(
                "Варианты правил этой игры (состав пересчитается по правилам книги):",
                view=view,
                ephemeral=True,
            )
            return
        elif action == "start":
            check_start(lobby, interaction.guild, member.id)
            await interaction.response.defer()
            await self.games.start(lobby, interaction.guild, member.id)
            if interaction.message is not None:
                await interaction.message.edit(content=lobby.describe() + "\n\n**Игра началась.**", view=None)
            return
        await interaction.response.edit_message(
            content=describe_lobby(lobby, interaction.guild), view=lobby_view(lobby)
        )

    async def set_options(
        self, interaction: discord.Interaction[Any], voice_channel_id: int, chosen: tuple[str, ...]
    ) -> None:
        lobby = self.games.lobbies.get(voice_channel_id)
        if lobby is None:
            raise UserFacingError("Этот набор уже закрыт.")
        if interaction.user.id != lobby.creator_id:
            raise UserFacingError("Настраивать игру может только тот, кто открыл набор.")
        try:
            ruleset = load_ruleset(lobby.ruleset_id, chosen, lobby.game)
            if len(lobby.players) in engine.player_counts(ruleset):
                engine.composition(ruleset, len(lobby.players))  # the book's rules for this table
        except (engine.RulesetError, engine.IllegalCommand) as exc:
            why = exc.message if isinstance(exc, engine.RulesetError) else str(exc)
            raise UserFacingError(f"Такое сочетание вариантов не подходит: {why.rstrip('.')}.") from None
        await self.games.lobbies.set_options(lobby, chosen)
        assert interaction.guild is not None
        channel = interaction.guild.get_channel(lobby.text_channel_id)
        if lobby.message_id is not None and isinstance(channel, discord.TextChannel):
            text = describe_lobby(lobby, interaction.guild)
            await channel.get_partial_message(lobby.message_id).edit(content=text, view=lobby_view(lobby))
        summary = ", ".join(chosen) or "нет"
        await interaction.response.send_message(
            f"Варианты: {summary}. Состав: {lobby.composition_text()}", ephemeral=True
        )


async def setup(bot: MafiaBot) -> None:
    await bot.add_cog(LobbyCog(bot))
