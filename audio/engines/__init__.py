"""Text-to-speech engines: ``gtts`` (online, default), ``espeak`` (offline) and ``none`` (text only)."""

from __future__ import annotations

from typing import Any

from audio.engines.base import Engine, EngineError
from audio.engines.espeak import EspeakEngine
from audio.engines.fallback import FallbackEngine
from audio.engines.gtts_online import GTTSEngine
from audio.engines.none import NoneEngine

ENGINE_NAMES = ("gtts", "espeak", "none")

# Inside a game a phrase may not wait long for Google: one quick retry, then the offline voice speaks.
GAME_GTTS_OPTIONS: dict[str, Any] = {"retries": 1, "timeout": 4.0, "backoff": 0.5, "max_backoff": 1.0}

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
    """The engine for a config value.

    ``gtts`` comes wrapped in a FallbackEngine to espeak-ng, with GAME_GTTS_OPTIONS so that no phrase waits
    more than a few seconds, unless ``fallback=False`` (prebuild: gTTS with patient retries, or nothing).
    ``gtts_options`` go to GTTSEngine (base_url, retries, timeout…) and win over the defaults.
    """
    if name == "gtts":
        if not fallback:
            return GTTSEngine(**gtts_options)
        return FallbackEngine(GTTSEngine(**{**GAME_GTTS_OPTIONS, **gtts_options}), EspeakEngine())
    if name == "espeak":
        return EspeakEngine()
    if name == "none":
        return NoneEngine()
    raise ValueError(f"unknown engine {name!r}; choose one of {', '.join(ENGINE_NAMES)}")
