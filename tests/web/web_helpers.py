"""Names shared by the web tests (imported by name: web_helpers)."""

from __future__ import annotations

from dataclasses import dataclass

import aiohttp
from club_seed import Seeded

from mafiabot.storage import Storage
from mafiabot.web.server import WebServer

SECRET = b"test secret of the web links"
NOW = 1_800_000_000.0


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


@dataclass
class Site:
    server: WebServer
    storage: Storage
    seeded: Seeded
    clock: Clock
    http: aiohttp.ClientSession

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self.server.port}"

    def url(self, link: str) -> str:
        """A link the server made (its base URL is the test's address) or a path."""
        return link if link.startswith("http") else self.root + link

    async def get(self, link: str) -> tuple[int, str]:
        async with self.http.get(self.url(link), allow_redirects=True) as response:
            return response.status, await response.text()
