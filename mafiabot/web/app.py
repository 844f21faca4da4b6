"""The web server with its pages: what the web cog starts and the tests run."""

from __future__ import annotations

from typing import Any

from mafiabot.config import WebSettings
from mafiabot.web import live, pages, tournaments
from mafiabot.web.server import WebServer


def make_server(settings: WebSettings, **options: Any) -> WebServer:
    """A WebServer (``options``: its keyword arguments) serving every page."""
    server = WebServer(settings, **options)
    pages.add_routes(server.app)
    live.add_routes(server.app)
    tournaments.add_routes(server.app)
    return server
