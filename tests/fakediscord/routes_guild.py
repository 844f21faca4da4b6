"""REST routes of a guild: members (mute, deafen, move, nick), voice states, channels with
permission overwrites, private threads and their members."""

from __future__ import annotations

from typing import Any

from . import permissions as perms
from .payloads import channel_json, member_json, voice_state_json
from .rest import ApiError, Request, Rest, route
from .world import Channel, ChannelType, Overwrite, iso_now

# -- members and voice ---------------------------------------------------------------------------


def _member(rest: Rest, request: Request) -> Any:
    guild = rest.world.guilds.get(request.param("guild_id"))
    if guild is None:
        raise ApiError(404, 10004, "Unknown Guild")
    if rest.caller_id not in guild.members:
        raise ApiError(403, 50001, "Missing Access")
    user_id = rest.caller_id if request.call.params["user_id"] == "@me" else request.param("user_id")
    member = guild.members.get(user_id)
    if member is None:
        raise ApiError(404, 10007, "Unknown Member")
    return guild, member


@route("GET", "/guilds/{guild_id}/members/{user_id}")
async def get_member(rest: Rest, request: Request) -> Any:
    return member_json(_member(rest, request)[1])


@route("PATCH", "/guilds/{guild_id}/members/{user_id}")
async def edit_member(rest: Rest, request: Request) -> Any:
    guild, member = _member(rest, request)
    body: dict[str, Any] = request.body or {}
    state = guild.voice_states.get(member.id)
    in_voice = state is not None and state.channel_id is not None
    voice_channel = rest.world.channels[state.channel_id] if state and state.channel_id else None
    if "mute" in body:
        rest.require(voice_channel, guild.id, perms.MUTE_MEMBERS)
    if "deaf" in body:
        rest.require(voice_channel, guild.id, perms.DEAFEN_MEMBERS)
    if body.get("channel_id") is not None or ("channel_id" in body and in_voice):
        rest.require(voice_channel, guild.id, perms.MOVE_MEMBERS)
        if body["channel_id"] is not None:
            target = rest.channel(int(body["channel_id"]))
            rest.require(target, guild.id, perms.MOVE_MEMBERS, perms.CONNECT)
    if "nick" in body:
        bot = guild.members[rest.caller_id]
        if member is bot:
            rest.require(None, guild.id, perms.CHANGE_NICKNAME)
        else:
            rest.require(None, guild.id, perms.MANAGE_NICKNAMES)
            if not perms.outranks(guild, bot, member):
                rest.refuse(None, guild.id, perms.MANAGE_NICKNAMES)  # the owner, or a member not below
    if ({"mute", "deaf"} & body.keys() or body.get("channel_id")) and not in_voice:
        raise ApiError(400, 40032, "Target user is not connected to voice.")
    if "nick" in body:
        member.nick = body["nick"] or None  # Discord resets the nickname on "" as on null
        rest.fake.dispatch("GUILD_MEMBER_UPDATE", {"guild_id": str(guild.id), **member_json(member)})
    if state is not None and in_voice:
        changed = False
        for key in ("mute", "deaf"):
            if key in body and bool(body[key]) != getattr(state, key):
                setattr(state, key, bool(body[key]))
                setattr(member, key, bool(body[key]))
                changed = True
        if "channel_id" in body:
            new_channel = int(body["channel_id"]) if body["channel_id"] is not None else None
            changed = changed or new_channel != state.channel_id
            state.channel_id = new_channel
        if changed:
            rest.fake.dispatch("VOICE_STATE_UPDATE", voice_state_json(state, member))
    return member_json(member)


@route("GET", "/guilds/{guild_id}/voice-states/{user_id}")
async def get_voice_state(rest: Rest, request: Request) -> Any:
    guild, member = _member(rest, request)
    state = guild.voice_states.get(member.id)
    if state is None or state.channel_id is None:
        raise ApiError(404, 10065, "Unknown Voice State")
    return voice_state_json(state, member)


# -- channels, overwrites, threads ---------------------------------------------------------------


def _require_grantable(
    rest: Rest, channel: Channel | None, guild_id: int, overwrites: list[Overwrite]
) -> None:
    """Discord lets a bot allow or deny in an overwrite only what it has itself (in the channel, or the
    guild for a new one), unless its own overwrite there grants it Manage Roles."""
    bits = rest.bot_permissions(channel, guild_id)
    bot_id = rest.world.bot_user.id
    own = next((ow for ow in (channel.overwrites if channel else []) if ow.id == bot_id), None)
    if bits == perms.ALL or (own is not None and own.allow & perms.MANAGE_ROLES):
        return
    beyond = 0
    for ow in overwrites:
        beyond |= (ow.allow | ow.deny) & ~bits
    if beyond:
        rest.refuse(channel, guild_id, beyond)


def _overwrites(raw: list[dict[str, Any]] | None) -> list[Overwrite]:
    # discord.py sends ids and bits as integers; Discord accepts both and answers with strings.
    return [
        Overwrite(int(o["id"]), int(o["type"]), int(o.get("allow", 0)), int(o.get("deny", 0)))
        for o in raw or []
    ]


@route("GET", "/guilds/{guild_id}/channels")
async def guild_channels(rest: Rest, request: Request) -> Any:
    guild = rest.world.guilds[request.param("guild_id")]
    return [channel_json(rest.world.channels[cid], rest.world) for cid in guild.channel_ids]


@route("POST", "/guilds/{guild_id}/channels")
async def create_channel(rest: Rest, request: Request) -> Any:
    guild = rest.world.guilds[request.param("guild_id")]
    rest.require(None, guild.id, perms.MANAGE_CHANNELS)
    body = request.body or {}
    overwrites = _overwrites(body.get("permission_overwrites"))
    if overwrites:
        rest.require(None, guild.id, perms.MANAGE_ROLES)
        _require_grantable(rest, None, guild.id, overwrites)
    parent = body.get("parent_id")
    channel = rest.world.add_channel(
        guild,
        body["name"],
        int(body.get("type", 0)),
        parent_id=int(parent) if parent else None,
        overwrites=overwrites,
    )
    data = channel_json(channel, rest.world)
    rest.fake.dispatch("CHANNEL_CREATE", data)
    return data


@route("GET", "/channels/{channel_id}")
async def get_channel(rest: Rest, request: Request) -> Any:
    return channel_json(rest.channel(request.param("channel_id")), rest.world)


def _require_thread_edit(rest: Rest, thread: Channel, body: dict[str, Any]) -> None:
    """Reopening an unlocked thread needs only sending in it; anything else Manage Threads. A thread that
    stays archived cannot be edited at all."""
    if thread.archived and body.get("archived", True):
        raise ApiError(400, 50083, "Thread is archived")
    reopen_only = set(body) <= {"archived", "locked"} and body.get("archived") is False
    if reopen_only and not thread.locked and not body.get("locked"):
        rest.require(thread, thread.guild_id, perms.VIEW_CHANNEL, perms.SEND_MESSAGES_IN_THREADS)
    else:
        rest.require(thread, thread.guild_id, perms.VIEW_CHANNEL, perms.MANAGE_THREADS)


@route("PATCH", "/channels/{channel_id}")
async def edit_channel(rest: Rest, request: Request) -> Any:
    channel = rest.channel(request.param("channel_id"))
    body = request.body or {}
    if channel.type in ChannelType.THREADS:
        _require_thread_edit(rest, channel, body)
    else:
        rest.require(channel, channel.guild_id, perms.VIEW_CHANNEL, perms.MANAGE_CHANNELS)
    if "name" in body:
        channel.name = body["name"]
    if "permission_overwrites" in body:
        rest.require(channel, channel.guild_id, perms.MANAGE_ROLES)
        overwrites = _overwrites(body["permission_overwrites"])
        _require_grantable(rest, channel, channel.guild_id or 0, overwrites)
        channel.overwrites = overwrites
    if "archived" in body:
        channel.archived = bool(body["archived"])
    if "locked" in body:
        channel.locked = bool(body["locked"])
    data = channel_json(channel, rest.world)
    event = "THREAD_UPDATE" if channel.type in ChannelType.THREADS else "CHANNEL_UPDATE"
    rest.fake.dispatch(event, data)
    return data


@route("DELETE", "/channels/{channel_id}")
async def delete_channel(rest: Rest, request: Request) -> Any:
    channel = rest.channel(request.param("channel_id"))
    needed = perms.MANAGE_THREADS if channel.type in ChannelType.THREADS else perms.MANAGE_CHANNELS
    rest.require(channel, channel.guild_id, perms.VIEW_CHANNEL, needed)  # a thread's creator too
    data = channel_json(channel, rest.world)
    del rest.world.channels[channel.id]
    guild = rest.world.guild_of(channel)
    if guild is not None and channel.id in guild.channel_ids:
        guild.channel_ids.remove(channel.id)
    rest.fake.dispatch("THREAD_DELETE" if channel.type in ChannelType.THREADS else "CHANNEL_DELETE", data)
    return data


@route("PUT", "/channels/{channel_id}/permissions/{overwrite_id}")
async def put_overwrite(rest: Rest, request: Request) -> Any:
    channel = rest.channel(request.param("channel_id"))
    rest.require(channel, channel.guild_id, perms.VIEW_CHANNEL, perms.MANAGE_ROLES)
    body = request.body or {}
    target = request.param("overwrite_id")
    overwrite = Overwrite(target, int(body["type"]), int(body.get("allow", 0)), int(body.get("deny", 0)))
    _require_grantable(rest, channel, channel.guild_id or 0, [overwrite])
    channel.overwrites = [ow for ow in channel.overwrites if ow.id != target]
    channel.overwrites.append(overwrite)
    rest.fake.dispatch("CHANNEL_UPDATE", channel_json(channel, rest.world))
    return None


@route("DELETE", "/channels/{channel_id}/permissions/{overwrite_id}")
async def delete_overwrite(rest: Rest, request: Request) -> Any:
    channel = rest.channel(request.param("channel_id"))
    rest.require(channel, channel.guild_id, perms.VIEW_CHANNEL, perms.MANAGE_ROLES)
    channel.overwrites = [ow for ow in channel.overwrites if ow.id != request.param("overwrite_id")]
    rest.fake.dispatch("CHANNEL_UPDATE", channel_json(channel, rest.world))
    return None


@route("POST", "/channels/{channel_id}/threads")
async def create_thread(rest: Rest, request: Request) -> Any:
    parent = rest.channel(request.param("channel_id"))
    body = request.body or {}
    kind = int(body.get("type", ChannelType.PRIVATE_THREAD))
    if parent.type != ChannelType.GUILD_TEXT or kind not in ChannelType.THREADS:
        raise ApiError(400, 50024, "Cannot execute action on this channel type")
    private = kind == ChannelType.PRIVATE_THREAD
    needed = perms.CREATE_PRIVATE_THREADS if private else perms.CREATE_PUBLIC_THREADS
    rest.require(parent, parent.guild_id, perms.VIEW_CHANNEL, needed)
    guild = rest.world.guild_of(parent)
    thread = rest.world.add_channel(guild, body["name"], kind, parent_id=parent.id)
    thread.owner_id = rest.world.bot_user.id
    thread.invitable = bool(body.get("invitable", True))
    thread.thread_members.add(rest.world.bot_user.id)
    data = channel_json(thread, rest.world)
    rest.fake.dispatch("THREAD_CREATE", {**data, "newly_created": True})
    return data


def _thread(rest: Rest, request: Request) -> Channel:
    thread = rest.channel(request.param("channel_id"))
    if thread.type not in ChannelType.THREADS:
        raise ApiError(400, 50024, "Cannot execute action on this channel type")
    return thread


def _thread_members_event(rest: Rest, thread: Channel, added: int | None, removed: int | None) -> None:
    event: dict[str, Any] = {
        "id": str(thread.id),
        "guild_id": str(thread.guild_id),
        "member_count": len(thread.thread_members),
    }
    if added is not None:
        member = {"id": str(thread.id), "user_id": str(added), "join_timestamp": iso_now(), "flags": 0}
        event["added_members"] = [member]
    if removed is not None:
        event["removed_member_ids"] = [str(removed)]
    rest.fake.dispatch("THREAD_MEMBERS_UPDATE", event)


def _thread_member_change(rest: Rest, request: Request) -> tuple[Channel, int]:
    """Adding someone needs sending in the thread (and, in a private thread closed to invitations, its
    creator or Manage Threads); removing someone needs Manage Threads or, in a private thread, being
    its creator. Either way the thread must not be archived."""
    thread = _thread(rest, request)
    raw = request.call.params["user_id"]
    bot_id = rest.world.bot_user.id
    user_id = bot_id if raw == "@me" else int(raw)
    rest.require(thread, thread.guild_id, perms.VIEW_CHANNEL)
    if thread.archived:
        raise ApiError(400, 50083, "Thread is archived")
    if user_id == bot_id:
        return thread, user_id
    creator = thread.owner_id == bot_id
    private = thread.type == ChannelType.PRIVATE_THREAD
    if request.call.method == "PUT":
        rest.require(thread, thread.guild_id, perms.SEND_MESSAGES_IN_THREADS)
        if private and not thread.invitable and not creator:
            rest.require(thread, thread.guild_id, perms.MANAGE_THREADS)
        guild = rest.world.guilds[thread.guild_id or 0]
        if user_id not in guild.members:
            raise ApiError(404, 10007, "Unknown Member")
    elif not (private and creator):
        rest.require(thread, thread.guild_id, perms.MANAGE_THREADS)
    return thread, user_id


@route("PUT", "/channels/{channel_id}/thread-members/{user_id}")
async def add_thread_member(rest: Rest, request: Request) -> Any:
    thread, user_id = _thread_member_change(rest, request)
    thread.thread_members.add(user_id)
    _thread_members_event(rest, thread, user_id, None)
    return None


@route("DELETE", "/channels/{channel_id}/thread-members/{user_id}")
async def remove_thread_member(rest: Rest, request: Request) -> Any:
    thread, user_id = _thread_member_change(rest, request)
    thread.thread_members.discard(user_id)
    _thread_members_event(rest, thread, None, user_id)
    return None
