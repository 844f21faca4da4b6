"""Offline engine: espeak-ng's Russian voice (Debian package ``espeak-ng``), run as a subprocess.

espeak-ng writes 22 050 Hz mono WAV; ffmpeg resamples it to the 48 kHz stereo PCM every engine returns.
Starting ffmpeg costs more than espeak-ng itself (about 65 ms against 20 ms a phrase), so a batch of
phrases is resampled in one ffmpeg run: their samples are joined with short silences in between and the
result is cut at the same (rescaled) places.
"""

from __future__ import annotations

import shutil
import struct
import subprocess
from collections.abc import Sequence

from audio.engines.base import Engine, EngineError
from audio.pcm import FRAME_BYTES, SAMPLE_RATE, DecodeError, Pcm, to_pcm, trim_silence

_GAP_SECONDS = 0.1  # keeps the resampler's filter from smearing one phrase into the next


class EspeakEngine(Engine):
    name = "espeak-ng"
    batch_size = 8

    def __init__(
        self, *, language: str = "ru", speed: int = 175, amplitude: int = 170, timeout: float = 30.0
    ) -> None:
        self.language = language
        self.speed = speed
        # espeak-ng limits its peaks to about −3 dBFS; amplitude 170 (default 100) brings every phrase close
        # to that limit, about as loud as gTTS, so the host's volume does not drop when the fallback speaks.
        self.amplitude = amplitude
        self.timeout = timeout
        self.voice = f"{language}-s{speed}-a{amplitude}"

    @staticmethod
    def available() -> bool:
        return shutil.which("espeak-ng") is not None and shutil.which("ffmpeg") is not None

    def synthesize(self, text: str) -> Pcm:
        return self.synthesize_many([text])[0]

    def synthesize_many(self, texts: Sequence[str]) -> list[Pcm]:
        spoken = [self._speak(text) for text in texts]
        rates = {rate for rate, _ in spoken}
        if len(rates) != 1:
            raise EngineError(f"espeak-ng answered with several sample rates {sorted(rates)}")
        rate = rates.pop()
        gap = b"\x00\x00" * int(rate * _GAP_SECONDS)
        spans = []
        position = len(gap)
        for _, samples in spoken:
            spans.append((position // 2, len(samples) // 2))
            position += len(samples) + len(gap)
        joined = gap + gap.join(samples for _, samples in spoken) + gap
        try:
            data = to_pcm(
                joined, input_format="s16le", input_rate=rate, input_channels=1, timeout=self.timeout
            )
        except DecodeError as exc:
            raise EngineError(str(exc)) from exc
        out = []
        for start, length in spans:
            first = round(start * SAMPLE_RATE / rate) * FRAME_BYTES
            last = first + round(length * SAMPLE_RATE / rate) * FRAME_BYTES
            out.append(Pcm(trim_silence(data[first:last]), self.source))
        return out

    def _speak(self, text: str) -> tuple[int, bytes]:
        """espeak-ng's samples for ``text``: (sample rate, mono s16le bytes)."""
        executable = shutil.which("espeak-ng")
        if executable is None:
            raise EngineError("espeak-ng is not installed (Debian: apt-get install espeak-ng)")
        # Text goes through stdin so that a line starting with «-» is never taken for an option.
        cmd = [executable, "-v", self.language, "-s", str(self.speed), "-a", str(self.amplitude)]
        cmd += ["-b", "1", "--stdout", "--stdin"]  # -b 1: the input is UTF-8 whatever the locale
        try:
            done = subprocess.run(
                cmd, input=text.encode("utf-8"), capture_output=True, timeout=self.timeout, check=False
            )
        except subprocess.TimeoutExpired as exc:
            raise EngineError(f"espeak-ng took longer than {self.timeout} s") from exc
        if done.returncode != 0 or not done.stdout:
            raise EngineError(f"espeak-ng failed ({done.returncode}): {done.stderr.decode(errors='replace')}")
        return _wav_samples(done.stdout)


def _wav_samples(wav: bytes) -> tuple[int, bytes]:
    """(sample rate, samples) of a mono 16-bit PCM WAV. espeak-ng streams to stdout, so its size fields
    are placeholders: the data chunk is taken to run to the end of the output."""
    if wav[:4] != b"RIFF" or wav[8:12] != b"WAVE":
        raise EngineError("espeak-ng did not write WAV")
    offset, rate = 12, 0
    while offset + 8 <= len(wav):
        chunk, size = wav[offset : offset + 4], struct.unpack_from("<I", wav, offset + 4)[0]
        body = offset + 8
        if chunk == b"fmt ":
            audio_format, channels, rate = struct.unpack_from("<HHI", wav, body)
            bits = struct.unpack_from("<H", wav, body + 14)[0]
            if (audio_format, channels, bits) != (1, 1, 16):
                raise EngineError(f"unexpected espeak-ng WAV format {audio_format}/{channels}/{bits}")
        elif chunk == b"data":
            if not rate:
                raise EngineError("espeak-ng WAV has no fmt chunk before its data")
            samples = wav[body:]
            return rate, samples[: len(samples) // 2 * 2]
        offset = body + size + (size & 1)
    raise EngineError("espeak-ng WAV has no data")
