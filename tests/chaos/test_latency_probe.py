"""The load model's latency probe (benchmarks/load_model.py --probe) in itself."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from chaos import latency_probe


def test_a_collection_while_the_probe_writes_does_not_stop_the_thread(tmp_path: Path) -> None:
    # A collection can start in any allocation, also while a thread holds the probe's lock (flush's
    # swap, an add): its callback then takes the lock again from the same thread. A 1,000-game run's
    # load generator hung there once.
    probe = latency_probe.Probe(tmp_path / "probe.jsonl")

    def collection_inside_the_lock() -> None:
        with probe.lock:
            probe.on_gc("start", {"generation": 2})
            time.sleep(0.003)
            probe.on_gc("stop", {"generation": 2, "collected": 7})

    thread = threading.Thread(target=collection_inside_the_lock, daemon=True)
    thread.start()
    thread.join(timeout=5)
    assert not thread.is_alive()
    probe.flush()
    [(generation, _, took, found)] = latency_probe.read(tmp_path / "probe.jsonl")["gc"]
    assert generation == 2 and took > 0.002 and found == 7
