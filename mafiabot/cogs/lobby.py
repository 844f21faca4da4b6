"""`/mafia new` and the lobby's Join / Leave / Settings / Start / Cancel buttons; the lobby's timeout.

The lobby's creator, a member who manages the server or one with the server's host role may start,
cancel or set up any lobby; when the creator leaves, the lobby goes on under the next player.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import engine
from mafiabot.bot import MafiaBot, bind_interaction
from mafiabot.errors import (
    UserFacingError,
    answering,
    engine_refusal,
    expired,
    note_expired,
    ruleset_refusal,
)
from mafiabot.game.lobbies import check_start, describe_lobby
from mafiabot.game.lobby import Lobby
from mafiabot.game.server_settings import server_settings
from mafiabot.game.service import GameService
from mafiabot.i18n import DEFAULT, text, variant_about
from mafiabot.presets import load_ruleset, offered
from mafiabot.views import MafiaView

log = logging.getLogger(__name__)

LABELS = ("join", "leave", "settings", "start", "cancel")  # the buttons, named by ``lobby-button-<action>``
STYLES = {
    "join": discord.ButtonStyle.success,
    "leave": discord.ButtonStyle.secondary,
    "settings": discord.ButtonStyle.secondary,
    "start": discord.ButtonStyle.primary,
    "cancel": discord.ButtonStyle.danger,
}
MODERATORS_ONLY = text(DEFAULT, "lobby-moderators-only")
SWEEP_SECONDS = 30.0  # how often lobbies nobody started are looked for


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mafia:lobby:(?P<vc>\d+):(?P<action>[a-z]+)"
):
    def __init__(self, voice_channel_id: int, action: str, language: str = DEFAULT) -> None:
        super().__init__(
            discord.ui.Button(
                label=text(language, f"lobby-button-{action}"),
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


def _option_texts(about: str) -> dict[str, str]:
    """A variant's words as a select option shows them: a label of up to 100 characters and, for a longer
    text, its rest as the option's description (Discord's limits), never the variant's id."""
    if len(about) <= 100:
        return {"label": about}
    cut = about.rfind(" ", 0, 99)
    cut = cut if cut > 50 else 99
    return {"label": about[:cut].rstrip(" ,:;") + "…", "description": ("…" + about[cut:].strip())[:100]}


class LobbyOptionsSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"mafia:lobbyopt:(?P<vc>\d+)"
):
    """The choice of the preset's variants (the book's own options): the composition follows."""

    def __init__(self, lobby: Lobby) -> None:
        options = [
            discord.SelectOption(**_option_texts(about), value=name, default=name in lobby.options)
            for name, about in sorted(
                (n, variant_about(lobby.language, lobby.ruleset_id, n, d))
                for n, d in lobby.base_ruleset.options.items()
            )
        ][:25]
        super().__init__(
            discord.ui.Select(
                custom_id=f"mafia:lobbyopt:{lobby.voice_channel_id}",
                placeholder=text(lobby.language, "lobby-variants-placeholder"),
                min_values=0,
                max_values=max(1, len(options)),
                options=options
                or [discord.SelectOption(label=text(lobby.language, "lobby-no-variants"), value="-")],
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
        chosen = tuple(sorted({str(v) for v in data.get("values", []) if v != "-"}))  # (each once: forged)
        await answering(interaction, cog.set_options(interaction, self.voice_channel_id, chosen))


def lobby_view(lobby: Lobby) -> MafiaView:
    view = MafiaView(timeout=None)
    for action in LABELS:
        view.add_item(LobbyButton(lobby.voice_channel_id, action, lobby.language))
    return view


def _matches(typed: str, *texts: str) -> bool:
    typed = typed.strip().casefold()
    return not typed or any(typed in text.casefold() for text in texts)


class LobbyCog(commands.Cog, name="Lobby"):
    def __init__(self, bot: MafiaBot) -> None:
        self.bot = bot
        self._sweeper: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(LobbyButton, LobbyOptionsSelect)
        self.games.reopen_hooks.append(self.redraw)
        self._sweeper = asyncio.create_task(self._sweep_forever(), name="lobby timeouts")

    async def redraw(self, lobby: Lobby) -> None:
        """The lobby's message drawn again from the lobby: after a restart (a join stored just before the
        crash was never answered, so the message did not show it yet), or a click answered too late."""
        guild = self.bot.get_guild(lobby.guild_id)
        channel = guild.get_channel(lobby.text_channel_id) if guild is not None else None
        if guild is None or lobby.message_id is None or not isinstance(channel, discord.TextChannel):
            return
        try:
            await channel.get_partial_message(lobby.message_id).edit(
                content=describe_lobby(lobby, guild), view=lobby_view(lobby)
            )
        except discord.NotFound:
            log.info("A reopened lobby's message is gone", extra={"guild_id": lobby.guild_id})

    async def cog_unload(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper

    @property
    def games(self) -> GameService:
        return self.bot.games

    # -- /mafia new ----------------------------------------------------------------------------------

    @app_commands.command(name="new", description="Открыть набор в игру в вашем голосовом канале")
    @app_commands.describe(
        ruleset="Правила",
        options="Варианты правил через запятую (например: maniac, doctor)",
        nicknames="Номера мест в никах игроков («1 · Имя»), на время игры",
    )
    async def new(
        self,
        interaction: discord.Interaction[MafiaBot],
        ruleset: str | None = None,
        options: str = "",
        nicknames: bool = False,
    ) -> None:
        member = interaction.user
        if not isinstance(member, discord.Member) or interaction.guild is None or interaction.channel is None:
            raise UserFacingError("error-server-only")
        if member.voice is None or member.voice.channel is None:
            raise UserFacingError("lobby-join-voice-first")
        if isinstance(member.voice.channel, discord.StageChannel):
            raise UserFacingError("lobby-stage")
        server = await server_settings(self.games.storage, interaction.guild.id)
        game = server.game(self.bot.settings.game)
        ruleset_id = (ruleset or game.default_preset).strip()
        known = {info.id for info in offered(game)}
        if ruleset_id not in known:
            titles = {info.title.casefold(): info.id for info in offered(game)}
            ruleset_id = titles.get(ruleset_id.casefold(), ruleset_id)
        if ruleset_id not in known:
            raise UserFacingError("lobby-no-such-rules", name=ruleset_id[:40])
        chosen = tuple(sorted({o.strip() for o in options.split(",") if o.strip()}))  # each variant once
        lobby = await self.games.lobbies.open(
            guild_id=interaction.guild.id,
            text_channel_id=interaction.channel.id,
            voice_channel_id=member.voice.channel.id,
            creator_id=member.id,
            creator_name=member.display_name,
            ruleset_id=ruleset_id,
            options=chosen,
            nicknames=nicknames,
            game=game,
            mute_spectators=server.mute_spectators,
        )
        try:
            await interaction.response.send_message(
                describe_lobby(lobby, interaction.guild), view=lobby_view(lobby)
            )
        except discord.HTTPException:
            # The lobby's message never reached the channel (an answer after Discord's 3 s, seen at 300
            # tables in the load model): a lobby nobody can see or join would hold the voice channel
            # («одна игра на канал») until its timeout. Closed again, the next /mafia new opens one.
            await self.games.lobbies.close(lobby)
            raise
        message = await interaction.original_response()
        await self.games.lobbies.set_message(lobby, message.id)
        await self.games.meet_voice_members(interaction.guild, member.voice.channel)

    async def _game_settings(self, guild_id: int) -> Any:
        """The bot's `[game]` settings with this server's own (`/mafia-admin timers`) over them."""
        return (await server_settings(self.games.storage, guild_id)).game(self.bot.settings.game)

    @new.autocomplete("ruleset")
    async def ruleset_autocomplete(
        self, interaction: discord.Interaction[MafiaBot], current: str
    ) -> list[app_commands.Choice[str]]:
        game = await self._game_settings(interaction.guild_id or 0)
        return [
            app_commands.Choice(name=f"{info.title} · {info.players}"[:100], value=info.id)
            for info in offered(game)
            if _matches(current, info.id, info.title)
        ][:25]

    @new.autocomplete("options")
    async def options_autocomplete(
        self, interaction: discord.Interaction[MafiaBot], current: str
    ) -> list[app_commands.Choice[str]]:
        """The preset's variants, one more at a time: «maniac, do» offers «maniac, doctor» and the rest
        of the variants that match «do», each with what it changes."""
        game = await self._game_settings(interaction.guild_id or 0)
        ruleset_id = getattr(interaction.namespace, "ruleset", None) or game.default_preset
        try:
            options = load_ruleset(ruleset_id, (), game).options
        except engine.RulesetError:
            return []
        variants = {n: variant_about(game.language, ruleset_id, n, d) for n, d in options.items()}
        *done, typed = [part.strip() for part in current.split(",")] if current else [""]
        done = [d for d in done if d in variants]
        found = []
        for name, about in sorted(variants.items()):
            if name in done or not _matches(typed, name, about):
                continue
            value = ", ".join([*done, name])
            found.append(app_commands.Choice(name=f"{value} — {about}"[:100], value=value[:100]))
        return found[:25]

    # -- the buttons -------------------------------------------------------------------------------

    async def may_moderate(self, member: discord.Member, lobby: Lobby) -> bool:
        """The lobby's creator, a server manager, or a member with the server's host role."""
        if member.id == lobby.creator_id or member.guild_permissions.manage_guild:
            return True
        role_id = (await server_settings(self.games.storage, member.guild.id)).host_role_id
        return bool(role_id) and any(r.id == role_id for r in member.roles)

    def _lobby_here(self, interaction: discord.Interaction[Any], voice_channel_id: int) -> Lobby:
        """The lobby a button names, if it is on the server the click came from: its id names only a voice
        channel, and a click forged on another server (whose manager moderates nothing here) or in a
        private chat must not reach it."""
        if not isinstance(interaction.user, discord.Member) or interaction.guild is None:
            raise UserFacingError("error-server-only")
        lobby = self.games.lobbies.get(voice_channel_id)
        if lobby is None or lobby.guild_id != interaction.guild.id:
            raise UserFacingError("lobby-closed")
        return lobby

    async def on_button(
        self, interaction: discord.Interaction[Any], voice_channel_id: int, action: str
    ) -> None:
        lobby = self._lobby_here(interaction, voice_channel_id)
        member = interaction.user
        assert isinstance(member, discord.Member) and interaction.guild is not None
        if action in ("cancel", "settings", "start") and not await self.may_moderate(member, lobby):
            raise UserFacingError("lobby-moderators-only")
        if action == "join":
            await self.games.lobbies.join(lobby, member)
        elif action == "leave":
            await self.games.lobbies.leave(lobby, member.id)
            if self.games.lobbies.get(voice_channel_id) is not lobby:  # the last player left
                await interaction.response.edit_message(
                    content=text(lobby.language, "lobby-all-left"), view=None
                )
                return
        elif action == "cancel":
            await self.games.lobbies.close(lobby)
            await interaction.response.edit_message(
                content=text(lobby.language, "lobby-cancelled"), view=None
            )
            return
        elif action == "settings":
            view = MafiaView(timeout=600)
            view.add_item(LobbyOptionsSelect(lobby))
            await interaction.response.send_message(
                text(lobby.language, "lobby-variants-title"),
                view=view,
                ephemeral=True,
            )
            return
        elif action == "start":
            # A moderator starts the lobby as its creator would: the game's moderator is the creator.
            check_start(lobby, interaction.guild, lobby.creator_id)
            # Acknowledged beside the start, not before it: a round trip to Discord that the table's
            # first mutes need not wait for (issue 20). A refused start is answered after it.
            deferring = asyncio.ensure_future(interaction.response.defer())
            acknowledged: object = None
            try:
                await self.games.start(lobby, interaction.guild, lobby.creator_id)
            finally:
                [acknowledged] = await asyncio.gather(deferring, return_exceptions=True)
            if interaction.message is not None:
                started = text(lobby.language, "lobby-started")
                await interaction.message.edit(content=f"{lobby.describe()}\n\n{started}", view=None)
            if isinstance(acknowledged, BaseException):
                raise acknowledged  # (the game runs: its lobby's message says so)
            return
        try:
            await interaction.response.edit_message(
                content=describe_lobby(lobby, interaction.guild), view=lobby_view(lobby)
            )
        except discord.NotFound as error:
            if not expired(error):
                raise
            # Answered after Discord's 3 s: the join is in the lobby, but the answer that draws it in
            # the message was refused; drawn directly, or the player's next click only hears «already
            # in» and the message never shows him (the load model's last openings hung on it).
            note_expired(interaction)
            await self.redraw(lobby)
            return

    async def set_options(
        self, interaction: discord.Interaction[Any], voice_channel_id: int, chosen: tuple[str, ...]
    ) -> None:
        lobby = self._lobby_here(interaction, voice_channel_id)
        member = interaction.user
        if not isinstance(member, discord.Member) or not await self.may_moderate(member, lobby):
            raise UserFacingError("lobby-moderators-only")
        try:
            ruleset = load_ruleset(lobby.ruleset_id, chosen, lobby.game)
            if len(lobby.players) in engine.player_counts(ruleset):
                engine.composition(ruleset, len(lobby.players))  # the book's rules for this table
        except engine.RulesetError as exc:
            why = ruleset_refusal(exc, lobby.language, lobby.ruleset_id, lobby.base_ruleset.options)
            raise UserFacingError("lobby-variants-refused", why=why) from None
        except engine.IllegalCommand as exc:
            why = engine_refusal(exc, lobby.language)
            raise UserFacingError("lobby-variants-refused", why=why.rstrip(".")) from None
        await self.games.lobbies.set_options(lobby, chosen)
        assert interaction.guild is not None
        channel = interaction.guild.get_channel(lobby.text_channel_id)
        if lobby.message_id is not None and isinstance(channel, discord.TextChannel):
            shown = describe_lobby(lobby, interaction.guild)
            await channel.get_partial_message(lobby.message_id).edit(content=shown, view=lobby_view(lobby))
        # The variants in words (the catalogue's, or the rulebook's without decision codes), not their ids.
        about = lobby.base_ruleset.options
        summary = "; ".join(
            variant_about(lobby.language, lobby.ruleset_id, o, about.get(o, o)) for o in chosen
        ) or text(lobby.language, "lobby-variants-none")
        await interaction.response.send_message(
            text(
                lobby.language, "lobby-variants-chosen", options=summary, composition=lobby.composition_text()
            ),
            ephemeral=True,
        )

    # -- the timeout -------------------------------------------------------------------------------

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.close_stale_lobbies()
            except Exception:  # the database is down: the next round tries again
                log.exception("Closing the lobbies nobody started failed")

    async def close_stale_lobbies(self, now: float | None = None) -> list[Lobby]:
        """Close every lobby older than its server's timeout (`/mafia-admin lobby-timeout`) and say so
        on its message. Returns the lobbies closed."""
        now = time.time() if now is None else now
        minutes: dict[int, int] = {}
        closed = []
        for lobby in list(self.games.lobbies.values()):
            if lobby.guild_id not in minutes:
                minutes[lobby.guild_id] = (
                    await server_settings(self.games.storage, lobby.guild_id)
                ).lobby_minutes
            limit = minutes[lobby.guild_id]
            if (
                now - lobby.opened_at < limit * 60
                or lobby.starting
                or self.games.lobbies.get(lobby.voice_channel_id) is not lobby
            ):
                continue
            await self.games.lobbies.close(lobby)
            closed.append(lobby)
            log.info("A lobby nobody started closed after %d min", limit, extra={"guild_id": lobby.guild_id})
            channel = self.bot.get_channel(lobby.text_channel_id)
            if lobby.message_id is None or not isinstance(channel, discord.TextChannel):
                continue
            try:
                await channel.get_partial_message(lobby.message_id).edit(
                    content=text(lobby.language, "lobby-timed-out", minutes=limit),
                    view=None,
                )
            except discord.HTTPException:
                log.warning("Could not mark the closed lobby's message", exc_info=True)
        return closed


async def setup(bot: MafiaBot) -> None:
    await bot.add_cog(LobbyCog(bot))
