"""The collector's policy of `mafiabot run` and the probe the load model reads (mafiabot/gcpolicy.py)."""

from __future__ import annotations

import gc
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from mafiabot.gcpolicy import CollectorPolicy, Probe


@pytest.fixture
def unfrozen() -> Iterator[None]:
    """The test process's objects are given back to the collector whatever a test froze."""
    assert gc.get_freeze_count() == 0
    try:
        yield
    finally:
        gc.unfreeze()


class _Cycle:
    def __init__(self) -> None:
        self.me = self


@pytest.mark.usefixtures("unfrozen")
def test_the_policy_freezes_what_is_alive_after_the_start_and_not_its_garbage() -> None:
    alive = [_Cycle() for _ in range(100)]
    [_Cycle() for _ in range(100)]  # garbage in cycles: collected first, never frozen
    CollectorPolicy(enabled=True).freeze_after_start()
    assert gc.get_freeze_count() > len(alive)
    assert not any(type(obj) is _Cycle for obj in gc.get_objects())  # out of the collections' walks
    gc.unfreeze()
    assert sum(1 for obj in gc.get_objects() if type(obj) is _Cycle) == len(alive)


@pytest.mark.usefixtures("unfrozen")
def test_the_policy_switched_off_leaves_the_collector_as_it_is() -> None:
    CollectorPolicy(enabled=False).freeze_after_start()
    assert gc.get_freeze_count() == 0


def test_the_probe_times_each_collection_and_writes_a_census_on_sigusr2(tmp_path: Path) -> None:
    probe = Probe(tmp_path / "gc.log")
    probe.install()
    try:
        _Cycle()
        gc.collect(1)
        gc.collect()
        os.kill(os.getpid(), signal.SIGUSR2)  # (Python runs the handler at the next bytecode)
    finally:
        probe.uninstall()
    lines = [line.split() for line in (tmp_path / "gc.log").read_text().splitlines()]
    generations = [int(line[1]) for line in lines]
    full = max(i for i, g in enumerate(generations) if g == 2)  # (young ones may come after, the census's)
    middle = max(i for i, g in enumerate(generations[:full]) if g == 1)
    assert all(float(line[2]) >= 0 and int(line[3]) >= 0 for line in lines)
    assert int(lines[middle][3]) >= 1  # the cycle, found by the middle collection
    census = (tmp_path / "gc.log.census").read_text().splitlines()
    assert census[0].startswith("# census at ") and any(line.endswith(" builtins.dict") for line in census)
    assert signal.getsignal(signal.SIGUSR2) is not probe._census
