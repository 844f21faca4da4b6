"""The schema of a ruleset file: which keys a table may hold, which are required, and their types.

:func:`check_schema` walks a TOML document against it; every problem is a :class:`RulesetError` naming
the file and the key (``roles.doctor.abilities[0].kind``). What the keys mean is checked when the
ruleset is built (:mod:`engine.rules.loader`).
"""

from __future__ import annotations

from typing import Any

from engine.errors import RulesetError

# A schema maps each allowed key to a type, a nested schema (dict), ("map", schema) for a table with
# free keys, or ("list", schema) for an array. A key ending in "!" is required.
_ABILITY = {
    "kind!": str,
    "step!": str,
    "optional": bool,
    "self_target": str,
    "not_same_twice": bool,
    "uses": int,
    "from_night": int,
    "targets": int,
    "act": str,
    "params": dict,
}
_ROLE = {
    "display": str,
    "description": str,
    "team": str,
    "status": str,
    "night_immune": bool,
    "abilities": ("list", _ABILITY),
    "joins_team_on_loss": bool,
    "reveal_on_leave": bool,
    "counts_for_win": bool,
    "impostor": bool,
    "lives": int,
}
_TEAM = {
    "side!": str,
    "kill_step": str,
    "tie": str,
    "leader": str,
    "show_roles": bool,
    "show_leader": bool,
    "chat": bool,
}
_STEP = {
    "id!": str,
    "role": str,
    "team": str,
    "wake": str,
    "sleep": str,
    "kind": str,
    "from_night": int,
    "phase": str,
    "shows": str,
    "when": str,
}
SCHEMA: dict[str, Any] = {
    "id!": str,
    "title!": str,
    "summary": str,
    "source": str,
    "extends": str,
    "sides!": list,
    "roles!": ("map", _ROLE),
    "teams": ("map", _TEAM),
    "night": {
        "steps!": ("list", _STEP),
        "intro": ("list", _STEP),
        "deaths": str,
        "call_dead_roles": bool,
        "resolve": str,
        "blocks_known": bool,
    },
    "cycle": list,
    "intro_phases": list,
    "phase_kinds": ("map", str),
    "phase_names": ("map", str),
    "day": {"first!": list, "normal!": list},
    "voting": {
        "tally": str,
        "abstain": str,
        "ties": str,
        "min_candidates": int,
        "self_nomination": bool,
        "self_vote": bool,
        "nominations_per_player": int,
        "no_candidates": str,
        "foul_refusals": bool,
        "withdraw": bool,
    },
    "timers": ("map", int),
    "compositions": ("map", ("map", int)),
    "composition": {"extras": list, "split": ("map", str)},
    "win_check!": str,
    "reveal": {"on_vote": bool, "on_night_death": bool},
    "phrases": ("map", str),
    "conduct": {"kind": str, "thresholds": ("map", str), "daily_reset": bool, "reasons": list},
    "options": (
        "map",
        {"description!": str, "patch": dict, "add_extras": list, "requires": list, "excludes": list},
    ),
    "params": dict,
}


def check_schema(value: Any, spec: Any, key: str, source: str) -> None:
    if isinstance(spec, dict):
        if not isinstance(value, dict):
            raise RulesetError(source, key, "must be a table")
        allowed = {k.rstrip("!"): v for k, v in spec.items()}
        for k in value:
            if k not in allowed:
                raise RulesetError(source, _join(key, k), "unknown key")
        for k, sub in spec.items():
            name = k.rstrip("!")
            if name in value:
                check_schema(value[name], sub, _join(key, name), source)
            elif k.endswith("!"):
                raise RulesetError(source, _join(key, name), "missing required key")
    elif isinstance(spec, tuple) and spec[0] == "map":
        if not isinstance(value, dict):
            raise RulesetError(source, key, "must be a table")
        for k, v in value.items():
            check_schema(v, spec[1], _join(key, k), source)
    elif isinstance(spec, tuple) and spec[0] == "list":
        if not isinstance(value, list):
            raise RulesetError(source, key, "must be an array")
        for i, v in enumerate(value):
            check_schema(v, spec[1], f"{key}[{i}]", source)
    elif spec is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise RulesetError(source, key, f"must be an integer, not {value!r}")
    elif not isinstance(value, spec):
        raise RulesetError(source, key, f"must be of type {spec.__name__}, not {type(value).__name__}")


def _join(key: str, sub: str) -> str:
    return f"{key}.{sub}" if key else sub
