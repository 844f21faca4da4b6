"""Offline engine: RHVoice (Debian packages ``rhvoice``, ``rhvoice-russian``, ``rhvoice-english``, in
Debian's non-free component; the voices are LGPL), run as ``RHVoice-test`` per phrase.

It sounds far more natural than espeak-ng at about the same cost, so it is the preferred offline voice
wherever it is installed (``offline_engine``). RHVoice writes 24 kHz mono WAV; the batching and the
resampling to 48 kHz stereo are espeak-ng's (one ffmpeg run for a batch of phrases).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from audio.engines.base import EngineError
from audio.engines.espeak import EspeakEngine, _wav_samples

# One voice per language: a man's voice in both, as the host is one person.
VOICES = {"ru": "aleksandr", "en": "alan"}
_EXECUTABLE = "RHVoice-test"
_VOICE_DIRS = (Path("/usr/share/RHVoice/voices"), Path("/usr/local/share/RHVoice/voices"))


class RHVoiceEngine(EspeakEngine):
    name = "rhvoice"
    batch_size = 8

    def __init__(self, *, language: str = "ru", voice: str | None = None, timeout: float = 30.0) -> None:
        super().__init__(language=language, timeout=timeout)
        self.profile = voice or VOICES.get(language, VOICES["ru"])
        self.voice = f"{language}-{self.profile}"

    @staticmethod
    def available(language: str = "ru") -> bool:
        """RHVoice-test, ffmpeg and the language's voice are installed."""
        if shutil.which(_EXECUTABLE) is None or shutil.which("ffmpeg") is None:
            return False
        voice = VOICES.get(language, VOICES["ru"])
        return any((folder / voice).is_dir() for folder in _VOICE_DIRS)

    def _speak(self, text: str) -> tuple[int, bytes]:
        executable = shutil.which(_EXECUTABLE)
        if executable is None:
            raise EngineError(
                "RHVoice is not installed (Debian non-free: apt-get install rhvoice rhvoice-russian)"
            )
        # RHVoice-test writes a seekable file only; the text goes through stdin (never taken for an option).
        with tempfile.TemporaryDirectory(prefix="mafiabot-rhvoice-") as folder:
            out = Path(folder) / "phrase.wav"
            cmd = [executable, "-p", self.profile, "-o", str(out)]
            try:
                done = subprocess.run(
                    cmd, input=text.encode("utf-8"), capture_output=True, timeout=self.timeout, check=False
                )
            except subprocess.TimeoutExpired as exc:
                raise EngineError(f"RHVoice took longer than {self.timeout} s") from exc
            if done.returncode != 0 or not out.is_file() or out.stat().st_size == 0:
                why = done.stderr.decode(errors="replace").strip()
                raise EngineError(f"RHVoice failed ({done.returncode}): {why}")
            try:
                return _wav_samples(out.read_bytes())
            except EngineError as exc:
                raise EngineError(f"RHVoice: {exc}") from exc
