"""Default online engine: Google Translate's text-to-speech, as the ``gTTS`` package calls it.

gTTS builds the request bodies (its tokenizer splits long texts into parts of at most 100 characters);
this module sends them itself so that the endpoint's base URL can be pointed at a local stand-in in tests,
requests are throttled, and errors and HTTP 429 are retried with exponential backoff (honouring
``Retry-After``). The MP3 answer is decoded with ffmpeg.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import random
import re
import threading
import time
from collections.abc import Callable

import requests
from gtts import gTTS  # type: ignore[import-untyped]

from audio.engines.base import Engine, EngineError
from audio.pcm import DecodeError, Pcm, to_pcm, trim_silence

log = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://translate.google.com"
RPC_PATH = "/_/TranslateWebserverUi/data/batchexecute"
_AUDIO = re.compile(r'jQ1olc"\s*,\s*"\[\\"([A-Za-z0-9+/=]+)\\"')
_RETRYABLE = {429, 500, 502, 503, 504}


class GTTSEngine(Engine):
    name = "gtts"

    def __init__(
        self,
        *,
        language: str = "ru",
        base_url: str = DEFAULT_BASE_URL,
        min_interval: float = 0.4,
        retries: int = 4,
        backoff: float = 1.0,
        max_backoff: float = 30.0,
        timeout: float = 10.0,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
    ) -> None:
        self.language = language
        self.voice = language
        self.url = base_url.rstrip("/") + RPC_PATH
        self.min_interval = min_interval
        self.retries = retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.timeout = timeout
        self._sleep = sleep
        self._clock = clock
        self._rng = rng or random.Random()
        self._lock = threading.Lock()
        self._next_request = 0.0
        self._sessions = threading.local()  # requests.Session is not documented as thread-safe

    def synthesize(self, text: str) -> Pcm:
        mp3 = self.fetch_mp3(text)
        try:
            data = to_pcm(mp3, input_format="mp3", timeout=self.timeout)
        except DecodeError as exc:
            raise EngineError(f"gTTS answer is not decodable MP3: {exc}") from exc
        return Pcm(trim_silence(data), self.source)

    def fetch_mp3(self, text: str) -> bytes:
        if not text.strip():
            raise EngineError("nothing to say")
        bodies = gTTS(text, lang=self.language, lang_check=False).get_bodies()
        return b"".join(self._post(body) for body in bodies)

    def _session(self) -> requests.Session:
        session = getattr(self._sessions, "session", None)
        if session is None:
            session = self._sessions.session = requests.Session()
        return session

    def _throttle(self) -> None:
        with self._lock:
            now = self._clock()
            wait = self._next_request - now
            self._next_request = max(now, self._next_request) + self.min_interval
        if wait > 0:
            self._sleep(wait)

    def _hold_off(self, seconds: float) -> None:
        """Delay the next request of every thread: a 429 is about this client, not this one phrase."""
        with self._lock:
            self._next_request = max(self._next_request, self._clock() + seconds)

    def _delay(self, attempt: int, retry_after: str | None) -> float:
        delay = min(self.max_backoff, self.backoff * 2.0**attempt) * self._rng.uniform(0.5, 1.0)
        if retry_after and retry_after.strip().isdigit():
            delay = max(delay, min(self.max_backoff, float(retry_after)))
        return delay

    def _post(self, body: str) -> bytes:
        problem = ""
        for attempt in range(self.retries + 1):
            if attempt:
                log.info("gtts retry %d/%d after %s", attempt, self.retries, problem)
            self._throttle()
            retry_after = None
            try:
                response = self._session().post(
                    self.url, data=body, headers=gTTS.GOOGLE_TTS_HEADERS, timeout=self.timeout
                )
            except requests.RequestException as exc:
                problem = f"{type(exc).__name__}: {exc}"
            else:
                if response.status_code == 200:
                    audio = _extract_audio(response.text)
                    if audio:
                        return audio
                    problem = "answer without audio"
                elif response.status_code in _RETRYABLE:
                    problem = f"HTTP {response.status_code}"
                    retry_after = response.headers.get("Retry-After")
                else:
                    raise EngineError(f"gTTS endpoint answered HTTP {response.status_code}")
            # Also after the last attempt: the next phrase must not hit a server that asked us to wait.
            self._hold_off(self._delay(attempt, retry_after))  # the next _throttle() waits it out
        raise EngineError(f"gTTS failed after {self.retries + 1} attempts: {problem}")


def _extract_audio(answer: str) -> bytes:
    """The MP3 bytes in a batchexecute answer, or b"" if it has none.

    The answer is a ``)]}'`` guard followed by length-prefixed JSON lines; the ``jQ1olc`` RPC row carries a
    JSON-encoded list whose first item is the base64 audio.
    """
    parts = []
    for line in answer.splitlines():
        if "jQ1olc" not in line:
            continue
        try:
            rows = json.loads(line)
            encoded = [json.loads(row[2])[0] for row in rows if row[:2] == ["wrb.fr", "jQ1olc"] and row[2]]
        except (json.JSONDecodeError, TypeError, IndexError, KeyError):
            encoded = _AUDIO.findall(line)  # not JSON after all: look for the row's usual compact form
        for item in encoded:
            try:
                parts.append(base64.b64decode(item, validate=True))
            except (binascii.Error, TypeError, ValueError):
                return b""
    return b"".join(parts)
