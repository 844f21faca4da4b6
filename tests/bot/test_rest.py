"""The lean REST client (mafiabot/rest.py) against a raw HTTP/1.1 server on loopback: the answers it
parses, the bytes it sends, the errors it raises and its connections, each compared with what aiohttp's
own session does with the same server where aiohttp is the reference."""

from __future__ import annotations

import asyncio
import gzip
import os
import socket
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import pytest
from fakediscord.tls import trust_test_certificate

from mafiabot.quota import Quota, counted_path
from mafiabot.rest import LeanSession

Answer = Callable[[bytes, asyncio.StreamWriter], Awaitable[bool]]  # request → keep the connection?


class RawServer:
    """Reads each request (its head and a Content-Length body) and answers it with `answer`."""

    def __init__(self, answer: Answer, tls: ssl.SSLContext | None = None) -> None:
        self.answer = answer
        self.tls = tls
        self.requests: list[bytes] = []
        self.connections = 0
        self.open = 0
        self.most_open = 0
        self.server: asyncio.Server | None = None
        self.tasks: set[asyncio.Task[None]] = set()
        self.writers: set[asyncio.StreamWriter] = set()

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0, ssl=self.tls)
        port = self.server.sockets[0].getsockname()[1]
        return f"{'https' if self.tls else 'http'}://127.0.0.1:{port}"

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.tasks.add(asyncio.current_task())  # type: ignore[arg-type]
        self.writers.add(writer)
        self.connections += 1
        self.open += 1
        self.most_open = max(self.most_open, self.open)
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                length = 0
                for line in head.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":")[1])
                request = head + await reader.readexactly(length)
                self.requests.append(request)
                if not await self.answer(request, writer):
                    return
        finally:
            self.open -= 1
            writer.close()

    async def stop(self) -> None:
        assert self.server is not None
        self.server.close()
        for writer in self.writers:
            writer.close()
        for task in self.tasks:
            task.cancel()
        await asyncio.wait_for(asyncio.gather(*self.tasks, return_exceptions=True), 5)
        await self.server.wait_closed()


@asynccontextmanager
async def served(answer: Answer, tls: ssl.SSLContext | None = None) -> AsyncIterator[tuple[RawServer, str]]:
    server = RawServer(answer, tls)
    base = await server.start()
    try:
        yield server, base
    finally:
        await server.stop()


@asynccontextmanager
async def client(kind: str, base: str, **options: Any) -> AsyncIterator[Any]:
    """aiohttp's session as discord.py makes it ("aiohttp"), or it wrapped by the lean one ("lean")."""
    session = aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(limit=0), cookie_jar=aiohttp.DummyCookieJar()
    )
    used: Any = session if kind == "aiohttp" else LeanSession(session, api=base + "/api/v10", **options)
    try:
        yield used
    finally:
        await used.close()


def answer_with(*raw: bytes, keep: bool = True, pause: float = 0.0) -> Answer:
    """Each request answered with the same bytes, written in the pieces given (`pause` between)."""

    async def answer(_request: bytes, writer: asyncio.StreamWriter) -> bool:
        for i, piece in enumerate(raw):
            if i and pause:
                await asyncio.sleep(pause)
            writer.write(piece)
            await writer.drain()
        return keep

    return answer


async def fetch(session: Any, method: str, url: str, **kwargs: Any) -> tuple[int, str, dict[str, str], bytes]:
    async with session.request(method, url, **kwargs) as response:
        body = await response.read()
        return response.status, response.reason, dict(response.headers), body


KINDS = ("aiohttp", "lean")

JSON = b'{"id": "1", "content": "\xd0\x98\xd0\xb3\xd1\x80\xd0\xb0"}'
ANSWERS = {
    "content-length": [
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
        % (len(JSON), JSON)
    ],
    "chunked": [
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        + b"%x\r\n%s\r\n" % (10, JSON[:10])
        + b"%x\r\n%s\r\n" % (len(JSON) - 10, JSON[10:])
        + b"0\r\n\r\n"
    ],
    "head split across reads": [
        b"HTTP/1.1 200 O",
        b"K\r\nContent-Type: appli",
        b"cation/json\r\nContent-Le",
        b"ngth: %d\r\n\r" % len(JSON),
        b"\n" + JSON[:5],
        JSON[5:],
    ],
    "204": [b"HTTP/1.1 204 No Content\r\nX-RateLimit-Remaining: 4\r\n\r\n"],
    "an interim 100 first": [
        b"HTTP/1.1 100 Continue\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
        % (len(JSON), JSON),
    ],
    "gzip": [
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n"
        b"Content-Length: %d\r\n\r\n%s" % (len(gzip.compress(JSON)), gzip.compress(JSON))
    ],
    "folded and spaced headers": [
        b"HTTP/1.1 404 Not Found\r\nx-ratelimit-bucket:   abc  \r\nContent-Type: application/json\r\n"
        b"Via: 1.1 google\r\nVia: 1.1 other\r\nContent-Length: 2\r\n\r\n{}"
    ],
}


@pytest.mark.parametrize("case", sorted(ANSWERS))
async def test_an_answer_reads_as_aiohttp_reads_it(case: str) -> None:
    results = {}
    for kind in KINDS:
        async with served(answer_with(*ANSWERS[case], pause=0.02)) as (server, base), client(kind, base) as s:
            first = await fetch(s, "GET", base + "/api/v10/channels/1")
            second = await fetch(
                s,
                "POST",
                base + "/api/v10/channels/1/messages",
                data="{}",
                headers={"Content-Type": "application/json"},
            )
            results[kind] = (first, second, server.connections)
    assert results["lean"][0][0] >= 200
    assert results["lean"] == results["aiohttp"]  # (one connection for both: kept alive)
    if case != "gzip":
        assert results["lean"][0][3] in (JSON, b"", b"{}")


async def test_an_answer_read_until_the_connection_closes() -> None:
    raw = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n" + JSON
    for kind in KINDS:
        async with served(answer_with(raw, keep=False)) as (server, base), client(kind, base) as s:
            assert await fetch(s, "GET", base + "/api/v10/users/@me") == (
                200,
                "OK",
                {"Content-Type": "application/json"},
                JSON,
            )
            # the connection is not kept: the next request opens another
            assert (await fetch(s, "GET", base + "/api/v10/users/@me"))[3] == JSON
            assert server.connections == 2


async def test_over_tls_as_discords_api_is() -> None:
    """https: the connection through the system's trusted certificates (the test's own is among them,
    as the voice tests' is), the same answers and the same bytes sent as aiohttp's."""
    raw = ANSWERS["chunked"][0]
    got = {}
    for kind in KINDS:
        async with (
            served(answer_with(raw), trust_test_certificate().server_context()) as (server, base),
            client(kind, base) as s,
        ):
            assert base.startswith("https://")
            first = await fetch(s, "GET", base + "/api/v10/channels/1")
            second = await fetch(
                s,
                "PATCH",
                base + "/api/v10/guilds/1/members/2",
                data='{"mute":true}',
                headers={"Content-Type": "application/json"},
            )
            where = base.removeprefix("https://").encode()
            got[kind] = (
                first,
                second,
                [r.replace(where, b"HOST") for r in server.requests],
                server.connections,
            )
            if kind == "lean":
                assert s.lean == 2
    assert got["lean"] == got["aiohttp"]
    assert got["lean"][0][3] == JSON


async def test_json_and_text_as_discordpy_reads_them() -> None:
    raw = ANSWERS["content-length"][0]
    async with (
        served(answer_with(raw)) as (_, base),
        client("lean", base) as s,
        s.request("GET", base + "/api/v10/channels/1") as response,
    ):
        assert response.headers["content-type"] == "application/json"  # (any case)
        assert await response.text(encoding="utf-8") == JSON.decode()
        assert (await response.json())["content"] == "Игра"
        response.release()


async def test_the_request_sent_is_aiohttps_byte_for_byte() -> None:
    """What discord.py's HTTPClient and its webhook adapter send: the same line, headers in the same
    order, the same body."""
    ok = b"HTTP/1.1 204 No Content\r\n\r\n"
    user_agent = "DiscordBot (https://github.com/Rapptz/discord.py 2.7.1) Python/3.11 aiohttp/3.14.5"
    requests = [
        (
            "POST",
            "/api/v10/channels/1/messages",
            '{"content":"Игрок 3 говорит."}',
            {"User-Agent": user_agent, "Authorization": "Bot abc", "Content-Type": "application/json"},
        ),
        (
            "PATCH",
            "/api/v10/guilds/1/members/2",
            '{"mute":true}',
            {
                "User-Agent": user_agent,
                "Authorization": "Bot abc",
                "Content-Type": "application/json",
                "X-Audit-Log-Reason": "Mafia%20night",
            },
        ),
        (
            "DELETE",
            "/api/v10/channels/1/messages/3",
            None,
            {"User-Agent": user_agent, "Authorization": "Bot abc"},
        ),
        ("GET", "/api/v10/users/@me", None, {"User-Agent": user_agent, "Authorization": "Bot abc"}),
        (
            "POST",
            "/api/v10/interactions/5/tok-en_1/callback",
            '{"type":7}',
            {"Content-Type": "application/json"},
        ),
        ("PUT", "/api/v10/channels/1/pins/3", None, {"User-Agent": user_agent}),
        ("POST", "/api/v10/channels/1/typing", None, {}),
        ("PUT", "/api/v10/channels/1/messages/3/reactions/%F0%9F%91%8D/@me", None, {}),
        ("GET", "/api/v10/guilds/1/members?limit=1000&after=0", None, {}),
        ("GET", "/api/v10/a b/é?x=y z", None, {}),
        ("PATCH", "/api/v10/guilds/1/members/2", b'{"deaf":false}', {"Content-Type": "application/json"}),
    ]
    sent = {}
    for kind in KINDS:
        async with served(answer_with(ok)) as (server, base), client(kind, base) as s:
            for method, path, data, headers in requests:
                await fetch(s, method, base + path, data=data, headers=headers, params=None, proxy=None)
            await fetch(
                s,
                "POST",
                base + "/api/v10/interactions/5/t/callback",
                data="{}",
                params={"with_response": "1"},
                headers={"Content-Type": "application/json"},
            )
            await fetch(s, "GET", base + "/api/v10/guilds/1/members?limit=5", params={"after": 7, "q": "a b"})
            where = base.removeprefix("http://").encode()
            sent[kind] = [r.replace(where, b"HOST") for r in server.requests]
    assert sent["lean"] == sent["aiohttp"]
    assert len(sent["lean"]) == len(requests) + 2


async def test_a_429_is_read_and_a_global_one_pauses_the_quota() -> None:
    body = b'{"message": "You are being rate limited.", "retry_after": 0.5, "global": true}'
    raw = (
        b"HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nRetry-After: 2\r\n"
        b"X-RateLimit-Global: true\r\nVia: 1.1 google\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)
    )
    quota = Quota(50, name="test")
    async with (
        served(answer_with(raw)) as (_, base),
        client("lean", base, quota=quota, counted=counted_path) as s,
    ):
        status, reason, headers, got = await fetch(
            s,
            "POST",
            base + "/api/v10/channels/1/messages",
            data="{}",
            headers={"Content-Type": "application/json"},
        )
        assert (status, reason, headers["Retry-After"], got) == (429, "Too Many Requests", "2", body)
    assert quota.refused == 1
    assert quota.room() == 0  # paused for the Retry-After
    assert quota.requests == 1 and quota.backlog() == 1  # its place given back at the head (in the second)


async def test_the_quota_holds_a_place_until_the_answers_head() -> None:
    quota = Quota(50, name="test")
    held = asyncio.Event()
    go = asyncio.Event()

    async def slow(_request: bytes, writer: asyncio.StreamWriter) -> bool:
        held.set()
        await go.wait()
        writer.write(b"HTTP/1.1 204 No Content\r\n\r\n")
        return True

    async with served(slow) as (_, base), client("lean", base, quota=quota, counted=counted_path) as s:
        call = asyncio.ensure_future(fetch(s, "DELETE", base + "/api/v10/channels/1/messages/2"))
        await held.wait()
        assert list(quota._flying) and not quota._answered  # sent, no answer yet: its place is held
        go.set()
        assert (await call)[0] == 204
        assert not quota._flying and len(quota._answered) == 1
        # an interaction's callback is not counted (as the middleware: Discord does not count it)
        await fetch(
            s,
            "POST",
            base + "/api/v10/interactions/1/t/callback",
            data="{}",
            headers={"Content-Type": "application/json"},
        )
        assert quota.requests == 1


def closing_after(good: int, raw: bytes) -> Answer:
    """The first `good` requests answered well; each later one answered with `raw`, then closed."""

    async def answer(_request: bytes, writer: asyncio.StreamWriter) -> bool:
        nonlocal good
        if good > 0:
            good -= 1
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: application/json\r\n\r\n{}")
            return True
        writer.write(raw)
        await writer.drain()
        return False

    return answer


@pytest.mark.parametrize(
    "raw",
    [
        b"",  # closed before any byte of an answer
        b"HTTP/1.1 200 OK\r\nContent-Le",  # within the head
        b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{}",  # within the body
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n",  # within a chunked body
    ],
    ids=["no byte", "mid-head", "mid-body", "mid-chunks"],
)
@pytest.mark.parametrize("method", ["POST", "PATCH", "PUT", "DELETE"])
async def test_a_connection_closed_mid_answer_fails_as_in_aiohttp_and_only_an_idempotent_request_goes_again(
    raw: bytes, method: str
) -> None:
    outcome = {}
    for kind in KINDS:
        async with served(closing_after(0, raw)) as (server, base), client(kind, base) as s:
            try:
                await fetch(
                    s,
                    method,
                    base + "/api/v10/guilds/1/members/2",
                    data='{"mute":true}',
                    headers={"Content-Type": "application/json"},
                )
            except aiohttp.ClientError as error:
                outcome[kind] = (type(error), len(server.requests))
            else:
                outcome[kind] = (None, len(server.requests))
    assert outcome["lean"] == outcome["aiohttp"]
    error, sent = outcome["lean"]
    assert error is not None
    if method in ("POST", "PATCH"):
        assert sent == 1  # never twice
    if raw in (b"", b"HTTP/1.1 200 OK\r\nContent-Le"):
        assert issubclass(error, aiohttp.ServerDisconnectedError)
    else:
        assert issubclass(error, aiohttp.ClientPayloadError)


async def test_a_reset_connection_is_the_oserror_aiohttp_raises() -> None:
    async def reset(_request: bytes, writer: asyncio.StreamWriter) -> bool:
        writer.transport.abort()  # (an RST, not a FIN)
        return False

    outcome = {}
    for kind in KINDS:
        async with served(reset) as (_, base), client(kind, base) as s:
            with pytest.raises(aiohttp.ClientError) as raised:
                await fetch(
                    s,
                    "PATCH",
                    base + "/api/v10/guilds/1/members/2",
                    data="{}",
                    headers={"Content-Type": "application/json"},
                )
            outcome[kind] = type(raised.value), isinstance(raised.value, OSError)
    assert outcome["lean"] == outcome["aiohttp"]


async def test_nothing_listening_is_a_connector_error() -> None:
    server = RawServer(answer_with(b""))
    base = await server.start()
    await server.stop()  # (the port is closed now)
    async with client("lean", base) as s:
        with pytest.raises(aiohttp.ClientConnectorError):
            await fetch(s, "GET", base + "/api/v10/users/@me")


async def test_an_idle_connection_the_server_closed_is_not_used_again() -> None:
    """Discord (Cloudflare) closes a keep-alive connection left idle: the next request, even a POST,
    goes on a new connection and succeeds."""

    async def once(_request: bytes, writer: asyncio.StreamWriter) -> bool:
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: application/json\r\n\r\n{}")
        await writer.drain()
        return False  # keep-alive promised, then closed while idle

    async with served(once) as (server, base), client("lean", base) as s:
        for _ in range(3):
            assert (await fetch(s, "GET", base + "/api/v10/users/@me"))[0] == 200
            await asyncio.sleep(0.05)  # (the close reaches the client while the connection is idle)
            status, *_ = await fetch(
                s,
                "POST",
                base + "/api/v10/channels/1/messages",
                data="{}",
                headers={"Content-Type": "application/json"},
            )
            assert status == 200
            await asyncio.sleep(0.05)
        assert server.connections == 6


async def test_a_connection_close_answer_closes_its_connection() -> None:
    raw = b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n\r\n{}"
    async with served(answer_with(raw, keep=True)) as (server, base), client("lean", base) as s:
        for _ in range(3):
            assert (await fetch(s, "GET", base + "/api/v10/users/@me"))[3] == b"{}"
        assert server.connections == 3


async def test_connections_are_capped_and_the_requests_past_them_wait_in_order() -> None:
    order = []

    async def slow(request: bytes, writer: asyncio.StreamWriter) -> bool:
        order.append(int(request.split(b" ")[1].rsplit(b"/", 1)[1]))
        await asyncio.sleep(0.02)
        writer.write(b"HTTP/1.1 204 No Content\r\n\r\n")
        return True

    async with served(slow) as (server, base), client("lean", base, limit=3) as s:
        results = await asyncio.gather(
            *(fetch(s, "DELETE", base + f"/api/v10/channels/1/messages/{i}") for i in range(12))
        )
        assert [r[0] for r in results] == [204] * 12
        assert server.most_open == 3 and server.connections == 3
        assert order[3:] == sorted(order[3:])  # (those that waited went in their order)


def _sockets() -> set[str]:
    found = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:"):
            found.add(target)
    return found


async def test_close_leaves_no_connection_open() -> None:
    ok = b"HTTP/1.1 204 No Content\r\n\r\n"
    async with served(answer_with(ok)) as (server, base):
        before = _sockets()
        async with client("lean", base) as s:
            await asyncio.gather(*(fetch(s, "GET", base + "/api/v10/users/@me") for _ in range(5)))
            assert server.open == 5
            assert len(_sockets() - before) == 10  # (both ends of each)
        # Its close returns once its own ends are closed, as aiohttp's does (not a turn of the loop later).
        assert len(_sockets() - before) == 5 and not s.connected
        await asyncio.sleep(0.05)
        assert server.open == 0
        assert s.closed


async def test_a_connection_that_opens_while_the_session_closes_is_closed_and_its_request_fails() -> None:
    """A helper bot closed (its token refused, the bot stopping) while one of its requests was still
    connecting: the connection made after the close is not kept (nothing would ever close it), and the
    request fails as aiohttp's does when its connector closed under it."""
    ok = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
    async with served(answer_with(ok)) as (server, base):
        session = aiohttp.ClientSession()
        lean = LeanSession(session, api=base + "/api/v10")
        resolving = asyncio.Event()
        resolved = asyncio.Event()
        port = int(base.rsplit(":", 1)[1])

        async def addresses(_host: str, _port: int) -> list[Any]:
            resolving.set()
            await resolved.wait()
            return [(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", ("127.0.0.1", port))]

        lean.addresses = addresses  # type: ignore[method-assign]
        request = asyncio.ensure_future(fetch(lean, "GET", base + "/api/v10/users/@me"))
        await resolving.wait()
        await lean.close()
        resolved.set()
        with pytest.raises(aiohttp.ClientConnectionError, match="closed"):
            await request
        await asyncio.sleep(0.05)
        assert server.connections == 1 and server.open == 0 and not server.requests
        assert not lean.connected


async def test_a_request_under_way_when_the_session_closes_fails_and_is_not_sent_again() -> None:
    """The bot stopping while a DELETE waits for its answer: the request fails as aiohttp's does, and its
    second try (an idempotent method's) opens no connection on the closed session."""

    async def never(_request: bytes, _writer: asyncio.StreamWriter) -> bool:
        await asyncio.sleep(30)
        return False

    outcome = {}
    for kind in KINDS:
        async with served(never) as (server, base):
            session = aiohttp.ClientSession()
            used: Any = session if kind == "aiohttp" else LeanSession(session, api=base + "/api/v10")
            request = asyncio.ensure_future(fetch(used, "DELETE", base + "/api/v10/channels/1/messages/2"))
            while not server.requests:
                await asyncio.sleep(0.01)
            await used.close()
            with pytest.raises(aiohttp.ClientConnectionError) as failed:
                await request
            await asyncio.sleep(0.05)
            outcome[kind] = (failed.type, server.connections, len(server.requests))
    assert outcome["lean"][0] is outcome["aiohttp"][0] is aiohttp.ClientConnectionError
    assert outcome["lean"][1:] == (1, 1)  # (aiohttp's second try connects, then drops it unused: (2, 1))


async def test_what_it_does_not_fit_goes_to_aiohttp() -> None:
    """Form data (uploads), another host: aiohttp's session as before."""
    ok = b"HTTP/1.1 204 No Content\r\n\r\n"
    async with served(answer_with(ok)) as (server, base), client("lean", base) as s:
        form = aiohttp.FormData()
        form.add_field("payload_json", "{}")
        form.add_field("files[0]", b"record", filename="game.json")
        await fetch(s, "POST", base + "/api/v10/channels/1/messages", data=form)
        await fetch(s, "POST", base + "/api/v10/webhooks/1/t", data=b"\x00", headers={})  # (no Content-Type)
        await fetch(s, "GET", base.replace("127.0.0.1", "localhost") + "/api/v10/users/@me")
        await fetch(s, "GET", base + "/api/v10/users/@me")
        assert s.lean == 1
        assert b"multipart/form-data" in server.requests[0]
        assert len(server.requests) == 4 and s.passed == 3


async def test_the_sessions_timeout_is_a_timeout_error() -> None:
    async def never(_request: bytes, _writer: asyncio.StreamWriter) -> bool:
        await asyncio.sleep(30)
        return False

    async with served(never) as (_, base):
        session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=0.5))
        lean = LeanSession(session, api=base + "/api/v10")
        try:
            with pytest.raises(asyncio.TimeoutError):
                await fetch(lean, "GET", base + "/api/v10/users/@me")
        finally:
            await lean.close()


async def test_a_host_whose_first_address_swallows_the_connect_is_reached_by_the_next() -> None:
    """Discord's API has IPv6 and IPv4 addresses; where the first one's route swallows the SYN, aiohttp
    tries the next 0.25 s later (happy eyeballs, RFC 8305) and the request goes through. The lean client
    does the same: here the first address is a listener whose backlog is full (the kernel drops the
    SYN), and without the next attempt the request fails at the connect timeout."""

    async def ok(_request: bytes, writer: asyncio.StreamWriter) -> bool:
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
        await writer.drain()
        return True

    async with served(ok) as (server, base):
        port = int(base.rsplit(":", 1)[1])
        swallowing = socket.socket()
        swallowing.bind(("127.0.0.2", port))
        swallowing.listen(0)
        filler = socket.create_connection(("127.0.0.2", port))  # (the backlog's one place, taken)
        session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30, sock_connect=10))
        lean = LeanSession(session, api=f"http://discord.test:{port}/api/v10")

        async def addresses(host: str, at: int) -> list[Any]:
            assert (host, at) == ("discord.test", port)
            tcp = (socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "")
            return [(*tcp, ("127.0.0.2", port)), (*tcp, ("127.0.0.1", port))]

        lean.addresses = addresses  # type: ignore[method-assign]
        try:
            status, _, _, body = await fetch(lean, "GET", f"http://discord.test:{port}/api/v10/users/@me")
        finally:
            await lean.close()
            filler.close()
            swallowing.close()
        assert (status, body) == (200, b"{}")
        assert lean.lean == 1 and len(server.requests) == 1
        assert server.requests[0].startswith(b"GET /api/v10/users/@me HTTP/1.1\r\nHost: discord.test:")
