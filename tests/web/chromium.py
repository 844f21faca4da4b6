"""Headless Chromium (Debian's `chromium`) driven over the DevTools protocol, with aiohttp's WebSocket
client: no WebDriver and no browser download. Only loopback addresses are opened; the flags below keep
the browser from calling home (updates, metrics, safe browsing)."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import re
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp

FLAGS = [
    "--headless=new",
    "--no-sandbox",  # root in CI
    "--disable-gpu",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-default-apps",
    "--disable-domain-reliability",
    "--disable-client-side-phishing-detection",
    "--metrics-recording-only",
    "--mute-audio",
    "--hide-scrollbars",
    "--remote-debugging-address=127.0.0.1",
    "--remote-debugging-port=0",
]
INSTALL = "Chromium is missing: `apt-get install chromium` (./scripts/test installs it when run as root)."


def executable() -> str:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    raise AssertionError(INSTALL)  # a failure, not a skip: CI must never pass without the browser


class Page:
    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._loaded = asyncio.Event()
        self.errors: list[str] = []  # exceptions thrown in the page, console errors
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.ws:
            data = json.loads(message.data)
            if "id" in data and data["id"] in self._waiting:
                self._waiting.pop(data["id"]).set_result(data)
            elif data.get("method") == "Page.loadEventFired":
                self._loaded.set()
            elif data.get("method") == "Runtime.exceptionThrown":
                self.errors.append(json.dumps(data["params"]["exceptionDetails"], ensure_ascii=False)[:500])
            elif data.get("method") == "Runtime.consoleAPICalled" and data["params"]["type"] == "error":
                self.errors.append(json.dumps(data["params"]["args"], ensure_ascii=False)[:500])

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        number = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[number] = future
        await self.ws.send_str(json.dumps({"id": number, "method": method, "params": params}))
        answer = await asyncio.wait_for(future, timeout=30)
        if "error" in answer:
            raise AssertionError(f"{method}: {answer['error']}")
        result: dict[str, Any] = answer.get("result", {})
        return result

    async def goto(self, url: str) -> None:
        self._loaded.clear()
        await self.send("Page.navigate", url=url)
        await asyncio.wait_for(self._loaded.wait(), timeout=30)

    async def evaluate(self, expression: str) -> Any:
        result = await self.send(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in result:
            raise AssertionError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def wait_for(self, expression: str, what: str, timeout: float = 20.0) -> None:
        async with asyncio.timeout(timeout):
            while not await self.evaluate(expression):
                await asyncio.sleep(0.05)
        assert what

    async def size(self, width: int, height: int, *, mobile: bool = False) -> None:
        await self.send(
            "Emulation.setDeviceMetricsOverride",
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=mobile,
        )

    async def screenshot(self, path: Path, *, transparent: bool = False, full: bool = False) -> bytes:
        if transparent:  # what OBS shows: the page's own transparency, not a white canvas
            await self.send(
                "Emulation.setDefaultBackgroundColorOverride", color={"r": 0, "g": 0, "b": 0, "a": 0}
            )
        shot = await self.send("Page.captureScreenshot", format="png", captureBeyondViewport=full)
        if transparent:
            await self.send("Emulation.setDefaultBackgroundColorOverride")
        data = base64.b64decode(shot["data"])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return data

    async def close(self) -> None:
        await self.ws.close()
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader


class Browser:
    def __init__(self, process: asyncio.subprocess.Process, port: int, http: aiohttp.ClientSession) -> None:
        self.process, self.port, self.http = process, port, http
        assert process.stderr is not None
        # The rest of its stderr is read and dropped, so that a full pipe never stalls the browser.
        self._drain = asyncio.create_task(_drain(process.stderr))

    @classmethod
    async def launch(cls, profile: Path) -> Browser:
        process = await asyncio.create_subprocess_exec(
            executable(),
            *FLAGS,
            f"--user-data-dir={profile}",
            "about:blank",
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        assert process.stderr is not None
        try:
            async with asyncio.timeout(60):
                while True:
                    line = (await process.stderr.readline()).decode("utf-8", "replace")
                    if not line:
                        raise AssertionError("Chromium exited before it listened")
                    found = re.search(r"DevTools listening on ws://127\.0\.0\.1:(\d+)/", line)
                    if found:
                        break
        except BaseException:
            process.kill()
            await process.wait()
            raise
        return cls(process, int(found.group(1)), aiohttp.ClientSession())

    async def page(self) -> Page:
        async with self.http.put(f"http://127.0.0.1:{self.port}/json/new?about:blank") as response:
            target = await response.json()
        ws = await self.http.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=64 * 1024 * 1024)
        page = Page(ws)
        await page.send("Page.enable")
        await page.send("Runtime.enable")
        return page

    async def close(self) -> None:
        await self.http.close()
        if self.process.returncode is None:
            self.process.terminate()
            try:
                await asyncio.wait_for(self.process.wait(), timeout=10)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
        await self._drain


@contextlib.asynccontextmanager
async def page_in_browser(profile: Path, width: int, height: int) -> AsyncIterator[Page]:
    """A page of a browser of its own, ``width`` by ``height``; afterwards the page had no script error."""
    browser = await Browser.launch(profile)
    try:
        opened = await browser.page()
        await opened.size(width, height)
        yield opened
        await opened.close()
        assert not opened.errors, opened.errors
    finally:
        await browser.close()


async def _drain(stream: asyncio.StreamReader) -> None:
    while await stream.read(65536):
        pass
