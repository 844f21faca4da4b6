"""Discord's JSON for each object of the world, as the API and gateway render it (ids as strings)."""

from __future__ import annotations

from typing import Any

from .world import (
    Channel,
    ChannelType,
    Guild,
    Member,
    Message,
    Overwrite,
    Role,
    User,
    VoiceState,
    World,
    iso_now,
)


def user_json(user: User) -> dict[str, Any]:
    return {
        "id": str(user.id),
        "username": user.username,
        "discriminator": "0",
        "global_name": user.global_name,
        "avatar": None,
        "bot": user.bot,
        "public_flags": 0,
    }


def role_json(role: Role) -> dict[str, Any]:
    return {
        "id": str(role.id),
        "name": role.name,
        "color": 0,
        "hoist": False,
        "position": role.position,
        "permissions": str(role.permissions),
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }


def member_json(member: Member, *, with_user: bool = True) -> dict[str, Any]:
    data: dict[str, Any] = {
        "nick": member.nick,
        "roles": [str(role_id) for role_id in member.roles],
        "joined_at": member.joined_at,
        "deaf": member.deaf,
        "mute": member.mute,
        "flags": 0,
        "pending": False,
    }
    if with_user:
        data["user"] = user_json(member.user)
    return data


def overwrite_json(ow: Overwrite) -> dict[str, Any]:
    # Real Discord answers with strings even when discord.py sent integers.
    return {"id": str(ow.id), "type": ow.type, "allow": str(ow.allow), "deny": str(ow.deny)}


def channel_json(channel: Channel, world: World | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"id": str(channel.id), "type": channel.type, "flags": 0}
    if channel.type == ChannelType.DM:
        recipient = world.users[channel.recipient_id] if world and channel.recipient_id else None
        data["recipients"] = [user_json(recipient)] if recipient else []
        data["last_message_id"] = None
        return data
    data.update(
        name=channel.name,
        guild_id=str(channel.guild_id),
        position=channel.position,
        parent_id=str(channel.parent_id) if channel.parent_id else None,
        permission_overwrites=[overwrite_json(ow) for ow in channel.overwrites],
        nsfw=False,
    )
    if channel.type in ChannelType.VOICE:
        data.update(bitrate=64000, user_limit=channel.user_limit, rtc_region=None)
    if channel.type in ChannelType.THREADS:
        data.update(
            owner_id=str(channel.owner_id) if channel.owner_id else None,
            member_count=len(channel.thread_members),
            message_count=0,
            thread_metadata={
                "archived": channel.archived,
                "auto_archive_duration": 1440,
                "archive_timestamp": iso_now(),
                "locked": channel.locked,
                "invitable": channel.invitable,
            },
        )
        data.pop("permission_overwrites")
    return data


def message_json(message: Message) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(message.id),
        "channel_id": str(message.channel_id),
        "author": user_json(message.author),
        "content": message.content,
        "timestamp": message.timestamp,
        "edited_timestamp": message.edited_timestamp,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [
            {
                "id": str(message.id + i + 1),
                "filename": name,
                "size": len(data),
                "url": f"https://cdn.discordapp.com/attachments/{message.channel_id}/{message.id}/{name}",
                "proxy_url": f"https://media.discordapp.net/attachments/{message.channel_id}/{message.id}/{name}",
            }
            for i, (name, data) in enumerate(message.files.items())
        ],
        "embeds": message.embeds,
        "components": message.components,
        "pinned": False,
        "type": 0 if message.interaction_id is None else 20,
        "flags": message.flags,
    }
    if message.guild_id:
        data["guild_id"] = str(message.guild_id)
    if message.webhook_id:
        data["webhook_id"] = str(message.webhook_id)
    return data


def voice_state_json(state: VoiceState, member: Member | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "guild_id": str(state.guild_id),
        "channel_id": str(state.channel_id) if state.channel_id else None,
        "user_id": str(state.user_id),
        "session_id": state.session_id,
        "deaf": state.deaf,
        "mute": state.mute,
        "self_deaf": state.self_deaf,
        "self_mute": state.self_mute,
        "self_video": False,
        "suppress": state.suppress,
        "request_to_speak_timestamp": None,
    }
    if member is not None:
        data["member"] = member_json(member)
    return data


def guild_json(guild: Guild, world: World, *, members: list[Member]) -> dict[str, Any]:
    """The GUILD_CREATE payload; `members` is the subset sent inline (the rest comes by chunking)."""
    channels = [world.channels[cid] for cid in guild.channel_ids]
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "owner_id": str(guild.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [role_json(role) for role in guild.roles.values()],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "premium_tier": 0,
        "preferred_locale": "ru",
        "nsfw_level": 0,
        "joined_at": iso_now(),
        "large": len(members) < len(guild.members),
        "unavailable": False,
        "member_count": len(guild.members),
        "members": [member_json(member) for member in members],
        "channels": [channel_json(c, world) for c in channels if c.type not in ChannelType.THREADS],
        "threads": [channel_json(c, world) for c in channels if c.type in ChannelType.THREADS],
        "voice_states": [
            voice_state_json(state) for state in guild.voice_states.values() if state.channel_id is not None
        ],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }
