"""A server's own settings, set by its moderators with `/mafia-admin`: kept in the guild's stored
defaults (``GuildSettings.ruleset_defaults``, one key each) beside the host role and the voice.

What a new game starts with is the bot's `[game]` settings with the server's timers over them; a game
resumed after a restart reads the server's settings as they are then (as it reads the bot's).
"""

from __future__ import annotations

import asyncio
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mafiabot.config import GameSettings
from mafiabot.i18n import LANGUAGES, remember_language

if TYPE_CHECKING:
    from mafiabot.storage import Storage

SPECTATORS = "mute_spectators"  # bool: spectators in the game's voice channel are muted (default yes)
TIMERS = "timers"  # {"speech_seconds": n, "night_action_seconds": m}: GameSettings fields
LANGUAGE = "language"  # the server's language for players ("ru" | "en"); unset: the bot's [game] language
LOBBY_MINUTES = "lobby_minutes"  # a lobby nobody starts is closed after this long
VARIANTS = "variants"  # {id: the TOML text}: the server's own rule variants (`/mafia-admin variant`)
# The variants are read by the engine from files: each server's are written here, from the database.
VARIANTS_DIR = Path(tempfile.gettempdir()) / "mafiabot-variants"

TIMER_FIELDS = ("speech_seconds", "night_action_seconds")
DEFAULT_LOBBY_MINUTES = 30


@dataclass(frozen=True)
class ServerSettings:
    mute_spectators: bool = True
    timers: tuple[tuple[str, int], ...] = ()  # GameSettings field -> seconds
    language: str | None = None  # None: the bot's `[game] language`
    lobby_minutes: int = DEFAULT_LOBBY_MINUTES
    host_role_id: int | None = None
    variants: tuple[tuple[str, str], ...] = ()  # the server's own variants: id -> file

    def game(self, base: GameSettings) -> GameSettings:
        """The bot's `[game]` settings with this server's timers, variants and language over them."""
        update: dict[str, Any] = dict(self.timers)
        if self.language:
            update["language"] = self.language
        if self.variants:
            update["variant_files"] = {**base.variant_files, **dict(self.variants)}
        return base.model_copy(update=update) if update else base


def variant_file(guild_id: int, variant_id: str, text: str) -> str:
    """The file the engine reads a server's variant from (written if it is not there as it should be)."""
    path = VARIANTS_DIR / str(guild_id) / f"{variant_id}.toml"
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return str(path)


def from_stored(values: dict[str, Any], host_role_id: int | None = None, guild_id: int = 0) -> ServerSettings:
    timers = values.get(TIMERS) or {}
    variants = values.get(VARIANTS) or {}
    return ServerSettings(
        variants=tuple((vid, variant_file(guild_id, vid, text)) for vid, text in sorted(variants.items())),
        mute_spectators=bool(values.get(SPECTATORS, True)),
        timers=tuple((k, int(v)) for k, v in sorted(timers.items()) if k in TIMER_FIELDS and v),
        language=language if (language := values.get(LANGUAGE)) in LANGUAGES else None,
        lobby_minutes=int(values.get(LOBBY_MINUTES, DEFAULT_LOBBY_MINUTES)),
        host_role_id=host_role_id,
    )


async def server_settings(storage: Storage | None, guild_id: int) -> ServerSettings:
    """The server's settings (the defaults without a database)."""
    if storage is None:
        return ServerSettings()
    row = await asyncio.to_thread(storage.guild_settings, guild_id)
    # (in a thread: the server's variants are written to their files)
    found = await asyncio.to_thread(from_stored, dict(row.ruleset_defaults or {}), row.host_role_id, guild_id)
    remember_language(guild_id, found.language)
    return found
