"""The host's voice: the bot's one Announcer (TTS engine + clip cache) and joining a game's voice channel.
Without voice the game goes on in text (and says why)."""

from __future__ import annotations

from typing import Any

import discord

from mafiabot.config import AudioSettings
from mafiabot.game.records import GameRecords
from mafiabot.game.speaker import E2EE_REQUIRED_TEXT, Speaker
from mafiabot.game.table import Table
from mafiabot.i18n import text


class HostVoice:
    def __init__(self, settings: AudioSettings, records: GameRecords) -> None:
        self.settings = settings
        self.records = records
        self.announcer: Any = None  # made on first use (tests may put their own in)
        self.connect_timeout = 15.0
        self._engines: dict[str, Any] = {}  # language -> the bot's voice in it, besides the first

    def _announcer(self) -> Any:
        if self.announcer is None:
            from audio.announcer import Announcer
            from audio.cache import ClipCache
            from audio.cli import default_cache_dir
            from audio.engines import make_engine

            cache = ClipCache(self.settings.cache_dir or default_cache_dir())
            self.announcer = Announcer(make_engine(self.settings.engine), cache)
        return self.announcer

    def _engine(self, language: str) -> Any:
        """The bot's voice for a language: the Russian one it starts with, the others made on first use
        (gTTS ``en``, RHVoice's or espeak-ng's English voice offline)."""
        shared = self._announcer()
        if language == shared.language:
            return shared.engine
        if language not in self._engines:
            from audio.engines import make_engine

            self._engines[language] = make_engine(self.settings.engine, language=language)
        return self._engines[language]

    def game_announcer(self, volume: float, language: str = "ru") -> Any:
        """A game's own announcer: the bot's clip cache, the server's volume, the game's language, and
        one voice for the whole game (a FallbackEngine's game engine; see audio/engines/fallback.py)."""
        from audio.announcer import Announcer
        from audio.engines import FallbackEngine

        shared = self._announcer()
        if not isinstance(shared, Announcer):  # a test's own announcer
            return shared
        engine = self._engine(language)
        if isinstance(engine, FallbackEngine):
            engine = engine.for_one_game()
        return Announcer(engine, shared.cache, language=language, volume=volume)

    async def join(self, table: Table) -> None:
        """The host speaks in the game's voice channel, when the server wants it."""
        enabled, volume = await self.records.voice_settings(table.guild.id, self.settings.volume)
        if not enabled:
            return
        channel = table.guild.get_channel(table.voice_channel_id)
        if not isinstance(channel, discord.VoiceChannel | discord.StageChannel):
            return
        speaker = Speaker(self.game_announcer(volume, table.session.language), game_id=table.game_id)
        if await speaker.connect(channel, timeout=self.connect_timeout):
            table.speaker = speaker
        else:
            await speaker.close()
            why = speaker.failure
            if why == E2EE_REQUIRED_TEXT:
                why = text(table.session.language, why)
            table.post(text(table.session.language, "table-voice-failed", why=why))
