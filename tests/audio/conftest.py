"""Fixtures for the audio tests: the rules file, a shared offline cache and a stand-in gTTS endpoint."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import threading
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from audio import phrases
from audio.cache import ClipCache
from audio.engines import EspeakEngine

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def announcements_md() -> str:
    """ANNOUNCEMENTS.md, from $MAFIABOT_RULES_DIR or the shared rules folder beside the repository."""
    rules = Path(os.environ.get("MAFIABOT_RULES_DIR", REPO.parent / "shared" / "rules"))
    path = rules / "ANNOUNCEMENTS.md"
    assert path.is_file(), f"{path} not found: set MAFIABOT_RULES_DIR to the folder holding ANNOUNCEMENTS.md"
    return path.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def espeak() -> EspeakEngine:
    return EspeakEngine()


@pytest.fixture(scope="session")
def offline_cache(tmp_path_factory: pytest.TempPathFactory, espeak: EspeakEngine) -> ClipCache:
    """Every fixed phrase of every preset rendered once with espeak-ng, shared by the tests that need it."""
    cache = ClipCache(tmp_path_factory.mktemp("offline-cache"))
    texts = sorted({p.text for p in phrases.fixed_phrases()})
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        list(pool.map(lambda text: cache.render(espeak, text), texts))
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


def batchexecute_answer(mp3: bytes) -> bytes:
    """An answer shaped like translate.google.com's batchexecute RPC with the audio in base64."""
    compact = (",", ":")
    inner = json.dumps([base64.b64encode(mp3).decode()], separators=compact)
    rows = [["wrb.fr", "jQ1olc", inner, None, None, None, "generic"], ["di", 42]]
    payload = json.dumps(rows, separators=compact)
    return f')]}}\'\n\n{len(payload)}\n{payload}\n25\n[["e",4,null,null,{len(payload)}]]\n'.encode()


@dataclass
class StandIn:
    """A local HTTP server answering POSTs from ``script`` (status, headers, body), then with ``default``."""

    url: str = ""
    script: list[tuple[int, dict[str, str], bytes]] = field(default_factory=list)
    default: tuple[int, dict[str, str], bytes] = (503, {}, b"down")
    requests: list[tuple[str, str]] = field(default_factory=list)

    def texts(self) -> list[str]:
        """The text (and language) of every request, decoded from gTTS's f.req body."""
        out = []
        for _, body in self.requests:
            rpc = json.loads(urllib.parse.parse_qs(body)["f.req"][0])
            text, lang, *_ = json.loads(rpc[0][0][1])
            out.append(f"{lang}:{text}")
        return out


@pytest.fixture
def stand_in() -> Iterator[StandIn]:
    state = StandIn()
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
            with lock:
                state.requests.append((self.path, body))
                status, headers, payload = state.script.pop(0) if state.script else state.default
            self.send_response(status)
            for key, value in headers.items():
                self.send_header(key, value)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
