"""Text-to-speech engines: ``gtts`` (online, default), ``rhvoice`` and ``espeak`` (offline), ``offline``
(RHVoice where it is installed, espeak-ng otherwise) and ``none`` (text only)."""

from __future__ import annotations

from typing import Any

from audio.engines.base import Engine, EngineError
from audio.engines.espeak import EspeakEngine
from audio.engines.fallback import FallbackEngine
from audio.engines.gtts_online import GTTSEngine
from audio.engines.none import NoneEngine
from audio.engines.rhvoice import RHVoiceEngine

ENGINE_NAMES = ("gtts", "offline", "rhvoice", "espeak", "none")

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
    "RHVoiceEngine",
    "make_engine",
    "offline_engine",
]


def offline_engine(language: str = "ru") -> Engine:
    """The best offline voice installed: RHVoice (natural), else espeak-ng (robotic but everywhere)."""
    if RHVoiceEngine.available(language):
        return RHVoiceEngine(language=language)
    return EspeakEngine(language=language)


def make_engine(name: str, *, fallback: bool = True, language: str = "ru", **gtts_options: Any) -> Engine:
    """The engine for a config value, speaking ``language`` (``ru``, ``en``).

    ``gtts`` comes wrapped in a FallbackEngine to the offline voice, with GAME_GTTS_OPTIONS so that no
    phrase waits more than a few seconds, unless ``fallback=False`` (prebuild: gTTS with patient retries,
    or nothing).
    ``gtts_options`` go to GTTSEngine (base_url, retries, timeout…) and win over the defaults.
    """
    if name == "gtts":
        if not fallback:
            return GTTSEngine(language=language, **gtts_options)
        online = GTTSEngine(language=language, **{**GAME_GTTS_OPTIONS, **gtts_options})
        return FallbackEngine(online, offline_engine(language))
    if name == "offline":
        return offline_engine(language)
    if name == "rhvoice":
        return RHVoiceEngine(language=language)
    if name == "espeak":
        return EspeakEngine(language=language)
    if name == "none":
        return NoneEngine()
    raise ValueError(f"unknown engine {name!r}; choose one of {', '.join(ENGINE_NAMES)}")
