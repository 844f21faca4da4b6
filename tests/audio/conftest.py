"""Fixtures for the audio tests: the rules file, a shared offline cache and a stand-in gTTS endpoint."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from gtts_stand_in import StandIn, serve

from audio import phrases
from audio.cache import ClipCache
from audio.engines import Engine, EspeakEngine, offline_engine

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def announcements_md() -> str:
    """The repository's copy of ANNOUNCEMENTS.md (scripts/check-spec-copy keeps it equal to the source)."""
    return (REPO / "docs" / "rules" / "ANNOUNCEMENTS.md").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def espeak() -> EspeakEngine:
    return EspeakEngine()


@pytest.fixture(scope="session")
def offline() -> Engine:
    """The offline voice the bot uses: RHVoice where it is installed, espeak-ng otherwise."""
    return offline_engine()


@pytest.fixture(scope="session")
def offline_cache(tmp_path_factory: pytest.TempPathFactory, offline: Engine) -> ClipCache:
    """Every fixed phrase of every preset rendered once with the offline voice, shared by the tests that
    need it."""
    cache = ClipCache(tmp_path_factory.mktemp("offline-cache"))
    texts = sorted({p.text for p in phrases.fixed_phrases()})
    size = offline.batch_size
    batches = [texts[i : i + size] for i in range(0, len(texts), size)]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        list(pool.map(lambda batch: cache.render_many(offline, batch), batches))
    return cache


@pytest.fixture(scope="session")
def mp3_bytes(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """About 1.2 s of Russian speech as MP3, standing in for Google's answer."""
    folder = tmp_path_factory.mktemp("mp3")
    wav, mp3 = folder / "speech.wav", folder / "speech.mp3"
    subprocess.run(["espeak-ng", "-v", "ru", "-w", str(wav), "Город засыпает."], check=True)
    subprocess.run(
        ["ffmpeg", "-hide_banner", "-loglevel", "error", "-i", str(wav), "-codec:a", "libmp3lame", str(mp3)],
        check=True,
    )
    return mp3.read_bytes()


@pytest.fixture
def stand_in() -> Iterator[StandIn]:
    with serve() as state:
        yield state
