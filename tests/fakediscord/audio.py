"""Audio for voice tests: a tone encoded to Opus ahead of time, and what the stand-in received.

Pre-encoded frames make playback need neither ffmpeg nor, at play time, libopus; encoding here and
decoding in `AudioStore.pcm()` use libopus through discord.opus (Debian `libopus0`).
"""

from __future__ import annotations

import itertools
import math
from array import array
from collections.abc import Iterator

import discord
from discord.opus import Decoder, Encoder

SAMPLE_RATE = Encoder.SAMPLING_RATE  # 48 kHz
CHANNELS = Encoder.CHANNELS  # stereo
FRAME_SAMPLES = Encoder.SAMPLES_PER_FRAME  # 20 ms


def tone_pcm(frequency: float, seconds: float, *, amplitude: float = 0.5) -> bytes:
    """A sine tone as 16-bit stereo PCM at 48 kHz."""
    samples = array("h")
    for n in range(int(SAMPLE_RATE * seconds)):
        value = int(amplitude * 32767 * math.sin(2 * math.pi * frequency * n / SAMPLE_RATE))
        samples.extend((value,) * CHANNELS)
    return samples.tobytes()


def encode_opus(pcm: bytes) -> list[bytes]:
    """PCM (48 kHz, 16-bit stereo) to 20 ms Opus frames; a short last frame is padded with silence."""
    encoder = Encoder()
    frame_bytes = FRAME_SAMPLES * CHANNELS * 2
    frames = []
    for start in range(0, len(pcm), frame_bytes):
        chunk = pcm[start : start + frame_bytes].ljust(frame_bytes, b"\0")
        frames.append(encoder.encode(chunk, FRAME_SAMPLES))
    return frames


class OpusFrames(discord.AudioSource):
    """Plays Opus frames encoded ahead of time (optionally after Ogg headers, as FFmpegOpusAudio does)."""

    def __init__(self, frames: list[bytes], *, with_ogg_headers: bool = False) -> None:
        headers = [b"OpusHead\x01\x02\x38\x01\x80\xbb\x00\x00\x00\x00\x00", b"OpusTags"]
        self._frames: Iterator[bytes] = iter((headers if with_ogg_headers else []) + frames)

    def read(self) -> bytes:
        return next(self._frames, b"")

    def is_opus(self) -> bool:
        return True


class AudioStore:
    """Opus frames received per user, in arrival order; decode with `pcm()`."""

    def __init__(self) -> None:
        self.frames: dict[int, list[bytes]] = {}
        self.skipped_headers = 0
        self.undecryptable = 0  # transport encryption failed
        self.not_end_to_end = 0  # frames the listener could not decrypt end to end (dropped)
        self.unheard = 0  # frames sent while no listener was in the channel
        self.not_relayed = 0  # frames from a speaker Discord would not relay (no Speak, suppressed, muted)

    def of(self, user_id: int) -> list[bytes]:
        return self.frames.get(user_id, [])

    def pcm(self, user_id: int) -> bytes:
        """48 kHz, 16-bit, stereo, interleaved: what libopus makes of the frames (needs libopus)."""
        decoder = Decoder()
        return b"".join(decoder.decode(frame) for frame in self.of(user_id))

    def clear(self) -> None:
        self.frames.clear()


def dominant_frequency(pcm: bytes, *, rate: int = SAMPLE_RATE, channels: int = CHANNELS) -> float:
    """The frequency of a pure tone, from zero crossings of the left channel over its loud part."""
    samples = array("h")
    samples.frombytes(pcm[: len(pcm) - len(pcm) % 2])
    left = samples[::channels]
    peak = max((abs(s) for s in left), default=0)
    loud = [i for i, s in enumerate(left) if abs(s) > peak // 4]
    if peak == 0 or len(loud) < 2:
        return 0.0
    segment = left[loud[0] : loud[-1] + 1]
    crossings = sum(1 for a, b in itertools.pairwise(segment) if (a < 0) != (b < 0))
    return crossings / 2 / (len(segment) / rate)
