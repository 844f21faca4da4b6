"""What a viewer outside a game's own flow may know of it: the one rule for every side door (issue 13).

Ratings, history, `/mafia game`, exports, logs and web pages show stored or live games to people who are
not told things by the host. They all ask here, so that a new screen cannot show a secret by accident:

* a **running** game shows its seats and its public events only. A role appears while the game runs only
  when the rules have shown it to everyone (``engine.view_for(state, None)["roles"]``: a hobbyworld lynch,
  a city elimination…), or to the seat that asks when it asks about itself through the engine's view;
* an **ended** game (finished, or stopped by a moderator: nothing is left to protect) shows everything,
  the host's own lines included.

Every function takes what it needs and returns new values; nothing here reads the clock or Discord.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

import engine

# The storage's read models (mafiabot.storage.reports.GameSummary, GameRecord) as this module uses them:
# storage reads its history through here, so naming its classes would be an import circle.
Summary = TypeVar("Summary")  # a frozen dataclass with status, role_id, side_id, result, points
Record = TypeVar("Record")  # a frozen dataclass with game (status, ruleset_id…), participants, commands…

HIDDEN = ""  # the role or side id of a seat whose card is still face down
# storage.models.GameStatus.FINISHED and .ABORTED (a test keeps them equal); any other status is running.
ENDED = frozenset({"finished", "aborted"})


def is_over(status: str) -> bool:
    """True once nothing of the game is secret any more (every status but running)."""
    return status in ENDED


def roles_known(
    status: str,
    roles: Mapping[int, str],
    state: engine.GameState | None = None,
    seat: int | None = None,
) -> dict[int, str]:
    """The roles by seat that ``seat`` (``None``: anyone) may know of a game in ``status``.

    After the end: all of ``roles``. While it runs: what the engine's view of ``state`` shows that seat
    (nothing at all when the live state is not at hand: hiding a shown role is not a leak, the reverse is).
    """
    if is_over(status):
        return dict(roles)
    if state is None:
        return {}
    return {int(x): role for x, role in engine.view_for(state, seat)["roles"].items()}


def events_known(status: str, events: Iterable[engine.Event], seat: int | None = None) -> list[engine.Event]:
    """The events of a game that ``seat`` (``None``: anyone) may read: all of them after the end, else the
    engine's own audience filter (public ones for ``None``)."""
    if is_over(status):
        return list(events)
    return engine.events_for(events, seat)


def summary_shown(summary: Summary) -> Summary:
    """A history line's game as anyone may see it: a running game keeps its seat, not its role or side."""
    shown: Any = summary
    if is_over(shown.status):
        return summary
    hidden: Summary = dataclasses.replace(shown, role_id=HIDDEN, side_id=HIDDEN, result=None, points=0.0)
    return hidden


def record_shown(record: Record, state: engine.GameState | None = None) -> Record:
    """A stored game as anyone may see it. A running game keeps its seats, players, fouls (announced at
    the table) and the roles the rules have shown (from ``state`` when at hand); its command log (night
    targets) and rating changes (none yet) are left out."""
    stored: Any = record
    if is_over(stored.game.status):
        return record
    known = roles_known(stored.game.status, {}, state)
    participants = [
        p.model_copy(
            update={
                "role_id": known.get(p.seat, HIDDEN),
                "side_id": state.ruleset.roles[known[p.seat]].side if state and p.seat in known else HIDDEN,
                "result": None,
                "points": 0.0,
            }
        )
        for p in stored.participants
    ]
    shown: Record = dataclasses.replace(stored, participants=participants, commands=[], rating_changes=[])
    return shown


def replay(record: Any) -> tuple[engine.GameState, list[engine.Event], list[str]]:
    """The stored game rebuilt from its command log: the state reached, every event in order, and a note
    for each stored command that no longer applies (an old log under newer rules)."""
    game = record.game
    ruleset = engine.load_ruleset(game.ruleset_id, game.options or {})
    roles = [p.role_id for p in sorted(record.participants, key=lambda p: p.seat)]
    immune = [int(x) for x in (game.timers or {}).get("immune") or []]  # city: kept with the game's clock
    state, events = engine.new_game(ruleset, roles, game.seed, immune=immune)
    everything = list(events)
    problems: list[str] = []
    for data in record.commands:
        try:
            state, more = engine.apply(state, engine.command_from_json(data))
        except (engine.EngineError, ValueError) as exc:
            problems.append(f"{data.get('type')}: {exc}")
            continue
        everything += more
    return state, everything, problems


def protocol_events(record: Any) -> tuple[dict[int, str], Sequence[engine.Event], list[str]]:
    """What anyone may read of a stored game's course: the roles known, the events known (in order), and
    the commands that did not apply (only after the end: they would name night targets)."""
    state, events, problems = replay(record)
    roles = {p.seat: p.role_id for p in record.participants}
    status = record.game.status
    return (
        roles_known(status, roles, state),
        events_known(status, events),
        problems if is_over(status) else [],
    )
