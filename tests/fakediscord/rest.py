"""The REST API, strict: only the routes below exist; anything else is a 404 that fails the test.

Each handler reads and changes the world, dispatches the gateway events Discord would send, and
returns JSON. Permission checks answer 403 code 50013 like Discord; rate limits come from
`ratelimits.RateLimits` before the handler runs.
"""

from __future__ import annotations

import json
import re
import time
import urllib.parse
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import permissions as perms
from .world import (
    Channel,
    ChannelType,
    Message,
    Overwrite,
    channel_json,
    iso_now,
    member_json,
    message_json,
    user_json,
    voice_state_json,
)

if TYPE_CHECKING:
    from .server import FakeDiscord

API_PREFIX = "/api/v10"
JSON = "application/json"  # exactly: discord.py only parses a body as JSON when the header is this


class ApiError(Exception):
    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message = status, code, message


def missing_permissions(*needed: int) -> ApiError:
    return ApiError(403, 50013, f"Missing Permissions ({', '.join(perms.names(sum(needed)))})")


@dataclass
class RestCall:
    """One request as the stand-in saw it: route template, ids, body, and what it answered."""

    method: str
    route: str  # template, e.g. "PATCH /guilds/{guild_id}/members/{user_id}"
    path: str
    params: dict[str, str]
    json: Any
    query: dict[str, str]
    reason: str | None
    status: int = 0
    response: Any = None
    at: float = field(default_factory=time.monotonic)


@dataclass
class Request:
    call: RestCall
    body: Any

    def param(self, name: str) -> int:
        value = self.call.params[name]
        return int(value)


Handler = Callable[["Rest", Request], Awaitable[Any]]
ROUTES: list[tuple[str, str, re.Pattern[str], Handler]] = []


def route(method: str, template: str) -> Callable[[Handler], Handler]:
    pattern = re.compile(re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template))

    def register(handler: Handler) -> Handler:
        ROUTES.append((method, template, pattern, handler))
        return handler

    return register


def _reason(header: str | None) -> str | None:
    return urllib.parse.unquote(header) if header is not None else None


def _major(params: dict[str, str]) -> str:
    keys = ("channel_id", "guild_id", "webhook_id", "webhook_token")
    return "+".join(params[key] for key in keys if key in params)


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    body = json.dumps(data, ensure_ascii=False).encode()
    return web.Response(body=body, status=status, headers={"Content-Type": JSON, **(headers or {})})


class Rest:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.world = fake.world

    # -- plumbing ---------------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        body = await self._body(request)
        for method, template, pattern, handler in ROUTES:
            match = pattern.fullmatch(path)
            if method != request.method or match is None:
                continue
            params = match.groupdict()
            call = RestCall(
                method,
                f"{method} {template}",
                path,
                params,
                body,
                dict(request.query),
                _reason(request.headers.get("X-Audit-Log-Reason")),
            )
            return await self._serve(request, call, handler)
        self.fake.unknown_routes.append(f"{request.method} {path}")
        self.fake.notify()
        return json_response({"message": "404: Not Found", "code": 0}, status=404)

    async def _serve(self, request: web.Request, call: RestCall, handler: Handler) -> web.StreamResponse:
        authorized = request.headers.get("Authorization") == f"Bot {self.fake.token}"
        if not authorized and not call.route.split(" ", 1)[1].startswith(("/interactions", "/webhooks")):
            call.status = 401
            self._record(call)
            return json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        decision = self.fake.rate_limits.check(call.route, _major(call.params))
        if not decision.allowed:
            call.status = 429
            self._record(call)
            payload = {
                "message": "You are being rate limited.",
                "retry_after": decision.retry_after,
                "global": False,
            }
            return json_response(payload, status=429, headers=decision.headers)
        try:
            result = await handler(self, Request(call, call.json))
        except ApiError as error:
            call.status, call.response = error.status, {"message": error.message, "code": error.code}
            self._record(call)
            return json_response(call.response, status=error.status, headers=decision.headers)
        call.status, call.response = (204, None) if result is None else (200, result)
        self._record(call)
        if result is None:
            return web.Response(status=204, headers=decision.headers)
        return json_response(result, headers=decision.headers)

    def _record(self, call: RestCall) -> None:
        self.fake.calls.append(call)
        self.fake.notify()

    @staticmethod
    async def _body(request: web.Request) -> Any:
        if not request.can_read_body:
            return None
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            payload = form.get("payload_json")
            return json.loads(str(payload)) if payload is not None else {}
        text = await request.text()
        return json.loads(text) if text else None

    # -- lookups with Discord's errors ------------------------------------------------------------

    def channel(self, channel_id: int) -> Channel:
        channel = self.world.channels.get(channel_id)
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    def require(self, channel: Channel | None, guild_id: int | None, *needed: int) -> None:
        guild = self.world.guilds.get(guild_id) if guild_id else None
        if guild is None:
            return
        bits = self.world.permissions(guild, self.world.bot_user.id, channel)
        if not perms.has_all(bits, needed):
            self.fake.forbidden.append((sum(needed), channel.id if channel else guild.id))
            raise missing_permissions(*needed)

    def message_from(self, channel: Channel, body: dict[str, Any], **extra: Any) -> Message:
        return self.world.add_message(
            channel,
            self.world.bot_user,
            content=body.get("content") or "",
            embeds=body.get("embeds") or [],
            components=body.get("components") or [],
            flags=int(body.get("flags") or 0),
            **extra,
        )

    @staticmethod
    def apply_edit(message: Message, body: dict[str, Any]) -> None:
        for key in ("content", "embeds", "components"):
            if key in body and body[key] is not None:
                setattr(message, key, body[key])
        message.edited_timestamp = iso_now()


# -- login ---------------------------------------------------------------------------------------


@route("GET", "/users/@me")
async def get_me(rest: Rest, request: Request) -> Any:
    return user_json(rest.world.bot_user)


@route("GET", "/oauth2/applications/@me")
async def get_application(rest: Rest, request: Request) -> Any:
    owner = next(iter(rest.world.guilds.values())).owner_id if rest.world.guilds else rest.world.bot_user.id
    return {
        "id": str(rest.world.application_id),
        "name": rest.world.bot_user.username,
        "icon": None,
        "description": "",
        "rpc_origins": [],
        "bot_public": True,
        "bot_require_code_grant": False,
        "owner": user_json(rest.world.users[owner]),
        "summary": "",
        "verify_key": "0" * 64,
        "team": None,
        "flags": 0,
    }


# -- application commands ------------------------------------------------------------------------


def _store_commands(rest: Rest, guild_id: int | None, body: list[dict[str, Any]]) -> list[dict[str, Any]]:
    stored = []
    for command in body:
        command = {
            **command,
            "id": str(rest.world.snowflake()),
            "application_id": str(rest.world.application_id),
            "version": str(rest.world.snowflake()),
            "type": command.get("type", 1),
        }
        if guild_id is not None:
            command["guild_id"] = str(guild_id)
        stored.append(command)
    rest.fake.commands[guild_id] = stored
    return stored


@route("PUT", "/applications/{application_id}/commands")
async def put_global_commands(rest: Rest, request: Request) -> Any:
    return _store_commands(rest, None, request.body)


@route("GET", "/applications/{application_id}/commands")
async def get_global_commands(rest: Rest, request: Request) -> Any:
    return rest.fake.commands.get(None, [])


@route("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")
async def put_guild_commands(rest: Rest, request: Request) -> Any:
    return _store_commands(rest, request.param("guild_id"), request.body)


@route("GET", "/applications/{application_id}/guilds/{guild_id}/commands")
async def get_guild_commands(rest: Rest, request: Request) -> Any:
    return rest.fake.commands.get(request.param("guild_id"), [])


# -- messages and DMs ----------------------------------------------------------------------------


@route("POST", "/channels/{channel_id}/messages")
async def create_message(rest: Rest, request: Request) -> Any:
    channel = rest.channel(request.param("channel_id"))
    if channel.type == ChannelType.DM:
        recipient = rest.world.users[channel.recipient_id or 0]
        if not recipient.dms_open:
            raise ApiError(403, 50007, "Cannot send messages to this user")
    else:
        send = perms.SEND_MESSAGES_IN_THREADS if channel.type in ChannelType.THREADS else perms.SEND_MESSAGES
        rest.require(channel, channel.guild_id, perms.VIEW_CHANNEL, send)
    message = rest.message_from(channel, request.body or {})
    data = message_json(message)
    rest.fake.dispatch("MESSAGE_CREATE", data)
    return data


@route("GET", "/channels/{channel_id}/messages")
async def channel_history(rest: Rest, request: Request) -> Any:
    channel = rest.channel(request.param("channel_id"))
    rest.require(channel, channel.guild_id, perms.VIEW_CHANNEL, perms.READ_MESSAGE_HISTORY)
    limit = int(request.call.query.get("limit", 50))
    visible = [m for m in rest.world.messages[channel.id] if not m.deleted and not m.ephemeral]
    return [message_json(m) for m in reversed(visible[-limit:])]


def _own_message(rest: Rest, request: Request) -> tuple[Channel, Message]:
    channel = rest.channel(request.param("channel_id"))
    message = rest.world.find_message(request.param("message_id"))
    if message is None or message.deleted or message.channel_id != channel.id:
        raise ApiError(404, 10008, "Unknown Message")
    return channel, message


@route("GET", "/channels/{channel_id}/messages/{message_id}")
async def get_message(rest: Rest, request: Request) -> Any:
    return message_json(_own_message(rest, request)[1])


@route("PATCH", "/channels/{channel_id}/messages/{message_id}")
async def edit_message(rest: Rest, request: Request) -> Any:
    _, message = _own_message(rest, request)
    if message.author.id != rest.world.bot_user.id:
        raise ApiError(403, 50005, "Cannot edit a message authored by another user")
    rest.apply_edit(message, request.body or {})
    data = message_json(message)
    rest.fake.dispatch("MESSAGE_UPDATE", data)
    return data


@route("DELETE", "/channels/{channel_id}/messages/{message_id}")
async def delete_message(rest: Rest, request: Request) -> Any:
    channel, message = _own_message(rest, request)
    if message.author.id != rest.world.bot_user.id:
        rest.require(channel, channel.guild_id, perms.MANAGE_MESSAGES)
    message.deleted = True
    event = {"id": str(message.id), "channel_id": str(channel.id)}
    if channel.guild_id:
        event["guild_id"] = str(channel.guild_id)
    rest.fake.dispatch("MESSAGE_DELETE", event)
    return None


@route("POST", "/users/@me/channels")
async def open_dm(rest: Rest, request: Request) -> Any:
    user = rest.world.users.get(int(request.body["recipient_id"]))
    if user is None:
        raise ApiError(400, 50033, "Invalid Recipient(s)")
    return channel_json(rest.world.dm_channel(user), rest.world)


# -- interactions and their webhooks -------------------------------------------------------------


@route("POST", "/interactions/{interaction_id}/{interaction_token}/callback")
async def interaction_callback(rest: Rest, request: Request) -> Any:
    record = rest.fake.interactions.get(request.param("interaction_id"))
    if record is None or record.token != request.call.params["interaction_token"]:
        raise ApiError(404, 10062, "Unknown interaction")
    if record.callback is not None:
        raise ApiError(400, 40060, "Interaction has already been acknowledged.")
    body = request.body or {}
    kind, data = int(body["type"]), body.get("data") or {}
    record.callback = body
    channel = rest.world.channels[record.channel_id]
    message: Message | None = None
    if kind == 4:  # CHANNEL_MESSAGE_WITH_SOURCE
        message = rest.message_from(
            channel, data, interaction_id=record.id, webhook_id=rest.world.application_id
        )
    elif kind == 5:  # DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: a "thinking…" placeholder
        message = rest.message_from(
            channel, data, interaction_id=record.id, webhook_id=rest.world.application_id
        )
        message.flags |= 1 << 7  # LOADING
    elif kind == 7:  # UPDATE_MESSAGE: the message holding the clicked component
        message = rest.world.find_message(record.message_id or 0)
        if message is None:
            raise ApiError(400, 50035, "Invalid Form Body (no message to update)")
        rest.apply_edit(message, data)
    elif kind == 6 and record.message_id:  # DEFERRED_UPDATE_MESSAGE
        message = rest.world.find_message(record.message_id)
    elif kind == 9:  # MODAL
        record.modal = data
    elif kind not in (1, 8):
        raise ApiError(400, 50035, f"Invalid interaction callback type {kind}")
    if message is not None and kind in (4, 5):
        record.original = message
        if not message.ephemeral:
            rest.fake.dispatch("MESSAGE_CREATE", message_json(message))
    rest.fake.notify()
    interaction: dict[str, Any] = {"id": str(record.id), "type": record.type}
    if message is not None:
        interaction.update(
            response_message_id=str(message.id),
            response_message_loading=kind == 5,
            response_message_ephemeral=message.ephemeral,
        )
    resource: dict[str, Any] = {"type": kind}
    if message is not None:
        resource["message"] = message_json(message)
    return {"interaction": interaction, "resource": resource}


def _webhook_record(rest: Rest, request: Request) -> Any:
    if request.param("webhook_id") != rest.world.application_id:
        raise ApiError(404, 10015, "Unknown Webhook")
    record = rest.fake.interactions_by_token.get(request.call.params["webhook_token"])
    if record is None:
        raise ApiError(404, 10015, "Unknown Webhook")
    return record


def _webhook_message(rest: Rest, request: Request) -> Message:
    record = _webhook_record(rest, request)
    message_id = request.call.params["message_id"]
    if message_id == "@original":
        if record.original is None:
            raise ApiError(404, 10008, "Unknown Message")
        return record.original
    message = rest.world.find_message(int(message_id))
    if message is None or message.interaction_id != record.id:
        raise ApiError(404, 10008, "Unknown Message")
    return message


@route("POST", "/webhooks/{webhook_id}/{webhook_token}")
async def followup(rest: Rest, request: Request) -> Any:
    record = _webhook_record(rest, request)
    channel = rest.world.channels[record.channel_id]
    message = rest.message_from(
        channel, request.body or {}, interaction_id=record.id, webhook_id=rest.world.application_id
    )
    record.followups.append(message)
    if not message.ephemeral:
        rest.fake.dispatch("MESSAGE_CREATE", message_json(message))
    return message_json(message) if request.call.query.get("wait") in ("1", "true", "True") else None


@route("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
async def get_webhook_message(rest: Rest, request: Request) -> Any:
    return message_json(_webhook_message(rest, request))


@route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
async def edit_webhook_message(rest: Rest, request: Request) -> Any:
    message = _webhook_message(rest, request)
    rest.apply_edit(message, request.body or {})
    message.flags &= ~(1 << 7)  # editing a deferred response ends the "thinking…" state
    if not message.ephemeral:
        rest.fake.dispatch("MESSAGE_UPDATE", message_json(message))
    return message_json(message)


@route("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
async def delete_webhook_message(rest: Rest, request: Request) -> Any:
    _webhook_message(rest, request).deleted = True
    return None


# -- members and voice ---------------------------------------------------------------------------


def _member(rest: Rest, request: Request) -> Any:
    guild = rest.world.guilds.get(request.param("guild_id"))
    if guild is None:
        raise ApiError(404, 10004, "Unknown Guild")
    user_id = rest.world.bot_user.id if request.call.params["user_id"] == "@me" else request.param("user_id")
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
        rest.require(None, guild.id, perms.MANAGE_NICKNAMES)
    if ({"mute", "deaf"} & body.keys() or body.get("channel_id")) and not in_voice:
        raise ApiError(400, 40032, "Target user is not connected to voice.")
    if "nick" in body:
        member.nick = body["nick"]
        rest.fake.dispatch("GUILD_MEMBER_UPDATE", {"guild_id": str(guild.id), **member_json(member)})
    if state is not None and in_voice:
        changed = False
        for key in ("mute", "deaf"):
            if key in body and bool(body[key]) != getattr(state, key):
                setattr(state, key, bool(body[key]))
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


@route("PATCH", "/channels/{channel_id}")
async def edit_channel(rest: Rest, request: Request) -> Any:
    channel = rest.channel(request.param("channel_id"))
    body = request.body or {}
    if channel.type in ChannelType.THREADS and channel.owner_id == rest.world.bot_user.id:
        pass  # a thread's creator may edit it
    else:
        rest.require(channel, channel.guild_id, perms.MANAGE_CHANNELS)
    if "name" in body:
        channel.name = body["name"]
    if "permission_overwrites" in body:
        rest.require(channel, channel.guild_id, perms.MANAGE_ROLES)
        channel.overwrites = _overwrites(body["permission_overwrites"])
    if "archived" in body:
        channel.archived = bool(body["archived"])
    data = channel_json(channel, rest.world)
    event = "THREAD_UPDATE" if channel.type in ChannelType.THREADS else "CHANNEL_UPDATE"
    rest.fake.dispatch(event, data)
    return data


@route("DELETE", "/channels/{channel_id}")
async def delete_channel(rest: Rest, request: Request) -> Any:
    channel = rest.channel(request.param("channel_id"))
    needed = perms.MANAGE_THREADS if channel.type in ChannelType.THREADS else perms.MANAGE_CHANNELS
    if not (channel.type in ChannelType.THREADS and channel.owner_id == rest.world.bot_user.id):
        rest.require(channel, channel.guild_id, needed)
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
    rest.require(channel, channel.guild_id, perms.MANAGE_ROLES)
    body = request.body or {}
    target = request.param("overwrite_id")
    channel.overwrites = [ow for ow in channel.overwrites if ow.id != target]
    channel.overwrites.append(Overwrite(target, int(body["type"]), int(body["allow"]), int(body["deny"])))
    rest.fake.dispatch("CHANNEL_UPDATE", channel_json(channel, rest.world))
    return None


@route("DELETE", "/channels/{channel_id}/permissions/{overwrite_id}")
async def delete_overwrite(rest: Rest, request: Request) -> Any:
    channel = rest.channel(request.param("channel_id"))
    rest.require(channel, channel.guild_id, perms.MANAGE_ROLES)
    channel.overwrites = [ow for ow in channel.overwrites if ow.id != request.param("overwrite_id")]
    rest.fake.dispatch("CHANNEL_UPDATE", channel_json(channel, rest.world))
    return None


@route("POST", "/channels/{channel_id}/threads")
async def create_thread(rest: Rest, request: Request) -> Any:
    parent = rest.channel(request.param("channel_id"))
    body = request.body or {}
    kind = int(body.get("type", ChannelType.PRIVATE_THREAD))
    needed = perms.CREATE_PRIVATE_THREADS if kind == ChannelType.PRIVATE_THREAD else perms.SEND_MESSAGES
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


@route("PUT", "/channels/{channel_id}/thread-members/{user_id}")
async def add_thread_member(rest: Rest, request: Request) -> Any:
    thread = _thread(rest, request)
    raw = request.call.params["user_id"]
    user_id = rest.world.bot_user.id if raw == "@me" else int(raw)
    if user_id != rest.world.bot_user.id and thread.owner_id != rest.world.bot_user.id:
        rest.require(thread, thread.guild_id, perms.MANAGE_THREADS)
    thread.thread_members.add(user_id)
    _thread_members_event(rest, thread, user_id, None)
    return None


@route("DELETE", "/channels/{channel_id}/thread-members/{user_id}")
async def remove_thread_member(rest: Rest, request: Request) -> Any:
    thread = _thread(rest, request)
    raw = request.call.params["user_id"]
    user_id = rest.world.bot_user.id if raw == "@me" else int(raw)
    if user_id != rest.world.bot_user.id and thread.owner_id != rest.world.bot_user.id:
        rest.require(thread, thread.guild_id, perms.MANAGE_THREADS)
    thread.thread_members.discard(user_id)
    _thread_members_event(rest, thread, None, user_id)
    return None
