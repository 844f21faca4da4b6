"""The collector's policy of `mafiabot run` and the probe the load model reads (mafiabot/gcpolicy.py)."""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from mafiabot.gcpolicy import CollectorPolicy, Probe


class _Cycle:
    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def unfrozen() -> Iterator[list[CollectorPolicy]]:
    """The test process's objects are given back to the collector whatever a test froze."""
    assert gc.get_freeze_count() == 0
    policies: list[CollectorPolicy] = []
    try:
        yield policies
    finally:
        for policy in policies:
            policy.stop()
        gc.unfreeze()


async def test_the_policy_freezes_what_is_alive_after_the_start_and_not_its_garbage(
    unfrozen: list[CollectorPolicy],
) -> None:
    alive = [_Cycle() for _ in range(100)]
    [_Cycle() for _ in range(100)]  # garbage in cycles: collected first, never frozen
    policy = CollectorPolicy(enabled=True, thaw_every=0)
    unfrozen.append(policy)
    policy.freeze_after_start()
    assert gc.get_freeze_count() > len(alive)
    assert not any(type(obj) is _Cycle for obj in gc.get_objects())  # out of the collections' walks
    gc.unfreeze()
    assert sum(1 for obj in gc.get_objects() if type(obj) is _Cycle) == len(alive)


async def test_a_long_full_collection_is_followed_by_a_freeze_of_its_survivors(
    unfrozen: list[CollectorPolicy],
) -> None:
    policy = CollectorPolicy(enabled=True, thaw_every=0, freeze_after=0.0)  # (every one is "long")
    unfrozen.append(policy)
    policy.freeze_after_start()
    frozen = gc.get_freeze_count()
    later = [_Cycle() for _ in range(100)]
    gc.collect(1)  # a middle collection: no freeze
    await asyncio.sleep(0)
    assert policy.freezes == 0 and any(type(obj) is _Cycle for obj in gc.get_objects())
    gc.collect()
    await asyncio.sleep(0)  # (the freeze comes on the loop's next turn)
    assert policy.freezes == 1 and gc.get_freeze_count() >= frozen + len(later)
    assert not any(type(obj) is _Cycle for obj in gc.get_objects())


async def test_a_thaw_frees_the_cycles_that_died_frozen(unfrozen: list[CollectorPolicy]) -> None:
    """What freezing costs: a frozen cycle that becomes unreachable is not collected, until the thaw."""
    cycle = _Cycle()
    gone = weakref.ref(cycle)
    policy = CollectorPolicy(enabled=True, thaw_every=0.2)
    unfrozen.append(policy)
    policy.freeze_after_start()
    del cycle
    gc.collect()
    assert gone() is not None  # frozen: no collection sees it
    for _ in range(100):
        await asyncio.sleep(0.05)
        if gone() is None:
            break
    assert gone() is None and gc.get_freeze_count() > 0  # freed by the thaw, the rest frozen again


async def test_the_policy_switched_off_leaves_the_collector_as_it_is(unfrozen: list[CollectorPolicy]) -> None:
    policy = CollectorPolicy(enabled=False, freeze_after=0.0)
    unfrozen.append(policy)
    policy.freeze_after_start()
    gc.collect()
    await asyncio.sleep(0)
    assert gc.get_freeze_count() == 0 and policy.freezes == 0


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
