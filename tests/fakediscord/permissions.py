"""Permission bits (Discord's numbering) and the overwrite algorithm Discord documents."""

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
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
CONNECT = 1 << 20
SPEAK = 1 << 21
MUTE_MEMBERS = 1 << 22
DEAFEN_MEMBERS = 1 << 23
MOVE_MEMBERS = 1 << 24
USE_VAD = 1 << 25
MANAGE_NICKNAMES = 1 << 27
MANAGE_ROLES = 1 << 28
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38

ALL = (1 << 51) - 1

# What @everyone gets on a fresh server, close enough for a game server.
EVERYONE_DEFAULT = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | READ_MESSAGE_HISTORY
    | ADD_REACTIONS
    | EMBED_LINKS
    | ATTACH_FILES
    | CONNECT
    | SPEAK
    | USE_VAD
    | USE_APPLICATION_COMMANDS
    | SEND_MESSAGES_IN_THREADS
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


def channel_permissions(guild: Guild, member: Member, channel: Channel | None) -> int:
    """Discord's order: base, then @everyone overwrite, then role overwrites together, then the member's."""
    bits = base_permissions(guild, member)
    if bits & ADMINISTRATOR or channel is None:
        return bits
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
