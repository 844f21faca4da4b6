"""The world the stand-in serves: users, guilds, roles, channels, messages and voice states.

Objects are plain dataclasses; `payloads.py` renders them the way Discord's API does. Nothing here
does I/O: the REST and gateway layers read and change the world, then dispatch.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from . import permissions as perms

DISCORD_EPOCH_MS = 1420070400000


class ChannelType:
    GUILD_TEXT = 0
    DM = 1
    GUILD_VOICE = 2
    GUILD_CATEGORY = 4
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12
    GUILD_STAGE_VOICE = 13

    THREADS = (PUBLIC_THREAD, PRIVATE_THREAD)
    VOICE = (GUILD_VOICE, GUILD_STAGE_VOICE)


class Snowflakes:
    """Real-looking snowflakes: increasing, with a timestamp discord.py can turn into created_at."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)

    def __call__(self, shard: tuple[int, int] | None = None, *, ago: float = 0.0) -> int:
        """`shard=(shard_id, shard_count)`: a snowflake Discord's rule puts on that shard (its
        timestamp, ``id >> 22``, moved up to the next millisecond that fits). `ago`: made that many
        seconds before now (an interaction that reaches the bot late still carries when it was made)."""
        ms = int((time.time() - ago) * 1000) - DISCORD_EPOCH_MS
        if shard is not None:
            shard_id, shard_count = shard
            ms += (shard_id - ms) % shard_count
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)


def iso_now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass
class User:
    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    dms_open: bool = True  # False: DMs answer 403 code 50007, like a user who closed them


@dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0


@dataclass
class Member:
    user: User
    guild_id: int
    nick: str | None = None
    roles: list[int] = field(default_factory=list)
    joined_at: str = field(default_factory=iso_now)
    # Server mute and deafen belong to the member, not to a connection: on Discord they outlast
    # leaving voice and apply again on the next connect.
    mute: bool = False
    deaf: bool = False

    @property
    def id(self) -> int:
        return self.user.id


@dataclass
class Overwrite:
    id: int
    type: int  # 0 role, 1 member
    allow: int = 0
    deny: int = 0


@dataclass
class Channel:
    id: int
    type: int
    name: str = ""
    guild_id: int | None = None
    position: int = 0
    parent_id: int | None = None
    overwrites: list[Overwrite] = field(default_factory=list)
    recipient_id: int | None = None  # DM
    owner_id: int | None = None  # thread
    thread_members: set[int] = field(default_factory=set)
    archived: bool = False
    locked: bool = False  # thread: only members with Manage Threads may unarchive it
    invitable: bool = True
    user_limit: int = 0


@dataclass
class Message:
    id: int
    channel_id: int
    author: User
    content: str = ""
    components: list[dict[str, Any]] = field(default_factory=list)
    embeds: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    guild_id: int | None = None
    interaction_id: int | None = None  # the interaction this answers, for responses and followups
    webhook_id: int | None = None
    edited_timestamp: str | None = None
    deleted: bool = False
    timestamp: str = field(default_factory=iso_now)
    files: dict[str, bytes] = field(default_factory=dict)  # attachments uploaded with the message

    EPHEMERAL = 1 << 6
    COMPONENTS_V2 = 1 << 15

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & self.EPHEMERAL)

    @property
    def text(self) -> str:
        """What a reader sees as the message's text: its content, or a Components V2 message's text
        displays one after another."""
        from fakediscord.checks_v2 import texts

        return "\n".join(texts(self.components)) if self.flags & self.COMPONENTS_V2 else self.content

    def items(self) -> list[dict[str, Any]]:
        """Every button and select, in action rows or anywhere in a Components V2 tree."""
        from fakediscord.checks_v2 import interactive

        return interactive(self.components)

    def component(self, custom_id: str | None = None, label: str | None = None) -> dict[str, Any]:
        """The component (button, select) with this custom_id or label, wherever it is in the message."""
        for item in self.items():
            if (custom_id is not None and item.get("custom_id") == custom_id) or (
                label is not None and item.get("label") == label
            ):
                return item
        raise LookupError(f"message {self.id} has no component custom_id={custom_id!r} label={label!r}")

    def buttons(self) -> list[dict[str, Any]]:
        return [item for item in self.items() if item.get("type") == 2]


@dataclass
class VoiceState:
    user_id: int
    guild_id: int
    channel_id: int | None
    session_id: str
    mute: bool = False
    deaf: bool = False
    self_mute: bool = False
    self_deaf: bool = False
    suppress: bool = False


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    voice_states: dict[int, VoiceState] = field(default_factory=dict)

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]


class World:
    """Every object the stand-in knows, with the lookups REST and the driver need."""

    def __init__(self) -> None:
        self.snowflake = Snowflakes()
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, list[Message]] = {}
        self._message_by_id: dict[int, Message] = {}  # every message ever added, deleted ones too
        self.dm_channels: dict[int, int] = {}  # user id -> DM channel id
        # (channel, author, nonce) -> (message id, when): the sends `enforce_nonce` answers again
        self.nonces: dict[tuple[int, int, str], tuple[int, float]] = {}
        self.bot_user = self.add_user("mafiabot", bot=True)
        self.application_id = self.bot_user.id  # like real bots, the app id is the bot user's id

    # -- building the world -----------------------------------------------------------------------

    def add_user(self, username: str, *, bot: bool = False, global_name: str | None = None) -> User:
        user = User(self.snowflake(), username, global_name=global_name, bot=bot)
        self.users[user.id] = user
        return user

    def add_guild(
        self, name: str, *, owner: User | None = None, shard: tuple[int, int] | None = None
    ) -> Guild:
        owner = owner or self.add_user(f"{name}-owner")
        guild = Guild(self.snowflake(shard), name, owner.id)
        guild.roles[guild.id] = Role(guild.id, "@everyone", perms.EVERYONE_DEFAULT)
        self.guilds[guild.id] = guild
        self.add_member(guild, owner)
        return guild

    def add_role(self, guild: Guild, name: str, permissions: int = 0) -> Role:
        role = Role(self.snowflake(), name, permissions, position=len(guild.roles))
        guild.roles[role.id] = role
        return role

    def add_member(self, guild: Guild, user: User, *, roles: list[Role] | None = None) -> Member:
        member = Member(user, guild.id, roles=[role.id for role in roles or []])
        guild.members[user.id] = member
        return member

    def add_channel(
        self,
        guild: Guild | None,
        name: str,
        type: int = ChannelType.GUILD_TEXT,
        *,
        parent_id: int | None = None,
        overwrites: list[Overwrite] | None = None,
    ) -> Channel:
        channel = Channel(
            self.snowflake(),
            type,
            name,
            guild_id=guild.id if guild else None,
            parent_id=parent_id,
            overwrites=overwrites or [],
        )
        if guild is not None:
            channel.position = len(guild.channel_ids)
            guild.channel_ids.append(channel.id)
        self.channels[channel.id] = channel
        self.messages[channel.id] = []
        return channel

    def dm_channel(self, user: User) -> Channel:
        channel_id = self.dm_channels.get(user.id)
        if channel_id is None:
            channel = self.add_channel(None, "", ChannelType.DM)
            channel.recipient_id = user.id
            self.dm_channels[user.id] = channel_id = channel.id
        return self.channels[channel_id]

    def add_message(self, channel: Channel, author: User, **fields: Any) -> Message:
        message = Message(self.snowflake(), channel.id, author, guild_id=channel.guild_id, **fields)
        self.messages[channel.id].append(message)
        self._message_by_id[message.id] = message
        return message

    # -- lookups ----------------------------------------------------------------------------------

    def guild_of(self, channel: Channel) -> Guild | None:
        return self.guilds.get(channel.guild_id) if channel.guild_id else None

    def find_message(self, message_id: int) -> Message | None:
        # (By id, not a walk of every channel's messages: a click's answer looks its message up, and at
        # a thousand tables the walk was the load model's stand-in's largest cost.)
        return self._message_by_id.get(message_id)

    def may_join(self, guild: Guild, user_id: int, channel: Channel) -> bool:
        """Discord ignores a request to join a voice channel one cannot connect to, or a full one
        (unless one may move members)."""
        bits = self.permissions(guild, user_id, channel)
        if not bits & perms.CONNECT:
            return False
        states = guild.voice_states.values()
        inside = sum(1 for s in states if s.channel_id == channel.id and s.user_id != user_id)
        return not channel.user_limit or inside < channel.user_limit or bool(bits & perms.MOVE_MEMBERS)

    def suppressed(self, guild: Guild, user_id: int, channel: Channel) -> bool:
        """A voice state's `suppress`: no Speak in a voice channel; a stage's newcomers join its audience."""
        if channel.type == ChannelType.GUILD_STAGE_VOICE:
            return True
        return not self.permissions(guild, user_id, channel) & perms.SPEAK

    def heard(self, guild_id: int, user_id: int) -> bool:
        """Whether what this member says reaches the channel now: connected, not server-muted, not
        suppressed, and (permissions can change mid-call) still allowed to speak there."""
        guild = self.guilds.get(guild_id)
        state = guild.voice_states.get(user_id) if guild else None
        if guild is None or state is None or state.channel_id is None or state.mute or state.suppress:
            return False
        channel = self.channels.get(state.channel_id)
        return channel is not None and bool(self.permissions(guild, user_id, channel) & perms.SPEAK)

    def permissions(self, guild: Guild, user_id: int, channel: Channel | None = None) -> int:
        member = guild.members[user_id]
        parent = None
        if channel is not None and channel.type in ChannelType.THREADS and channel.parent_id:
            parent = self.channels.get(channel.parent_id)  # threads inherit their parent's overwrites
        return perms.channel_permissions(guild, member, channel, parent)
