"""The driver API: what players do (join voice, talk, run commands, click) and what tests read back.

Every action that sends gateway events returns only after the bot has processed them
(`Gateway.flush`), so a test can check the bot's cache right after, with no sleep.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import permissions as perms
from .payloads import channel_json, member_json, message_json, role_json, user_json
from .world import Channel, ChannelType, Guild, Member, Message, Role, User, VoiceState

if TYPE_CHECKING:
    from .server import FakeDiscord

# Interaction types
APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
# Application command types
CHAT_INPUT, USER_COMMAND = 1, 2
# Application command option types
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, NUMBER = (
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8,
    10,
)


@dataclass(frozen=True)
class Upload:
    """A file a member attaches to a command's attachment option (`slash(..., file=Upload(...))`)."""

    filename: str
    data: bytes
    content_type: str = "application/toml"


@dataclass
class Club:
    """A guild set up for a game: a text channel, a voice channel, players, and the bot's role."""

    guild: Guild
    text: Channel
    voice: Channel
    players: list[Member]
    bot_role: Role

    @property
    def id(self) -> int:
        return self.guild.id


@dataclass
class InteractionRecord:
    """An interaction the driver sent and everything the bot answered to it."""

    fake: FakeDiscord
    id: int
    token: str
    type: int
    user_id: int
    guild_id: int | None
    channel_id: int
    data: dict[str, Any]
    message_id: int | None = None  # the message holding the clicked component
    callback: dict[str, Any] | None = None  # the raw callback body: {"type": …, "data": …}
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    modal: dict[str, Any] | None = None  # the modal the bot opened, if it answered with one
    created: float = field(default_factory=time.monotonic)  # Discord's clock: 3 s to answer, 15 min token
    sent: float = 0.0  # when its INTERACTION_CREATE frame was written to the bot's socket (0: not yet)
    answered: float = 0.0  # when the bot's callback request was served (0: not yet)
    _acknowledged: asyncio.Event | None = field(default=None, repr=False)

    @property
    def callback_type(self) -> int | None:
        return self.callback["type"] if self.callback else None

    @property
    def messages(self) -> list[Message]:
        """The response message (if any) and the followups, in order, without deleted ones."""
        found = ([self.original] if self.original else []) + self.followups
        return [m for m in found if not m.deleted]

    @property
    def message(self) -> Message:
        """The last message the bot answered with."""
        if not self.messages:
            raise LookupError(f"interaction {self.id} has no response message (callback {self.callback})")
        return self.messages[-1]

    @property
    def content(self) -> str:
        return self.message.content

    @property
    def ephemeral(self) -> bool:
        return self.message.ephemeral

    def acknowledge(self, callback: dict[str, Any]) -> None:
        """The bot's callback was served (the stand-in's route)."""
        self.callback, self.answered = callback, time.monotonic()
        if self._acknowledged is not None:
            self._acknowledged.set()

    async def acknowledged(self, timeout: float) -> bool:
        """Wait until the bot's callback is served (True) or `timeout` seconds pass (False): one waiter
        woken for this interaction alone, where `fake.wait_for` wakes every waiter at every request (the
        load model waits for hundreds of clicks at once)."""
        if self.callback is None:
            if self._acknowledged is None:
                self._acknowledged = asyncio.Event()
            try:
                await asyncio.wait_for(self._acknowledged.wait(), timeout)
            except TimeoutError:
                return False
        return True

    async def wait_followup(self, count: int = 1, timeout: float = 5.0) -> Message:
        """Wait for the `count`-th followup (or the edit of a deferred response) and return it."""

        def ready() -> Message | None:
            if len(self.followups) >= count:
                return self.followups[count - 1]
            original = self.original
            if count == 1 and original is not None and original.edited_timestamp and not original.flags & 128:
                return original
            return None

        return await self.fake.wait_for(ready, timeout=timeout, what=f"a followup to interaction {self.id}")


class Driver:
    """Mixed into `FakeDiscord`: world building, player actions, and reads."""

    # How much older than its delivery each new interaction is, as if the gateway had been slow:
    # a test sets it to let the bot meet Discord's 3 s deadline late.
    interaction_delay: float = 0.0

    world: Any
    gateway: Any
    voice: Any
    interactions: dict[int, InteractionRecord]
    interactions_by_token: dict[str, InteractionRecord]
    commands: dict[int | None, list[dict[str, Any]]]

    # -- building ---------------------------------------------------------------------------------

    def create_club(
        self: FakeDiscord,
        *,
        players: int = 10,
        name: str = "Мафия-клуб",
        bot_permissions: int = perms.BOT_DEFAULT,
        everyone_permissions: int = perms.EVERYONE_DEFAULT,
        shard: tuple[int, int] | None = None,
    ) -> Club:
        """A guild with #игра, a voice channel «Стол», `players` members, and the bot with its role;
        `shard=(shard_id, shard_count)`: a guild id that Discord's rule puts on that shard."""
        world = self.world
        guild = world.add_guild(name, shard=shard)
        guild.everyone.permissions = everyone_permissions
        bot_role = world.add_role(guild, "mafiabot", bot_permissions)
        world.add_member(guild, world.bot_user, roles=[bot_role])
        text = world.add_channel(guild, "игра")
        voice = world.add_channel(guild, "Стол", ChannelType.GUILD_VOICE)
        members = [world.add_member(guild, world.add_user(f"player{i}")) for i in range(1, players + 1)]
        return Club(guild, text, voice, members, bot_role)

    async def add_channel(
        self: FakeDiscord, club: Club, name: str, type: int = ChannelType.GUILD_TEXT, **options: Any
    ) -> Channel:
        """A new channel in the club's guild, announced to the bot with CHANNEL_CREATE."""
        channel = self.world.add_channel(club.guild, name, type, **options)
        self.dispatch("CHANNEL_CREATE", channel_json(channel, self.world))
        await self.gateway.flush()
        return channel

    async def add_player(self: FakeDiscord, club: Club, username: str) -> Member:
        member = self.world.add_member(club.guild, self.world.add_user(username))
        club.players.append(member)
        self.dispatch("GUILD_MEMBER_ADD", {"guild_id": str(club.id), **member_json(member)})
        await self.gateway.flush()
        return member

    async def remove_player(self: FakeDiscord, club: Club, member: Member) -> None:
        if member.id in club.guild.voice_states:
            await self.leave_voice(member)
        del club.guild.members[member.id]
        club.players.remove(member)
        self.dispatch("GUILD_MEMBER_REMOVE", {"guild_id": str(club.id), "user": user_json(member.user)})
        await self.gateway.flush()

    async def set_role_permissions(self: FakeDiscord, club: Club, role: Role, permissions: int) -> None:
        """Change a role's permissions (e.g. take Mute Members from the bot's role and give it back)."""
        role.permissions = permissions
        self.dispatch("GUILD_ROLE_UPDATE", {"guild_id": str(club.id), "role": role_json(role)})
        await self.gateway.flush()

    # -- voice ------------------------------------------------------------------------------------

    async def join_voice(
        self: FakeDiscord,
        member: Member,
        channel: Channel,
        *,
        self_mute: bool = False,
        self_deaf: bool = False,
    ) -> VoiceState:
        guild = self.world.guilds[member.guild_id]
        state = guild.voice_states.get(member.id)
        if state is None:
            state = guild.voice_states[member.id] = VoiceState(
                member.id, guild.id, None, secrets.token_hex(16), mute=member.mute, deaf=member.deaf
            )
        state.channel_id, state.self_mute, state.self_deaf = channel.id, self_mute, self_deaf
        self.dispatch("VOICE_STATE_UPDATE", self.gateway.voice_state_event(guild, member.id))
        await self.gateway.flush()
        return state

    async def move_voice(self: FakeDiscord, member: Member, channel: Channel) -> VoiceState:
        state = self.voice_state(member)
        assert state is not None, f"{member.user.username} is not in voice"
        return await self.join_voice(member, channel, self_mute=state.self_mute, self_deaf=state.self_deaf)

    async def leave_voice(self: FakeDiscord, member: Member) -> None:
        guild = self.world.guilds[member.guild_id]
        state = guild.voice_states.get(member.id)
        if state is None:
            return
        state.channel_id = None
        self.dispatch("VOICE_STATE_UPDATE", self.gateway.voice_state_event(guild, member.id))
        del guild.voice_states[member.id]
        await self.gateway.flush()

    def voice_state(self: FakeDiscord, member: Member) -> VoiceState | None:
        """The member's voice state as the stand-in holds it (None: not in voice)."""
        return self.world.guilds[member.guild_id].voice_states.get(member.id)

    # -- messages ---------------------------------------------------------------------------------

    async def typing(self: FakeDiscord, member: Member, channel: Channel) -> None:
        """The member starts typing in the channel (TYPING_START: for a session with the typing intent)."""
        data: dict[str, Any] = {
            "channel_id": str(channel.id),
            "guild_id": str(member.guild_id),
            "user_id": str(member.id),
            "timestamp": int(time.time()),
            "member": member_json(member),
        }
        self.dispatch("TYPING_START", data)
        await self.gateway.flush()

    async def say(self: FakeDiscord, member: Member | User, channel: Channel, content: str) -> Message:
        user = member.user if isinstance(member, Member) else member
        message = self.world.add_message(channel, user, content=content)
        data = message_json(message)
        if isinstance(member, Member):
            data["member"] = member_json(member, with_user=False)
        self.dispatch("MESSAGE_CREATE", data)
        await self.gateway.flush()
        return message

    def messages(self: FakeDiscord, channel: Channel, *, ephemeral: bool = False) -> list[Message]:
        """Messages in a channel, oldest first; ephemeral ones only when asked for."""
        return [
            m for m in self.world.messages[channel.id] if not m.deleted and (ephemeral or not m.ephemeral)
        ]

    async def wait_for_message(
        self: FakeDiscord,
        channel: Channel,
        predicate: Callable[[Message], bool] = lambda message: True,
        *,
        timeout: float = 5.0,
    ) -> Message:
        """The first (non-ephemeral) message in the channel that matches, waiting for it if need be."""

        def found() -> Message | None:
            return next((m for m in self.messages(channel) if predicate(m)), None)

        return await self.wait_for(found, timeout=timeout, what=f"a message in #{channel.name or channel.id}")

    def dms(self: FakeDiscord, member: Member | User) -> list[Message]:
        """What the bot sent this user in private."""
        user = member.user if isinstance(member, Member) else member
        channel_id = self.world.dm_channels.get(user.id)
        return self.messages(self.world.channels[channel_id]) if channel_id else []

    async def wait_for_dm(
        self: FakeDiscord, member: Member | User, count: int = 1, timeout: float = 5.0
    ) -> Message:
        name = member.user.username if isinstance(member, Member) else member.username
        found = await self.wait_for(
            lambda: len(self.dms(member)) >= count, timeout=timeout, what=f"DM #{count} to {name}"
        )
        assert found
        return self.dms(member)[count - 1]

    # -- interactions -----------------------------------------------------------------------------

    async def slash(
        self: FakeDiscord,
        member: Member,
        command: str,
        *,
        channel: Channel,
        wait: bool = True,
        **options: Any,
    ) -> InteractionRecord:
        """Run a synced slash command, e.g. `slash(player, "mafia rules", channel=club.text, preset="city")`.

        Option values may be plain values or stand-in objects (a Member/User for a user option, a
        Channel for a channel option, a Role for a role option). Waits for the bot's callback.
        """
        data = self._command_data(member, command, channel, options)
        return await self._interact(member, channel, APPLICATION_COMMAND, data, wait=wait)

    async def autocomplete(
        self: FakeDiscord, member: Member, command: str, *, channel: Channel, focused: str, **options: Any
    ) -> list[dict[str, Any]]:
        """What the member's client shows while he types option ``focused`` of ``command`` (the other
        options as typed so far): the choices the bot answered (callback type 8)."""
        data = self._command_data(member, command, channel, options, focused=focused)
        record = await self._interact(member, channel, AUTOCOMPLETE, data, wait=True)
        if record.callback_type != 8:
            raise AssertionError(f"autocomplete answered with callback {record.callback}")
        choices: list[dict[str, Any]] = (record.callback or {}).get("data", {}).get("choices", [])
        if len(choices) > 25:
            raise AssertionError("Discord refuses more than 25 autocomplete choices")
        return choices

    async def user_command(
        self: FakeDiscord, member: Member, name: str, *, target: Member, channel: Channel, wait: bool = True
    ) -> InteractionRecord:
        """A member's context menu command (Apps → name) on another member."""
        definition = self._command(member.guild_id, name, kind=USER_COMMAND)
        self._offered(member, definition, channel)
        resolved: dict[str, dict[str, Any]] = {}
        data: dict[str, Any] = {
            "id": definition["id"],
            "name": name,
            "type": USER_COMMAND,
            "target_id": self._option_value(target, resolved),
            "resolved": resolved,
        }
        if "guild_id" in definition:
            data["guild_id"] = definition["guild_id"]
        return await self._interact(member, channel, APPLICATION_COMMAND, data, wait=wait)

    def _offered(self: FakeDiscord, member: Member, definition: dict[str, Any], channel: Channel) -> None:
        """Discord's client offers a command only where it may be used, and one with default member
        permissions only to members who have them (or to administrators)."""
        name = definition["name"]
        if channel.type == ChannelType.DM and (
            definition.get("dm_permission") is False or 1 not in (definition.get("contexts") or [0, 1, 2])
        ):
            raise LookupError(f"/{name} is guild-only: Discord does not offer it in DMs")
        needed = definition.get("default_member_permissions")
        if needed is not None and channel.type != ChannelType.DM:
            has = self.world.permissions(self.world.guilds[member.guild_id], member.id)
            if int(needed) & ~has and not has & perms.ADMINISTRATOR:
                raise LookupError(
                    f"/{name} needs permissions {needed}: Discord does not offer it to this member"
                )

    def _command_data(
        self: FakeDiscord,
        member: Member,
        command: str,
        channel: Channel,
        options: dict[str, Any],
        focused: str | None = None,
    ) -> dict[str, Any]:
        names = command.split()
        definition = self._command(member.guild_id, names[0])
        self._offered(member, definition, channel)
        data: dict[str, Any] = {"id": definition["id"], "name": names[0], "type": 1, "options": []}
        if "guild_id" in definition:
            data["guild_id"] = definition["guild_id"]
        level, level_options = definition, data["options"]
        for name in names[1:]:
            level = next((o for o in level.get("options", []) if o["name"] == name), None) or {}
            if level.get("type") not in (SUB_COMMAND, SUB_COMMAND_GROUP):
                raise LookupError(f"/{command}: no subcommand {name!r}")
            nested: dict[str, Any] = {"name": name, "type": level["type"], "options": []}
            level_options.append(nested)
            level_options = nested["options"]
        resolved: dict[str, dict[str, Any]] = {}
        specs = {o["name"]: o for o in level.get("options", [])}
        missing = [name for name, spec in specs.items() if spec.get("required") and name not in options]
        if focused is not None:
            if focused not in specs or not specs[focused].get("autocomplete"):
                raise LookupError(f"/{command} {focused}: the option has no autocomplete")
            missing = []  # (the member is still typing)
        if missing:
            raise LookupError(f"/{command}: Discord would not send it without {missing}")
        for name, value in options.items():
            spec = specs.get(name)
            if spec is None:
                raise LookupError(f"/{command} has no option {name!r}")
            choices = [choice["value"] for choice in spec.get("choices") or []]
            if name == focused:  # what is typed so far: a partial value, always text
                level_options.append(
                    {"name": name, "type": spec["type"], "value": str(value), "focused": True}
                )
                continue
            if choices and value not in choices:
                raise LookupError(f"/{command} {name}={value!r}: not one of the choices {choices}")
            # Discord's client does not send a number outside the option's bounds (nor a text outside
            # its lengths): the command never reaches the bot.
            low, high = spec.get("min_value"), spec.get("max_value")
            number = isinstance(value, int | float) and not isinstance(value, bool)
            if number and ((low is not None and value < low) or (high is not None and value > high)):
                raise LookupError(f"/{command} {name}={value!r}: outside min_value {low}, max_value {high}")
            if isinstance(value, str):
                shortest, longest = spec.get("min_length"), spec.get("max_length")
                if (shortest is not None and len(value) < shortest) or (
                    longest is not None and len(value) > longest
                ):
                    raise LookupError(f"/{command} {name}: length outside {shortest}…{longest}")
            level_options.append(
                {"name": name, "type": spec["type"], "value": self._option_value(value, resolved)}
            )
        if resolved:
            data["resolved"] = resolved
        return data

    async def click(
        self: FakeDiscord,
        member: Member,
        message: Message,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        wait: bool = True,
    ) -> InteractionRecord:
        """Click the button with this label or custom_id on a message."""
        button = message.component(custom_id=custom_id, label=label)
        if button.get("disabled"):
            raise AssertionError(f"button {button.get('label')!r} is disabled")
        data = {"custom_id": button["custom_id"], "component_type": 2}
        channel = self.world.channels[message.channel_id]
        return await self._interact(member, channel, MESSAGE_COMPONENT, data, message=message, wait=wait)

    async def select(
        self: FakeDiscord,
        member: Member,
        message: Message,
        custom_id: str,
        values: list[str],
        *,
        wait: bool = True,
    ) -> InteractionRecord:
        """Pick `values` in a string select menu."""
        menu = message.component(custom_id=custom_id)
        allowed = {option["value"] for option in menu.get("options", [])}
        if allowed and not set(values) <= allowed:
            raise AssertionError(f"{values} are not all options of select {custom_id!r}: {sorted(allowed)}")
        data = {"custom_id": custom_id, "component_type": menu["type"], "values": values}
        channel = self.world.channels[message.channel_id]
        return await self._interact(member, channel, MESSAGE_COMPONENT, data, message=message, wait=wait)

    async def submit_modal(
        self: FakeDiscord,
        member: Member,
        opened_by: InteractionRecord,
        values: dict[str, str],
        *,
        wait: bool = True,
    ) -> InteractionRecord:
        """Fill in the modal the bot opened in answer to `opened_by` and submit it."""
        modal = opened_by.modal
        if modal is None:
            raise AssertionError(f"interaction {opened_by.id} was not answered with a modal")

        def fill(component: dict[str, Any]) -> dict[str, Any]:
            custom_id = component.get("custom_id")
            filled: dict[str, Any] = {"type": component["type"], "custom_id": custom_id}
            if component["type"] == 4:  # text input
                filled["value"] = values.get(custom_id or "", component.get("value") or "")
            else:
                value = values.get(custom_id or "", [])
                filled["values"] = value if isinstance(value, list) else [value]
            return filled

        components = []
        for row in modal.get("components", []):
            if row["type"] == 1:
                components.append({"type": 1, "components": [fill(c) for c in row["components"]]})
            elif row["type"] == 18:  # label wrapping one component
                components.append({"type": 18, "component": fill(row["component"])})
        data = {"custom_id": modal["custom_id"], "components": components}
        channel = self.world.channels[opened_by.channel_id]
        return await self._interact(member, channel, MODAL_SUBMIT, data, wait=wait)

    def _command(self: FakeDiscord, guild_id: int, name: str, kind: int = CHAT_INPUT) -> dict[str, Any]:
        for scope in (guild_id, None):
            for definition in self.commands.get(scope, []):
                if definition["name"] == name and definition.get("type", CHAT_INPUT) == kind:
                    return definition
        raise LookupError(f"no synced command /{name} (synced: {self.commands})")

    def _option_value(self: FakeDiscord, value: Any, resolved: dict[str, dict[str, Any]]) -> Any:
        if isinstance(value, Member):
            resolved.setdefault("users", {})[str(value.id)] = user_json(value.user)
            resolved.setdefault("members", {})[str(value.id)] = member_json(value, with_user=False)
            return str(value.id)
        if isinstance(value, User):
            resolved.setdefault("users", {})[str(value.id)] = user_json(value)
            return str(value.id)
        if isinstance(value, Channel):
            resolved.setdefault("channels", {})[str(value.id)] = {
                **channel_json(value, self.world),
                "permissions": str(perms.ALL),
            }
            return str(value.id)
        if isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = role_json(value)
            return str(value.id)
        if isinstance(value, Upload):  # an attachment option: the file goes to the CDN first
            key = str(self.world.snowflake())
            self.uploads[key] = value.data
            resolved.setdefault("attachments", {})[key] = {
                "id": key,
                "filename": value.filename,
                "size": len(value.data),
                "url": f"{self.cdn_base}/{key}/{value.filename}",
                "proxy_url": f"{self.cdn_base}/{key}/{value.filename}",
                "content_type": value.content_type,
            }
            return key
        return value

    async def _interact(
        self: FakeDiscord,
        member: Member,
        channel: Channel,
        kind: int,
        data: dict[str, Any],
        *,
        message: Message | None = None,
        wait: bool,
    ) -> InteractionRecord:
        """Send INTERACTION_CREATE from `member`, in a guild channel or in their DM with the bot."""
        world = self.world
        in_dm = channel.type == ChannelType.DM
        guild = None if in_dm else world.guilds[member.guild_id]
        record = InteractionRecord(
            self,
            world.snowflake(ago=self.interaction_delay),  # its id tells when it was made, as on Discord
            f"itoken.{secrets.token_urlsafe(16)}",
            kind,
            member.id,
            guild.id if guild else None,
            channel.id,
            data,
            message_id=message.id if message else None,
        )
        record.created -= self.interaction_delay
        self.interactions[record.id] = record
        self.interactions_by_token[record.token] = record
        payload: dict[str, Any] = {
            "id": str(record.id),
            "application_id": str(world.application_id),
            "type": kind,
            "data": data,
            "channel_id": str(channel.id),
            "channel": channel_json(channel, world),
            "token": record.token,
            "version": 1,
            "locale": "ru",
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if guild is None:  # context 1: the bot's DM with this user
            payload.update(
                user=user_json(member.user),
                context=1,
                app_permissions=str(perms.DM_APP_PERMISSIONS),
                authorizing_integration_owners={"0": str(member.guild_id)},
            )
        else:
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": "ru", "features": []},
                guild_locale="ru",
                member={
                    **member_json(member),
                    "permissions": str(world.permissions(guild, member.id, channel)),
                },
                app_permissions=str(world.permissions(guild, world.bot_user.id, channel)),
                authorizing_integration_owners={"0": str(guild.id)},
                context=0,
            )
        if message is not None:
            payload["message"] = message_json(message)
        self.dispatch("INTERACTION_CREATE", payload)
        if wait:
            await self.wait_for(
                lambda: record.callback is not None,
                what=f"the bot to answer interaction {record.id} ({data})",
            )
            if record.callback_type == 5:
                # «думает…»: what the member waits for is the answer that replaces it.
                await record.wait_followup(timeout=30.0)
        return record
