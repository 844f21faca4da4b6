"""Structured logs: every record carries the guild and game it concerns.

Handlers bind the ids once with :func:`log_context`; a filter copies them onto every record logged
inside, including records from discord.py. Output is `key=value` text or one JSON object a line.
The token never reaches a handler: :class:`RedactFilter` blanks it wherever it appears, exception text and
tracebacks included.

A game's secrets (hidden roles, night targets, what a player is told in private) never reach a log either,
at any level, unless the operator turns on the debug switch named "secrets" (``[bot] debug =
["secrets"]`` or ``MAFIABOT_DEBUG=secrets``): our own lines wrap such values in :func:`hidden`, and
:class:`PayloadFilter` blanks the payloads that discord.py's debug lines quote (the gateway's events carry
every DM the bot sends and every click's custom id, the HTTP lines every message body).
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
SECRETS = "secrets"  # the debug switch that lets a game's secrets into the log
DEBUG_SWITCHES = (SECRETS,)
HIDDEN = "[hidden]"
# Loggers whose debug lines quote what Discord or the database carry: message bodies, DMs, clicks.
PAYLOAD_LOGGERS = ("discord", "sqlalchemy.engine")

_show_secrets = False


def show_secrets(on: bool) -> None:
    """Turn the "secrets" debug switch on or off (setup_logging does it from the settings)."""
    global _show_secrets
    _show_secrets = on


def secrets_shown() -> bool:
    return _show_secrets


class hidden:
    """A value that appears in a log line only while the "secrets" switch is on; `[hidden]` otherwise.

    Decided when the line is written, so a record never carries the text in its formatted message."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __str__(self) -> str:
        return str(self.value) if _show_secrets else HIDDEN

    __repr__ = __str__


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


class PayloadFilter(logging.Filter):
    """Blanks the text arguments of the payload loggers' debug lines (numbers stay: shard ids, sizes,
    statuses) unless the "secrets" switch is on. The format string says what the line was about."""

    def filter(self, record: logging.LogRecord) -> bool:
        if _show_secrets or record.levelno > logging.DEBUG or not record.args:
            return True
        if not any(record.name == n or record.name.startswith(n + ".") for n in PAYLOAD_LOGGERS):
            return True
        args = record.args if isinstance(record.args, tuple) else (record.args,)
        record.args = tuple(a if isinstance(a, int | float) else HIDDEN for a in args)
        return True


class RedactFilter(logging.Filter):
    """Replaces each secret in the final message, the exception's text and traceback, and the stack by
    `[redacted]` (the formatters then print the redacted traceback kept in ``exc_text``)."""

    def __init__(self, secrets: list[str]) -> None:
        super().__init__()
        self.secrets = [secret for secret in secrets if secret]

    def _redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, "[redacted]")
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        if self.secrets:
            message = record.getMessage()
            if any(secret in message for secret in self.secrets):
                record.msg, record.args = self._redact(message), None
            if record.exc_info and not record.exc_text:
                record.exc_text = _TRACEBACKS.formatException(record.exc_info)
            if record.exc_text:
                record.exc_text = self._redact(record.exc_text)
            if record.stack_info:
                record.stack_info = self._redact(record.stack_info)
        return True


_TRACEBACKS = logging.Formatter()


def _exception(record: logging.LogRecord, formatter: logging.Formatter) -> str:
    """The record's traceback, as a filter may already have written (and redacted) it."""
    if record.exc_info and not record.exc_text:
        record.exc_text = formatter.formatException(record.exc_info)
    text = record.exc_text or ""
    if record.stack_info:
        text = (text + "\n" if text else "") + record.stack_info
    return text


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    return {key: getattr(record, key) for key in CONTEXT_KEYS if getattr(record, key, None) is not None}


class TextFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = f"{self.formatTime(record)} {record.levelname:<7} {record.name}: {record.getMessage()}"
        fields = _fields(record)
        if fields:
            line += " " + " ".join(f"{key}={value}" for key, value in fields.items())
        trace = _exception(record, self)
        if trace:
            line += "\n" + trace
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
        trace = _exception(record, self)
        if trace:
            entry["exception"] = trace
        return json.dumps(entry, ensure_ascii=False, default=str)


def log_handler(
    handler: logging.Handler, fmt: str = "text", secrets: list[str] | None = None
) -> logging.Handler:
    """``handler`` with the bot's formatter and filters: context ids, payloads blanked, secrets redacted."""
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    handler.addFilter(ContextFilter())
    handler.addFilter(PayloadFilter())
    handler.addFilter(RedactFilter(secrets or []))
    return handler


def setup_logging(
    level: str = "INFO",
    fmt: str = "text",
    secrets: list[str] | None = None,
    debug: tuple[str, ...] = (),
) -> None:
    """Configure the root logger once for the `run` command (tests keep pytest's own capture).

    ``secrets`` are blanked everywhere (the token); ``debug`` holds the operator's debug switches."""
    show_secrets(SECRETS in debug)
    handler = log_handler(logging.StreamHandler(), fmt, secrets)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    # discord.py's HTTP debug lines quote request bodies; they stay quiet unless asked for explicitly.
    logging.getLogger("discord.http").setLevel(max(logging.INFO, root.level))
