"""REST routes of the application: login, command sync, messages, DMs, interaction callbacks and
their webhooks (followups, `@original`)."""

from __future__ import annotations

import re
import time
from typing import Any

from . import checks
from . import permissions as perms
from .payloads import channel_json, message_json, user_json
from .rest import ApiError, Request, Rest, route
from .world import Channel, ChannelType, Message

INITIAL_RESPONSE_DEADLINE = 3.0  # seconds to the first callback
TOKEN_LIFETIME = 15 * 60.0  # followups and edits of @original
NONCE_SECONDS = 2 * 60.0  # "the past few minutes" in which a repeated nonce is answered again

# -- login ---------------------------------------------------------------------------------------


@route("GET", "/users/@me")
async def get_me(rest: Rest, request: Request) -> Any:
    return user_json(rest.world.users[rest.caller_id])


@route("GET", "/users/{user_id}")
async def get_user(rest: Rest, request: Request) -> Any:
    user = rest.world.users.get(request.param("user_id"))
    if user is None:
        raise ApiError(404, 10013, "Unknown User")
    return user_json(user)


@route("GET", "/oauth2/applications/@me")
async def get_application(rest: Rest, request: Request) -> Any:
    owner = next(iter(rest.world.guilds.values())).owner_id if rest.world.guilds else rest.world.bot_user.id
    bot = rest.world.users[rest.caller_id]  # each bot account is its own application, of the same id
    return {
        "id": str(rest.world.application_id if bot is rest.world.bot_user else bot.id),
        "name": bot.username,
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


# Discord's rules for application commands: a slash command's (and option's) name is 1–32 lowercase
# letters, digits, "-" or "_"; its description 1–100 characters; at most 25 options or choices. A
# context menu command's name is 1–32 characters of any kind (spaces too) and has no description.
_CHAT_NAME = re.compile(r"^[-_\w]{1,32}$")


def _check_command(command: dict[str, Any], top: bool = True) -> None:
    name, kind = str(command.get("name", "")), command.get("type", 1)
    if top and kind in (2, 3):
        if not 1 <= len(name) <= 32 or command.get("description") or command.get("options"):
            raise ApiError(400, 50035, f"Invalid Form Body (context menu {name!r})")
        return
    if not _CHAT_NAME.match(name) or name != name.lower():
        raise ApiError(400, 50035, f"Invalid Form Body (command name {name!r})")
    if not 1 <= len(str(command.get("description", ""))) <= 100:
        raise ApiError(400, 50035, f"Invalid Form Body (description of {name!r})")
    options = command.get("options") or []
    if len(options) > 25 or len(command.get("choices") or []) > 25:
        raise ApiError(400, 50035, f"Invalid Form Body (more than 25 options or choices in {name!r})")
    if command.get("autocomplete") and command.get("choices"):
        raise ApiError(400, 50035, f"Invalid Form Body ({name!r}: autocomplete and choices)")
    for option in options:
        _check_command(option, top=False)


# Discord counts a command that a bulk overwrite creates (a name and type the scope did not have) against
# 200 creates a day per scope (each guild, and the global commands); updating an existing command keeps
# its id and costs nothing. The 201st create is refused with 30034 (a 400).
DAILY_COMMAND_CREATES = 200


def _store_commands(rest: Rest, guild_id: int | None, body: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for command in body:
        _check_command(command)
        try:
            checks.check_command(command)  # the localisations' locales and lengths
        except checks.InvalidForm as error:
            raise ApiError(400, error.code, error.message) from None
    existing = {(c["name"], c["type"]): c for c in rest.fake.commands.get(guild_id, [])}
    created = [c for c in body if (c["name"], c.get("type", 1)) not in existing]
    if rest.fake.command_creates.get(guild_id, 0) + len(created) > DAILY_COMMAND_CREATES:
        raise ApiError(400, 30034, "Max number of daily application command creates has been reached (200)")
    rest.fake.command_creates[guild_id] = rest.fake.command_creates.get(guild_id, 0) + len(created)
    rest.fake.command_syncs[guild_id] = rest.fake.command_syncs.get(guild_id, 0) + 1
    stored = []
    for command in body:
        kind = command.get("type", 1)
        before = existing.get((command["name"], kind))
        command = {
            **command,
            "id": before["id"] if before else str(rest.world.snowflake()),
            "application_id": str(rest.world.application_id),
            "version": str(rest.world.snowflake()),
            "type": kind,
            "description": command.get("description", ""),  # Discord answers "" for a context menu
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


def _require_content(rest: Rest, channel: Channel, body: dict[str, Any]) -> None:
    """What a message's parts need besides sending: files Attach Files, embeds Embed Links."""
    needed = []
    if body.get("\0files"):
        needed.append(perms.ATTACH_FILES)
    if body.get("embeds"):
        needed.append(perms.EMBED_LINKS)
    if needed:
        rest.require(channel, channel.guild_id, *needed)


def _reopen_for_message(rest: Rest, thread: Channel) -> None:
    """A message to an archived thread unarchives it, unless it is locked (then only Manage Threads)."""
    if not thread.archived:
        return
    if thread.locked and not rest.bot_permissions(thread, thread.guild_id) & perms.MANAGE_THREADS:
        raise ApiError(400, 50083, "Thread is archived")
    thread.archived = False
    rest.fake.dispatch("THREAD_UPDATE", channel_json(thread, rest.world))


@route("POST", "/channels/{channel_id}/messages")
async def create_message(rest: Rest, request: Request) -> Any:
    channel = rest.channel(request.param("channel_id"))
    body = request.body or {}
    rest.validate(body, new=True)
    if channel.type == ChannelType.DM:
        recipient = rest.world.users[channel.recipient_id or 0]
        if not recipient.dms_open:
            raise ApiError(403, 50007, "Cannot send messages to this user")
    else:
        thread = channel.type in ChannelType.THREADS
        send = perms.SEND_MESSAGES_IN_THREADS if thread else perms.SEND_MESSAGES
        rest.require(channel, channel.guild_id, perms.VIEW_CHANNEL, send)
        _require_content(rest, channel, body)
        if thread:
            _reopen_for_message(rest, channel)
    nonce = body.get("nonce")
    key = (channel.id, rest.caller_id, str(nonce))
    if nonce is not None and body.get("enforce_nonce"):
        # Discord: a message of the same author with the same nonce in the last few minutes is
        # answered again instead of a new one (how a client repeats a send whose answer it lost).
        known = rest.world.nonces.get(key)
        if known is not None and time.monotonic() - known[1] < NONCE_SECONDS:
            same = rest.world.find_message(known[0])
            if same is not None and not same.deleted:
                return message_json(same)
    message = rest.message_from(channel, body)
    if nonce is not None:
        rest.world.nonces[key] = (message.id, time.monotonic())
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
    channel, message = _own_message(rest, request)
    rest.require(channel, channel.guild_id, perms.VIEW_CHANNEL, perms.READ_MESSAGE_HISTORY)
    return message_json(message)


@route("PATCH", "/channels/{channel_id}/messages/{message_id}")
async def edit_message(rest: Rest, request: Request) -> Any:
    channel, message = _own_message(rest, request)
    rest.require(channel, channel.guild_id, perms.VIEW_CHANNEL)
    if message.author.id != rest.world.bot_user.id:
        raise ApiError(403, 50005, "Cannot edit a message authored by another user")
    body = request.body or {}
    rest.validate(body, new=False, editing=message)
    if body.get("\0files"):
        rest.require(channel, channel.guild_id, perms.ATTACH_FILES)
    rest.apply_edit(message, body)
    data = message_json(message)
    rest.fake.dispatch("MESSAGE_UPDATE", data)
    return data


@route("DELETE", "/channels/{channel_id}/messages/{message_id}")
async def delete_message(rest: Rest, request: Request) -> Any:
    channel, message = _own_message(rest, request)
    rest.require(channel, channel.guild_id, perms.VIEW_CHANNEL)
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
    if time.monotonic() - record.created > INITIAL_RESPONSE_DEADLINE:
        raise ApiError(404, 10062, "Unknown interaction")  # Discord forgets an unanswered one after 3 s
    body = request.body or {}
    kind, data = int(body["type"]), body.get("data") or {}
    if "\0files" in body:  # files uploaded with the callback belong to the response message
        data = {**data, "\0files": body["\0files"]}
    clicked = _clicked(rest, record.message_id) if kind in (6, 7) else None  # (refused: not acknowledged)
    if kind == 9:
        rest.validate_modal(data)
    elif kind in (4, 5, 7):
        rest.validate(data, new=kind == 4, editing=clicked)
    record.acknowledge(body)
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
        message = clicked
        assert message is not None
        rest.apply_edit(message, data)
        if not message.ephemeral:
            rest.fake.dispatch("MESSAGE_UPDATE", message_json(message))
    elif kind == 6:  # DEFERRED_UPDATE_MESSAGE: the edit, if any, comes through @original
        message = clicked
    elif kind == 9:  # MODAL
        record.modal = data
    elif kind not in (1, 8):
        raise ApiError(400, 50035, f"Invalid interaction callback type {kind}")
    if message is not None:
        # After an update (6, 7) the interaction's original response is the clicked message itself:
        # PATCH @original edits it, with its own flags and limits (a Components V2 message stays one).
        record.original = message
        if kind in (4, 5) and not message.ephemeral:
            rest.fake.dispatch("MESSAGE_CREATE", message_json(message))
    rest.fake.notify()
    if request.call.query.get("with_response") not in ("1", "true", "True"):
        return None  # 204 No Content: Discord sends the callback's outcome only when asked for it
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


def _clicked(rest: Rest, message_id: int | None) -> Message:
    """The message whose component was clicked, for an answer that updates it (6, 7): a click from a
    slash command has none, and one deleted since the click cannot be updated."""
    if not message_id:
        raise ApiError(400, 50035, "Invalid Form Body (no message to update)")
    message = rest.world.find_message(message_id)
    if message is None or message.deleted:
        raise ApiError(404, 10008, "Unknown Message")
    return message


def _webhook_record(rest: Rest, request: Request) -> Any:
    if request.param("webhook_id") != rest.world.application_id:
        raise ApiError(404, 10015, "Unknown Webhook")
    record = rest.fake.interactions_by_token.get(request.call.params["webhook_token"])
    if record is None:
        raise ApiError(404, 10015, "Unknown Webhook")
    if time.monotonic() - record.created > TOKEN_LIFETIME:
        raise ApiError(401, 50027, "Invalid Webhook Token")  # an interaction's token lasts 15 minutes
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
    rest.validate(request.body or {}, new=True)
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
    rest.validate(request.body or {}, new=False, editing=message)
    rest.apply_edit(message, request.body or {})
    message.flags &= ~(1 << 7)  # editing a deferred response ends the "thinking…" state
    if not message.ephemeral:
        rest.fake.dispatch("MESSAGE_UPDATE", message_json(message))
    return message_json(message)


@route("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
async def delete_webhook_message(rest: Rest, request: Request) -> Any:
    _webhook_message(rest, request).deleted = True
    return None
