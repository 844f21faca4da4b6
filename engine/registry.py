"""Registries of the few pieces of rules that are code: ability kinds, day steps, tallies, tie
chains, win checks, night resolutions and custom step kinds. Rulesets name them; the loader rejects
names nobody registered."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from engine.rules import loader

F = TypeVar("F", bound=Callable[..., Any])

ABILITY_KINDS: dict[str, Any] = {}
# Kinds whose user learns something: an ineffective user is told he learned nothing (D-H5).
INFORMING_KINDS: set[str] = set()
DAY_STEPS: dict[str, Callable[..., Any]] = {}
TALLIES: dict[str, Callable[..., Any]] = {}
TIE_CHAINS: dict[str, Callable[..., Any]] = {}
WIN_CHECKS: dict[str, Callable[..., Any]] = {}
NIGHT_RESOLUTIONS: dict[str, Callable[..., Any]] = {}
# Step kinds beyond the core ones (``speech``, ``vote``, …): an object with ``advance(s, out)`` and,
# where the step takes votes, ``vote(s, seat, candidate, out)`` and ``voters(s)`` (with ``choices(s,
# seat)`` where a voter picks among several); where it takes a day ability, ``actors(s)``,
# ``targets(s, seat)`` and ``act(s, seat, targets, out)``; ``offer(s, seat, out)`` where it is the
# preset's acquittal; ``free_talk = True`` where everyone living may talk during it; ``record_key`` and
# ``record(s, entries)`` where a game record has a day key of its own (engine.record).
STEP_KINDS: dict[str, Any] = {}
# Called at the end of every game, after ``game_over`` (classic bets are settled there, D-CL14); each
# hook looks at the ruleset itself and does nothing where its variant is not played.
GAME_OVER_HOOKS: list[Callable[..., Any]] = []
# What a nomination does first where the preset's ``params.withdraw`` names it (FIIM's ``"auto"``: the
# speaker's earlier nomination gives way, D-FI8): ``hook(s, seat, target, out)``, before the nomination is
# checked.
WITHDRAWALS: dict[str, Callable[..., Any]] = {}
# Composition pickers: a preset whose table has ranges names one in ``params.composer``.
COMPOSERS: dict[str, Callable[..., Any]] = {}
# The book's rules on who may sit at the table, by composer: a game record's seats are checked against
# them (the bot's decks come from the composer, which keeps them); ``check(ruleset, roles)`` returns the
# problem and its rule, or None.
SEAT_CHECKS: dict[str, Callable[..., Any]] = {}


def _register(table: dict[str, Any], known: set[str], name: str) -> Callable[[F], F]:
    def deco(obj: F) -> F:
        if name in table:
            raise ValueError(f"{name!r} is registered twice")
        table[name] = obj
        known.add(name)
        return obj

    return deco


def ability_kind(name: str, informs: bool = False) -> Callable[[F], F]:
    if informs:
        INFORMING_KINDS.add(name)
    return _register(ABILITY_KINDS, loader.KNOWN_ABILITY_KINDS, name)


def day_step(name: str) -> Callable[[F], F]:
    return _register(DAY_STEPS, loader.KNOWN_DAY_STEPS, name)


def tally(name: str) -> Callable[[F], F]:
    return _register(TALLIES, loader.KNOWN_TALLIES, name)


def tie_chain(name: str) -> Callable[[F], F]:
    return _register(TIE_CHAINS, loader.KNOWN_TIE_CHAINS, name)


def win_check(name: str) -> Callable[[F], F]:
    return _register(WIN_CHECKS, loader.KNOWN_WIN_CHECKS, name)


def night_resolution(name: str) -> Callable[[F], F]:
    """The dawn of a night: kill attempts meet protections; returns the night's victims."""
    return _register(NIGHT_RESOLUTIONS, loader.KNOWN_NIGHT_RESOLUTIONS, name)


def step_kind(name: str) -> Callable[[F], F]:
    return _register(STEP_KINDS, set(), name)


def composer(name: str) -> Callable[[F], F]:
    return _register(COMPOSERS, set(), name)


def seat_check(name: str) -> Callable[[F], F]:
    return _register(SEAT_CHECKS, set(), name)


def game_over_hook(fn: F) -> F:
    GAME_OVER_HOOKS.append(fn)
    return fn
