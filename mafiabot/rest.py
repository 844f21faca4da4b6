"""A lean HTTP/1.1 keep-alive client for discord.py's REST requests (issue 18 item 1).

A REST request through aiohttp costs the bot ≈ 200 µs of CPU, ≈ 70 % of it aiohttp's own path (the
`ClientRequest` and `ClientResponse` built, the per-request timeout's timer, on Python 3.11 a task to write
the body, the payload registry, the middlewares, the response's `StreamReader`: benchmarks/request_cpu.py).
`LeanSession` wraps the aiohttp session discord.py's `HTTPClient` holds (`http._HTTPClient__session`, which
the webhook adapter and every interaction also use) and sends the requests it fits itself — a str, bytes or
no body, to the REST API's host, no proxy, no trace — over its own keep-alive
connections (an asyncio protocol, httptools' parser, the llhttp of aiohttp's own C parser); everything else
(the gateway's and voice's websockets, multipart uploads, FormData, the CDN, a proxy) goes to the aiohttp
session as before, as does any attribute the wrapper does not have.

It behaves as aiohttp 3.14 does where discord.py and the bot look:
- the same bytes sent: the request line, the headers in aiohttp's order and with its defaults (Host, the
  caller's, Accept, Accept-Encoding, User-Agent, Content-Length, Content-Type), the same body;
- the answer: `status`, `reason`, case-insensitive `headers`, `read()`, `text()`, `json()`, `release()`;
  gzip and deflate bodies decoded (aiohttp asks for them);
- the same errors: `ClientConnectorError` (and its DNS and TLS kinds) when no connection could be made,
  `ServerDisconnectedError` when the connection closed before the answer's head, `ClientPayloadError`
  when it closed within the body, `ClientOSError` for a socket's error, `TimeoutError` past the session's
  total timeout, `ConnectionTimeoutError` past its connect timeout;
- a request that failed with `ClientOSError` or `ServerDisconnectedError` is sent once more on another
  connection only when its method is idempotent (GET, HEAD, OPTIONS, TRACE, PUT, DELETE), as aiohttp does
  (RFC 9112 §9.3.1): a POST or PATCH (a message, a member's mute, an interaction's answer) is never sent
  twice by this layer;
- the session's middlewares (the quota, `quota.Quota.keep`) are not aiohttp's here: the quota is given to
  the wrapper, which takes a place before a counted request leaves and gives it back at its answer's head;
  a 429 marked global pauses it, as the middleware does;
- at most `per_host` connections to a host (`quota.CONNECTIONS`), a request past them waiting in order for
  the next one free; an idle connection is closed after 15 s (aiohttp's keep-alive), one the server closed
  is dropped, and an answer with `Connection: close` (or HTTP/1.0 without keep-alive) closes its own;
- `close()` closes every connection, waits for their sockets to be closed, then closes the aiohttp session;
  a connection that finishes opening after it is closed at once and its request fails with
  `ClientConnectionError`, as when aiohttp's connector closed under a request.
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import re
import socket
import ssl
import sys
import zlib
from collections.abc import Callable
from typing import Any

import aiohappyeyeballs
import aiohttp
import httptools
import yarl
from aiohttp.client_reqrep import ConnectionKey
from multidict import CIMultiDict, CIMultiDictProxy

KEEPALIVE = 15.0  # seconds an idle connection is kept (aiohttp's default)
HAPPY_EYEBALLS = 0.25  # seconds before the host's next address is tried beside the last (aiohttp's default)
CLOSE_WAIT = 2.0  # seconds a session's close waits for its sockets to close (each takes one turn of the loop)
SWEEP_EVERY = 1.0  # seconds between two checks of the deadlines and the idle connections
IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"})
_NO_LENGTH = frozenset({"GET", "HEAD", "OPTIONS", "TRACE", "CONNECT"})  # no Content-Length: 0 when empty
_DEFAULT_TYPE = frozenset({"POST", "PUT", "PATCH"})  # (aiohttp: application/octet-stream when not given)
_USER_AGENT = (
    f"User-Agent: Python/{sys.version_info[0]}.{sys.version_info[1]} aiohttp/{aiohttp.__version__}\r\n"
)
_NONE_KWARGS = frozenset({"proxy", "proxy_auth"})  # (sent here only when None)
# A target yarl would send as it is: unreserved characters, "/", ":", "@" and a query of name=value pairs.
_PLAIN = re.compile(r"/[A-Za-z0-9\-._~/:@]*(?:\?[A-Za-z0-9\-._~=&]*)?")
_FORBIDDEN = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")  # (aiohttp's: no header injection)
log = logging.getLogger(__name__)
_NO_INFO: Any = None  # (aiohttp's request_info of an error: not kept here)

_ssl_context: ssl.SSLContext | None = None


def _tls() -> ssl.SSLContext:
    global _ssl_context
    if _ssl_context is None:
        _ssl_context = ssl.create_default_context()
    return _ssl_context


class LeanResponse:
    """An answer, read whole before it is handed out: what discord.py and its webhook adapter read of
    aiohttp's `ClientResponse`."""

    __slots__ = ("_body", "_url", "headers", "method", "reason", "status")

    def __init__(self, method: str, url: Any, status: int, reason: str, headers: Any, body: bytes) -> None:
        self.method = method
        self._url = url
        self.status = status
        self.reason = reason
        self.headers = headers
        self._body = body

    @property
    def url(self) -> yarl.URL:
        return self._url if isinstance(self._url, yarl.URL) else yarl.URL(self._url)

    async def read(self) -> bytes:
        return self._body

    async def text(self, encoding: str | None = None, errors: str = "strict") -> str:
        return self._body.decode(encoding or self._charset(), errors)

    async def json(
        self,
        *,
        encoding: str | None = None,
        loads: Callable[[str], Any] = json.loads,
        content_type: str | None = "application/json",
    ) -> Any:
        if content_type and content_type not in self.headers.get("Content-Type", "").lower():
            kind = self.headers.get("Content-Type", "")
            empty: CIMultiDictProxy[str] = CIMultiDictProxy(CIMultiDict())
            raise aiohttp.ContentTypeError(
                aiohttp.RequestInfo(self.url, self.method, empty, self.url),
                (),
                status=self.status,
                message=f"Attempt to decode JSON with unexpected mimetype: {kind}",
                headers=self.headers,
            )
        if not self._body.strip():
            return None
        return loads(self._body.decode(encoding or self._charset()))

    def _charset(self) -> str:
        kind = self.headers.get("Content-Type", "")
        for part in kind.split(";")[1:]:
            name, _, value = part.strip().partition("=")
            if name.lower() == "charset" and value:
                return str(value).strip('"')
        return "utf-8"

    def release(self) -> None:
        pass

    def close(self) -> None:
        pass

    @property
    def ok(self) -> bool:
        return self.status < 400

    async def __aenter__(self) -> LeanResponse:
        return self

    async def __aexit__(self, *exc: object) -> None:
        pass


class _Exchange:
    """One request's answer as it is parsed: httptools frames it (interim 1xx answers skipped), its head is
    read here from the bytes in one go."""

    __slots__ = (
        "body",
        "buffer",
        "done",
        "head_done",
        "headers",
        "keep_alive",
        "parser",
        "place",
        "quota",
        "status",
        "waiter",
    )

    def __init__(self, waiter: asyncio.Future[None], quota: Any, place: Any) -> None:
        self.waiter = waiter
        self.quota = quota
        self.place = place  # the quota's place, given back at the answer's head
        self.parser: Any = httptools.HttpResponseParser(self)
        self.status = 0
        self.buffer = b""  # the bytes received until the answer's head was complete
        self.headers: Any = None
        self.body: list[bytes] = []
        self.head_done = False
        self.done = False
        self.keep_alive = True

    # httptools' callbacks
    def on_headers_complete(self) -> None:
        self.status = self.parser.get_status_code()
        if self.status >= 200:
            self.head_done = True
            if self.place is not None:
                self.quota.answered(self.place)
                self.place = None

    def on_body(self, body: bytes) -> None:
        self.body.append(body)

    def on_message_complete(self) -> None:
        if self.status >= 200:  # (else an interim answer: the real one follows)
            self.done = True
            self.keep_alive = self.parser.should_keep_alive()

    def head(self) -> tuple[str, Any]:
        """The answer's reason phrase and headers, of the bytes received (past any interim answer)."""
        if self.headers is not None:
            return self.headers  # type: ignore[no-any-return]
        buffer, start = self.buffer, 0
        while True:
            end = buffer.index(b"\r\n\r\n", start)
            if buffer[start + 9 : start + 10] != b"1":  # (not an interim answer's head)
                break
            start = end + 4
        lines = buffer[start:end].decode("latin-1").split("\r\n")
        status = lines[0].split(" ", 2)
        pairs: list[Any] = []
        for line in lines[1:]:
            if line[:1] in (" ", "\t") and pairs:  # (an obsolete folded line: the value goes on)
                pairs[-1][1] += " " + line.strip(" \t")
                continue
            name, _, value = line.partition(":")
            pairs.append([name, value.strip(" \t")])
        self.buffer = b""
        self.headers = (status[2] if len(status) > 2 else ""), CIMultiDictProxy(CIMultiDict(pairs))
        return self.headers  # type: ignore[no-any-return]


class _Connection(asyncio.Protocol):
    """One keep-alive connection to a host: one request at a time."""

    def __init__(self, pool: _Host) -> None:
        self.pool = pool
        self.transport: asyncio.Transport | None = None
        self.exchange: _Exchange | None = None
        self.closed = False
        self.idle_since = 0.0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.pool.session.connected.add(self)

    def send(self, data: bytes, exchange: _Exchange) -> None:
        self.exchange = exchange
        assert self.transport is not None
        self.transport.write(data)

    def data_received(self, data: bytes) -> None:
        exchange = self.exchange
        if exchange is None or exchange.done:  # bytes nobody asked for: the connection is not sound
            self._abort()
            return
        if not exchange.head_done:
            exchange.buffer += data
        try:
            exchange.parser.feed_data(data)
        except httptools.HttpParserError as error:  # (an upgrade too: not asked for)
            if not exchange.done:  # (else what follows a whole answer is not sound: it closes)
                self._fail(aiohttp.ClientResponseError(_NO_INFO, (), message=f"Invalid answer: {error!r}"))
                return
            self._abort()
        if exchange.done and not exchange.waiter.done():
            exchange.waiter.set_result(None)

    def eof_received(self) -> bool:
        return False  # (the transport closes: connection_lost follows)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self.pool.lost(self)
        self.pool.session.gone(self)
        exchange = self.exchange
        if exchange is None or exchange.waiter.done():
            return
        if exchange.head_done and not exchange.done and not self._delimited():
            exchange.done = True  # a body read until the connection closed: complete
            exchange.keep_alive = False
            exchange.waiter.set_result(None)
            return
        error: Exception
        if exc is not None and not exchange.head_done:  # (as aiohttp's ResponseHandler)
            error = aiohttp.ClientOSError(*exc.args) if isinstance(exc, OSError) else exc
        elif exchange.head_done:
            error = aiohttp.ClientPayloadError("Response payload is not completed")
        else:
            error = aiohttp.ServerDisconnectedError()
        exchange.waiter.set_exception(error)

    def _delimited(self) -> bool:
        exchange = self.exchange
        assert exchange is not None
        _, headers = exchange.head()
        if "Content-Length" in headers or "chunked" in headers.get("Transfer-Encoding", "").lower():
            return True
        return exchange.status in (204, 304)

    def _fail(self, error: Exception) -> None:
        exchange = self.exchange
        if exchange is not None and not exchange.waiter.done():
            exchange.waiter.set_exception(error)
        self._abort()

    def _abort(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.abort()

    def close(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.close()


class _Host:
    """The connections to one host (scheme, host, port), at most `limit` of them."""

    def __init__(self, session: LeanSession, key: tuple[str, str, int]) -> None:
        self.session = session
        self.scheme, self.host, self.port = key
        self.idle: collections.deque[_Connection] = collections.deque()  # the last used on the right
        self.all: set[_Connection] = set()
        self.opening = 0
        self.waiting: collections.deque[asyncio.Future[_Connection | None]] = collections.deque()
        self.key = key
        default = 443 if self.scheme == "https" else 80
        self.host_line = (
            f"Host: {self.host}\r\n" if self.port == default else f"Host: {self.host}:{self.port}\r\n"
        )

    async def acquire(self) -> _Connection:
        while True:
            conn = await self._acquire()
            if not conn.closed:
                return conn
            self.release(conn, False)  # (closed by the server while it was handed over: nothing sent)

    async def _acquire(self) -> _Connection:
        if self.session._closed:  # (an idempotent request's second try after the close broke its first)
            raise aiohttp.ClientConnectionError("Session is closed")
        while self.idle:
            conn = self.idle.pop()  # the most recently used (the one least likely closed meanwhile)
            if not conn.closed:
                return conn
        if len(self.all) + self.opening >= self.session.limit:  # (wait in order for one free)
            turn: asyncio.Future[_Connection | None] = asyncio.get_running_loop().create_future()
            self.waiting.append(turn)
            try:
                handed = await turn
            except asyncio.CancelledError:
                if turn.done() and not turn.cancelled():
                    given = turn.result()
                    if given is not None:
                        self.release(given, True)
                    else:  # (its room reserved: the next one's)
                        self.opening -= 1
                        self._next()
                raise
            if handed is not None:
                return handed
        else:
            self.opening += 1
        return await self._open()

    async def _open(self) -> _Connection:
        """A new connection, its room already counted in `opening`."""
        loop = asyncio.get_running_loop()
        conn = _Connection(self)
        tls = _tls() if self.scheme == "https" else None
        try:
            timeout = self.session.connect_timeout
            try:
                async with asyncio.timeout(timeout):
                    # The host's addresses tried as aiohttp does (RFC 8305's happy eyeballs: the next one
                    # 0.25 s after the last began, not after it failed): a host whose IPv6 route swallows
                    # the SYN still reaches the API by IPv4, where trying the addresses one after the
                    # other (uvloop's create_connection) waited out the connect timeout on the first.
                    found = await self.session.addresses(self.host, self.port)
                    sock = await aiohappyeyeballs.start_connection(found, happy_eyeballs_delay=HAPPY_EYEBALLS)
                    try:
                        await loop.create_connection(
                            lambda: conn, sock=sock, ssl=tls, server_hostname=self.host if tls else None
                        )
                    except BaseException:
                        sock.close()
                        raise
            except TimeoutError as error:
                raise aiohttp.ConnectionTimeoutError(
                    f"Connection timeout to host {self.scheme}://{self.host}:{self.port}"
                ) from error
            except ssl.SSLCertVerificationError as error:
                raise aiohttp.ClientConnectorCertificateError(self._key(tls), error) from error
            except ssl.SSLError as error:
                raise aiohttp.ClientConnectorSSLError(self._key(tls), error) from error
            except socket.gaierror as error:
                raise aiohttp.ClientConnectorDNSError(self._key(tls), error) from error
            except OSError as error:
                raise aiohttp.ClientConnectorError(self._key(tls), error) from error
        except BaseException:
            self.opening -= 1
            self._next()
            raise
        self.opening -= 1
        if self.session._closed:  # (the session closed while this one was opening)
            conn.close()
            self._next()
            raise aiohttp.ClientConnectionError("Session is closed")
        self.all.add(conn)
        if conn.closed:  # (closed before it was handed out)
            self.all.discard(conn)
            self._next()
            raise aiohttp.ServerDisconnectedError()
        return conn

    def _key(self, tls: ssl.SSLContext | None) -> ConnectionKey:
        return ConnectionKey(self.host, self.port, tls is not None, tls or True, None, None, None)

    def release(self, conn: _Connection, reusable: bool) -> None:
        if not reusable or conn.closed:
            conn.close()
            self.all.discard(conn)
            self._next()
            return
        while self.waiting:
            turn = self.waiting.popleft()
            if not turn.done():
                turn.set_result(conn)
                return
        conn.idle_since = asyncio.get_running_loop().time()
        conn.exchange = None
        self.idle.append(conn)
        self.session._watch()

    def _next(self) -> None:
        """A connection's room came free: the first waiting request opens its own in it."""
        while self.waiting and len(self.all) + self.opening < self.session.limit:
            turn = self.waiting.popleft()
            if not turn.done():
                self.opening += 1
                turn.set_result(None)

    def lost(self, conn: _Connection) -> None:
        if conn in self.all and conn.exchange is None:  # idle (one in use: its request releases it)
            self.all.discard(conn)
            self._next()

    def sweep(self, now: float) -> None:
        while self.idle and (self.idle[0].closed or now - self.idle[0].idle_since >= KEEPALIVE):
            conn = self.idle.popleft()
            conn.close()
            if conn in self.all:
                self.all.discard(conn)
                self._next()

    def close(self) -> None:
        for conn in list(self.all):
            conn.close()
        self.all.clear()
        self.idle.clear()
        for turn in self.waiting:
            if not turn.done():
                turn.set_exception(aiohttp.ClientConnectionError("Session is closed"))
        self.waiting.clear()


class LeanSession:
    """discord.py's aiohttp session, with the REST API's plain requests sent through lean connections."""

    def __init__(
        self,
        session: aiohttp.ClientSession,
        *,
        api: str,
        quota: Any = None,
        counted: Callable[[str], bool] = lambda _: True,
        urgency: Callable[[], int] = lambda: 0,
        limit: int = 100,
    ) -> None:
        self._session = session
        self.quota = quota  # (mafiabot.quota.Quota: take(level), answered(place), refused_by(headers))
        self._counted = counted  # (does the quota count a request to this path and query?)
        self._urgency = urgency  # (the level a request takes its place at)
        self.limit = limit
        self._hosts: dict[tuple[str, str, int], _Host] = {}
        base = yarl.URL(api)
        self._api = self._host((base.scheme, base.host or "", base.port or 0))
        self._prefix = str(base.origin()) + "/"  # (a URL that starts so, of a plain path: taken as it is)
        self._cut = len(self._prefix) - 1
        timeout = session.timeout
        self.total_timeout = timeout.total
        self.connect_timeout = timeout.sock_connect or timeout.connect
        self._calls: dict[asyncio.Future[None], float] = {}  # answers awaited, with their deadlines
        self._sweeper: asyncio.TimerHandle | None = None
        self._closed = False
        self.connected: set[_Connection] = set()  # every connection made and not yet lost
        self._all_gone: asyncio.Future[None] | None = None  # (at close: when the last one is lost)
        self.lean = 0  # requests sent here (tests, benchmarks)
        self.passed = 0  # requests passed to the aiohttp session

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)

    async def addresses(self, host: str, port: int) -> list[Any]:
        """The host's addresses, in the resolver's order (a test puts its own in their place)."""
        return await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)

    @property
    def closed(self) -> bool:
        return self._session.closed

    def fits(self, method: str, url: Any, kwargs: dict[str, Any]) -> tuple[_Host, str] | None:
        """The host and the request's target (its path and query as aiohttp sends them), when the
        request is one sent here."""
        if self._closed or method == "HEAD" or self._session.trace_configs:
            return None
        for name, value in kwargs.items():
            if name == "data":
                if value is not None and (
                    not isinstance(value, str | bytes)
                    or not any(key.lower() == "content-type" for key in kwargs.get("headers") or ())
                ):
                    return None
            elif name != "headers" and name != "params" and (name not in _NONE_KWARGS or value is not None):
                return None
        params = kwargs.get("params")
        if params:  # (as aiohttp: the URL's query extended)
            try:
                url = (url if isinstance(url, yarl.URL) else yarl.URL(url)).extend_query(params)
            except (TypeError, ValueError):
                return None
        elif isinstance(url, str) and url.startswith(self._prefix):
            target = url[self._cut :]
            if _PLAIN.fullmatch(target):  # (as yarl would quote it: unchanged)
                return self._api, target
        parsed = url if isinstance(url, yarl.URL) else yarl.URL(url)
        key = (parsed.scheme, parsed.host or "", parsed.port or 0)
        if key != self._api.key or parsed.user is not None or parsed.password is not None:
            return None
        return self._api, parsed.raw_path_qs

    def request(self, method: str, url: Any, **kwargs: Any) -> Any:
        fit = self.fits(method, url, kwargs)
        if fit is None:
            self.passed += 1
            return self._session.request(method, url, **kwargs)
        host, target = fit
        counted = self.quota is not None and self._counted(target)
        return _Call(self, method, url, host, self._bytes(method, host, target, kwargs), counted)

    def _bytes(self, method: str, host: _Host, target: str, kwargs: dict[str, Any]) -> bytes:
        """The request as aiohttp 3.14 writes it: its line, Host, the caller's headers in their order,
        Accept, Accept-Encoding and User-Agent unless given, Content-Length, Content-Type unless given."""
        headers: dict[str, str] | None = kwargs.get("headers")
        data = kwargs.get("data")
        body = data.encode() if isinstance(data, str) else data
        head = f"{method} {target} HTTP/1.1\r\n{host.host_line}"
        given: tuple[str, ...] = ()
        if headers:
            if _FORBIDDEN.search("".join((*headers, *headers.values()))) is not None:
                raise ValueError(
                    "Forbidden control character detected in headers. Potential header injection attack."
                )
            head += "".join([f"{name}: {value}\r\n" for name, value in headers.items()])
            given = tuple(name.lower() for name in headers)
        if "accept" not in given:
            head += "Accept: */*\r\n"
        if "accept-encoding" not in given:
            head += "Accept-Encoding: gzip, deflate\r\n"
        if "user-agent" not in given:
            head += _USER_AGENT
        if body is not None:
            head += f"Content-Length: {len(body)}\r\n"
        elif method not in _NO_LENGTH:
            head += "Content-Length: 0\r\n"
        if "content-type" not in given and method in _DEFAULT_TYPE:
            head += "Content-Type: application/octet-stream\r\n"
        head += "\r\n"
        return head.encode() + body if body else head.encode()

    async def send(self, method: str, url: Any, host: _Host, request: bytes, counted: bool) -> LeanResponse:
        """The request sent and its answer read; once more on another connection after a broken one
        only when its method is idempotent (as aiohttp)."""
        self.lean += 1
        quota = self.quota if counted else None
        try:
            place = None if quota is None else await quota.take(self._urgency())
            return await self._exchange(method, url, host, request, place)
        except (aiohttp.ServerDisconnectedError, aiohttp.ClientOSError) as error:
            if method not in IDEMPOTENT or isinstance(error, aiohttp.ClientConnectorError):
                raise
        place = None if quota is None else await quota.take(self._urgency())  # (a retry is a request again)
        return await self._exchange(method, url, host, request, place)

    async def _exchange(self, method: str, url: Any, host: _Host, request: bytes, place: Any) -> LeanResponse:
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[None] = loop.create_future()
        if self.total_timeout:
            self._calls[waiter] = loop.time() + self.total_timeout
            if self._sweeper is None:
                self._watch()
        exchange = _Exchange(waiter, self.quota, place)
        conn: _Connection | None = None
        try:
            conn = await host.acquire()
            conn.send(request, exchange)
            await waiter
        except BaseException:
            if conn is not None:
                host.release(conn, False)
            raise
        finally:
            self._calls.pop(waiter, None)
            if exchange.place is not None:  # (no head came: given back now)
                exchange.quota.answered(exchange.place)
                exchange.place = None
            # The parser and the exchange refer to each other (its callbacks): the cycle is cut here, so
            # that a request leaves no garbage for the cyclic collector (tests/bot/test_bot_gc.py).
            exchange.parser = None
        host.release(conn, exchange.keep_alive)
        reason, headers = exchange.head()
        body = b"".join(exchange.body)
        if body and (encoding := headers.get("Content-Encoding")):
            body = _decoded(body, encoding)
        status = exchange.status
        if status == 429 and self.quota is not None:
            self.quota.refused_by(headers)
        return LeanResponse(method, url, status, reason, headers, body)

    def _host(self, key: tuple[str, str, int]) -> _Host:
        host = self._hosts.get(key)
        if host is None:
            host = self._hosts[key] = _Host(self, key)
        return host

    def _watch(self) -> None:
        if self._sweeper is None and not self._closed:
            loop = asyncio.get_running_loop()
            self._sweeper = loop.call_later(SWEEP_EVERY, self._sweep)

    def _sweep(self) -> None:
        self._sweeper = None
        loop = asyncio.get_running_loop()
        now = loop.time()
        for waiter, deadline in list(self._calls.items()):
            if now >= deadline and not waiter.done():
                waiter.set_exception(TimeoutError())
        busy = bool(self._calls)
        for host in self._hosts.values():
            host.sweep(now)
            busy = busy or bool(host.idle)
        if busy:
            self._watch()

    async def close(self) -> None:
        self._closed = True
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        for host in self._hosts.values():
            host.close()
        self._hosts.clear()
        for conn in list(self.connected):  # (those closed just before, and those still opening)
            conn.close()
        if self.connected:
            # Each socket is closed on the loop's next turn; waited for as aiohttp's connector does, so
            # that nothing of the session is open once its close returns (a bot's close, a test's check).
            self._all_gone = asyncio.get_running_loop().create_future()
            await asyncio.wait((self._all_gone,), timeout=CLOSE_WAIT)
        await self._session.close()

    def gone(self, conn: _Connection) -> None:
        self.connected.discard(conn)
        if not self.connected and self._all_gone is not None and not self._all_gone.done():
            self._all_gone.set_result(None)


class _Call:
    """`session.request(...)`'s result: awaited or used as `async with`, as aiohttp's."""

    __slots__ = ("counted", "host", "method", "request", "session", "url")

    def __init__(
        self, session: LeanSession, method: str, url: Any, host: _Host, request: bytes, counted: bool
    ) -> None:
        self.counted = counted
        self.session = session
        self.method = method
        self.url = url
        self.host = host
        self.request = request

    def __await__(self) -> Any:
        return self.session.send(self.method, self.url, self.host, self.request, self.counted).__await__()

    async def __aenter__(self) -> LeanResponse:
        return await self.session.send(self.method, self.url, self.host, self.request, self.counted)

    async def __aexit__(self, *exc: object) -> None:
        pass


def _decoded(body: bytes, encoding: str) -> bytes:
    kind = encoding.strip().lower()
    try:
        if kind == "gzip":
            return zlib.decompress(body, 16 + zlib.MAX_WBITS)
        if kind == "deflate":
            try:
                return zlib.decompress(body)
            except zlib.error:
                return zlib.decompress(body, -zlib.MAX_WBITS)
    except zlib.error as error:
        raise aiohttp.ClientPayloadError(f"Can not decode content-encoding: {kind}") from error
    return body
