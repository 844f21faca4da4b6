"""The bot: a `commands.Bot` with one `/mafia` command group that every cog adds its subcommands to,
beside it the moderators' `/mafia-admin` group (a group cog) and the members' context menu.

It builds the storage and the one game service (`bot.games`) before any cog loads, so a cog that fails
to load takes no other cog down; it resumes the stored games once connected and hands voice-state
events to the service.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import MISSING

from mafiabot.config import Settings
from mafiabot.errors import (
    NotAllowedHere,
    Restarting,
    expired,
    language_of,
    note_expired,
    reply_ephemeral,
    user_message,
)
from mafiabot.game import helpers, restart
from mafiabot.game.components import GAME_ITEM, GameItem, game_click
from mafiabot.game.presence import Presence
from mafiabot.game.service import GameService
from mafiabot.gcpolicy import CollectorPolicy
from mafiabot.i18n import text
from mafiabot.logs import bind, hidden
from mafiabot.options_check import AUTOCOMPLETE, forged_option
from mafiabot.quota import Quota
from mafiabot.views import stop_all_views

log = logging.getLogger(__name__)

# The extensions the bot loads by name, in order; a name missing from the list can still be loaded with
# the `[bot] cogs` setting.
DEFAULT_COGS: tuple[str, ...] = (
    "mafiabot.cogs.help",
    "mafiabot.cogs.readiness",
    "mafiabot.cogs.lobby",
    "mafiabot.cogs.roles",
    "mafiabot.cogs.voting",
    "mafiabot.cogs.variants",
    "mafiabot.cogs.moderation",
    "mafiabot.cogs.conduct",
    "mafiabot.cogs.ratings",
    "mafiabot.cogs.judge",
    "mafiabot.cogs.web",
    "mafiabot.cogs.admin",
)


def bind_interaction(interaction: discord.Interaction[Any]) -> None:
    """Put the interaction's ids on every log record of the task that handles it."""
    command = interaction.command.qualified_name if interaction.command else None
    bind(
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id,
        user_id=interaction.user.id,
        command=command,
    )


RESTORE_WAIT_SECONDS = 10.0  # how long a stop waits for the start's restore to finish


class MafiaTree(app_commands.CommandTree["MafiaBot"]):
    async def interaction_check(self, interaction: discord.Interaction[MafiaBot], /) -> bool:
        bind_interaction(interaction)
        if self.client.stopping:
            raise Restarting()
        allowed = self.client.settings.guild_ids
        if allowed and interaction.guild_id not in allowed:
            raise NotAllowedHere()
        return True

    async def on_error(
        self, interaction: discord.Interaction[MafiaBot], error: app_commands.AppCommandError, /
    ) -> None:
        language = language_of(interaction)
        message = user_message(error, language)
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        if expired(original):
            # Answered after Discord's 3 s (a stalled loop, a slow network): the interaction is gone,
            # and so is any way to tell the member; the command itself did not run to its end.
            note_expired(interaction)
            return
        if message is None:
            log.error("Command failed", exc_info=(type(original), original, original.__traceback__))
            message = text(language, "error-generic")
        else:
            log.info("Command refused: %s", hidden(message))  # a private answer: it may tell a role
        try:
            await reply_ephemeral(interaction, message)
        except discord.HTTPException:
            log.warning("Could not tell the user about the error", exc_info=True)


def _guild_extra(guild: discord.abc.Snowflake | None) -> dict[str, Any]:
    return {"guild_id": guild.id if guild else None}


_EDIT_EVENTS = ("message_edit", "raw_message_edit")  # what discord.py dispatches for a MESSAGE_UPDATE
# The channels whose last message discord.py's MESSAGE_CREATE parser keeps.
_LAST_MESSAGE_KEPT = (discord.TextChannel, discord.VoiceChannel, discord.Thread, discord.StageChannel)


class MafiaBot(commands.Bot):
    """Loads cogs by name (one failing does not stop the others) and syncs `/mafia` on start."""

    games: GameService  # built in setup_hook, before the cogs

    def __init__(
        self,
        settings: Settings,
        *,
        cogs: Sequence[str] | None = None,
        memory_only: bool = False,
        migrated: bool = False,
        **options: Any,
    ) -> None:
        # Only the events the bot uses (issue 18: each event Discord sends is parsed and dispatched, and
        # discord.py's defaults add typing, reactions, DMs, emojis, invites…: a player typing at one of a
        # thousand tables cost the bot a TYPING_START): servers, channels and roles; members; voice
        # states; the servers' messages (text fouls, conduct.py). Not DMs: the bot's own DMs came back as
        # MESSAGE_CREATE, ten at every game's start, and no player's DM is read.
        intents = discord.Intents.none()
        intents.guilds = True
        intents.members = True  # members who joined or changed stay cached (seats, DMs, nicknames)
        intents.voice_states = True
        intents.guild_messages = True
        # No member chunking at start: Discord allows 120 gateway commands a minute per connection, so
        # asking every server for its member list made READY wait minutes on a bot in hundreds of
        # servers (123 s for 300 in the local Discord). What a game needs comes without it: the members
        # in voice arrive with each server and with every voice-state event; a lobby asks for any of its
        # voice channel's members still unknown; a table fetches a seated member it does not know.
        options.setdefault("chunk_guilds_at_startup", False)
        if settings.sharded:  # (a ShardedMafiaBot: discord.py's AutoShardedClient takes these)
            options.setdefault("shard_count", settings.shard_count)
            options.setdefault("shard_ids", list(settings.own_shards))
        options.setdefault("allowed_mentions", discord.AllowedMentions(everyone=False, roles=False))
        # No message cache: the bot keeps the messages it edits (the panel) itself and reads a click's
        # message from the interaction. discord.py's cache is a deque searched from the end for every
        # message update, delete and reaction: with a thousand tables' panels in it, a linear walk per event.
        options.setdefault("max_messages", None)
        # Discord's global limit per token, kept before each request leaves (mafiabot/quota.py).
        self.quota = Quota(settings.requests_per_second, name="the bot")
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=MafiaTree,
            **options,
        )
        self.quota.fit(self.http, lean=settings.lean_rest)
        # The bot's own message edits (the panel at every click) come back as MESSAGE_UPDATE, and
        # discord.py builds the whole message from each (its Components V2 tree: ≈ 30 µs, about 1 % of
        # a click, issue 18) only to dispatch it to edit listeners the bot does not have.
        self._parse_message_update = self._connection.parsers["MESSAGE_UPDATE"]
        self._connection.parsers["MESSAGE_UPDATE"] = self._message_update
        self.own_edits_unread = 0  # the bot's own edits not parsed (tests)
        # Every line, panel and answer the bot sends comes back as MESSAGE_CREATE, and discord.py builds
        # the whole message from it (a panel's Components V2 tree: ≈ 20 µs, issue 18) only to dispatch it
        # to listeners that ignore a bot's message (`dispatch` below drops it): not parsed either.
        self._parse_message_create = self._connection.parsers["MESSAGE_CREATE"]
        self._connection.parsers["MESSAGE_CREATE"] = self._message_create
        self.own_messages_unread = 0  # the bot's own messages not parsed (tests)
        # discord.py dispatches events nobody in the bot hears (`socket_event_type` with every gateway
        # event, `raw_message_delete`, …), each through commands.Bot's and Client's dispatch, which
        # look for an `on_` method by a failed attribute lookup every time: `dispatch` drops those first.
        self._class_hears: dict[str, bool] = {}
        self.unheard_events = 0  # events dispatched that nobody heard (tests)
        # A click on a game's button or select goes to the game straight from INTERACTION_CREATE:
        # discord.py's way to a dynamic item builds a whole View from the clicked message's components
        # first (the panel's: ≈ 40 µs a click, issue 18) only to find the item by its custom id, which
        # is all the game reads.
        self._parse_interaction_create = self._connection.parsers["INTERACTION_CREATE"]
        self._connection.parsers["INTERACTION_CREATE"] = self._interaction_create
        self._clicks: set[asyncio.Task[None]] = set()
        self.game_clicks_direct = 0  # (tests)
        self.voice_changes_inline = 0  # voice-state changes observed without a task (tests)
        self.settings = settings
        self.cog_names: tuple[str, ...] = tuple(cogs if cogs is not None else settings.cogs or DEFAULT_COGS)
        self.mafia = app_commands.Group(
            name="mafia", description="Игра «Мафия»: правила, помощь, проверка готовности", guild_only=True
        )
        self.failed_cogs: dict[str, BaseException] = {}
        self._subcommands_of: dict[str, list[str]] = {}  # cog name -> its /mafia subcommands
        self.synced_commands: list[app_commands.AppCommand] = []
        self.force_sync = False  # `mafiabot run --sync-commands`: publish the commands even if unchanged
        self._restored = False
        self._restoring: asyncio.Task[None] | None = None
        self.memory_only = memory_only  # the operator chose to play without a database
        self.migrated = migrated  # `mafiabot run` brought the schema to head when it checked the database
        self.stopping = False  # close() has begun: clicks and commands are refused, games are stored
        # The collector's policy (`mafiabot run` sets it; a bot in a test process has none): applied once
        # the games are restored (mafiabot/gcpolicy.py).
        self.collector: CollectorPolicy | None = None

    async def setup_hook(self) -> None:
        self.games = GameService(self, await self._open_storage(), self.settings)
        if self.settings.helper_tokens:  # helper bots for mute bursts (mafiabot/game/helpers.py)
            self.games.crew.enlist(
                await helpers.log_in_all(
                    self.settings.helper_tokens,
                    per_second=self.settings.requests_per_second,
                    lean=self.settings.lean_rest,
                )
            )
        await self.load_cogs()
        guilds = [discord.Object(id=guild_id) for guild_id in self.settings.guild_ids]
        self.tree.add_command(self.mafia, guilds=guilds or MISSING)
        from mafiabot.commands_i18n import CatalogueTranslator  # English for every non-Russian client

        await self.tree.set_translator(CatalogueTranslator())
        await self.sync_commands()

    async def _open_storage(self) -> Any:
        if self.memory_only:
            return None
        try:
            from mafiabot.storage import Storage

            return await asyncio.to_thread(
                Storage.open, self.settings.database_url, migrate=not self.migrated
            )
        except Exception:
            log.exception("The database is not available: games will not survive a restart")
            return None

    async def load_cogs(self) -> None:
        for name in self.cog_names:
            try:
                await self.load_extension(name)
            except commands.ExtensionError as exc:
                self.failed_cogs[name] = exc
                log.error("Cog %s failed to load; the others go on", name, exc_info=exc)
            else:
                log.info("Cog %s loaded", name)

    async def add_cog(
        self,
        cog: commands.Cog,
        /,
        *,
        override: bool = False,
        guild: discord.abc.Snowflake | None = MISSING,
        guilds: Sequence[discord.abc.Snowflake] = MISSING,
    ) -> None:
        if cog.__cog_is_app_commands_group__ and guild is MISSING and guilds is MISSING:
            # A group cog (`/mafia-admin`) stays a top-level command: Discord applies default_permissions
            # to a top-level command only, so the moderators' group cannot live under /mafia.
            await super().add_cog(cog, override=override, guilds=self._guilds_or_missing())
            return
        # A cog's top-level app commands become subcommands of /mafia, so the whole bot is one command.
        await super().add_cog(cog, override=override, guild=guild, guilds=guilds)
        names = []
        for command in cog.get_app_commands():
            self.tree.remove_command(command.name)
            self.mafia.add_command(command, override=override)
            names.append(command.name)
        self._subcommands_of[cog.qualified_name] = names

    async def remove_cog(
        self,
        name: str,
        /,
        *,
        guild: discord.abc.Snowflake | None = MISSING,
        guilds: Sequence[discord.abc.Snowflake] = MISSING,
    ) -> commands.Cog | None:
        for command_name in self._subcommands_of.pop(name, []):
            self.mafia.remove_command(command_name)
        cog = self.get_cog(name)
        if cog is not None and cog.__cog_is_app_commands_group__ and guild is MISSING and guilds is MISSING:
            guilds = self._guilds_or_missing()
        return await super().remove_cog(name, guild=guild, guilds=guilds)

    def command_guilds(self) -> list[discord.Object]:
        """Where the bot's commands are synced: the allow-list's guilds, or none (globally)."""
        return [discord.Object(id=guild_id) for guild_id in self.settings.guild_ids]

    def _guilds_or_missing(self) -> Sequence[discord.abc.Snowflake]:
        guilds: Sequence[discord.abc.Snowflake] = self.command_guilds() or MISSING
        return guilds

    def add_top_level(self, command: app_commands.ContextMenu) -> None:
        """A command beside /mafia (a member's context menu), where /mafia is synced."""
        self.tree.add_command(command, guilds=self._guilds_or_missing(), override=True)

    def remove_top_level(self, command: app_commands.ContextMenu) -> None:
        targets: list[discord.Object | None] = [*self.command_guilds()] or [None]
        for target in targets:
            self.tree.remove_command(command.name, type=command.type, guild=target)

    async def sync_commands(self, *, force: bool | None = None) -> None:
        """Publish `/mafia`: per allowed guild when an allow-list is set, else globally.

        Only what changed is published: the commands' payload (translations included) has a fingerprint,
        stored once Discord took it, and a start whose commands have the same fingerprint publishes
        nothing (Discord asks bots not to sync at every start; a new command counts against its 200
        creates a day). ``force`` (or `mafiabot run --sync-commands`) publishes anyway, e.g. after the
        commands were deleted in the developer portal."""
        force = self.force_sync if force is None else force
        targets: list[discord.Object | None] = [discord.Object(id=g) for g in self.settings.guild_ids]
        self.synced_commands = []
        for guild in targets or [None]:
            where = "globally" if guild is None else "to guild"
            key = f"commands:{self.application_id}:{guild.id if guild else 'global'}"
            fingerprint = await self._commands_fingerprint(guild)
            if not force and await self._stored_value(key) == fingerprint:
                log.info("Commands unchanged since they were synced %s", where, extra=_guild_extra(guild))
                continue
            try:
                synced = await self.tree.sync(guild=guild)
            except discord.HTTPException:
                log.exception("Command sync failed", extra=_guild_extra(guild))
                continue
            self.synced_commands.extend(synced)
            await self._store_value(key, fingerprint)
            log.info("Synced %d command(s) %s", len(synced), where, extra=_guild_extra(guild))

    async def _commands_fingerprint(self, guild: discord.abc.Snowflake | None) -> str:
        """SHA-256 of what `tree.sync` would send for ``guild`` (None: the global commands)."""
        translator = self.tree.translator
        payload = []
        for command in self.tree.get_commands(guild=guild):
            if translator is not None:
                payload.append(await command.get_translated_payload(self.tree, translator))
            else:
                payload.append(command.to_dict(self.tree))
        canonical = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
        return hashlib.sha256(canonical.encode()).hexdigest()

    def _storage(self) -> Any:
        games = getattr(self, "games", None)  # (None before setup_hook, or without a database)
        return None if games is None else games.records.storage

    async def _stored_value(self, key: str) -> str | None:
        storage = self._storage()
        if storage is None:  # no database: every start publishes
            return None
        try:
            value: str | None = await asyncio.to_thread(storage.bot_value, key)
        except Exception:
            log.warning("Could not read the commands' fingerprint; syncing them", exc_info=True)
            return None
        return value

    async def _store_value(self, key: str, value: str) -> None:
        storage = self._storage()
        if storage is None:
            return
        try:
            await asyncio.to_thread(storage.set_bot_value, key, value)
        except Exception:  # the next start syncs again: harmless
            log.warning("Could not store the commands' fingerprint", exc_info=True)

    async def close(self) -> None:
        if not self.stopping:
            self.stopping = True
            restoring = self._restoring
            if restoring is not None and not restoring.done():
                # A stop during the start: the restore finishes first (bounded), so that what it
                # reopened is put away as a whole rather than cut in the middle of a table.
                done, _ = await asyncio.wait([restoring], timeout=RESTORE_WAIT_SECONDS)
                if not done:
                    restoring.cancel()
                    await asyncio.gather(restoring, return_exceptions=True)
            games = getattr(self, "games", None)
            if games is not None:
                # Timers stop and are stored, each table is told once; running games resume on the next
                # start with the time their step had left.
                await games.shutdown()
                await games.crew.close()
        if self.collector is not None:
            self.collector.stop()
        stop_all_views()
        await super().close()

    def _heard(self, event_name: str) -> bool:
        """Does anything hear this event: a `wait_for`, a listener, an `on_` method of the bot (its
        class's, or one set on it with `@bot.event`)?"""
        if self._listeners.get(event_name):
            return True
        method = "on_" + event_name
        if self.extra_events.get(method) or method in self.__dict__:
            return True
        hears = self._class_hears.get(method)
        if hears is None:
            hears = self._class_hears[method] = hasattr(type(self), method)
        return hears

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        if not self._heard(event_name):
            self.unheard_events += 1
            return
        # Two voice-state events a click (the member edits' echoes: a mute changed, nobody moved) were a
        # task each for on_voice_state_update, whose bookkeeping awaits nothing for them (issue 18): it
        # runs here, in the gateway's order, while nothing else listens for voice states.
        if (
            event_name == "voice_state_update"
            and (games := getattr(self, "games", None)) is not None
            and not Presence.moved(args[1], args[2])
            and not self._listeners.get(event_name)
            and not self.extra_events.get("on_voice_state_update")
        ):
            games.presence.observe(*args)
            self.voice_changes_inline += 1
            return
        # Every line, panel and DM the bot sends comes back as a MESSAGE_CREATE, and discord.py starts a
        # task per `on_message` listener for it (commands.Bot's own and conduct's), each of which at once
        # ignores a bot's message: two of those a click, at a thousand tables a measurable share of the
        # CPU (issue 18). A `wait_for("message")` still hears them.
        if (
            event_name == "message"
            and self.user is not None
            and args[0].author.id == self.user.id
            and not self._listeners.get("message")
        ):
            return
        super().dispatch(event_name, *args, **kwargs)

    def _interaction_create(self, data: Any) -> None:
        if data.get("type") in (2, AUTOCOMPLETE) and (option := forged_option(self.tree, data)) is not None:
            # (2: a command's) An option Discord's client would not have sent: a command refused, never run;
            # what is typed offered no choices.
            refusal = discord.Interaction(data=data, state=self._connection)
            task = asyncio.create_task(self._refuse_forged(refusal, option), name=f"refuse {refusal.id}")
            self._clicks.add(task)
            task.add_done_callback(self._clicks.discard)
            return
        inner = data.get("data") if data.get("type") == 3 else None  # (3: a component's)
        match = GAME_ITEM.fullmatch(str(inner.get("custom_id", ""))) if isinstance(inner, dict) else None
        if match is None or GameItem not in self._connection._view_store._dynamic_items.values():
            self._parse_interaction_create(data)  # (GameItem not registered: no game cogs)
            return
        # Of the clicked message the game reads its id alone (is it the panel, which the answer edits?):
        # discord.py would build the whole panel into the interaction, its component tree (≈ 20 µs a
        # click) and the message itself (≈ 7 µs), for nothing (issue 18). Without an interaction listener
        # (which gets discord.py's Message, without the tree) the game gets the message as a
        # PartialMessage of its channel: its id.
        message = data.get("message")
        lean = isinstance(message, dict) and "id" in message and not self._heard("interaction")
        if lean:
            bare: Any = {key: value for key, value in data.items() if key != "message"}
            interaction: discord.Interaction[MafiaBot] = discord.Interaction(
                data=bare, state=self._connection
            )
            if isinstance(interaction.channel, _LAST_MESSAGE_KEPT):  # (the channels a PartialMessage takes)
                partial = discord.PartialMessage(channel=interaction.channel, id=int(message["id"]))
                interaction.message = partial  # type: ignore[assignment]  # (the game reads its id)
            else:
                lean = False
        if not lean:
            if isinstance(message, dict) and message.get("components"):
                data = {**data, "message": {**message, "components": []}}
            interaction = discord.Interaction(data=data, state=self._connection)
        task = asyncio.create_task(self._game_click(interaction, match), name=f"click {interaction.id}")
        self._clicks.add(task)
        task.add_done_callback(self._clicks.discard)
        self.game_clicks_direct += 1
        self.dispatch("interaction", interaction)

    @staticmethod
    async def _refuse_forged(interaction: discord.Interaction[MafiaBot], option: str) -> None:
        if interaction.type is discord.InteractionType.autocomplete:
            answer = interaction.response.autocomplete([])  # (what is typed: no choices)
        else:
            bind(
                guild_id=interaction.guild_id, channel_id=interaction.channel_id, user_id=interaction.user.id
            )
            log.info("A command with a forged option refused: %s", option)
            answer = reply_ephemeral(
                interaction, text(language_of(interaction), "error-forged-option", option=option)
            )
        try:
            await answer
        except discord.HTTPException as error:
            if not expired(error):
                raise
            note_expired(interaction)

    @staticmethod
    async def _game_click(interaction: discord.Interaction[MafiaBot], match: re.Match[str]) -> None:
        """A game's click, failing as the bot's views fail (views.py): the member is told that something
        went wrong, and the log names the action only (not its argument or the values picked: a night target
        can be either)."""
        bind(guild_id=interaction.guild_id, channel_id=interaction.channel_id, user_id=interaction.user.id)
        try:
            await game_click(interaction, match)
        except Exception as error:
            if expired(error):  # answered after Discord's 3 s: nothing to tell, nobody to tell it
                note_expired(interaction)
                return
            log.error("A game's click failed: %s", match["action"], exc_info=error)
            await reply_ephemeral(interaction, text(language_of(interaction), "error-generic"))

    def _own(self, data: Any) -> bool:
        """Is this gateway message (MESSAGE_CREATE or MESSAGE_UPDATE) the bot's own?"""
        author = data.get("author")
        return isinstance(author, dict) and self.user is not None and author.get("id") == str(self.user.id)

    def _message_create(self, data: Any) -> None:
        if self._own(data) and not self._listeners.get("message"):
            self.own_messages_unread += 1
            # What discord.py's parser keeps besides the message: the channel's last message.
            channel = self._connection._get_guild_channel(data)[0]
            if channel.__class__ in _LAST_MESSAGE_KEPT:
                channel.last_message_id = int(data["id"])
            return
        self._parse_message_create(data)

    def _message_update(self, data: Any) -> None:
        if self._own(data) and not any(
            self._listeners.get(e) or self.extra_events.get(f"on_{e}") for e in _EDIT_EVENTS
        ):
            self.own_edits_unread += 1
            return
        self._parse_message_update(data)

    async def on_ready(self) -> None:
        assert self.user is not None
        log.info("Connected as %s (id %s) to %d guild(s)", self.user, self.user.id, len(self.guilds))
        if not self._restored:  # READY comes again after a reconnect: the games resume once
            self._restored = True
            self._restoring = asyncio.create_task(restart.restore(self.games), name="restore")
            await asyncio.shield(self._restoring)
            if self.collector is not None and not self.stopping:
                self.collector.freeze_after_start()  # what the start made leaves the collections
            return
        for guild in self.guilds:  # a new session (INVALID_SESSION): discord.py made new objects
            self.games.guild_seen_again(guild)

    # The bot's permissions may have come back: the running tables' mutes are brought to their steps, and
    # what the voice ledger owes in the guild is retried.
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        self.games.permissions_may_have_changed(after.guild.id)
        await self.games.reconciler.settle(after.guild.id)

    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        self.games.permissions_may_have_changed(after.guild.id)
        await self.games.reconciler.settle(after.guild.id)

    async def on_member_update(self, before: discord.Member, after: discord.Member) -> None:
        if self.user is not None and after.id == self.user.id:
            self.games.permissions_may_have_changed(after.guild.id)
            await self.games.reconciler.settle(after.guild.id)

    async def on_voice_state_update(
        self, member: discord.Member, before: discord.VoiceState, after: discord.VoiceState
    ) -> None:
        await self.games.presence.on_voice_state_update(member, before, after)

    async def on_shard_ready(self, shard_id: int) -> None:
        if self._restored:  # one shard's new session (INVALID_SESSION): discord.py made new objects
            for guild in self.guilds:
                if guild.shard_id == shard_id:
                    self.games.guild_seen_again(guild)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        allowed = self.settings.guild_ids
        if allowed and guild.id not in allowed:
            log.warning("Joined a guild outside the allow-list", extra={"guild_id": guild.id})
        else:
            log.info("Joined guild %s", guild.name, extra={"guild_id": guild.id})


class ShardedMafiaBot(MafiaBot, commands.AutoShardedBot):
    """The bot running a range of Discord's shards (``[bot] shard_count`` and ``shards``): one gateway
    connection per shard, each server on the shard Discord gives it; ``on_ready`` once all are up."""


def make_bot(settings: Settings, **options: Any) -> MafiaBot:
    """The bot for these settings: sharded when the settings split the bot into shards."""
    return (ShardedMafiaBot if settings.sharded else MafiaBot)(settings, **options)
