"""Text-to-speech engines: ``gtts`` (online, default), ``espeak`` (offline) and ``none`` (text only)."""

from __future__ import annotations

from typing import Any

from audio.engines.base import Engine, EngineError
from audio.engines.espeak import EspeakEngine
from audio.engines.fallback import FallbackEngine
from audio.engines.gtts_online import GTTSEngine
from audio.engines.none import NoneEngine

ENGINE_NAMES = ("gtts", "espeak", "none")

__all__ = [
    "ENGINE_NAMES",
    "Engine",
    "EngineError",
    "EspeakEngine",
    "FallbackEngine",
    "GTTSEngine",
    "NoneEngine",
    "make_engine",
]


def make_engine(name: str, *, fallback: bool = True, **gtts_options: Any) -> Engine:
    """The engine for a config value. ``gtts`` comes wrapped in a FallbackEngine to espeak-ng unless
    ``fallback=False`` (prebuild wants gTTS or nothing). ``gtts_options`` go to GTTSEngine (base_url…)."""
    if name == "gtts":
        online = GTTSEngine(**gtts_options)
        return FallbackEngine(online, EspeakEngine()) if fallback else online
    if name == "espeak":
        return EspeakEngine()
    if name == "none":
        return NoneEngine()
    raise ValueError(f"unknown engine {name!r}; choose one of {', '.join(ENGINE_NAMES)}")
