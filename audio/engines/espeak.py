"""Offline engine: espeak-ng's Russian voice (Debian package ``espeak-ng``), run as a subprocess.

espeak-ng writes 22 050 Hz mono WAV; ffmpeg converts it to the 48 kHz stereo PCM every engine returns.
"""

from __future__ import annotations

import shutil
import subprocess

from audio.engines.base import Engine, EngineError
from audio.pcm import DecodeError, Pcm, to_pcm, trim_silence


class EspeakEngine(Engine):
    name = "espeak-ng"

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
        try:
            data = to_pcm(done.stdout, input_format="wav", timeout=self.timeout)
        except DecodeError as exc:
            raise EngineError(str(exc)) from exc
        return Pcm(trim_silence(data), self.source)
