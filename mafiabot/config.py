"""Settings: `config.toml` (optional, git-ignored) overlaid by environment variables.

Every key is documented in `config.example.toml`, and every key there changes something. The file is
validated with pydantic (it comes with SQLModel); a mistake is a ConfigError naming the key
(``[game] speech_seconds: …``) or the environment variable that set it. The token is a secret: it is
only read from the environment (`MAFIABOT_TOKEN`) or from the local `config.toml`, and never appears in
a repr or a log; so are the helper bots' tokens (`[voice] helper_tokens`, `MAFIABOT_HELPER_TOKENS`).
"""

from __future__ import annotations

import importlib.util
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator

import engine
from mafiabot.logs import DEBUG_SWITCHES

DEFAULT_CONFIG_PATH = Path("config.toml")
AUDIO_ENGINES = ("gtts", "espeak", "none")
LOG_FORMATS = ("text", "json")
MAX_CHOICES = 25  # Discord lists at most 25 choices for `/mafia new ruleset`

# Which environment variable overrides which key of the file.
ENVIRONMENT = {
    "MAFIABOT_TOKEN": ("bot", "token"),
    "MAFIABOT_GUILDS": ("bot", "guilds"),
    "MAFIABOT_LOG_LEVEL": ("bot", "log_level"),
    "MAFIABOT_LOG_FORMAT": ("bot", "log_format"),
    "MAFIABOT_DEBUG": ("bot", "debug"),
    "MAFIABOT_DATABASE_URL": ("database", "url"),
    "MAFIABOT_AUDIO_CACHE": ("audio", "cache_dir"),
    "MAFIABOT_SHARD_COUNT": ("bot", "shard_count"),
    "MAFIABOT_SHARDS": ("bot", "shards"),
    "MAFIABOT_HELPER_TOKENS": ("voice", "helper_tokens"),
    "MAFIABOT_REQUESTS_PER_SECOND": ("bot", "requests_per_second"),
    "MAFIABOT_EVENT_LOOP": ("bot", "event_loop"),
    "MAFIABOT_GC_FREEZE": ("bot", "gc_freeze"),
    "MAFIABOT_GC_THAW_MINUTES": ("bot", "gc_thaw_minutes"),
    "MAFIABOT_LEAN_REST": ("bot", "lean_rest"),
    "MAFIABOT_WEB_SECRET": ("web", "secret"),
}


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


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Bot(_Section):
    token: str = ""
    guilds: tuple[int, ...] = ()
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "INFO"
    log_format: Literal["text", "json"] = "text"
    debug: tuple[str, ...] = ()  # mafiabot.logs.DEBUG_SWITCHES: "secrets" lets a game's secrets into the log
    cogs: tuple[str, ...] = ()
    # Discord sharding: how many shards the bot has in all, and which of them this process runs
    # (empty: all). Several processes share one PostgreSQL; each owns its shards' servers.
    shard_count: int = Field(default=1, ge=1, le=4096)
    shards: tuple[int, ...] = ()
    # Requests a second each token (the bot's, each helper's) sends at most (mafiabot/quota.py):
    # Discord allows 50 (more only to a bot whose limit Discord raised).
    requests_per_second: int = Field(default=50, ge=1, le=100_000)
    # The event loop of `mafiabot run`: uvloop where it is installed (Linux, macOS: a dependency there),
    # else asyncio's own; "uvloop" insists on it, "asyncio" keeps asyncio's (mafiabot/__main__.py).
    event_loop: Literal["auto", "asyncio", "uvloop"] = "auto"
    # The garbage collector's policy of `mafiabot run` (mafiabot/gcpolicy.py): what is alive once the bot
    # has started and restored its games is frozen, out of every later collection's walk.
    gc_freeze: bool = True
    # Every so many minutes the frozen objects go back to one full collection (what died frozen is freed),
    # then are frozen again; 0: never.
    gc_thaw_minutes: float = Field(default=10.0, ge=0, le=10_080)
    # The REST API's plain requests (a str or JSON body or none) through the bot's own lean HTTP/1.1
    # client (mafiabot/rest.py); false: every request through aiohttp, as discord.py sends them.
    lean_rest: bool = True

    @field_validator("event_loop")
    @classmethod
    def _uvloop_installed(cls, value: str) -> str:
        if value == "uvloop" and importlib.util.find_spec("uvloop") is None:
            raise ValueError(
                "uvloop is not installed (it comes with mafiabot on Linux and macOS; not on Windows): "
                'install it, or choose "auto" or "asyncio"'
            )
        return value

    @field_validator("shards", mode="before")
    @classmethod
    def _split_shards(cls, value: Any) -> Any:
        # MAFIABOT_SHARDS="0,1" (or spaces)
        return [part for part in value.replace(",", " ").split() if part] if isinstance(value, str) else value

    @field_validator("shards")
    @classmethod
    def _shards_exist(cls, value: tuple[int, ...], info: ValidationInfo) -> tuple[int, ...]:
        count = info.data.get("shard_count", 1)
        wrong = [shard for shard in value if not 0 <= shard < count]
        if wrong:
            raise ValueError(
                f"no shard {', '.join(map(str, wrong))}: "
                f"with shard_count = {count} they go from 0 to {count - 1}"
            )
        if len(set(value)) != len(value):
            raise ValueError("a shard is named twice")
        return value

    @field_validator("debug", mode="before")
    @classmethod
    def _switch_list(cls, value: Any) -> Any:
        if isinstance(value, str):  # MAFIABOT_DEBUG is split where it is read
            raise ValueError('must be a list of switch names, e.g. ["secrets"]')
        return value

    @field_validator("debug")
    @classmethod
    def _known_switches(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        unknown = [name for name in value if name not in DEBUG_SWITCHES]
        if unknown:
            raise ValueError(f"unknown switch {', '.join(unknown)}; known: {', '.join(DEBUG_SWITCHES)}")
        return value

    @field_validator("guilds", mode="before")
    @classmethod
    def _split(cls, value: Any) -> Any:
        # MAFIABOT_GUILDS="123,456" (or spaces)
        return [part for part in value.replace(",", " ").split() if part] if isinstance(value, str) else value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: Any) -> Any:
        return value.upper() if isinstance(value, str) else value


class _Database(_Section):
    url: str = "sqlite:///mafiabot.db"


class AudioSettings(_Section):
    engine: Literal["gtts", "offline", "rhvoice", "espeak", "none"] = "gtts"
    volume: float = Field(default=0.8, ge=0.0, le=2.0)
    cache_dir: Path | None = None  # None: the audio package's default (~/.cache/mafiabot/audio)

    @field_validator("cache_dir", mode="before")
    @classmethod
    def _expand(cls, value: Any) -> Any:
        return Path(str(value)).expanduser() if value else None


class GameSettings(_Section):
    """What new games start with. ``None``: the rulebook's own time."""

    default_preset: str = "classic"
    # The language of what the bot writes and the host says: "ru" or "en" (mafiabot/locales/).
    language: Literal["ru", "en"] = "ru"
    speech_seconds: int | None = Field(default=None, ge=10, le=600)
    night_action_seconds: int | None = Field(default=None, ge=5, le=300)
    # The server's own variants: TOML files that `extend` a bundled preset, offered by `/mafia new`
    # beside the bundled presets under their own id. Relative paths are read from the working directory.
    variants: tuple[Path, ...] = ()
    # Filled by the validation below: each variant's id and its file.
    variant_files: Mapping[str, str] = Field(default_factory=dict, exclude=True)

    def timers(self) -> dict[str, int]:
        """The preset timers these settings replace."""
        chosen = {"speech": self.speech_seconds, "night_step": self.night_action_seconds}
        return {key: value for key, value in chosen.items() if value is not None}


class _Voice(_Section):
    # Helper bots' tokens (mafiabot/game/helpers.py): secrets like the bot's own token.
    helper_tokens: tuple[str, ...] = ()

    @field_validator("helper_tokens", mode="before")
    @classmethod
    def _split(cls, value: Any) -> Any:
        # MAFIABOT_HELPER_TOKENS="token1,token2" (or spaces)
        return [part for part in value.replace(",", " ").split() if part] if isinstance(value, str) else value

    @field_validator("helper_tokens")
    @classmethod
    def _distinct(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        tokens = [token.strip() for token in value]
        if any(not token for token in tokens):
            raise ValueError("an empty token")
        if len(set(tokens)) != len(tokens):
            raise ValueError("the same token twice (each helper is its own bot, with its own token)")
        return tuple(tokens)


class WebSettings(_Section):
    """The club's web pages (mafiabot.web): served by the bot's own process when ``enabled``."""

    enabled: bool = False
    host: str = Field(default="127.0.0.1", min_length=1)
    port: int = Field(default=8080, ge=0, le=65535)  # 0: any free port (the tests)
    # What the links `/mafia web` hands out start with (the address players reach, e.g. behind a proxy).
    # Empty: http://host:port.
    base_url: str = ""
    link_hours: int = Field(default=24, ge=1, le=24 * 90)  # how long a private link works
    # Pages one client address may ask for per minute (429 beyond it); 0: no limit. Behind a reverse
    # proxy every client has the proxy's address unless ``forwarded_for`` says to read X-Forwarded-For.
    requests_per_minute: int = Field(default=120, ge=0, le=100_000)
    forwarded_for: bool = False  # only behind a proxy that sets X-Forwarded-For itself
    # The key that signs private links. Empty: one derived from the bot's token (a new token then ends
    # every link handed out before it).
    secret: Secret = Field(default_factory=lambda: Secret(""))

    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)

    @field_validator("secret", mode="before")
    @classmethod
    def _hide(cls, value: Any) -> Any:
        if isinstance(value, str):
            if value and len(value) < 16:
                raise ValueError("must be at least 16 characters (it signs the private links)")
            return Secret(value)
        return value

    @field_validator("base_url")
    @classmethod
    def _url(cls, value: str) -> str:
        value = value.strip().rstrip("/")
        if value and (not value.startswith(("http://", "https://")) or "?" in value or "#" in value):
            raise ValueError(
                'must be an http:// or https:// address without a query, e.g. "https://mafia.example.org"'
            )
        return value

    def public_url(self) -> str:
        """Where the pages are reached from outside: the configured base URL, else host and port."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return self.base_url or f"http://{host}:{self.port}"


class _File(_Section):
    bot: _Bot = Field(default_factory=_Bot)
    voice: _Voice = Field(default_factory=_Voice)
    database: _Database = Field(default_factory=_Database)
    audio: AudioSettings = Field(default_factory=AudioSettings)
    game: GameSettings = Field(default_factory=GameSettings)
    web: WebSettings = Field(default_factory=WebSettings)


@dataclass(frozen=True)
class Settings:
    token: Secret = field(default_factory=lambda: Secret(""))
    guild_ids: tuple[int, ...] = ()
    log_level: str = "INFO"
    log_format: str = "text"
    debug: tuple[str, ...] = ()  # mafiabot.logs.DEBUG_SWITCHES: "secrets" logs a game's secrets
    cogs: tuple[str, ...] = ()  # empty: every cog in mafiabot.bot.DEFAULT_COGS
    database_url: str = "sqlite:///mafiabot.db"
    audio: AudioSettings = field(default_factory=AudioSettings)
    game: GameSettings = field(default_factory=GameSettings)
    web: WebSettings = field(default_factory=WebSettings)
    shard_count: int = 1
    shard_ids: tuple[int, ...] = ()  # the shards this process runs; empty: all of them
    helper_tokens: tuple[Secret, ...] = ()  # [voice] helper_tokens: helper bots for mute bursts
    requests_per_second: int = 50  # [bot] requests_per_second: per token, Discord's global limit
    event_loop: str = "auto"  # [bot] event_loop: "auto", "asyncio" or "uvloop"
    gc_freeze: bool = True  # [bot] gc_freeze: the collector's policy (mafiabot/gcpolicy.py)
    gc_thaw_minutes: float = 10.0  # [bot] gc_thaw_minutes: a full collection of everything, then a freeze
    lean_rest: bool = True  # [bot] lean_rest: plain REST requests through mafiabot/rest.py, not aiohttp

    def secrets(self) -> list[str]:
        """Every token, for the log's redaction."""
        return [secret.get() for secret in (self.token, *self.helper_tokens) if secret]

    @property
    def sharded(self) -> bool:
        return self.shard_count > 1

    @property
    def own_shards(self) -> tuple[int, ...]:
        return self.shard_ids or tuple(range(self.shard_count))

    def owns(self, guild_id: int) -> bool:
        """Is this server on one of this process's shards? (Discord's rule for a server's shard.)"""
        return self.shard_count == 1 or shard_of(guild_id, self.shard_count) in self.own_shards


def shard_of(guild_id: int, shard_count: int) -> int:
    return (guild_id >> 22) % shard_count


def game_settings(**values: Any) -> GameSettings:
    """GameSettings with its variants read and its default preset checked (ConfigError otherwise)."""
    try:
        game = GameSettings(**values)
    except ValidationError as exc:
        raise ConfigError(_explain(exc, {}, prefix=("game",))) from None
    return _with_variants(game)


def _with_variants(game: GameSettings) -> GameSettings:
    files: dict[str, str] = {}
    for i, path in enumerate(game.variants):
        try:
            ruleset = engine.load_ruleset(str(path))
        except engine.RulesetError as exc:
            raise ConfigError(f"[game] variants[{i}]: {exc}") from None
        if ruleset.id in engine.available_presets() or ruleset.id in files:
            raise ConfigError(
                f"[game] variants[{i}]: the id {ruleset.id!r} is taken; give the variant its own"
            )
        files[ruleset.id] = str(path)
    known = [*engine.available_presets(), *files]
    if len(known) > MAX_CHOICES:
        room = MAX_CHOICES - len(engine.available_presets())
        raise ConfigError(f"[game] variants: at most {room} fit in the choices of `/mafia new`")
    if game.default_preset not in known:
        raise ConfigError(f"[game] default_preset: {game.default_preset!r} is none of {', '.join(known)}")
    return game.model_copy(update={"variant_files": files})


def _explain(
    exc: ValidationError, from_env: Mapping[tuple[str, str], str], prefix: tuple[str, ...] = ()
) -> str:
    """One line per mistake, each naming the key as the file spells it (or the environment variable)."""
    lines = []
    for error in exc.errors():
        loc = (*prefix, *(str(part) for part in error["loc"]))
        section, key = loc[0], ".".join(loc[1:])
        where = from_env.get((section, loc[1])) if len(loc) > 1 else None
        name = where or (f"[{section}] {key}" if key else f"[{section}]")
        message = "unknown key" if error["type"] == "extra_forbidden" else error["msg"]
        lines.append(f"{name}: {message}")
    return "; ".join(lines)


def load_settings(path: Path | None = None, environ: Mapping[str, str] | None = None) -> Settings:
    """Read `path` (default `config.toml`, skipped when missing), then apply `MAFIABOT_*` variables."""
    environ = os.environ if environ is None else environ
    path = path or Path(environ.get("MAFIABOT_CONFIG", DEFAULT_CONFIG_PATH))
    data: dict[str, Any] = {}
    if path.is_file():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: {exc}") from exc
    from_env: dict[tuple[str, str], str] = {}
    for variable, (section, key) in ENVIRONMENT.items():
        value = environ.get(variable)
        if value is not None and (value or variable in ("MAFIABOT_GUILDS", "MAFIABOT_DEBUG")):
            table = data.setdefault(section, {})
            if not isinstance(table, dict):
                raise ConfigError(f"[{section}]: must be a table")
            # MAFIABOT_DEBUG="secrets" (commas or spaces between several switches)
            table[key] = value.replace(",", " ").split() if variable == "MAFIABOT_DEBUG" else value
            from_env[(section, key)] = variable
    try:
        parsed = _File(**data)
    except ValidationError as exc:
        raise ConfigError(_explain(exc, from_env)) from None
    bot = parsed.bot
    if set(bot.shards or range(bot.shard_count)) != set(
        range(bot.shard_count)
    ) and parsed.database.url.startswith("sqlite"):
        raise ConfigError(
            "[bot] shards: a bot split over several processes needs one PostgreSQL database they share "
            "([database] url); SQLite is one process's file"
        )
    if bot.token.strip() and bot.token.strip() in parsed.voice.helper_tokens:
        where = from_env.get(("voice", "helper_tokens"), "[voice] helper_tokens")
        raise ConfigError(f"{where}: holds the bot's own token; a helper is another bot, with its own token")
    return Settings(
        token=Secret(bot.token.strip()),
        guild_ids=bot.guilds,
        log_level=bot.log_level,
        log_format=bot.log_format,
        debug=bot.debug,
        cogs=bot.cogs,
        database_url=parsed.database.url,
        audio=parsed.audio,
        game=_with_variants(parsed.game),
        shard_count=bot.shard_count,
        shard_ids=bot.shards,
        helper_tokens=tuple(Secret(token) for token in parsed.voice.helper_tokens),
        requests_per_second=bot.requests_per_second,
        event_loop=bot.event_loop,
        gc_freeze=bot.gc_freeze,
        gc_thaw_minutes=bot.gc_thaw_minutes,
        lean_rest=bot.lean_rest,
        web=parsed.web,
    )
