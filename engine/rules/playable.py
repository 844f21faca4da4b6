"""Checks that a ruleset can be played, made when it is loaded (after the schema and the names).

A ruleset that passes the schema may still be one nobody can play: a timer of no time, a table without
any mafia, a deck with a role the ruleset does not have. Each is refused here with a
:class:`RulesetError` naming the file and the key, so that a server's variant fails when it is loaded,
not in the middle of a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import RulesetError
from engine.rules.model import RoleDef, TeamDef

# Timers that may be 0, meaning the moment is left out (D-H21: «нет последнего слова», farewell = 0).
MAY_BE_OFF = frozenset({"farewell"})


def check_playable(
    raw: Mapping[str, Any], source: str, roles: Mapping[str, RoleDef], teams: Mapping[str, TeamDef]
) -> None:
    _check_timers(raw.get("timers", {}), source)
    _check_compositions(raw.get("compositions", {}), source, roles, teams)
    _check_deck(raw.get("params", {}).get("deck"), source, roles)


def _check_timers(timers: Mapping[str, int], source: str) -> None:
    for name, seconds in timers.items():
        if seconds < 0 or (seconds == 0 and name not in MAY_BE_OFF):
            need = "0 (left out) or more" if name in MAY_BE_OFF else "a positive number of"
            raise RulesetError(source, f"timers.{name}", f"must be {need} seconds, not {seconds}")


def _check_compositions(
    tables: Mapping[str, Mapping[str, int]],
    source: str,
    roles: Mapping[str, RoleDef],
    teams: Mapping[str, TeamDef],
) -> None:
    """Every table deals at least one member of a team that kills at night (the mafia; blood's
    hunters): without one the town has won before the first night."""
    for n, table in tables.items():
        for rid, count in table.items():
            if count < 0:
                raise RulesetError(source, f"compositions.{n}.{rid}", f"a count of {count} cards")
        killers = [
            rid
            for rid, count in table.items()
            if count > 0 and roles[rid].team and teams[roles[rid].team].kill_step
        ]
        if not killers:
            named = ", ".join(tid for tid, t in teams.items() if t.kill_step) or "none in this ruleset"
            message = f"no mafia at this table (teams that kill at night: {named})"
            raise RulesetError(source, f"compositions.{n}", message)


def _check_deck(deck: Any, source: str, roles: Mapping[str, RoleDef]) -> None:
    """``params.deck`` (D-CL16, the whole deck): an array of role ids, or a table of counts."""
    if deck is None:
        return
    if isinstance(deck, Mapping):
        entries = [(f"params.deck.{rid}", rid) for rid in deck]
        for rid, count in deck.items():
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise RulesetError(source, f"params.deck.{rid}", f"a count of cards, not {count!r}")
    elif isinstance(deck, list):
        entries = [(f"params.deck[{i}]", rid) for i, rid in enumerate(deck)]
    else:
        raise RulesetError(source, "params.deck", "an array of role ids or a table of counts")
    for key, rid in entries:
        if not isinstance(rid, str) or rid not in roles:
            raise RulesetError(source, key, f"role {rid!r} is not in this ruleset")
