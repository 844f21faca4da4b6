"""The offline voice (RHVoice where installed, espeak-ng otherwise) renders every fixed phrase of every preset
to plausible audio."""

from __future__ import annotations

import struct

import pytest

from audio import opus, pcm, phrases
from audio.cache import ClipCache
from audio.engines import Engine

PRESETS = phrases.presets()


@pytest.mark.parametrize("preset", PRESETS)
def test_every_fixed_phrase_has_plausible_audio(
    preset: str, offline_cache: ClipCache, offline: Engine
) -> None:
    for phrase in phrases.fixed_phrases(preset):
        clip = offline_cache.get(offline.source, phrase.text)
        assert clip is not None, phrase.id
        assert clip.source == offline.source and clip.text == phrase.text
        # Roughly 40–130 ms of speech per character, never empty, never more than ~15 s (the longest,
        # classic's count to ten for the mafia's meeting, takes RHVoice 13 s and espeak-ng 9).
        assert 0.3 < clip.duration < 15.0, (phrase.id, clip.duration)
        assert len(phrase.text) * 0.03 < clip.duration < len(phrase.text) * 0.15 + 0.5, (
            phrase.id,
            clip.duration,
        )
        assert len(clip.packets) == pytest.approx(clip.duration / 0.02, abs=1)


def test_offline_clips_decode_to_speech(offline_cache: ClipCache, offline: Engine) -> None:
    for phrase_id in (
        "city_night_falls",
        "hw_day_breaks",
        "cl_nohost_mafia_meets_count",
        "sm_maniac_question",
    ):
        clip = offline_cache.get(offline.source, phrases.render(phrase_id))
        assert clip is not None
        decoded = opus.decode(clip.packets)
        assert len(decoded) / pcm.FRAME_BYTES / pcm.SAMPLE_RATE == pytest.approx(clip.playback_duration)
        assert 1000 < pcm.rms(decoded) < 12000
        assert pcm.peak(decoded) > 10000
        # Silence was trimmed: speech starts within the first 100 ms.
        assert pcm.peak(decoded[: int(0.1 * pcm.SAMPLE_RATE) * pcm.FRAME_BYTES]) > 300


def test_longer_text_gives_longer_audio(offline_cache: ClipCache, offline: Engine) -> None:
    short = offline_cache.render(offline, phrases.render("city_vote_thanks"))
    long = offline_cache.render(offline, phrases.render("cl_nohost_mafia_meets_count"))
    assert short is not None and long is not None
    assert short.duration < 1.5 < 6.0 < long.duration


def test_seat_numbers_are_spoken(offline_cache: ClipCache, offline: Engine) -> None:
    three = offline_cache.render(offline, phrases.render("city_speech_turn", {"seat": 3}))
    seventeen = offline_cache.render(offline, phrases.render("city_speech_turn", {"seat": 17}))
    assert three is not None and seventeen is not None
    assert seventeen.duration > three.duration  # «семнадцать» is longer than «три»


def test_a_batch_sounds_like_its_phrases_one_by_one(offline: Engine) -> None:
    texts = ["Время вышло.", "Наш стол покинул маньяк.", "Пас. Спасибо."]
    batch = offline.synthesize_many(texts)
    for text, together in zip(texts, batch, strict=True):
        alone = offline.synthesize(text)
        assert together.source == alone.source == offline.source
        assert together.duration == pytest.approx(alone.duration, abs=0.03)
        assert pcm.rms(together.data) == pytest.approx(pcm.rms(alone.data), rel=0.05)


def test_espeak_output_must_be_mono_16_bit_wav() -> None:
    from audio.engines.base import EngineError
    from audio.engines.espeak import _wav_samples

    header = b"RIFF\xff\xff\xff\x7fWAVEfmt " + struct.pack("<IHHIIHH", 16, 1, 1, 22050, 44100, 2, 16)
    assert _wav_samples(header + b"data\x00\xf0\xff\x7f" + b"\x01\x00\x02\x00\x03") == (
        22050,
        b"\x01\x00\x02\x00",
    )
    stereo = header.replace(struct.pack("<HH", 1, 1), struct.pack("<HH", 1, 2), 1)
    for bad in (b"", b"OggS" + header[4:], stereo + b"data\x00\x00\x00\x00", header):
        with pytest.raises(EngineError):
            _wav_samples(bad)
