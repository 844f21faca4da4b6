"""On-disk cache of rendered phrases, stored as ready-to-send Opus packets.

One file per (engine, voice, text): ``<root>/<engine>-<voice>/<kk>/<key>.opk`` where ``key`` is the SHA-256
of those three (and the format version). The file format, all integers little-endian:

    magic    8 bytes  b"MFBOPUS\\x01"
    header   u16 format version, u32 sample rate, u8 channels, u8 frame ms,
             u32 samples per channel of the speech (before the last frame's padding), u32 packet count
    meta     u32 length + UTF-8 JSON {"source": "gtts:ru", "text": "…"}
    packets  u16 length + raw Opus packet, ``packet count`` times (20 ms each, 48 kHz stereo)
    trailer  u32 CRC-32 of everything above

Files are written to a temporary name in the same directory and renamed, so a reader never sees half a
file; a file that fails any check is treated as missing (and re-rendered).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import struct
import tempfile
import time
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from audio import opus
from audio.engines.base import Engine
from audio.pcm import CHANNELS, SAMPLE_RATE, Pcm, scaled

log = logging.getLogger(__name__)

MAGIC = b"MFBOPUS\x01"
FORMAT_VERSION = 1
SUFFIX = ".opk"
_HEADER = struct.Struct("<HIBBII")
_U16 = struct.Struct("<H")
_U32 = struct.Struct("<I")


class CorruptClip(ValueError):
    """A cache file that is truncated, has a bad checksum or an unknown format."""


@dataclass(frozen=True)
class Clip:
    """A cached phrase: Opus packets of 20 ms, 48 kHz stereo, as an ``is_opus()`` audio source sends them."""

    packets: tuple[bytes, ...]
    samples: int
    source: str
    text: str

    @property
    def duration(self) -> float:
        """Length of the speech in seconds."""
        return self.samples / SAMPLE_RATE

    @property
    def playback_duration(self) -> float:
        """Time the packets take to play (the speech rounded up to whole 20 ms frames)."""
        return len(self.packets) * opus.FRAME_MS / 1000

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.packets)

    def reader(self) -> PacketReader:
        return PacketReader(self)


class PacketReader:
    """Hands out a clip's packets one ``read()`` at a time, then b"" — the contract of a discord.py
    ``AudioSource`` whose ``is_opus()`` is True, so the player's source can delegate to it."""

    def __init__(self, clip: Clip) -> None:
        self.clip = clip
        self.position = 0

    def read(self) -> bytes:
        if self.position >= len(self.clip.packets):
            return b""
        packet = self.clip.packets[self.position]
        self.position += 1
        return packet

    def is_opus(self) -> bool:
        return True

    @property
    def elapsed(self) -> float:
        """Seconds of the clip handed out so far."""
        return self.position * opus.FRAME_MS / 1000

    @property
    def done(self) -> bool:
        return self.position >= len(self.clip.packets)


def cache_key(source: str, text: str) -> str:
    engine, _, voice = source.partition(":")
    blob = json.dumps([FORMAT_VERSION, engine, voice, text], ensure_ascii=False).encode("utf-8")
    return hashlib.sha256(blob).hexdigest()


def encode_clip(pcm: Pcm, text: str, *, bitrate: int = 48_000) -> bytes:
    packets = list(opus.encode(pcm.data, bitrate=bitrate))
    meta = json.dumps({"source": pcm.source, "text": text}, ensure_ascii=False).encode("utf-8")
    parts = [
        MAGIC,
        _HEADER.pack(FORMAT_VERSION, SAMPLE_RATE, CHANNELS, opus.FRAME_MS, pcm.samples, len(packets)),
    ]
    parts += [_U32.pack(len(meta)), meta]
    for packet in packets:
        parts += [_U16.pack(len(packet)), packet]
    body = b"".join(parts)
    return body + _U32.pack(zlib.crc32(body))


def decode_clip(blob: bytes) -> Clip:
    if len(blob) < len(MAGIC) + _HEADER.size + 8 or not blob.startswith(MAGIC):
        raise CorruptClip("not a clip file")
    body, (crc,) = blob[:-4], _U32.unpack(blob[-4:])
    if zlib.crc32(body) != crc:
        raise CorruptClip("checksum mismatch")
    offset = len(MAGIC)
    version, rate, channels, frame_ms, samples, count = _HEADER.unpack_from(body, offset)
    if (version, rate, channels, frame_ms) != (FORMAT_VERSION, SAMPLE_RATE, CHANNELS, opus.FRAME_MS):
        raise CorruptClip(f"unsupported format {version}/{rate}/{channels}/{frame_ms}")
    offset += _HEADER.size
    (meta_len,) = _U32.unpack_from(body, offset)
    offset += 4
    meta = json.loads(body[offset : offset + meta_len].decode("utf-8"))
    offset += meta_len
    packets = []
    for _ in range(count):
        (size,) = _U16.unpack_from(body, offset)
        offset += 2
        packets.append(body[offset : offset + size])
        offset += size
    if offset != len(body) or any(not p for p in packets):
        raise CorruptClip("packet table does not match the file length")
    return Clip(tuple(packets), samples, meta["source"], meta["text"])


def read_clip(path: Path) -> Clip:
    try:
        return decode_clip(path.read_bytes())
    except (struct.error, UnicodeDecodeError, json.JSONDecodeError, KeyError) as exc:
        raise CorruptClip(f"{path}: {exc}") from exc


def write_atomically(path: Path, blob: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=SUFFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(blob)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class ClipCache:
    def __init__(self, root: str | os.PathLike[str], *, bitrate: int = 48_000) -> None:
        self.root = Path(root)
        self.bitrate = bitrate

    def path_for(self, source: str, text: str) -> Path:
        key = cache_key(source, text)
        folder = source.replace(":", "-").replace(os.sep, "_")
        return self.root / folder / key[:2] / f"{key}{SUFFIX}"

    def contains(self, source: str, text: str) -> bool:
        return self.path_for(source, text).is_file()

    def get(self, source: str, text: str) -> Clip | None:
        path = self.path_for(source, text)
        try:
            clip = read_clip(path)
        except FileNotFoundError:
            return None
        except CorruptClip as exc:
            log.warning("dropping corrupt cache file: %s", exc)
            path.unlink(missing_ok=True)
            return None
        if clip.text != text or clip.source != source:  # a SHA-256 collision would be news
            return None
        with contextlib.suppress(OSError):  # a read-only cache still plays; it only cannot be pruned well
            os.utime(path)  # the mtime is the last use, for prune()
        return clip

    def put(self, text: str, pcm: Pcm) -> Clip:
        """Encode and store ``pcm`` under (pcm.source, text)."""
        if not pcm.source:
            raise ValueError("PCM without a source engine cannot be cached")
        blob = encode_clip(pcm, text, bitrate=self.bitrate)
        write_atomically(self.path_for(pcm.source, text), blob)
        return decode_clip(blob)

    def lookup(self, engine: Engine, text: str) -> Clip | None:
        for source in engine.cache_sources():
            clip = self.get(source, text)
            if clip is not None:
                return clip
        return None

    def render(self, engine: Engine, text: str, *, volume: float = 1.0) -> Clip | None:
        """The cached clip for ``text`` at ``volume``, rendering and storing it first if needed.

        None means nothing to play (text-only engine, or both engines of a FallbackEngine failed); plain
        engines raise EngineError."""
        clip = self.lookup(engine, text)
        if clip is None:
            pcm = engine.synthesize(text)
            if not pcm:
                return None
            clip = self.put(text, pcm)
        return self.at_volume(clip, volume)

    def at_volume(self, clip: Clip, volume: float) -> Clip:
        """The clip at a server's volume: scaled once and cached beside the original (source
        ``<engine>:<voice>@<percent>``), so playing it costs nothing more than playing the original."""
        percent = round(volume * 100)
        if percent == 100:
            return clip
        source = f"{clip.source}@{percent}"
        found = self.get(source, clip.text)
        if found is not None:
            return found
        return self.put(clip.text, Pcm(scaled(opus.decode(clip.packets), percent / 100), source))

    def render_many(self, engine: Engine, texts: Sequence[str]) -> list[Clip | None]:
        """``render`` for several texts, the missing ones synthesized together (one batch for the engine)."""
        found = {text: self.lookup(engine, text) for text in texts}
        missing = list(dict.fromkeys(text for text in texts if found[text] is None))
        if missing:
            for text, pcm in zip(missing, engine.synthesize_many(missing), strict=True):
                found[text] = self.put(text, pcm) if pcm else None
        return [found[text] for text in texts]

    def remove_stale_temporaries(self, older_than: float = 600.0) -> int:
        """Delete temporary files left by a writer that was killed mid-write; returns how many."""
        removed = 0
        cutoff = time.time() - older_than
        for path in self.root.rglob(f".tmp-*{SUFFIX}"):
            with contextlib.suppress(FileNotFoundError):
                if path.stat().st_mtime < cutoff:
                    path.unlink()
                    removed += 1
        return removed

    def prune(self, max_bytes: int) -> int:
        """Delete the least recently used clips until the cache holds at most ``max_bytes``.

        Phrases with player names are rendered live and cached like any other, so a long-running bot's
        cache grows; fixed phrases evicted here are simply rendered again when next needed. Returns how
        many files were deleted.
        """
        files = []
        for path in self.root.rglob(f"*{SUFFIX}"):
            if path.name.startswith(".tmp-"):
                continue
            with contextlib.suppress(FileNotFoundError):
                stat = path.stat()
                files.append((stat.st_mtime, stat.st_size, path))
        total = sum(size for _, size, _ in files)
        removed = 0
        for _, size, path in sorted(files):
            if total <= max_bytes:
                break
            path.unlink(missing_ok=True)
            total -= size
            removed += 1
        return removed

    def size_on_disk(self) -> tuple[int, int]:
        """(number of clips, total bytes)."""
        files = [p for p in self.root.rglob(f"*{SUFFIX}") if not p.name.startswith(".tmp-")]
        return len(files), sum(p.stat().st_size for p in files)
