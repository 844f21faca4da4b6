"""Structured logs: every record carries the guild and game it concerns.

Handlers bind the ids once with :func:`log_context`; a filter copies them onto every record logged
inside, including records from discord.py. Output is `key=value` text or one JSON object a line.
The token never reaches a handler: :class:`RedactFilter` blanks it wherever it appears.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any

CONTEXT_KEYS = ("guild_id", "game_id", "channel_id", "user_id", "command")

_context: contextvars.ContextVar[Mapping[str, Any]] = contextvars.ContextVar(
    "mafiabot_log_context", default=MappingProxyType({})
)


@contextlib.contextmanager
def log_context(**ids: Any) -> Iterator[None]:
    """Attach ids (guild_id=…, game_id=…) to every log record emitted in this block (and its tasks)."""
    merged = {**_context.get(), **{key: value for key, value in ids.items() if value is not None}}
    token = _context.set(merged)
    try:
        yield
    finally:
        _context.reset(token)


def bind(**ids: Any) -> None:
    """Attach ids for the rest of the current task (an interaction handler, a game loop)."""
    _context.set({**_context.get(), **{key: value for key, value in ids.items() if value is not None}})


class ContextFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        for key, value in _context.get().items():
            if not hasattr(record, key):
                setattr(record, key, value)
        return True


class RedactFilter(logging.Filter):
    """Replaces each secret in the final message and arguments by `[redacted]`."""

    def __init__(self, secrets: list[str]) -> None:
        super().__init__()
        self.secrets = [secret for secret in secrets if secret]

    def filter(self, record: logging.LogRecord) -> bool:
        if self.secrets:
            message = record.getMessage()
            if any(secret in message for secret in self.secrets):
                for secret in self.secrets:
                    message = message.replace(secret, "[redacted]")
                record.msg, record.args = message, None
        return True


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    return {key: getattr(record, key) for key in CONTEXT_KEYS if getattr(record, key, None) is not None}


class TextFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = f"{self.formatTime(record)} {record.levelname:<7} {record.name}: {record.getMessage()}"
        fields = _fields(record)
        if fields:
            line += " " + " ".join(f"{key}={value}" for key, value in fields.items())
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": self.formatTime(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            **_fields(record),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


def setup_logging(level: str = "INFO", fmt: str = "text", secrets: list[str] | None = None) -> None:
    """Configure the root logger once for the `run` command (tests keep pytest's own capture)."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    handler.addFilter(ContextFilter())
    handler.addFilter(RedactFilter(secrets or []))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    # discord.py's HTTP debug lines quote request bodies; they stay quiet unless asked for explicitly.
    logging.getLogger("discord.http").setLevel(max(logging.INFO, root.level))
