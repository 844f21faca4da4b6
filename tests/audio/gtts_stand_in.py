"""A local stand-in for Google Translate's text-to-speech endpoint (batchexecute), for the gTTS tests."""

from __future__ import annotations

import base64
import json
import threading
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


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


@contextmanager
def serve() -> Iterator[StandIn]:
    """Run a StandIn on 127.0.0.1 (a free port) for the duration of the block."""
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
