"""The REST API's plumbing, strict: only registered routes exist (`routes_app.py`, `routes_guild.py`);
anything else is a 404 that fails the test.

Each handler reads and changes the world, dispatches the gateway events Discord would send, and
returns JSON. Permission checks answer 403 code 50013 like Discord; rate limits come from
`ratelimits.RateLimits` before the handler runs.
"""

from __future__ import annotations

import contextvars
import json
import re
import time
import traceback
import urllib.parse
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import checks, wire
from . import permissions as perms
from .faults import DROP
from .world import Channel, Message, iso_now

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


def missing_access() -> ApiError:
    # What Discord answers when the channel is not visible to the bot at all (no View Channel, a
    # private thread it is not in): the resource is hidden, not merely refused.
    return ApiError(403, 50001, "Missing Access")


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
    bot_id: int = 0  # the bot account whose token made it (0: none, an interaction's webhook)
    peer: tuple[str, int] | None = None  # the connection it came on (the client's address and port)


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
    # An interaction's callback is its own bucket, as its followups are (webhook id + token): Discord
    # answers each interaction once, and a bot's clicks never share one bucket of 50 a second.
    keys = ("channel_id", "guild_id", "webhook_id", "webhook_token", "interaction_id", "interaction_token")
    return "+".join(params[key] for key in keys if key in params)


def _hang_up(request: web.Request) -> web.StreamResponse:
    """Close the connection with no answer (a fault: see faults.py). The response returned is never
    written: its transport is gone."""
    transport = request.transport
    if transport is not None:
        transport.close()
    return web.Response(status=204)


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    body = wire.dumps_bytes(data)
    return web.Response(body=body, status=status, headers={"Content-Type": JSON, **(headers or {})})


# The bot account whose request is being served (each request runs in its own task): permissions,
# `@me` and guild membership are that account's. Interaction callbacks and webhooks are the main bot's.
_caller: contextvars.ContextVar[int] = contextvars.ContextVar("fakediscord_caller", default=0)


class Rest:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.world = fake.world

    @property
    def caller_id(self) -> int:
        """The user id of the bot account making the request being served."""
        return _caller.get() or self.world.bot_user.id

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
            if request.transport is not None:
                call.peer = request.transport.get_extra_info("peername")
            return await self._serve(request, call, handler)
        self.fake.unknown_routes.append(f"{request.method} {path}")
        self.fake.notify()
        return json_response({"message": "404: Not Found", "code": 0}, status=404)

    async def _serve(self, request: web.Request, call: RestCall, handler: Handler) -> web.StreamResponse:
        for arrival in self.fake.arrivals:
            arrival(call)
        authorization = request.headers.get("Authorization")
        caller = self.fake.caller(authorization)
        if caller is None and not call.route.split(" ", 1)[1].startswith(("/interactions", "/webhooks")):
            call.status = 401
            revoked = self.fake.revoked.get((authorization or "").removeprefix("Bot "))
            call.bot_id = revoked.id if revoked is not None else 0
            self._record(call)
            return json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        call.bot_id = caller.id if caller is not None else 0
        _caller.set(call.bot_id)
        token = (authorization or "").removeprefix("Bot ") if caller is not None else ""
        if caller is self.world.bot_user:
            token = ""  # the main bot's buckets are the unnamed ones (tests read them that way)
        await self.fake.faults.wait_if_held(call.route)
        fault = self.fake.faults.take(call.route)
        if fault is not None and fault.status != DROP:
            status = fault.status
            call.status, call.response = status, {"message": f"{status}: Service Unavailable", "code": 0}
            self._record(call)
            return json_response(call.response, status=status)
        if fault is not None and not fault.served:
            call.status = DROP
            self._record(call)
            return _hang_up(request)
        decision = self.fake.rate_limits.check(call.route, _major(call.params), token)
        if not decision.allowed:
            call.status = 429
            self._record(call)
            payload = {
                "message": "You are being rate limited.",
                "retry_after": decision.retry_after,
                "global": decision.is_global,
            }
            return json_response(payload, status=429, headers=decision.headers)
        try:
            result = await handler(self, Request(call, call.json))
        except ApiError as error:
            call.status, call.response = error.status, {"message": error.message, "code": error.code}
            self._record(call)
            return json_response(call.response, status=error.status, headers=decision.headers)
        except Exception:
            # A bug in the stand-in (or a body it cannot read): fail the test, and answer 400 rather
            # than 500, which discord.py would retry with growing sleeps.
            self.fake.server_errors.append(f"{call.route}: {traceback.format_exc()}")
            call.status = 400
            self._record(call)
            return json_response(
                {"message": "fakediscord could not handle this request", "code": 0}, status=400
            )
        call.status, call.response = (204, None) if result is None else (200, result)
        self.fake.served((authorization or "").removeprefix("Bot "))
        await self.fake.faults.wait_if_answer_held(call.route)  # (carried out: its events are gone)
        if fault is not None:  # carried out; the answer is lost on the way
            call.status = DROP
            self._record(call)
            return _hang_up(request)
        self._record(call)
        if result is None:
            return web.Response(status=204, headers=decision.headers)
        return json_response(result, headers=decision.headers)

    def _record(self, call: RestCall) -> None:
        self.fake.rate_limits.answered(call.status)
        self.fake.calls.append(call)
        self.fake.notify()

    @staticmethod
    async def _body(request: web.Request) -> Any:
        if not request.can_read_body:
            return None
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            payload = form.get("payload_json")
            body = json.loads(str(payload)) if payload is not None else {}
            uploads = [
                (value.filename, value.file.read())
                for name, value in form.items()
                if name.startswith("files[") and isinstance(value, web.FileField)
            ]
            if uploads:
                body["\0files"] = uploads  # not JSON: the uploaded files, for message_from
            return body
        text = await request.text()
        return json.loads(text) if text else None

    # -- lookups with Discord's errors ------------------------------------------------------------

    def channel(self, channel_id: int) -> Channel:
        channel = self.world.channels.get(channel_id)
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    def bot_permissions(self, channel: Channel | None, guild_id: int | None) -> int:
        guild = self.world.guilds.get(guild_id) if guild_id else None
        if guild is None:
            return perms.ALL
        if self.caller_id not in guild.members:
            return 0
        return self.world.permissions(guild, self.caller_id, channel)

    def require(self, channel: Channel | None, guild_id: int | None, *needed: int) -> None:
        """403 like Discord: 50001 Missing Access when the bot cannot see the channel, else 50013."""
        guild = self.world.guilds.get(guild_id) if guild_id else None
        if guild is None:
            return
        if self.caller_id not in guild.members:
            raise missing_access()  # Discord hides a guild's insides from a bot that is not in it
        bits = self.world.permissions(guild, self.caller_id, channel)
        missing = [bit for bit in needed if bits & bit != bit]
        if missing:
            self.fake.forbidden.append((sum(missing), channel.id if channel else guild.id))
            if channel is not None and not bits & perms.VIEW_CHANNEL:
                raise missing_access()
            raise missing_permissions(*missing)

    def refuse(self, channel: Channel | None, guild_id: int, needed: int) -> None:
        """A refusal no single permission bit explains (the role hierarchy): 403 code 50013."""
        self.fake.forbidden.append((needed, channel.id if channel else guild_id))
        raise missing_permissions(needed)

    @staticmethod
    def validate(body: dict[str, Any], *, new: bool, editing: Message | None = None) -> None:
        """Discord's payload rules (`checks.py`): 400 before anything changes. An edit is checked with
        the edited message's flags (a Components V2 message stays one)."""
        try:
            checks.check_message(body, new=new, had_flags=editing.flags if editing is not None else 0)
        except checks.InvalidForm as error:
            raise ApiError(400, error.code, error.message) from None

    @staticmethod
    def validate_modal(data: dict[str, Any]) -> None:
        try:
            checks.check_modal(data)
        except checks.InvalidForm as error:
            raise ApiError(400, error.code, error.message) from None

    def message_from(self, channel: Channel, body: dict[str, Any], **extra: Any) -> Message:
        files = {name: data for name, data in body.get("\0files", [])}
        return self.world.add_message(
            channel,
            self.world.bot_user,
            content=body.get("content") or "",
            embeds=body.get("embeds") or [],
            components=body.get("components") or [],
            flags=int(body.get("flags") or 0),
            files=files,
            **extra,
        )

    @staticmethod
    def apply_edit(message: Message, body: dict[str, Any]) -> None:
        for key in ("content", "embeds", "components"):
            if key in body and body[key] is not None:
                setattr(message, key, body[key])
        if int(body.get("flags") or 0) & checks.IS_COMPONENTS_V2:  # set once, never taken away
            message.flags |= checks.IS_COMPONENTS_V2
        message.edited_timestamp = iso_now()
