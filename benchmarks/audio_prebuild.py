"""Benchmark (run by hand): prebuild time for every phrase, cache size, and clip latency cached vs uncached.

    python benchmarks/audio_prebuild.py [--engine espeak|gtts] [--jobs N] [--cache-dir D] [--gtts-url URL]

Uses a fresh temporary cache unless --cache-dir is given. Prints a small Markdown table for BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from audio import cli, phrases
from audio.cache import ClipCache
from audio.engines import make_engine


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine", choices=("espeak", "gtts"), default="espeak")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--cache-dir", type=Path, default=None)
    parser.add_argument("--gtts-url", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mafiabot-audio-bench-") as tmp:
        root = args.cache_dir or Path(tmp)
        options = {"base_url": args.gtts_url} if args.gtts_url else {}
        engine = make_engine(args.engine, fallback=False, **options)
        items = phrases.prebuild_items()
        started, cpu_before = time.perf_counter(), os.times()
        status = cli.prebuild(engine_name=args.engine, cache_dir=root, jobs=args.jobs, engine=engine)
        cold = time.perf_counter() - started
        cpu_after = os.times()
        cpu = sum(after - before for after, before in zip(cpu_after[:4], cpu_before[:4], strict=True))
        started = time.perf_counter()
        cli.prebuild(engine_name=args.engine, cache_dir=root, jobs=args.jobs, engine=engine)
        warm = time.perf_counter() - started
        cache = ClipCache(root)
        count, size = cache.size_on_disk()
        clips = [cache.lookup(engine, item.text) for item in items]
        durations = [clip.duration for clip in clips if clip is not None]

        # Latency to the first packet of a line: read from the cache vs render now (one worker).
        sample = [item.text for item in items[:: max(1, len(items) // 20)]]
        cached = []
        for text in sample:
            t0 = time.perf_counter()
            clip = cache.render(engine, text)
            assert clip is not None and clip.packets
            cached.append(time.perf_counter() - t0)
        fresh_cache = ClipCache(Path(tmp) / "uncached")
        uncached = []
        for text in sample:
            t0 = time.perf_counter()
            clip = fresh_cache.render(engine, text)
            assert clip is not None and clip.packets
            uncached.append(time.perf_counter() - t0)

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    python = platform.python_version()
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {python}, load average {load}")
    print(f"engine: {engine.source}; jobs: {args.jobs or 'default'}; exit status {status}\n")
    print("| measure | value |\n|---|---|")
    print(f"| phrases prebuilt (all presets: fixed + seats 1–20 / counts 0–20) | {len(items)} |")
    print(f"| prebuild, empty cache | {cold:.1f} s ({cold / len(items) * 1000:.0f} ms per phrase) |")
    print(f"| prebuild, CPU time (this process and its ffmpeg/espeak-ng children) | {cpu:.1f} s |")
    print(f"| prebuild, full cache (nothing to do) | {warm:.2f} s |")
    per_clip = size / max(count, 1) / 1e3
    print(f"| cache on disk | {count} files, {size / 1e6:.1f} MB ({per_clip:.1f} kB per clip) |")
    print(f"| speech per clip | median {statistics.median(durations):.2f} s, max {max(durations):.2f} s |")
    print(f"| total speech | {sum(durations) / 60:.1f} min |")
    print(f"| clip ready, cached (median of {len(sample)}) | {statistics.median(cached) * 1000:.1f} ms |")
    print(f"| clip ready, uncached (median of {len(sample)}) | {statistics.median(uncached) * 1000:.0f} ms |")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
