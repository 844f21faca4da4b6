"""A small pure pseudo-random generator whose whole state is one integer.

The engine never touches the global ``random`` module: the generator state lives inside the game
state, so applying the same commands to the same initial state always draws the same numbers.
SplitMix64 is used because it is tiny, fast and good enough for shuffles and tie-breaks.
"""

from __future__ import annotations

from collections.abc import Sequence
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


class Rng:
    """A mutable wrapper for code outside the pure core (the simulator, dealing helpers)."""

    def __init__(self, seed: int) -> None:
        self.state = seed_state(seed)

    def below(self, n: int) -> int:
        return self._next() % n

    def _next(self) -> int:
        """:func:`next_u64` on the wrapper's own state, written out (the simulator draws ~100 a game)."""
        state = self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def choice(self, items: Sequence[T]) -> T:
        return items[self._next() % len(items)]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """:func:`shuffled` on the wrapper's own state (the same draws, without a call per draw)."""
        out = list(items)
        state = self.state
        for i in range(len(out) - 1, 0, -1):
            state = (state + 0x9E3779B97F4A7C15) & _MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            j = (z ^ (z >> 31)) % (i + 1)
            out[i], out[j] = out[j], out[i]
        self.state = state
        return out

    def random(self) -> float:
        state = self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK  # _next, written out again
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return (z ^ (z >> 31)) / _TWO_64
