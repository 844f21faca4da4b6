"""The interface every text-to-speech engine implements."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from audio.pcm import Pcm


class EngineError(RuntimeError):
    """An engine could not turn a text into audio (network down, 429 after all retries, missing binary…)."""


class Engine(ABC):
    """Turns Russian text into 48 kHz s16le stereo PCM (see ``audio.pcm``).

    ``name`` and ``voice`` identify the sound: the cache keys clips by (name, voice, text), so ``voice`` must
    change whenever a setting that changes the audio does (language, speed…).
    """

    name: str = ""
    voice: str = ""
    batch_size: int = 1
    """How many texts ``synthesize_many`` handles well at once (prebuild groups its work by this)."""

    @property
    def source(self) -> str:
        return f"{self.name}:{self.voice}"

    @property
    def speaks(self) -> bool:
        """False for the text-only engine."""
        return True

    @abstractmethod
    def synthesize(self, text: str) -> Pcm:
        """Render ``text``; raise EngineError on failure.

        Blocking (subprocess or HTTP): async code calls it in a worker thread."""

    def synthesize_many(self, texts: Sequence[str]) -> list[Pcm]:
        """Render several texts; engines that can share work between them override this."""
        return [self.synthesize(text) for text in texts]

    def cache_sources(self) -> list[str]:
        """Cache entries that may stand for this engine's output, in order of preference."""
        return [self.source]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.source}>"
