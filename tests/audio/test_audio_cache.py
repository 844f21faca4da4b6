"""The Opus clip cache: round trip, file format robustness, idempotent and resumable prebuild."""

from __future__ import annotations

import io
import math
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from audio import cli, opus, pcm, phrases
from audio.cache import FORMAT_VERSION, SUFFIX, ClipCache, CorruptClip, cache_key, decode_clip, encode_clip
from audio.engines import Engine, EngineError, EspeakEngine, NoneEngine
from audio.pcm import Pcm
from audio.progress import ProgressBar


def tone(seconds: float, *, freq: float = 440.0, amplitude: int = 8000) -> bytes:
    n = int(seconds * pcm.SAMPLE_RATE)
    return b"".join(
        struct.pack("<hh", v, v)
        for v in (int(amplitude * math.sin(2 * math.pi * freq * i / pcm.SAMPLE_RATE)) for i in range(n))
    )


class CountingEngine(Engine):
    """A synthetic engine: a tone whose length grows with the text, counting its calls."""

    name = "tone"
    voice = "a4"

    def __init__(self, fail_after: int | None = None) -> None:
        self.calls = 0
        self.fail_after = fail_after

    def synthesize(self, text: str) -> Pcm:
        if self.fail_after is not None and self.calls >= self.fail_after:
            raise EngineError("synthetic outage")
        self.calls += 1
        return Pcm(tone(0.1 + len(text) / 400), self.source)


def test_opus_round_trip_keeps_duration_and_energy() -> None:
    source = tone(1.23)
    packets = list(opus.encode(source))
    assert len(packets) == math.ceil(1.23 / 0.02)
    assert all(0 < len(p) <= opus.MAX_PACKET for p in packets)
    decoded = opus.decode(packets)
    assert len(decoded) == len(packets) * opus.FRAME_SIZE_BYTES
    assert pcm.rms(decoded) == pytest.approx(pcm.rms(source), rel=0.1)
    assert pcm.rms(opus.decode(opus.encode(tone(0.5, amplitude=0)))) < 5


def test_clip_file_round_trip(tmp_path: Path) -> None:
    cache = ClipCache(tmp_path)
    audio = Pcm(tone(0.5), "tone:a4")
    clip = cache.put("Время вышло.", audio)
    assert clip.samples == audio.samples and clip.duration == pytest.approx(0.5)
    assert clip.playback_duration == pytest.approx(0.5)
    path = cache.path_for("tone:a4", "Время вышло.")
    assert path.parent.parent.name == "tone-a4" and path.suffix == SUFFIX
    assert cache.get("tone:a4", "Время вышло.") == clip
    assert list(clip) == list(clip.packets)
    assert pcm.rms(opus.decode(clip)) == pytest.approx(pcm.rms(audio.data), rel=0.1)
    assert not [p for p in path.parent.iterdir() if p.name.startswith(".tmp-")]


def test_keys_depend_on_engine_voice_text_and_format() -> None:
    keys = {
        cache_key(s, t) for s in ("gtts:ru", "espeak-ng:ru", "gtts:uk") for t in ("Пас.", "Пас. Спасибо.")
    }
    assert len(keys) == 6
    assert cache_key("gtts:ru", "Пас.") == cache_key("gtts:ru", "Пас.")
    assert FORMAT_VERSION == 1


@pytest.mark.parametrize(
    "damage",
    [
        lambda b: b[:-1],
        lambda b: b[:20],
        lambda b: b[:40] + bytes([b[40] ^ 0xFF]) + b[41:],
        lambda b: b"RIFF" + b[4:],
        lambda b: b"",
    ],
    ids=["truncated-crc", "truncated-header", "flipped-byte", "bad-magic", "empty"],
)
def test_damaged_files_are_misses_and_get_rerendered(tmp_path: Path, damage) -> None:  # type: ignore[no-untyped-def]
    cache, engine = ClipCache(tmp_path), CountingEngine()
    clip = cache.render(engine, "Принято.")
    path = cache.path_for(engine.source, "Принято.")
    blob = path.read_bytes()
    with pytest.raises(CorruptClip):
        decode_clip(damage(blob))
    path.write_bytes(damage(blob))
    assert cache.get(engine.source, "Принято.") is None
    assert cache.render(engine, "Принято.") == clip and engine.calls == 2
    assert path.read_bytes() == blob


def test_encoded_blob_is_self_describing() -> None:
    blob = encode_clip(Pcm(tone(0.2), "tone:a4"), "Спасибо.")
    clip = decode_clip(blob)
    assert (clip.source, clip.text, len(clip.packets)) == ("tone:a4", "Спасибо.", 10)


def test_text_only_engine_caches_nothing(tmp_path: Path) -> None:
    cache = ClipCache(tmp_path)
    assert cache.render(NoneEngine(), "Пас. Спасибо.") is None
    assert cache.size_on_disk() == (0, 0)


def test_prebuild_is_idempotent_and_resumable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    wanted = {item.text for item in phrases.prebuild_items("simple")}
    broken = CountingEngine(fail_after=50)
    assert cli.prebuild(preset="simple", cache_dir=tmp_path, engine=broken, jobs=1) == 1
    assert "failed: " in capsys.readouterr().err
    assert ClipCache(tmp_path).size_on_disk()[0] == 50
    engine = CountingEngine()
    assert cli.prebuild(preset="simple", cache_dir=tmp_path, engine=engine, jobs=2) == 0
    assert engine.calls == len(wanted) - 50  # resumed: only the missing clips were rendered
    cache = ClipCache(tmp_path)
    assert all(cache.contains(engine.source, text) for text in wanted)
    count, size = cache.size_on_disk()
    assert count == len(wanted) and size > 0
    # Unchanged means never rewritten: a rewrite (atomic rename) would give the file a new inode.
    files = {p: (p.stat().st_ino, p.read_bytes()) for p in tmp_path.rglob(f"*{SUFFIX}")}
    again = CountingEngine()
    assert cli.prebuild(preset="simple", cache_dir=tmp_path, engine=again) == 0
    assert again.calls == 0
    assert {p: (p.stat().st_ino, p.read_bytes()) for p in tmp_path.rglob(f"*{SUFFIX}")} == files
    assert f"{len(wanted)} already cached, 0 to render" in capsys.readouterr().err


def test_cli_prebuild_with_espeak_resumes_a_partial_cache(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    espeak = EspeakEngine()
    items = phrases.prebuild_items("blood")
    # An interrupted earlier run: all but three clips are there (placeholders, to keep the test fast).
    for item in items[3:]:
        ClipCache(tmp_path).put(item.text, Pcm(tone(0.05), espeak.source))
    argv = ["prebuild", "--engine", "espeak", "--preset", "blood", "--cache-dir", str(tmp_path)]
    assert cli.main(argv) == 0
    cache = ClipCache(tmp_path)
    for item in items[:3]:
        clip = cache.get(espeak.source, item.text)
        assert clip is not None and clip.duration > 0.5
    assert all(cache.contains(espeak.source, item.text) for item in items)
    err = capsys.readouterr().err
    assert f"{len(items) - 3} already cached, 3 to render" in err
    assert "3/3 (100 %)" in err and f"cache holds {len(items)} clips" in err


def test_cli_text_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["text", "hw_vote_start", "seats=3,5,7"]) == 0
    assert (
        capsys.readouterr().out.strip()
        == "Начинаем голосование. Подозреваемые: игроки номер три, пять и семь."
    )
    assert cli.main(["text", "city_nominees_list", "seats=3"]) == 0
    assert capsys.readouterr().out.strip() == "Выставлен игрок номер три."  # one seat: singular (issue 13)
    assert cli.main(["text", "sm_vote_start", "count=21", "--digits"]) == 0
    assert capsys.readouterr().out.strip().endswith("не меньше 21 голоса.")
    assert cli.main(["text", "hw_lynched", "seat=2"]) == 2
    assert "needs name, role" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["prebuild", "--engine", "festival"])


def test_engine_failure_is_an_error_for_plain_engines(tmp_path: Path) -> None:
    with pytest.raises(EngineError):
        ClipCache(tmp_path).render(CountingEngine(fail_after=0), "Пас.")


def test_python_dash_m_audio_runs_the_cli() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "audio", "text", "city_speech_turn", "seat=7", "--digits"],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "Слово предоставляется игроку номер 7. Одна минута."


def test_packet_reader_hands_out_one_frame_per_read(tmp_path: Path) -> None:
    clip = ClipCache(tmp_path).put("Пас.", Pcm(tone(0.1), "tone:a4"))
    reader = clip.reader()
    assert reader.is_opus() and not reader.done
    packets = [reader.read() for _ in range(5)]
    assert packets == list(clip.packets) and reader.done
    assert reader.elapsed == pytest.approx(0.1)
    assert reader.read() == b"" and reader.read() == b""


def test_interrupted_prebuild_keeps_what_it_made_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    class Interrupted(CountingEngine):
        def synthesize(self, text: str) -> Pcm:
            if self.calls == 7:
                raise KeyboardInterrupt
            return super().synthesize(text)

    stale = tmp_path / "tone-a4" / "00" / f".tmp-dead{SUFFIX}"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"half a clip")
    os.utime(stale, (0, 0))
    assert cli.prebuild(preset="simple", cache_dir=tmp_path, engine=Interrupted(), jobs=1) == 130
    assert "interrupted" in capsys.readouterr().err
    assert not stale.exists()
    assert ClipCache(tmp_path).size_on_disk()[0] == 7
    engine = CountingEngine()
    assert cli.prebuild(preset="simple", cache_dir=tmp_path, engine=engine, jobs=1) == 0
    assert engine.calls == len(phrases.prebuild_items("simple")) - 7


def test_progress_bar_redraws_on_a_terminal_and_logs_tenths_elsewhere() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    bar = ProgressBar(4, stream=terminal, width=8)
    for label in ("a", "b", "c", "d"):
        bar.advance(label)
    bar.close()
    assert terminal.getvalue().count("\r") == 4
    assert "[########] 4/4 d" in terminal.getvalue() and terminal.getvalue().endswith("\n")
    log = io.StringIO()
    bar = ProgressBar(100, stream=log)
    for _ in range(100):
        bar.advance()
    assert log.getvalue().splitlines()[-1] == "100/100 (100 %)"
    assert len(log.getvalue().splitlines()) == 11


def test_prune_removes_the_least_recently_used_clips(tmp_path: Path) -> None:
    cache = ClipCache(tmp_path)
    texts = [f"Слово игроку номер {n}." for n in range(5)]
    for age, text in enumerate(texts):
        cache.put(text, Pcm(tone(0.2), "tone:a4"))
        os.utime(cache.path_for("tone:a4", text), (1000 + age, 1000 + age))
    assert cache.get("tone:a4", texts[0]) is not None  # playing it makes it the most recent
    count, size = cache.size_on_disk()
    assert count == 5
    assert cache.prune(size * 3 // 5 + 10) == 2
    kept = [text for text in texts if cache.contains("tone:a4", text)]
    assert kept == [texts[0], texts[3], texts[4]]
    assert cache.prune(10**9) == 0


def test_prebuild_gives_up_when_the_engine_is_down(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    down = CountingEngine(fail_after=0)
    assert cli.prebuild(preset="city", cache_dir=tmp_path, engine=down, jobs=1, give_up_after=3) == 1
    err = capsys.readouterr().err
    assert err.count("failed: ") == 3
    assert f"{len(phrases.prebuild_items('city')) - 3} phrases not attempted" in err
