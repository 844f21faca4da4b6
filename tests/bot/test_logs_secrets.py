"""No secret in a log (issue 13): the token is redacted in tracebacks too, and a game's secrets (roles,
night targets, private texts) stay out at every level unless the operator turns on the "secrets" switch."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from fakediscord import Club, FakeDiscord
from game_driver import TableDriver

from mafiabot.bot import MafiaBot
from mafiabot.config import ConfigError, load_settings
from mafiabot.logs import HIDDEN, hidden, log_handler, secrets_shown, show_secrets

TOKEN = "MTIz.sekrit-token.abc"


@pytest.fixture
def switch() -> Iterator[None]:
    yield
    show_secrets(False)


def _log_once(fmt: str, emit: object) -> str:
    stream = io.StringIO()
    handler = log_handler(logging.StreamHandler(stream), fmt, [TOKEN])
    logger = logging.getLogger("mafiabot.test_logs")
    logger.addHandler(handler)
    logger.propagate = False
    logger.setLevel(logging.DEBUG)
    try:
        emit(logger)  # type: ignore[operator]
    finally:
        logger.removeHandler(handler)
        logger.propagate = True
        logger.setLevel(logging.NOTSET)
    return stream.getvalue()


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_the_token_is_redacted_in_exception_text_and_traceback(fmt: str) -> None:
    def emit(logger: logging.Logger) -> None:
        try:
            raise RuntimeError(f"login refused for {TOKEN}")
        except RuntimeError:
            logger.exception("Connecting failed")
        logger.warning("stack", stack_info=True, extra={"note": TOKEN})
        logger.error("chained", exc_info=ValueError(TOKEN))

    out = _log_once(fmt, emit)
    assert TOKEN not in out
    assert out.count("[redacted]") >= 2
    assert "RuntimeError: login refused for [redacted]" in (
        out if fmt == "text" else json.loads(out.splitlines()[0])["exception"]
    )


def test_hidden_values_appear_only_with_the_switch(switch: None) -> None:
    out = _log_once("text", lambda log: log.info("Command refused: %s", hidden("Вы шериф")))
    assert f"Command refused: {HIDDEN}" in out and "шериф" not in out
    show_secrets(True)
    assert "Command refused: Вы шериф" in _log_once(
        "text", lambda log: log.info("Command refused: %s", hidden("Вы шериф"))
    )


def test_discord_payload_lines_are_blanked_numbers_kept(switch: None) -> None:
    stream = io.StringIO()
    handler = log_handler(logging.StreamHandler(stream), "text", [TOKEN])
    gateway = logging.getLogger("discord.gateway")
    gateway.addHandler(handler)
    old = gateway.level
    gateway.setLevel(logging.DEBUG)
    try:
        dm = {"t": "MESSAGE_CREATE", "d": {"content": "Ваша роль: Шериф."}}
        gateway.debug("For Shard ID %s: WebSocket Event: %s", 0, dm)
        show_secrets(True)
        gateway.debug("For Shard ID %s: WebSocket Event: %s", 0, dm)
    finally:
        gateway.removeHandler(handler)
        gateway.setLevel(old)
    hidden_line, shown_line = stream.getvalue().splitlines()
    assert hidden_line.endswith(f"For Shard ID 0: WebSocket Event: {HIDDEN}")
    assert "Шериф" in shown_line


def test_the_switch_is_named_and_checked(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[bot]\ndebug = ["secrets"]\n')
    assert load_settings(config, environ={}).debug == ("secrets",)
    assert load_settings(config, environ={"MAFIABOT_DEBUG": ""}).debug == ()
    assert load_settings(tmp_path / "none.toml", environ={"MAFIABOT_DEBUG": "secrets"}).debug == ("secrets",)
    config.write_text('[bot]\ndebug = ["roles"]\n')
    with pytest.raises(ConfigError, match="unknown switch roles; known: secrets"):
        load_settings(config, environ={})
    config.write_text('[bot]\ndebug = "secrets"\n')
    with pytest.raises(ConfigError, match="list of switch names"):
        load_settings(config, environ={})
    assert not secrets_shown()


async def test_a_whole_deal_at_debug_level_logs_no_role(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    """Everything the bot and discord.py log at DEBUG while a city game is dealt and played to the first
    morning: the role cards (DMs, which the gateway echoes back) and the night's clicks stay out."""
    stream = io.StringIO()
    handler = log_handler(logging.StreamHandler(stream), "text", [TOKEN])
    root = logging.getLogger()
    old = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        d = TableDriver(fake, club, bot, club.players[:7])
        await d.start("city")
        cards = [m.text for p in d.players for m in fake.dms(p)]
        assert any("Ваша роль" in c for c in cards)
        await d.settled()
    finally:
        root.removeHandler(handler)
        root.setLevel(old)
    out = stream.getvalue()
    assert "WebSocket Event" in out, "the gateway's debug lines were written (and blanked)"
    assert "Ваша роль" not in out
    for seat in range(1, 8):
        role = d.state.ruleset.roles[d.state.role_of(seat)]
        assert role.description not in out, role.id
