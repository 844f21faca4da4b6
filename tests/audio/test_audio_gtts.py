"""The gTTS path against a stand-in endpoint on 127.0.0.1: no network."""

from __future__ import annotations

import logging
import random

import pytest
from gtts_stand_in import StandIn, batchexecute_answer

from audio import opus, pcm
from audio.announcer import Announcer
from audio.cache import ClipCache
from audio.engines import (
    GAME_GTTS_OPTIONS,
    EngineError,
    EspeakEngine,
    FallbackEngine,
    GTTSEngine,
    RHVoiceEngine,
    make_engine,
    offline_engine,
)
from audio.engines.gtts_online import RPC_PATH, _extract_audio


class FakeTime:
    """A clock that only moves when the engine sleeps, so backoff and throttling are observable."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def gtts(stand_in: StandIn, fake: FakeTime, **options: object) -> GTTSEngine:
    settings: dict[str, object] = {"retries": 3, "backoff": 0.5, "min_interval": 0.25, "timeout": 5.0}
    settings.update(options)
    return GTTSEngine(
        base_url=stand_in.url, sleep=fake.sleep, clock=fake.clock, rng=random.Random(1), **settings
    )  # type: ignore[arg-type]


def ok(mp3: bytes) -> tuple[int, dict[str, str], bytes]:
    return (200, {"Content-Type": "application/json; charset=utf-8"}, batchexecute_answer(mp3))


def test_speech_comes_from_the_endpoint_through_the_cache(
    stand_in: StandIn, mp3_bytes: bytes, tmp_path
) -> None:
    fake = FakeTime()
    engine = gtts(stand_in, fake)
    stand_in.script = [ok(mp3_bytes)]
    cache = ClipCache(tmp_path)
    clip = cache.render(engine, "Город засыпает.")
    assert clip is not None and clip.source == "gtts:ru"
    assert stand_in.requests[0][0] == RPC_PATH
    assert stand_in.texts() == ["ru:Город засыпает."]
    assert 0.5 < clip.duration < 3.0
    decoded = opus.decode(clip.packets)
    assert abs(len(decoded) / pcm.FRAME_BYTES / pcm.SAMPLE_RATE - clip.playback_duration) < 0.001
    assert pcm.rms(decoded) > 500
    # Second time: from disk, the endpoint is not asked again.
    again = cache.render(engine, "Город засыпает.")
    assert again == clip and len(stand_in.requests) == 1
    assert cache.path_for("gtts:ru", "Город засыпает.").is_file()


def test_429_is_retried_after_the_advertised_delay(stand_in: StandIn, mp3_bytes: bytes) -> None:
    fake = FakeTime()
    engine = gtts(stand_in, fake)
    stand_in.script = [(429, {"Retry-After": "3"}, b"slow down"), (503, {}, b"busy"), ok(mp3_bytes)]
    audio = engine.synthesize("Наступил день. Все проснулись.")
    assert audio.duration > 0.5 and audio.source == "gtts:ru"
    assert len(stand_in.requests) == 3
    assert stand_in.texts() == ["ru:Наступил день. Все проснулись."] * 3
    backoffs = [s for s in fake.sleeps if s > 0.25]
    assert backoffs[0] >= 3.0  # Retry-After wins over the shorter first backoff
    assert 0.5 <= backoffs[1] <= 1.0  # second backoff: 0.5 s * 2 with jitter in [0.5, 1]


def test_persistent_failure_raises_after_all_retries(stand_in: StandIn) -> None:
    fake = FakeTime()
    engine = gtts(stand_in, fake, retries=2)
    stand_in.default = (500, {}, b"oops")
    with pytest.raises(EngineError, match="3 attempts: HTTP 500"):
        engine.synthesize("Время вышло.")
    assert len(stand_in.requests) == 3


def test_client_errors_and_answers_without_audio(stand_in: StandIn) -> None:
    fake = FakeTime()
    engine = gtts(stand_in, fake, retries=1)
    stand_in.script = [(400, {}, b"bad request")]
    with pytest.raises(EngineError, match="HTTP 400"):
        engine.synthesize("Время вышло.")
    assert len(stand_in.requests) == 1  # a 4xx other than 429 is not retried
    stand_in.script = [(200, {}, b")]}'\n\n[]"), (200, {}, b"not json at all")]
    with pytest.raises(EngineError, match="without audio"):
        engine.synthesize("Время вышло.")


def test_requests_are_throttled(stand_in: StandIn, mp3_bytes: bytes) -> None:
    fake = FakeTime()
    engine = gtts(stand_in, fake, min_interval=1.5)
    stand_in.default = ok(mp3_bytes)
    for text in ("Раз.", "Два.", "Три."):
        engine.fetch_mp3(text)
    assert fake.sleeps == [1.5, 1.5]  # no wait before the first request, then one interval each


def test_long_texts_are_sent_in_parts_and_joined(stand_in: StandIn, mp3_bytes: bytes) -> None:
    fake = FakeTime()
    engine = gtts(stand_in, fake, min_interval=0)
    stand_in.default = ok(mp3_bytes)
    text = "Игра окончена. Роли игроков: " + "; ".join(
        f"номер {n} — Игрок {n} — Мирный житель" for n in range(12)
    )
    audio = engine.synthesize(text)
    assert len(stand_in.requests) > 1
    assert audio.duration > len(stand_in.requests) * 0.5


def test_unreachable_endpoint_falls_back_to_espeak_and_logs_once(
    stand_in: StandIn, tmp_path, caplog: pytest.LogCaptureFixture
) -> None:
    fake = FakeTime()
    online = gtts(stand_in, fake, retries=1)
    stand_in.default = (503, {}, b"down")
    engine = FallbackEngine(online, EspeakEngine(), cooldown=30, clock=fake.clock)
    cache = ClipCache(tmp_path)
    announcer = Announcer(engine, cache)
    with caplog.at_level(logging.WARNING, logger="audio"):
        first = announcer.prepare("city_night_falls")
        second = announcer.prepare("city_speech_turn", {"seat": 4})
    assert first.clip is not None and first.clip.source == "espeak-ng:ru-s175-a170"
    assert second.clip is not None and second.clip.duration > 1.0
    assert second.mirror_text == "Слово предоставляется игроку номер 4. Одна минута."
    assert len(stand_in.requests) == 2  # one phrase, two attempts; the second phrase skipped gTTS (cooldown)
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "espeak-ng" in warnings[0].getMessage()
    assert engine.fallbacks == 2 and engine.degraded
    # The offline clip is stored under the engine that made it, never under gTTS's name.
    assert cache.get("gtts:ru", "В городе ночь.") is None
    assert cache.get("espeak-ng:ru-s175-a170", "В городе ночь.") is not None


def test_after_the_cooldown_the_online_engine_is_tried_again(
    stand_in: StandIn, mp3_bytes: bytes, tmp_path, caplog: pytest.LogCaptureFixture
) -> None:
    fake = FakeTime()
    online = gtts(stand_in, fake, retries=0)
    engine = FallbackEngine(online, EspeakEngine(), cooldown=30, clock=fake.clock)
    cache = ClipCache(tmp_path)
    stand_in.script = [(503, {}, b"down")]
    assert cache.render(engine, "Время вышло.").source.startswith("espeak-ng")  # type: ignore[union-attr]
    # During the cooldown the offline clip is reused without asking anyone.
    assert cache.render(engine, "Время вышло.").source.startswith("espeak-ng")  # type: ignore[union-attr]
    assert len(stand_in.requests) == 1
    fake.now += 31
    stand_in.default = ok(mp3_bytes)
    with caplog.at_level(logging.INFO, logger="audio"):
        clip = cache.render(engine, "Время вышло.")
    assert clip is not None and clip.source == "gtts:ru"
    assert any("works again" in r.getMessage() for r in caplog.records)


def test_fallback_never_raises_even_when_both_engines_fail(stand_in: StandIn, tmp_path) -> None:
    class Broken(EspeakEngine):
        def synthesize(self, text: str) -> pcm.Pcm:
            raise EngineError("no espeak here")

    fake = FakeTime()
    engine = FallbackEngine(gtts(stand_in, fake, retries=0), Broken(), clock=fake.clock)
    announcement = Announcer(engine, ClipCache(tmp_path)).prepare("time_up")
    assert announcement.clip is None and announcement.text == "Время вышло."


def test_make_engine() -> None:
    game = make_engine("gtts", base_url="http://127.0.0.1:9")
    assert isinstance(game, FallbackEngine) and isinstance(game.primary, GTTSEngine)
    assert (
        game.primary.retries == 1 and game.primary.timeout <= 5 and game.primary.url.startswith("http://127")
    )
    assert game.source == "gtts:ru" and game.secondary.source == offline_engine().source
    # RHVoice is the offline voice wherever it is installed, espeak-ng otherwise.
    expected = "rhvoice:ru-aleksandr" if RHVoiceEngine.available() else "espeak-ng:ru-s175-a170"
    assert offline_engine().source == expected == make_engine("offline").source
    assert make_engine("gtts", language="en", fallback=False).source == "gtts:en"
    patient = make_engine("gtts", fallback=False, base_url="http://127.0.0.1:9")
    assert isinstance(patient, GTTSEngine) and patient.retries == 4
    assert make_engine("espeak").source == "espeak-ng:ru-s175-a170"
    none = make_engine("none")
    assert not none.speaks and not none.synthesize("Привет") and none.cache_sources() == []
    with pytest.raises(ValueError):
        make_engine("festival")


def test_audio_is_found_in_compact_spaced_and_unparsable_answers(mp3_bytes: bytes) -> None:
    answer = batchexecute_answer(mp3_bytes).decode()
    assert _extract_audio(answer) == mp3_bytes
    assert _extract_audio(answer.replace('","', '", "')) == mp3_bytes
    broken_json = answer.replace(',"generic"]', ',"generic"')
    assert _extract_audio(broken_json) == mp3_bytes
    assert _extract_audio(")]}'\n\n[]") == b""


def test_in_game_engine_falls_back_within_seconds(stand_in: StandIn) -> None:
    stand_in.default = (503, {"Retry-After": "120"}, b"down")
    waits: list[float] = []
    engine = make_engine("gtts", base_url=stand_in.url, sleep=waits.append)
    audio = engine.synthesize("Время вышло.")
    assert audio.source == offline_engine().source and audio.duration > 0.3
    # Retry-After: 120 is capped by the game's max_backoff: the phrase waited at most that, not 2 minutes.
    max_backoff = GAME_GTTS_OPTIONS["max_backoff"]
    assert (
        waits
        and max(waits) <= max_backoff
        and sum(waits) <= max_backoff + GAME_GTTS_OPTIONS.get("min_interval", 0.4)
    )
    assert len(stand_in.requests) == 2


def test_a_429_slows_down_the_next_phrase_too(stand_in: StandIn, mp3_bytes: bytes) -> None:
    fake = FakeTime()
    engine = gtts(stand_in, fake, retries=0, max_backoff=60)
    stand_in.script = [(429, {"Retry-After": "20"}, b"slow down"), ok(mp3_bytes)]
    with pytest.raises(EngineError, match="HTTP 429"):
        engine.fetch_mp3("Раз.")
    assert fake.sleeps == []
    engine.fetch_mp3("Два.")
    assert fake.sleeps == [20.0]
