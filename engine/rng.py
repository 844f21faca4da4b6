"""A small pure pseudo-random generator whose whole state is one integer.

The engine never touches the global ``random`` module: the generator state lives inside the game
state, so applying the same commands to the same initial state always draws the same numbers.
SplitMix64 is used because it is tiny, fast and good enough for shuffles and tie-breaks.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from typing import TypeVar

_MASK = (1 << 64) - 1
_TWO_64 = float(1 << 64)
T = TypeVar("T")


def seed_state(seed: int) -> int:
    """Turn any integer seed into a generator state."""
    return (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK


def next_u64(state: int) -> tuple[int, int]:
    """Return ``(value, new_state)``."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31), state


def below(state: int, n: int) -> tuple[int, int]:
    """A number in ``range(n)`` (n > 0) and the new state."""
    value, state = next_u64(state)
    return value % n, state


def choice(state: int, items: Sequence[T]) -> tuple[T, int]:
    index, state = below(state, len(items))
    return items[index], state


def shuffled(state: int, items: Sequence[T]) -> tuple[list[T], int]:
    """Fisher–Yates shuffle of a copy of ``items``."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j, state = below(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return out, state


# The wrapper draws SplitMix64 values _BATCH at a time: each draw of a batch sits in its own 128-bit lane
# of one big integer, so that the few operations of the mix run once for the whole batch (a lane's value
# stays below 2**128 through each product, and every shift is masked back to its lane) instead of once
# per draw, each with the interpreter's overhead and fresh 64-bit integers. Draw k of a batch starts from
# the state k + 1 steps after the batch's base state, exactly as next_u64 called k + 1 times would.
_BATCH = 32
_LANE = 128
_ONES = sum(1 << (_LANE * k) for k in range(_BATCH))
_LANE_MASKS = _MASK * _ONES
_LANE_STEPS = sum((((k + 1) * 0x9E3779B97F4A7C15) & _MASK) << (_LANE * k) for k in range(_BATCH))
_UNPACK = struct.Struct("<" + "Q8x" * _BATCH).unpack  # the low 64 bits of each lane, lowest lane first


def _batch(state: int) -> tuple[int, ...]:
    """The values of next_u64 called _BATCH times in a row from ``state``."""
    z = (state * _ONES + _LANE_STEPS) & _LANE_MASKS
    z = ((z ^ ((z >> 30) & _LANE_MASKS)) * 0xBF58476D1CE4E5B9) & _LANE_MASKS
    z = ((z ^ ((z >> 27) & _LANE_MASKS)) * 0x94D049BB133111EB) & _LANE_MASKS
    z ^= (z >> 31) & _LANE_MASKS
    values: tuple[int, ...] = _UNPACK(z.to_bytes(_BATCH * _LANE // 8, "little"))
    return values


# _batch's constants for each number of lanes (first_values)
_LANES: dict[int, tuple[int, int, int, Callable[[bytes], tuple[int, ...]]]] = {}


def first_values(state: int, count: int) -> tuple[int, ...]:
    """The values of next_u64 called ``count`` times in a row from ``state``: _batch with ``count`` lanes,
    for a caller who needs that many values and no more (the big integers' work grows with the lanes)."""
    found = _LANES.get(count)
    if found is None:
        ones = sum(1 << (_LANE * k) for k in range(count))
        steps = sum((((k + 1) * 0x9E3779B97F4A7C15) & _MASK) << (_LANE * k) for k in range(count))
        found = _LANES[count] = (ones, _MASK * ones, steps, struct.Struct("<" + "Q8x" * count).unpack)
    ones, masks, steps, unpack = found
    z = (state * ones + steps) & masks
    z = ((z ^ ((z >> 30) & masks)) * 0xBF58476D1CE4E5B9) & masks
    z = ((z ^ ((z >> 27) & masks)) * 0x94D049BB133111EB) & masks
    z ^= (z >> 31) & masks
    return unpack(z.to_bytes(count * _LANE // 8, "little"))


def shuffled_from(seed: int, items: Sequence[T]) -> list[T]:
    """``Rng(seed).shuffled(items)``, drawing the shuffle's values and no more (a deal of twelve seats takes
    eleven of the wrapper's batch of 32)."""
    out = list(items)
    if len(out) < 2:
        return out
    values = first_values(seed_state(seed), len(out) - 1)
    i = len(out)
    for value in values:
        j = value % i
        i -= 1
        out[i], out[j] = out[j], out[i]
    return out


class Rng:
    """A mutable wrapper for code outside the pure core (the simulator, dealing helpers). It draws what the
    pure functions draw from ``seed_state(seed)``, a batch of values at a time (see _batch). The simulator
    writes ``random()`` out inline in its busiest places (``_left``, ``_refill`` and ``_TWO_64``, the same
    draw without a call)."""

    def __init__(self, seed: int) -> None:
        self._base = seed_state(seed)  # the state the buffered batch was drawn from
        # The batch's values not handed out yet, the next one last: a draw is one pop (the simulator
        # draws a few hundred times a game).
        self._left = list(reversed(_batch(self._base)))

    @property
    def state(self) -> int:
        """The generator state after the values handed out so far (as the pure functions would leave it)."""
        return (self._base + (_BATCH - len(self._left)) * 0x9E3779B97F4A7C15) & _MASK

    def _refill(self) -> list[int]:
        self._base = self.state
        left = self._left = list(reversed(_batch(self._base)))
        return left

    def _next(self) -> int:
        """The next value of :func:`next_u64`."""
        return (self._left or self._refill()).pop()

    def below(self, n: int) -> int:
        return (self._left or self._refill()).pop() % n

    def choice(self, items: Sequence[T]) -> T:
        return items[(self._left or self._refill()).pop() % len(items)]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """:func:`shuffled` on the wrapper's own draws."""
        out = list(items)
        left = self._left
        for i in range(len(out) - 1, 0, -1):
            j = (left or self._refill()).pop() % (i + 1)
            left = self._left
            out[i], out[j] = out[j], out[i]
        return out

    def random(self) -> float:
        return (self._left or self._refill()).pop() / _TWO_64
