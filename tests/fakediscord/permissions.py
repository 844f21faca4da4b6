"""Permission bits (Discord's numbering) and the computation Discord documents (topics/permissions):
base permissions from roles (owner and Administrator get everything), then the channel's overwrites
(@everyone, roles together, the member), then the implicit rules: no View Channel means nothing in the
channel, no Send Messages means no attachments, embeds, mentions of everyone or TTS, no Connect in a
voice channel means none of its voice permissions; threads take their parent's permissions, with Send
Messages in Threads in place of Send Messages; a private thread is visible only to its members and to
those who may manage threads. The role hierarchy (nicknames) is `outranks`."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .world import Channel, Guild, Member

CREATE_INSTANT_INVITE = 1 << 0
KICK_MEMBERS = 1 << 1
BAN_MEMBERS = 1 << 2
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
PRIORITY_SPEAKER = 1 << 8
STREAM = 1 << 9
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
SEND_TTS_MESSAGES = 1 << 12
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
CONNECT = 1 << 20
SPEAK = 1 << 21
MUTE_MEMBERS = 1 << 22
DEAFEN_MEMBERS = 1 << 23
MOVE_MEMBERS = 1 << 24
USE_VAD = 1 << 25
CHANGE_NICKNAME = 1 << 26
MANAGE_NICKNAMES = 1 << 27
MANAGE_ROLES = 1 << 28
USE_APPLICATION_COMMANDS = 1 << 31
REQUEST_TO_SPEAK = 1 << 32
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38

ALL = (1 << 51) - 1

# What @everyone gets on a fresh Discord server (the settings Discord turns on by default).
EVERYONE_DEFAULT = (
    CREATE_INSTANT_INVITE
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | READ_MESSAGE_HISTORY
    | ADD_REACTIONS
    | EMBED_LINKS
    | ATTACH_FILES
    | MENTION_EVERYONE
    | CHANGE_NICKNAME
    | CONNECT
    | SPEAK
    | STREAM
    | USE_VAD
    | REQUEST_TO_SPEAK
    | USE_APPLICATION_COMMANDS
    | SEND_MESSAGES_IN_THREADS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
)
# What the bot's own role gets unless a test says otherwise: everything a game host needs.
BOT_DEFAULT = (
    MANAGE_CHANNELS
    | MUTE_MEMBERS
    | DEAFEN_MEMBERS
    | MOVE_MEMBERS
    | MANAGE_ROLES
    | MANAGE_THREADS
    | MANAGE_NICKNAMES
)
# What Discord reports as the app's permissions in a DM.
DM_APP_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | READ_MESSAGE_HISTORY | ADD_REACTIONS

# Lost with Send Messages (text channels; in threads, with Send Messages in Threads).
_NEED_SENDING = MENTION_EVERYONE | SEND_TTS_MESSAGES | ATTACH_FILES | EMBED_LINKS
# A voice channel's own permissions, lost with Connect.
_NEED_CONNECT = (
    SPEAK
    | MUTE_MEMBERS
    | DEAFEN_MEMBERS
    | MOVE_MEMBERS
    | USE_VAD
    | PRIORITY_SPEAKER
    | STREAM
    | REQUEST_TO_SPEAK
    | MANAGE_CHANNELS
    | MANAGE_ROLES
)
_TEXT, _VOICE, _STAGE, _PUBLIC_THREAD, _PRIVATE_THREAD = 0, 2, 13, 11, 12


def names(bits: int) -> list[str]:
    return [name for name, value in globals().items() if name.isupper() and _single(value) and bits & value]


def _single(value: object) -> bool:
    return isinstance(value, int) and value > 0 and value & (value - 1) == 0


def base_permissions(guild: Guild, member: Member) -> int:
    if member.user.id == guild.owner_id:
        return ALL
    bits = guild.roles[guild.id].permissions
    for role_id in member.roles:
        bits |= guild.roles[role_id].permissions
    return ALL if bits & ADMINISTRATOR else bits


def overwritten(guild: Guild, member: Member, channel: Channel) -> int:
    """Discord's order: base, then @everyone overwrite, then role overwrites together, then the member's."""
    bits = base_permissions(guild, member)
    if bits & ADMINISTRATOR:
        return ALL
    overwrites = {ow.id: ow for ow in channel.overwrites}
    everyone = overwrites.get(guild.id)
    if everyone:
        bits = (bits & ~everyone.deny) | everyone.allow
    allow = deny = 0
    for role_id in member.roles:
        ow = overwrites.get(role_id)
        if ow:
            allow, deny = allow | ow.allow, deny | ow.deny
    bits = (bits & ~deny) | allow
    own = overwrites.get(member.user.id)
    if own:
        bits = (bits & ~own.deny) | own.allow
    return bits


def channel_permissions(
    guild: Guild, member: Member, channel: Channel | None, parent: Channel | None = None
) -> int:
    """What `member` may do in `channel` (a thread needs its `parent`); without a channel, the base."""
    if channel is None:
        return base_permissions(guild, member)
    if base_permissions(guild, member) & ADMINISTRATOR:
        return ALL  # the owner and administrators: no overwrite and no implicit denial applies
    thread = channel.type in (_PUBLIC_THREAD, _PRIVATE_THREAD)
    bits = overwritten(guild, member, parent if thread and parent is not None else channel)
    if not bits & VIEW_CHANNEL:
        return 0
    if channel.type in (_VOICE, _STAGE) and not bits & CONNECT:
        bits &= ~_NEED_CONNECT
    sending = bits & SEND_MESSAGES
    if thread:
        # Send Messages does not carry into threads: Send Messages in Threads takes its place.
        sending = bits & SEND_MESSAGES_IN_THREADS
        outsider = channel.type == _PRIVATE_THREAD and member.user.id not in channel.thread_members
        if outsider and not bits & MANAGE_THREADS:
            return 0
    if not sending:
        bits &= ~_NEED_SENDING
    return bits


def highest_position(guild: Guild, member: Member) -> int:
    return max((guild.roles[r].position for r in member.roles), default=0)


def outranks(guild: Guild, actor: Member, target: Member) -> bool:
    """Whether `actor` may change `target`'s nickname (or kick, ban): never the owner; otherwise the
    actor's highest role must be strictly above the target's (the owner outranks everyone)."""
    if target.user.id == guild.owner_id:
        return False
    if actor.user.id == guild.owner_id:
        return True
    return highest_position(guild, actor) > highest_position(guild, target)
