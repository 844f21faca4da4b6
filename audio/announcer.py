"""From a phrase id and its params to what the host says: the words, the text mirror and the cached clip."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from audio import phrases
from audio.cache import Clip, ClipCache
from audio.engines.base import Engine, EngineError
from audio.names import pronounceable

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Announcement:
    phrase_id: str
    text: str
    """Spoken form, numbers in words: «Слово игроку номер три.»"""
    mirror_text: str
    """Text-channel form, numbers as digits: «Слово игроку номер 3.»"""
    clip: Clip | None
    """None for private phrases, the text-only engine, or when no engine could render it."""

    @property
    def duration(self) -> float:
        return self.clip.playback_duration if self.clip else 0.0


class Announcer:
    """One game's host (or the bot's, for prebuilding): ``engine`` speaks ``language``; ``volume`` is the
    server's, applied once when a clip is cached (cache.py), never while it plays."""

    def __init__(
        self, engine: Engine, cache: ClipCache, *, language: str = "ru", volume: float = 1.0
    ) -> None:
        self.engine = engine
        self.cache = cache
        self.language = language
        self.volume = volume

    def prepare(
        self,
        phrase_id: str,
        params: Mapping[str, Any] | None = None,
        *,
        names: Mapping[int, str] | None = None,
    ) -> Announcement:
        """Render the phrase and fetch (or make) its clip. Blocking; see ``prepare_async``.

        ``names`` maps seats to display names for ``{name}`` (see ``phrases.render``); the text mirror shows
        them all, the voice says only those it can pronounce (audio/names.py). Phrase errors (unknown id,
        missing param) propagate: they are bugs. Engine errors do not: the game goes on with the text only.
        """
        phrase = phrases.get(phrase_id)
        lang = self.language
        text = phrases.render(phrase_id, params, names=names, speakable=self._speakable, language=lang)
        mirror = phrases.render(phrase_id, params, numbers="digits", names=names, language=lang)
        clip = None
        if phrase.spoken and self.engine.speaks:
            try:
                clip = self.cache.render(self.engine, text, volume=self.volume)
            except EngineError as exc:
                log.warning("no audio for %s (%s): %s", phrase_id, self.engine.source, exc)
        return Announcement(phrase_id, text, mirror, clip)

    def _speakable(self, name: str) -> bool:
        return pronounceable(name, self.language)

    async def prepare_async(
        self,
        phrase_id: str,
        params: Mapping[str, Any] | None = None,
        *,
        names: Mapping[int, str] | None = None,
    ) -> Announcement:
        return await asyncio.to_thread(self.prepare, phrase_id, params, names=names)
