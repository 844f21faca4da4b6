"""``python -m audio prebuild …`` (and ``mafiabot audio prebuild …``, which delegates here).

prebuild renders every fixed phrase of every preset (or of ``--preset``) and the number phrases for seats
1–20 into the cache. Entries already cached are skipped, so an interrupted run resumes where it stopped.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from audio import phrases
from audio.cache import ClipCache
from audio.engines import Engine, EngineError, make_engine
from audio.progress import ProgressBar

CACHE_DIR_ENV = "MAFIABOT_AUDIO_CACHE"
GTTS_URL_ENV = "MAFIABOT_GTTS_URL"


def default_cache_dir() -> Path:
    if os.environ.get(CACHE_DIR_ENV):
        return Path(os.environ[CACHE_DIR_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "mafiabot" / "audio"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m audio", description="The host's voice: phrase audio cache."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    pre = sub.add_parser("prebuild", help="render every fixed phrase and seat-number phrase into the cache")
    pre.add_argument("--engine", choices=("gtts", "espeak"), default="gtts")
    pre.add_argument(
        "--preset", choices=phrases.presets(), help="only this preset's phrases (default: all presets)"
    )
    pre.add_argument("--cache-dir", type=Path, default=None, help=f"default: ${CACHE_DIR_ENV} or ~/.cache/…")
    pre.add_argument(
        "--jobs", type=int, default=None, help="parallel renders (default: CPUs for espeak, 1 gtts)"
    )
    pre.add_argument("--give-up-after", type=int, default=10, help="stop after N failures in a row")
    pre.add_argument("--gtts-url", default=os.environ.get(GTTS_URL_ENV), help="gTTS endpoint base URL")
    say = sub.add_parser("text", help="print a phrase's rendered text")
    say.add_argument("phrase_id")
    say.add_argument("params", nargs="*", metavar="NAME=VALUE", help="ints stay ints; seats=3,5,7 is a list")
    say.add_argument("--digits", action="store_true", help="numbers as digits (the text mirror)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    if args.command == "text":
        return _text(args)
    return prebuild(
        engine_name=args.engine,
        preset=args.preset,
        cache_dir=args.cache_dir or default_cache_dir(),
        jobs=args.jobs,
        gtts_url=args.gtts_url,
        give_up_after=args.give_up_after,
    )


def _text(args: argparse.Namespace) -> int:
    params: dict[str, object] = {}
    for item in args.params:
        name, _, value = item.partition("=")
        if name == "seats":
            params[name] = [int(v) for v in value.split(",")]
        else:
            params[name] = int(value) if value.isdigit() else value
    try:
        print(phrases.render(args.phrase_id, params, numbers="digits" if args.digits else "words"))
    except phrases.PhraseError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


def prebuild(
    *,
    engine_name: str = "gtts",
    preset: str | None = None,
    cache_dir: Path,
    jobs: int | None = None,
    gtts_url: str | None = None,
    engine: Engine | None = None,
    give_up_after: int = 10,
) -> int:
    """Render what is missing; 0 when every item is cached at the end, 1 when some failed.

    After ``give_up_after`` failures in a row the engine is taken to be down (no network, banned) and the
    remaining phrases are not attempted: with gTTS's retries each would otherwise take half a minute.
    """
    if engine is None:
        options = {"base_url": gtts_url} if gtts_url else {}
        engine = make_engine(engine_name, fallback=False, **options)
    cache = ClipCache(cache_dir)
    cache.remove_stale_temporaries()
    items = phrases.prebuild_items(preset)
    todo = [item for item in items if cache.lookup(engine, item.text) is None]
    print(
        f"{engine.source}: {len(items)} phrases, {len(items) - len(todo)} already cached, "
        f"{len(todo)} to render into {cache.root}",
        file=sys.stderr,
    )
    if jobs is None:
        jobs = 1 if engine.name == "gtts" else os.cpu_count() or 1
    failures: list[str] = []
    skipped: list[phrases.PrebuildItem] = []
    in_a_row = [0]
    lock = threading.Lock()
    bar = ProgressBar(len(todo))
    started = time.monotonic()

    def render(batch: list[phrases.PrebuildItem]) -> None:
        if in_a_row[0] >= give_up_after:
            with lock:
                skipped.extend(batch)
            return
        try:
            cache.render_many(engine, [item.text for item in batch])
        except EngineError as exc:
            with lock:
                failures.extend(f"{item.phrase_id} {dict(item.params)}: {exc}" for item in batch)
                in_a_row[0] += len(batch)
        else:
            with lock:
                in_a_row[0] = 0

    batch_size = max(1, engine.batch_size)
    batches = [todo[i : i + batch_size] for i in range(0, len(todo), batch_size)]
    pool = ThreadPoolExecutor(max_workers=max(1, jobs))
    try:
        for batch, _ in zip(batches, pool.map(render, batches), strict=True):
            for item in batch:
                bar.advance(item.phrase_id)
    except KeyboardInterrupt:
        # Let the renders in flight finish (each file is written atomically), drop the queued ones.
        pool.shutdown(wait=True, cancel_futures=True)
        bar.close()
        print("interrupted; run the same command again to resume", file=sys.stderr)
        return 130
    pool.shutdown()
    bar.close()
    count, size = cache.size_on_disk()
    print(
        f"rendered {len(todo) - len(failures) - len(skipped)} in {time.monotonic() - started:.1f} s; "
        f"cache holds {count} clips, {size / 1e6:.1f} MB",
        file=sys.stderr,
    )
    for failure in failures:
        print(f"failed: {failure}", file=sys.stderr)
    if skipped:
        print(
            f"gave up after {give_up_after} failures in a row: {engine.source} looks unavailable; "
            f"{len(skipped)} phrases not attempted, run again later to resume",
            file=sys.stderr,
        )
    return 1 if failures or skipped else 0
