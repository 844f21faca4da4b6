"""Settings: `config.toml` (optional, git-ignored) overlaid by environment variables.

Every key is documented in `config.example.toml`. The token is a secret: it is only read from the
environment (`MAFIABOT_TOKEN`) or from the local `config.toml`, and never appears in a repr or a log.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_CONFIG_PATH = Path("config.toml")
AUDIO_ENGINES = ("gtts", "espeak", "none")
LOG_FORMATS = ("text", "json")


class ConfigError(ValueError):
    """The configuration file or an environment variable holds an invalid value."""


class Secret:
    """A string that does not show itself in reprs, f-strings or logs."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def get(self) -> str:
        return self._value

    def __bool__(self) -> bool:
        return bool(self._value)

    def __repr__(self) -> str:
        return "Secret('**********')" if self._value else "Secret('')"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)


@dataclass(frozen=True)
class AudioSettings:
    engine: str = "gtts"
    volume: float = 0.8
    cache_dir: Path | None = None  # None: the audio package's default (~/.cache/mafiabot/audio)


@dataclass(frozen=True)
class GameSettings:
    default_preset: str = "classic"
    lobby_timeout_seconds: int = 600
    speech_seconds: int = 60
    night_action_seconds: int = 30
    mute_eliminated: bool = True


@dataclass(frozen=True)
class Settings:
    token: Secret = field(default_factory=lambda: Secret(""))
    guild_ids: tuple[int, ...] = ()
    language: str = "ru"
    log_level: str = "INFO"
    log_format: str = "text"
    cogs: tuple[str, ...] = ()  # empty: every cog in mafiabot.bot.DEFAULT_COGS
    database_url: str = "sqlite:///mafiabot.db"
    audio: AudioSettings = field(default_factory=AudioSettings)
    game: GameSettings = field(default_factory=GameSettings)


def _table(data: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    value = data.get(name, {})
    if not isinstance(value, Mapping):
        raise ConfigError(f"[{name}] must be a table")
    return value


def _guild_ids(value: Any, source: str) -> tuple[int, ...]:
    if isinstance(value, str):
        value = [part for part in value.replace(",", " ").split() if part]
    if not isinstance(value, list | tuple):
        raise ConfigError(f"{source}: expected a list of guild ids")
    try:
        return tuple(int(item) for item in value)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{source}: guild ids must be integers") from exc


def _cache_dir(value: Any) -> Path | None:
    return Path(str(value)).expanduser() if value else None


def _checked(settings: Settings) -> Settings:
    if settings.audio.engine not in AUDIO_ENGINES:
        raise ConfigError(f"[audio] engine must be one of {', '.join(AUDIO_ENGINES)}")
    if not 0.0 <= settings.audio.volume <= 2.0:
        raise ConfigError("[audio] volume must be between 0.0 and 2.0")
    if settings.log_format not in LOG_FORMATS:
        raise ConfigError(f"[bot] log_format must be one of {', '.join(LOG_FORMATS)}")
    if settings.log_level.upper() not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        raise ConfigError("[bot] log_level must be DEBUG, INFO, WARNING, ERROR or CRITICAL")
    return settings


def load_settings(path: Path | None = None, environ: Mapping[str, str] | None = None) -> Settings:
    """Read `path` (default `config.toml`, skipped when missing), then apply `MAFIABOT_*` variables."""
    environ = os.environ if environ is None else environ
    path = path or Path(environ.get("MAFIABOT_CONFIG", DEFAULT_CONFIG_PATH))
    data: Mapping[str, Any] = {}
    if path.is_file():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: {exc}") from exc
    bot, database, audio, game = (_table(data, name) for name in ("bot", "database", "audio", "game"))

    token = environ.get("MAFIABOT_TOKEN") or str(bot.get("token", ""))
    guilds = environ.get("MAFIABOT_GUILDS")
    try:
        settings = Settings(
            token=Secret(token.strip()),
            guild_ids=_guild_ids(guilds, "MAFIABOT_GUILDS")
            if guilds is not None
            else _guild_ids(bot.get("guilds", []), "[bot] guilds"),
            language=environ.get("MAFIABOT_LANGUAGE") or str(bot.get("language", "ru")),
            log_level=(environ.get("MAFIABOT_LOG_LEVEL") or str(bot.get("log_level", "INFO"))).upper(),
            log_format=environ.get("MAFIABOT_LOG_FORMAT") or str(bot.get("log_format", "text")),
            cogs=tuple(str(name) for name in bot.get("cogs", [])),
            database_url=environ.get("MAFIABOT_DATABASE_URL")
            or str(database.get("url", Settings.database_url)),
            audio=AudioSettings(
                engine=str(audio.get("engine", AudioSettings.engine)),
                volume=float(audio.get("volume", AudioSettings.volume)),
                cache_dir=_cache_dir(environ.get("MAFIABOT_AUDIO_CACHE") or audio.get("cache_dir")),
            ),
            game=GameSettings(**{key: game[key] for key in game if key in GameSettings.__dataclass_fields__}),
        )
    except (TypeError, ValueError) as exc:
        if isinstance(exc, ConfigError):
            raise
        raise ConfigError(str(exc)) from exc
    unknown = set(game) - set(GameSettings.__dataclass_fields__)
    if unknown:
        raise ConfigError(f"[game] unknown keys: {', '.join(sorted(unknown))}")
    return _checked(settings)
