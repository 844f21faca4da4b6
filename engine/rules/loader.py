"""Load a ruleset: read TOML, resolve ``extends`` and options, validate against the schema, build.

Every problem is a :class:`RulesetError` naming the file and the key (``roles.doctor.abilities[0].kind``).
A ruleset that ``extends`` another is deep-merged over it: tables merge key by key, every other value
(lists included) replaces the base value. A selected option is a patch merged the same way.
"""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Iterable, Mapping
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from engine.errors import RulesetError
from engine.rules.model import (
    AbilityDef,
    ConductDef,
    RoleDef,
    Ruleset,
    StepDef,
    TeamDef,
    VotingDef,
)
from engine.rules.playable import check_playable
from engine.rules.schema import SCHEMA, check_schema

# Names registered by code modules; filled in by engine.registry at import time.
KNOWN_ABILITY_KINDS: set[str] = set()
KNOWN_DAY_STEPS: set[str] = set()
KNOWN_WIN_CHECKS: set[str] = set()
KNOWN_TALLIES: set[str] = set()
KNOWN_TIE_CHAINS: set[str] = set()
KNOWN_NIGHT_RESOLUTIONS: set[str] = {"standard"}  # "standard": engine.resolution.resolve_attempts


def deep_merge(base: Mapping[str, Any], patch: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in patch.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = deep_merge(out[k], v)
        else:
            out[k] = v
    return out


def _preset_dir() -> Any:
    return resources.files("engine").joinpath("presets")


def available_presets() -> list[str]:
    names = []
    for entry in _preset_dir().iterdir():
        name = entry.name
        if name.endswith(".toml") and name != "roles.toml":
            names.append(name[: -len(".toml")])
    return sorted(names)


def _read_toml(text: str, source: str) -> dict[str, Any]:
    """The TOML ``text`` parsed, as a dict of the caller's own: a preset is read once per variant that
    is loaded (the bot lists every option's player counts at start, over a hundred loads), and parsing
    was most of the bot's start-up, so a text already parsed is copied instead."""
    return copy.deepcopy(_parsed(text, source))


@lru_cache(maxsize=32)
def _parsed(text: str, source: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(source, "", f"malformed TOML: {exc}") from None


@lru_cache(maxsize=1)
def role_catalogue() -> Mapping[str, Mapping[str, str]]:
    """Every canonical role id of RULESETS.md section 3 with its side and default Russian name."""
    text = _preset_dir().joinpath("roles.toml").read_text(encoding="utf-8")
    data = _read_toml(text, "roles.toml")
    return {k: dict(v) for k, v in data["roles"].items()}


def _raw_preset(name: str, seen: tuple[str, ...] = ()) -> tuple[dict[str, Any], str]:
    path = Path(name)
    if path.suffix == ".toml" and path.exists():
        source = str(path)
        text = path.read_text(encoding="utf-8")
    else:
        entry = _preset_dir().joinpath(f"{name}.toml")
        if name == "roles" or not entry.is_file():
            known = ", ".join(available_presets())
            raise RulesetError(name, "", f"no such preset or file (presets: {known})")
        source = f"{name}.toml"
        text = entry.read_text(encoding="utf-8")
    data = _read_toml(text, source)
    parent = data.get("extends")
    if parent is not None:
        if not isinstance(parent, str):
            raise RulesetError(source, "extends", "must be a preset name or a file path")
        if parent in seen:
            raise RulesetError(source, "extends", f"circular extends through {parent!r}")
        base, _ = _raw_preset(parent, (*seen, name))
        data = deep_merge(base, data)
        data.pop("extends")
    return data, source


def load_ruleset(name: str, options: Mapping[str, Any] | Iterable[str] | None = None) -> Ruleset:
    """Load a bundled preset by id, or a TOML file by path, with named options applied."""
    selected = _option_names(options)
    return _load_cached(name, selected)


def _option_names(options: Mapping[str, Any] | Iterable[str] | None) -> tuple[str, ...]:
    if options is None:
        return ()
    if isinstance(options, Mapping):
        return tuple(sorted(k for k, v in options.items() if v))
    return tuple(sorted(options))


@lru_cache(maxsize=256)
def _load_cached(name: str, selected: tuple[str, ...]) -> Ruleset:
    raw, source = _raw_preset(name)
    check_schema(raw, SCHEMA, "", source)
    declared = raw.get("options", {})
    for opt in selected:
        if opt not in declared:
            known = ", ".join(sorted(declared)) or "none"
            raise RulesetError(
                source,
                f"options.{opt}",
                f"unknown option (known: {known})",
                says="option-unknown",
                option=opt,
            )
    _check_option_pairs(declared, selected, source)
    for opt in selected:
        patch = declared[opt].get("patch", {})
        raw = deep_merge(raw, patch)
        try:
            # A patch that breaks the schema is reported at its own key inside the option.
            check_schema(raw, SCHEMA, "", source)
        except RulesetError as exc:
            raise RulesetError(source, f"options.{opt}.patch.{exc.key}", exc.message) from None
        added = list(declared[opt].get("add_extras", []))
        for i, rid in enumerate(added):
            if rid not in raw["roles"]:
                key = f"options.{opt}.add_extras[{i}]"
                raise RulesetError(source, key, f"role {rid!r} is not in this ruleset")
        extras = list(raw.get("composition", {}).get("extras", [])) + added
        raw = deep_merge(raw, {"composition": {"extras": extras}})
    check_schema(raw, SCHEMA, "", source + (f" with options {', '.join(selected)}" if selected else ""))
    return _build(raw, source, selected)


def with_requirements(name: str, option: str) -> tuple[str, ...]:
    """``option`` together with the options it needs (and those need), as a set to pass to
    :func:`load_ruleset` where one variant is wanted on its own."""
    raw, _ = _raw_preset(name)
    declared = raw.get("options", {})
    wanted, todo = {option}, [option]
    while todo:
        for other in declared.get(todo.pop(), {}).get("requires", []):
            if other not in wanted:
                wanted.add(other)
                todo.append(other)
    return tuple(sorted(wanted))


def _check_option_pairs(declared: dict[str, Any], selected: tuple[str, ...], source: str) -> None:
    """An option may need another (a sub-variant of the judges' game needs the judges) or rule one out
    (variant 1 of the judges' game has no lawyer). The message is for the player who picks them."""
    for opt, spec in declared.items():
        for field in ("requires", "excludes"):
            for i, other in enumerate(spec.get(field, [])):
                if other not in declared or other == opt:
                    raise RulesetError(source, f"options.{opt}.{field}[{i}]", f"unknown option {other!r}")
    for opt in selected:
        spec = declared[opt]
        what = spec["description"]
        for other in spec.get("requires", []):
            if other not in selected:
                message = f"вариант «{what}» играется только вместе с «{declared[other]['description']}»"
                raise RulesetError(
                    source, f"options.{opt}", message, says="option-requires", option=opt, other=other
                )
        for other in spec.get("excludes", []):
            if other in selected:
                message = f"вариант «{what}» нельзя сочетать с «{declared[other]['description']}»"
                raise RulesetError(
                    source, f"options.{opt}", message, says="option-excludes", option=opt, other=other
                )


def _build(raw: dict[str, Any], source: str, selected: tuple[str, ...]) -> Ruleset:
    catalogue = role_catalogue()
    sides = tuple(raw["sides"])
    roles: dict[str, RoleDef] = {}
    for rid, r in raw["roles"].items():
        key = f"roles.{rid}"
        if rid not in catalogue:
            raise RulesetError(source, key, "unknown role id (see RULESETS.md section 3)")
        abilities = []
        for i, a in enumerate(r.get("abilities", [])):
            akey = f"{key}.abilities[{i}]"
            if a["kind"] not in KNOWN_ABILITY_KINDS:
                raise RulesetError(source, f"{akey}.kind", f"unknown ability kind {a['kind']!r}")
            self_target = a.get("self_target", "never")
            if self_target not in ("never", "always", "once"):
                raise RulesetError(source, f"{akey}.self_target", "must be never, always or once")
            abilities.append(
                AbilityDef(
                    kind=a["kind"],
                    step=a["step"],
                    optional=a.get("optional", True),
                    self_target=self_target,
                    not_same_twice=a.get("not_same_twice", False),
                    uses=a.get("uses", 0),
                    from_night=a.get("from_night", 1),
                    targets=a.get("targets", 1),
                    act=a.get("act", ""),
                    params=dict(a.get("params", {})),
                )
            )
        side = catalogue[rid]["side"]
        if side not in sides:
            raise RulesetError(source, key, f"role side {side!r} is not among the sides of this ruleset")
        status = r.get("status", "mafia" if side == "mafia" else "honest")
        roles[rid] = RoleDef(
            id=rid,
            side=side,
            display=r.get("display", catalogue[rid]["display"]),
            description=r.get("description", catalogue[rid].get("description", "")),
            team=r.get("team", ""),
            status=status,
            night_immune=r.get("night_immune", False),
            abilities=tuple(abilities),
            joins_team_on_loss=r.get("joins_team_on_loss", False),
            reveal_on_leave=r.get("reveal_on_leave", False),
            counts_for_win=r.get("counts_for_win", True),
            impostor=r.get("impostor", False),
            lives=r.get("lives", 1),
        )
    teams: dict[str, TeamDef] = {}
    for tid, t in raw.get("teams", {}).items():
        if t["side"] not in sides:
            raise RulesetError(source, f"teams.{tid}.side", f"unknown side {t['side']!r}")
        if t.get("leader") and t["leader"] not in roles:
            raise RulesetError(source, f"teams.{tid}.leader", f"role {t['leader']!r} is not in this ruleset")
        tie = t.get("tie", "miss")
        if tie not in ("miss", "leader", "designate"):
            raise RulesetError(source, f"teams.{tid}.tie", "must be miss, leader or designate")
        teams[tid] = TeamDef(
            id=tid,
            side=t["side"],
            kill_step=t.get("kill_step", ""),
            tie=tie,
            leader=t.get("leader", ""),
            show_roles=t.get("show_roles", False),
            show_leader=t.get("show_leader", False),
            chat=t.get("chat", False),
        )
    for rid, role in roles.items():
        if role.team and role.team not in teams:
            raise RulesetError(source, f"roles.{rid}.team", f"unknown team {role.team!r}")
    night = raw.get("night", {})
    params = raw.get("params", {})
    steps = tuple(
        _step(s, f"night.steps[{i}]", source, roles, teams)
        for i, s in enumerate(night["steps"])
        if _wanted(s, params, f"night.steps[{i}]", source)
    )
    intro = tuple(
        _step(s, f"night.intro[{i}]", source, roles, teams)
        for i, s in enumerate(night.get("intro", []))
        if _wanted(s, params, f"night.intro[{i}]", source)
    )
    step_ids = {s.id for s in steps}
    for rid, role in roles.items():
        for i, a in enumerate(role.abilities):
            if a.step not in step_ids:
                raise RulesetError(source, f"roles.{rid}.abilities[{i}].step", f"no night step {a.step!r}")
    for tid, team in teams.items():
        if team.kill_step and team.kill_step not in step_ids:
            raise RulesetError(source, f"teams.{tid}.kill_step", f"no night step {team.kill_step!r}")
    day = raw["day"]
    for which in ("first", "normal"):
        for i, name in enumerate(day[which]):
            if name not in KNOWN_DAY_STEPS:
                raise RulesetError(source, f"day.{which}[{i}]", f"unknown day step {name!r}")
    voting_raw = raw.get("voting", {})
    voting = VotingDef(**voting_raw)
    if voting.tally not in KNOWN_TALLIES:
        raise RulesetError(source, "voting.tally", f"unknown tally {voting.tally!r}")
    if voting.ties not in KNOWN_TIE_CHAINS:
        raise RulesetError(source, "voting.ties", f"unknown tie rule {voting.ties!r}")
    if voting.abstain not in ("allowed", "last_candidate"):
        raise RulesetError(source, "voting.abstain", "must be allowed or last_candidate")
    if raw["win_check"] not in KNOWN_WIN_CHECKS:
        raise RulesetError(source, "win_check", f"unknown win check {raw['win_check']!r}")
    cycle, intro_phases, loop_phases, kinds = _phases(raw, source, steps)
    phase_names = {"day": "День", "night": "Ночь", **raw.get("phase_names", {})}
    for name in (*intro_phases, *loop_phases):
        if name not in phase_names:
            raise RulesetError(source, f"phase_names.{name}", "every phase needs its Russian name")
    compositions: dict[int, dict[str, int]] = {}
    for n, table in raw.get("compositions", {}).items():
        if not n.isdigit():
            raise RulesetError(source, f"compositions.{n}", "keys are player counts")
        for rid, _count in table.items():
            if rid not in roles:
                raise RulesetError(source, f"compositions.{n}.{rid}", "role is not in this ruleset")
        if sum(table.values()) != int(n):
            raise RulesetError(source, f"compositions.{n}", f"roles add up to {sum(table.values())}, not {n}")
        compositions[int(n)] = dict(table)
    comp = raw.get("composition", {})
    for i, rid in enumerate(comp.get("extras", [])):
        if rid not in roles:
            raise RulesetError(source, f"composition.extras[{i}]", f"role {rid!r} is not in this ruleset")
    conduct_raw = raw.get("conduct", {})
    thresholds = {}
    for k, v in conduct_raw.get("thresholds", {}).items():
        if not k.isdigit() or v not in ("no_speech", "no_vote", "removed"):
            raise RulesetError(source, f"conduct.thresholds.{k}", "count = no_speech | no_vote | removed")
        thresholds[int(k)] = v
    conduct = ConductDef(
        kind=conduct_raw.get("kind", "none"),
        thresholds=thresholds,
        daily_reset=conduct_raw.get("daily_reset", False),
        reasons=tuple(conduct_raw.get("reasons", [])),
    )
    if conduct.kind not in ("none", "fouls", "bans"):
        raise RulesetError(source, "conduct.kind", "must be none, fouls or bans")
    deaths = night.get("deaths", "end_of_night")
    if deaths not in ("end_of_night", "immediate"):
        raise RulesetError(source, "night.deaths", "must be end_of_night or immediate")
    resolution = night.get("resolve", "standard")
    if resolution not in KNOWN_NIGHT_RESOLUTIONS:
        raise RulesetError(source, "night.resolve", f"unknown night resolution {resolution!r}")
    check_playable(raw, source, roles, teams)
    reveal = raw.get("reveal", {})
    return Ruleset(
        id=raw["id"],
        title=raw["title"],
        summary=raw.get("summary", ""),
        source=raw.get("source", source),
        sides=sides,
        roles=roles,
        teams=teams,
        night_steps=steps,
        intro_night=intro,
        cycle=cycle,
        day_first=tuple(day["first"]),
        day_normal=tuple(day["normal"]),
        voting=voting,
        timers=dict(raw.get("timers", {})),
        compositions=compositions,
        composition_extras=tuple(comp.get("extras", [])),
        composition_split=dict(comp.get("split", {})),
        win_check=raw["win_check"],
        night_deaths=deaths,
        call_dead_roles=night.get("call_dead_roles", False),
        reveal_on_vote=reveal.get("on_vote", True),
        reveal_on_night_death=reveal.get("on_night_death", True),
        phrases=dict(raw.get("phrases", {})),
        conduct=conduct,
        options={k: v["description"] for k, v in raw.get("options", {}).items()},
        selected_options=selected,
        params=dict(raw.get("params", {})),
        night_resolution=resolution,
        blocks_known=night.get("blocks_known", False),
        intro_phases=intro_phases,
        loop_phases=loop_phases,
        phase_kinds=kinds,
        phase_names=phase_names,
    )


def _phases(
    raw: dict[str, Any], source: str, steps: tuple[StepDef, ...]
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], dict[str, str]]:
    """The phase cycle. ``cycle`` lists the repeating phases; without ``intro_phases`` its first phase
    is also the intro phase and the cycle goes on from the second (``["night", "day"]``: intro night,
    day 1, night, …). ``phase_kinds`` says which phases talk and vote and which wake roles in turn
    (default: ``day`` talks, ``night`` has steps)."""
    cycle = tuple(raw.get("cycle", ["night", "day"]))
    kinds = dict(raw.get("phase_kinds", {"night": "steps", "day": "talk"}))
    for name, kind in kinds.items():
        if kind not in ("talk", "steps"):
            raise RulesetError(source, f"phase_kinds.{name}", "must be talk or steps")
    if "intro_phases" in raw:
        intro, loop = tuple(raw["intro_phases"]), cycle
    else:
        intro, loop = cycle[:1], cycle[1:] + cycle[:1]
    for key, names in (("cycle", cycle), ("intro_phases", intro)):
        for i, name in enumerate(names):
            if not isinstance(name, str) or name not in kinds:
                raise RulesetError(source, f"{key}[{i}]", f"phase {name!r} has no kind in phase_kinds")
    if "phase_kinds" not in raw and sorted(cycle) != ["day", "night"]:
        raise RulesetError(source, "cycle", 'must be ["night", "day"] or ["day", "night"]')
    if not loop or {kinds[p] for p in loop} != {"talk", "steps"}:
        raise RulesetError(source, "cycle", "needs a talking phase and a phase of steps")
    for i, step in enumerate(steps):
        if step.phase and (step.phase not in loop or kinds[step.phase] != "steps"):
            raise RulesetError(source, f"night.steps[{i}].phase", f"{step.phase!r} is no phase of steps")
    return cycle, intro, loop, kinds


def _wanted(s: dict[str, Any], params: Mapping[str, Any], key: str, source: str) -> bool:
    """A step with ``when = "<param>"`` is played only while that key of [params] is true, one with
    ``when = "!<param>"`` only while it is false: a club's choice that changes the night's steps stays one
    key (FIIM D-FI4 ``night0_checks``: the zero night's acquaintance or checks)."""
    when = str(s.get("when", ""))
    if not when:
        return True
    name = when.removeprefix("!")
    if name not in params:
        raise RulesetError(source, f"{key}.when", f"no key {name!r} in [params]")
    return bool(params[name]) != when.startswith("!")


def _step(
    s: dict[str, Any], key: str, source: str, roles: Mapping[str, RoleDef], teams: Mapping[str, TeamDef]
) -> StepDef:
    s = {k: v for k, v in s.items() if k != "when"}
    if bool(s.get("role")) == bool(s.get("team")):
        raise RulesetError(source, key, "a step names exactly one of role or team")
    if s.get("role") and s["role"] not in roles:
        raise RulesetError(source, f"{key}.role", f"role {s['role']!r} is not in this ruleset")
    if s.get("team") and s["team"] not in teams:
        raise RulesetError(source, f"{key}.team", f"unknown team {s['team']!r}")
    if s.get("kind", "act") not in ("act", "meet"):
        raise RulesetError(source, f"{key}.kind", "must be act or meet")
    if s.get("shows") and (s.get("kind") != "meet" or s["shows"] not in teams):
        raise RulesetError(source, f"{key}.shows", "a meet step may show the members of a known team")
    return StepDef(**s)
