"""Raw audio as the engines return it: 48 kHz, signed 16-bit little-endian, stereo, interleaved.

That is the format Discord's Opus stream carries, so the cache encodes it without resampling. Engines whose
native output differs (gTTS's MP3, espeak-ng's 22 kHz mono WAV) convert through ``ffmpeg`` (Debian package
``ffmpeg``), which is only needed when a clip is rendered, never while a cached clip is played.
"""

from __future__ import annotations

import array
import shutil
import subprocess
import sys
from dataclasses import dataclass

SAMPLE_RATE = 48_000
CHANNELS = 2
SAMPLE_WIDTH = 2  # bytes, signed 16-bit little-endian
FRAME_BYTES = CHANNELS * SAMPLE_WIDTH  # one sample for every channel


class DecodeError(RuntimeError):
    """ffmpeg is missing or could not decode the input."""


@dataclass(frozen=True)
class Pcm:
    """48 kHz s16le stereo samples; ``source`` names the engine that made them (``"espeak-ng:ru"``)."""

    data: bytes
    source: str = ""

    def __post_init__(self) -> None:
        if len(self.data) % FRAME_BYTES:
            raise ValueError(f"PCM length {len(self.data)} is not a whole number of stereo samples")

    @property
    def samples(self) -> int:
        """Samples per channel."""
        return len(self.data) // FRAME_BYTES

    @property
    def duration(self) -> float:
        return self.samples / SAMPLE_RATE

    def __bool__(self) -> bool:
        return bool(self.data)


def to_pcm(
    encoded: bytes,
    *,
    input_format: str | None = None,
    input_rate: int | None = None,
    input_channels: int | None = None,
    timeout: float = 30.0,
) -> bytes:
    """Decode any audio ffmpeg understands (MP3, WAV…) to 48 kHz s16le stereo. Raw input (``s16le``)
    needs ``input_rate`` and ``input_channels``."""
    ffmpeg = shutil.which("ffmpeg")
    if ffmpeg is None:
        raise DecodeError("ffmpeg is not installed (Debian: apt-get install ffmpeg)")
    cmd = [ffmpeg, "-hide_banner", "-loglevel", "error", "-nostdin"]
    if input_format:
        cmd += ["-f", input_format]
    if input_rate:
        cmd += ["-ar", str(input_rate)]
    if input_channels:
        cmd += ["-ac", str(input_channels)]
    cmd += ["-i", "pipe:0", "-f", "s16le", "-acodec", "pcm_s16le", "-ar", str(SAMPLE_RATE),
            "-ac", str(CHANNELS), "pipe:1"]  # fmt: skip
    try:
        done = subprocess.run(cmd, input=encoded, capture_output=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired as exc:
        raise DecodeError(f"ffmpeg took longer than {timeout} s") from exc
    if done.returncode != 0:
        raise DecodeError(
            f"ffmpeg failed ({done.returncode}): {done.stderr.decode(errors='replace').strip()}"
        )
    return done.stdout


def _samples(data: bytes) -> array.array[int]:
    samples = array.array("h")
    samples.frombytes(data)
    if sys.byteorder == "big":
        samples.byteswap()
    return samples


def peak(data: bytes) -> int:
    """Largest absolute sample value."""
    return _peak(_samples(data))


def _peak(samples: array.array[int]) -> int:
    return max(max(samples), -min(samples)) if samples else 0


def rms(data: bytes) -> float:
    """Root mean square of all samples (0 for silence, about 3 000–10 000 for speech)."""
    samples = _samples(data)
    if not samples:
        return 0.0
    return float((sum(s * s for s in samples) / len(samples)) ** 0.5)


def trim_silence(data: bytes, *, threshold: int = 300, keep_ms: int = 60) -> bytes:
    """Cut leading and trailing near-silence, keeping ``keep_ms`` around the speech.

    TTS engines pad clips with up to half a second of silence; the host's next line should follow at once.
    """
    samples = _samples(data)
    loud = [i for i in range(0, len(samples), CHANNELS * 48) if abs(samples[i]) > threshold]
    if not loud:
        return b""
    keep = keep_ms * SAMPLE_RATE // 1000 * CHANNELS
    start = max(0, loud[0] - keep)
    end = min(len(samples), loud[-1] + CHANNELS * 48 + keep)
    start -= start % CHANNELS
    end -= end % CHANNELS
    return data[start * SAMPLE_WIDTH : end * SAMPLE_WIDTH]


def scaled(data: bytes, volume: float) -> bytes:
    """Samples multiplied by ``volume``, clipped at full scale (the server's host volume)."""
    samples = array.array("h", data)
    if sys.byteorder != "little":
        samples.byteswap()
    for i, value in enumerate(samples):
        samples[i] = max(-32768, min(32767, int(value * volume)))
    if sys.byteorder != "little":
        samples.byteswap()
    return samples.tobytes()
