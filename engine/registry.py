"""Registries of the few pieces of rules that are code: ability kinds, day steps, tallies, tie
chains and win checks. Rulesets name them; the loader rejects names nobody registered."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from engine.rules import loader

F = TypeVar("F", bound=Callable[..., Any])

ABILITY_KINDS: dict[str, Any] = {}
DAY_STEPS: dict[str, Callable[..., Any]] = {}
TALLIES: dict[str, Callable[..., Any]] = {}
TIE_CHAINS: dict[str, Callable[..., Any]] = {}
WIN_CHECKS: dict[str, Callable[..., Any]] = {}


def _register(table: dict[str, Any], known: set[str], name: str) -> Callable[[F], F]:
    def deco(obj: F) -> F:
        if name in table:
            raise ValueError(f"{name!r} is registered twice")
        table[name] = obj
        known.add(name)
        return obj

    return deco


def ability_kind(name: str) -> Callable[[F], F]:
    return _register(ABILITY_KINDS, loader.KNOWN_ABILITY_KINDS, name)


def day_step(name: str) -> Callable[[F], F]:
    return _register(DAY_STEPS, loader.KNOWN_DAY_STEPS, name)


def tally(name: str) -> Callable[[F], F]:
    return _register(TALLIES, loader.KNOWN_TALLIES, name)


def tie_chain(name: str) -> Callable[[F], F]:
    return _register(TIE_CHAINS, loader.KNOWN_TIE_CHAINS, name)


def win_check(name: str) -> Callable[[F], F]:
    return _register(WIN_CHECKS, loader.KNOWN_WIN_CHECKS, name)
