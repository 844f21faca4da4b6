"""The text-only engine: the host's lines are posted, never spoken."""

from __future__ import annotations

from audio.engines.base import Engine
from audio.pcm import Pcm


class NoneEngine(Engine):
    name = "none"
    voice = "text"

    @property
    def speaks(self) -> bool:
        return False

    def synthesize(self, text: str) -> Pcm:
        return Pcm(b"", self.source)

    def cache_sources(self) -> list[str]:
        return []
