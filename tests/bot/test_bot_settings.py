"""Settings, the command line and logs: no Discord needed."""

from __future__ import annotations

import io
import logging
import sys
import types
from pathlib import Path

import pytest

import mafiabot.__main__ as cli
from mafiabot.__main__ import main
from mafiabot.config import ConfigError, Secret, load_settings
from mafiabot.logs import ContextFilter, JsonFormatter, RedactFilter, TextFormatter, log_context

EXAMPLE = Path(__file__).resolve().parents[2] / "config.example.toml"


def test_example_config_loads_and_documents_every_section() -> None:
    settings = load_settings(EXAMPLE, environ={})
    assert settings.database_url == "sqlite:///mafiabot.db"
    assert settings.audio.engine == "gtts" and settings.game.default_preset == "classic"
    assert not settings.token
    text = EXAMPLE.read_text(encoding="utf-8")
    for section in ("[bot]", "[database]", "[audio]", "[game]"):
        assert section in text


def test_environment_overrides_the_file(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[bot]\ntoken = "from-file"\nguilds = [1]\n[database]\nurl = "sqlite:///a.db"\n')
    environ = {
        "MAFIABOT_TOKEN": "from-env",
        "MAFIABOT_GUILDS": "2, 3",
        "MAFIABOT_DATABASE_URL": "sqlite:///b.db",
    }
    settings = load_settings(config, environ)
    assert settings.token == Secret("from-env")
    assert settings.guild_ids == (2, 3)
    assert settings.database_url == "sqlite:///b.db"
    assert load_settings(config, {}).token.get() == "from-file"


def test_the_token_never_shows_in_a_repr() -> None:
    settings = load_settings(Path("missing.toml"), {"MAFIABOT_TOKEN": "sekrit-token"})
    assert "sekrit-token" not in repr(settings) and "sekrit-token" not in str(settings)


@pytest.mark.parametrize(
    "content",
    [
        '[audio]\nengine = "festival"\n',
        "[audio]\nvolume = 5\n",
        '[bot]\nguilds = ["x"]\n',
        "[game]\nspeed = 1\n",
    ],
)
def test_invalid_values_are_reported(tmp_path: Path, content: str) -> None:
    config = tmp_path / "config.toml"
    config.write_text(content)
    with pytest.raises(ConfigError):
        load_settings(config, {})


def test_run_without_token_explains_and_plays_the_demo(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    played: list[bool] = []
    monkeypatch.setattr(cli, "_demo", lambda: played.append(True) or 0)
    monkeypatch.delenv("MAFIABOT_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)

    assert main(["run"]) == 0
    assert played == [True]
    out = capsys.readouterr().out
    assert "discord.com/developers/applications" in out and "MAFIABOT_TOKEN" in out


def test_audio_subcommand_delegates(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[list[str]] = []
    cli = types.ModuleType("audio.cli")
    cli.main = lambda argv: calls.append(argv) or 3  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "audio.cli", cli)
    assert main(["audio", "prebuild", "--engine", "espeak"]) == 3
    assert calls == [["prebuild", "--engine", "espeak"]]


@pytest.mark.parametrize("formatter", [TextFormatter(), JsonFormatter()])
def test_logs_carry_ids_and_never_the_token(formatter: logging.Formatter) -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter)
    handler.addFilter(ContextFilter())
    handler.addFilter(RedactFilter(["sekrit-token"]))
    logger = logging.getLogger("mafiabot.test")
    logger.addHandler(handler)
    try:
        with log_context(guild_id=11, game_id=22):
            logger.warning("login with %s failed", "sekrit-token")
        logger.warning("outside")
    finally:
        logger.removeHandler(handler)
    first, second = stream.getvalue().splitlines()
    assert "11" in first and "22" in first and "[redacted]" in first and "sekrit-token" not in first
    assert "guild_id" not in second
