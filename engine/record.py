"""Game records: a compact, human-writable script of a game, replayed through the engine.

The format is the fixed contract of the project (README, "Game records"). :func:`play_record` turns
each phase of the script into engine commands in the order the preset runs them; anything the rules
forbid raises :class:`RecordError` naming the phase and the entry (and the rule that forbids it). The
days are replayed by :mod:`engine.record_day`.

Day keys beyond the contract's, read by the step kinds that declare them (``record_key``):
``"court": [[accused, [judges voting «казнить»]], …]`` and ``"court_choice": [[judge, candidate], …]``
(classic judges), ``"golden_minute": [seat, …]``, ``"bets": [[seat, target], …]`` and ``"cards":
[[seat, "hidden" | "opponent"], …]`` (the two-player game). Where a day has several rounds of
nominations (a judges' day after a spare), ``"nominations"`` and ``"votes"`` may list one group per
round: ``[[[8, 7]], [[7, 1]]]``, every ballot of the day in order.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from pathlib import PurePath
from typing import Any

from engine.commands import Act, Advance, Command, Propose, Remove, TeamAct, command_from_json
from engine.errors import EngineError, IllegalCommand
from engine.game import new_game
from engine.record_day import DAY_KEYS, PHASE_FORMS, replay_day
from engine.registry import SEAT_CHECKS
from engine.replaying import RecordError, Replay
from engine.rules import load_ruleset
from engine.seats import holders_of
from engine.state import GameState

__all__ = ["DAY_KEYS", "RecordError", "Replay", "play_record"]


def play_record(record: Mapping[str, Any]) -> Replay:
    record = copy.deepcopy(record)  # the replay takes entries off its lists; the caller's record stays
    for key in ("ruleset", "seats"):
        if key not in record:
            raise RecordError(f"record: missing key {key!r}")
    if ("script" in record) == ("commands" in record):
        raise RecordError("record: a record has a script or (the bot's protocol) the commands of the game")
    unknown = set(record) - {"ruleset", "options", "seed", "seats", "script", "commands", "players"}
    if unknown:
        raise RecordError(f"record: unknown keys {sorted(unknown)}")
    raw = record.get("options") or {}
    if isinstance(raw, list) and all(isinstance(o, str) for o in raw):
        raw = dict.fromkeys(raw, True)  # README: «{"maniac": true} or a list»
    if not isinstance(raw, dict):
        raise RecordError('options: an object ({"maniac": true}) or a list of option ids (["maniac"])')
    options = dict(raw)
    # City D-C5: ``"immunity": [seats]`` carries the immunity earned in the previous game.
    immune = options.pop("immunity", [])
    if not isinstance(immune, list):
        raise RecordError("options.immunity: a list of seats")
    ruleset = load_ruleset(str(record["ruleset"]), options)
    seats = record["seats"]
    if not isinstance(seats, list) or not all(isinstance(r, str) for r in seats):
        raise RecordError("record: seats must be a list of role ids")
    for i, role in enumerate(seats):
        if role not in ruleset.roles:
            known = ", ".join(ruleset.roles)
            raise RecordError(
                f"seats[{i}]: unknown role {role!r} for the preset {ruleset.id!r} (its role ids: {known})"
            )
    check = SEAT_CHECKS.get(str(ruleset.params.get("composer", "")))
    problem = check(ruleset, seats) if check else None
    if problem:
        raise RecordError(f"seats: {problem[0]}", problem[1])
    seed = record.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError(f"seed: a whole number, not {seed!r}")
    try:
        state, events = new_game(ruleset, seats, seed, immune=[int(x) for x in immune])
    except IllegalCommand as exc:
        raise RecordError(f"seats: {exc}") from None
    rp = Replay(ruleset, state, events)
    if "commands" in record:
        _commands(rp, record["commands"])
        return rp
    script = record["script"]
    if not isinstance(script, list):
        raise RecordError("record: script must be a list of phases")
    expected = rp.state.position
    for i, phase in enumerate(script):
        if not isinstance(phase, dict) or len(phase) != 1:
            raise RecordError(f"script[{i}]: each phase is an object with one key (night or day)")
        ((name, value),) = phase.items()
        rp.where = f"script[{i}] ({name})"
        if rp.state.over:
            raise rp.fail(
                phase,
                "the game is already over",
                "README, Game records: «a phase after the end of the game is an error»",
            )
        if expected < rp.state.position and name == rp.ruleset.phase_at(expected):
            # A phase of steps where nobody could act passed without waiting (blood's dawn without dawn
            # roles): the script may name it, with nothing in it.
            if value not in ([], {}, {"actions": []}):
                why, rule = _why_nobody_acts(rp, value)
                raise rp.fail(phase, "nobody could act in this phase" + why, rule)
            expected += 1
            continue
        expected = rp.state.position + 1
        if name != rp.state.phase_name:
            raise rp.fail(
                name,
                f"the engine expects the phase {rp.state.phase_name!r} here{_opening_hint(rp, i)}",
                "README, Game records: «script lists the phases in the order the preset runs them»",
            )
        try:
            if rp.state.phase == "night":  # a phase of role steps, whatever the preset calls it
                _night(rp, value)
            else:
                replay_day(rp, value)
        except EngineError:
            raise
        except (ValueError, TypeError, IndexError, KeyError, AttributeError) as exc:
            # A seat written as a word, a list where a number goes: one line naming the phase, no traceback.
            raise rp.fail(
                value,
                f"an entry of this phase is not in the record's form ({type(exc).__name__}: {exc})",
                "README, Game records: seats and targets are numbers, each entry in the form its key "
                "documents",
            ) from None
    return rp


def _commands(rp: Replay, commands: Any) -> None:
    """The bot's protocol of a game: every command the game took, as ``Command.to_json`` writes it, in
    order (``players`` beside it names the seats). Replayed one by one, they give the game's events."""
    if not isinstance(commands, list):
        raise RecordError("record: commands must be a list of commands")
    for i, data in enumerate(commands):
        rp.where = f"commands[{i}]"
        if rp.state.over:
            raise rp.fail(data, "the game is already over")
        try:
            command = command_from_json(dict(data))
        except (ValueError, TypeError) as exc:
            raise rp.fail(data, f"not a command: {exc}") from None
        rp.send(command, data)


# -- night -----------------------------------------------------------------------------------------


def _night(rp: Replay, entries: Any) -> None:
    if isinstance(entries, dict) and set(entries) <= {"actions"}:
        entries = entries.get("actions", [])
    if not isinstance(entries, list):
        name = rp.state.phase_name
        raise rp.fail(
            entries,
            f"a {name} is a list of action entries here, e.g. "
            + (
                '[{"team": "hunters", "target": 5}]'
                if "hunters" in rp.ruleset.teams
                else '[{"seat": 3, "target": 5}]'
            )
            + " ([] if nobody acted)",
            PHASE_FORMS,
        )
    removals = [e for e in entries if isinstance(e, dict) and "removed" in e]
    for e in removals:
        if set(e) - {"removed", "reason", "step"} or not isinstance(e["removed"], int):
            raise rp.fail(
                e, 'a removal at night is {"removed": seat, "reason": …} (and "step": a step\'s id)'
            )
    pending = [(_night_entry(rp, e), e) for e in entries if e not in removals]
    night, position = rp.state.night, rp.state.position
    opened: set[str] = set()
    while rp.state.phase == "night" and rp.state.position == position and not rp.state.over:
        step = rp.state.step
        due = [
            e
            for e in removals
            if e.get("step", "") in ("", step.night_step) and step.night_step not in opened
        ]
        opened.add(step.night_step)
        for e in due:
            removals.remove(e)
            rp.send(Remove(seat=int(e["removed"]), reason=str(e.get("reason", ""))), e)
        if due:
            continue
        if step.kind == "question":
            rp.send(Advance())
            continue
        if step.kind == "night":
            # One entry per actor each time the step opens: a team's second entry is its extra shot.
            actors: set[object] = set()
            for item in [p for p in pending if p[0][0] == step.night_step]:
                (_, command), entry = item
                who = command.team if isinstance(command, TeamAct) else getattr(command, "seat", 0)
                if who in actors:
                    continue
                actors.add(who)
                pending.remove(item)
                if who in rp.state.prisoners() or _neutralised(rp.state, command):
                    continue  # a prisoner is woken but his choice has no effect (D-H15)
                rp.send(command, entry)
        rp.send(Advance())
    if removals:
        rule = "README, Game records: «a removal at night … as the night falls or as the named step opens»"
        raise rp.fail(removals[0], "this step was not called this night", rule)
    for (step_id, _), entry in pending:
        gone = _team_gone(rp, step_id)
        if gone:
            raise rp.fail(entry, *gone)
        raise rp.fail(entry, _why_not_called(rp, step_id, night), _step_rule(rp, step_id))


def _night_entry(rp: Replay, e: Any) -> tuple[str, Command]:
    s = rp.state
    if not isinstance(e, dict):
        raise rp.fail(e, "an action entry is an object")
    if "team" in e:
        if set(e) - {"team", "target", "seat"}:
            raise rp.fail(e, "a team entry has team and target (and seat, for one member's proposal)")
        team = e["team"]
        if team not in rp.ruleset.teams or not rp.ruleset.teams[team].kill_step:
            raise rp.fail(e, f"no team {team!r} shoots in this preset")
        step_id = rp.ruleset.teams[team].kill_step
        if "seat" in e:
            # One member's proposal (city D-C10: without the don every living member must pick, and only
            # identical picks make a target); the engine works out the team's target from them.
            seat = int(e["seat"])
            if not 1 <= seat <= s.n_seats:
                raise rp.fail(e, f"there is no seat {seat}")
            return step_id, Propose(seat=seat, target=int(e.get("target", 0)))
        return step_id, TeamAct(team=team, target=int(e.get("target", 0)))
    if set(e) - {"seat", "target", "targets", "act"} or "seat" not in e:
        raise rp.fail(e, "an action entry has seat and target (or targets, act)")
    seat = int(e["seat"])
    if not 1 <= seat <= s.n_seats:
        raise rp.fail(e, f"there is no seat {seat}")
    if seat not in s.alive:
        raise rp.fail(
            e,
            f"seat {seat} has been eliminated and cannot act",
            "D-G6: «Убитые не могут никаким образом участвовать в игре»",
        )
    targets = (
        tuple(int(t) for t in e["targets"])
        if "targets" in e
        else (int(e["target"]),)
        if "target" in e
        else ()
    )
    role = s.role_of(seat)
    act = str(e.get("act", ""))
    steps = [a.step for a in rp.ruleset.roles[role].abilities if not act or a.act == act]
    if not steps:
        message, rule = _no_ability(rp, seat, role, act)
        raise rp.fail(e, message, rule)
    return steps[0], Act(seat=seat, targets=targets, act=act)


def _no_ability(rp: Replay, seat: int, role: str, act: str) -> tuple[str, str]:
    """What an entry for a seat without that ability should have been, and the rule: the role's acts, or
    the team entry where the role only shoots with its team (a joined werewolf too, and a role whose own
    ability is another, such as city's don, whose shot was written as his «kill»); a dormant werewolf
    has none (D-CL7)."""
    abilities = rp.ruleset.roles[role].abilities
    acts = [a.act for a in abilities if a.act]
    team = rp.state.team_of(seat)
    shot = ""
    if team in rp.ruleset.teams and rp.ruleset.teams[team].kill_step:
        shot = (
            f'the team\'s shot is written {{"team": "{team}", "target": t}}, or '
            f'{{"team": "{team}", "seat": {seat}, "target": t}} for his proposal'
        )
    team_rule = (
        'README, Game records: «{"team": "mafia" | "yakuza" | "hunters", "target": t}: the team\'s target'
        " as the host takes it»"
    )
    if act and acts:
        listed = ", ".join(map(repr, acts))
        message = f"seat {seat} ({role}) has no night ability {act!r}: its acts are {listed}"
        if shot and act in _SHOT_WORDS:
            return f"{message}; {shot}", team_rule
        return message, ""
    if shot and (not abilities or act in _SHOT_WORDS):
        own = f"ability {act!r}" if act else "ability of his own"
        return f"seat {seat} ({role}) has no night {own}: {shot}", team_rule
    rule = ""
    if rp.ruleset.roles[role].joins_team_on_loss:
        rule = "D-CL7: before a clan member is eliminated the werewolf has no action, woken with nobody"
    return f"seat {seat} ({role}) has no night ability{' ' + repr(act) if act else ''}", rule


# What a checker may call a shot he writes as one member's own act.
_SHOT_WORDS = frozenset({"kill", "shoot", "shot", "murder"})


def _neutralised(s: GameState, command: Command) -> bool:
    """An entry that another role's action made ineffective where the actor is told so and cannot
    choose (city D-C7: blocked by the agent — a member's proposal too, when a member of his team is
    blocked; D-C8: the maniac after the ranger's shot)."""
    if isinstance(command, Propose):
        step = s.ruleset.night_step(s.step.night_step)
        blocked_team = bool(step.team) and step.team in s.ledger.team_miss
        return s.ruleset.blocks_known and blocked_team and command.seat in holders_of(s, step)
    if not isinstance(command, Act):
        return False
    if s.ruleset.blocks_known and command.seat in s.ledger.blocked:
        return True
    fired = {st for _, st, _ in s.ledger.chosen}
    abilities = s.ruleset.ability_for_step(s.role_of(command.seat), s.step.night_step)
    return any(a.params.get("not_after") in fired for a in abilities)


def _why_nobody_acts(rp: Replay, value: Any) -> tuple[str, str]:
    """Why a phase of steps passed without calling anyone, for the entries a record gives it: the team it
    names is gone (blood: every hunter out, the neophyte alone is not called), or every role that acts in
    it has left the table (D-G8)."""
    entries = value.get("actions", []) if isinstance(value, dict) else value
    for e in entries if isinstance(entries, list) else []:
        team = e.get("team") if isinstance(e, dict) else None
        if isinstance(team, str) and team in rp.ruleset.teams:
            gone = _team_gone(rp, rp.ruleset.teams[team].kill_step)
            if gone:
                return f": {gone[0]}", gone[1]
    return (
        ": every role that acts in it has left the table or was never dealt",
        "D-G8: steps of roles eliminated on earlier days are skipped, and roles not in the composition are "
        "never called",
    )


def _team_gone(rp: Replay, step_id: str) -> tuple[str, str] | None:
    """Why a team's entry was not taken when nobody of the team is left to call, where dead roles are not
    called (D-G8): nobody was dealt into it, or every real member has left the table (an impostor who
    poses as one, the sleepwalker, is not called alone). The message and its rule."""
    step = next((st for st in rp.ruleset.night_steps if st.id == step_id), None)
    s = rp.state
    if step is None or not step.team or rp.ruleset.call_dead_roles:
        return None
    seats = rp.ruleset.seats_by_team(s.roles).get(step.team, ())
    real = [x for x in seats if not rp.ruleset.roles[s.role_of(x)].impostor]
    if not real:
        return (
            f"nobody at this table plays in the team {step.team!r}",
            "seed 000: «Разумеется, вызываются только те персонажи, которые находятся в игре»",
        )
    if not any(x in s.alive for x in real):
        return (
            f"every member of the team {step.team!r} (seats {real}) has left the table: the host no longer "
            "calls it",
            "D-G8, seed 000: «Если игрок с особой ролью убит, вызывать его ночью, разумеется, не нужно» "
            "(nor is an impostor woken alone: hobbyworld's sleepwalker, blood's neophyte, D-H7, D-B8)",
        )
    return None


def _why_not_called(rp: Replay, step_id: str, night: int) -> str:
    step = next((st for st in rp.ruleset.night_steps if st.id == step_id), None)
    phase = rp.where.rsplit("(", 1)[-1].rstrip(")")
    if step is not None and step.phase and step.phase != phase:
        return f"the step {step_id!r} belongs to the phase {step.phase!r}"
    if rp.state.night == night and rp.state.phase == "night":
        return "the game ended before this action"
    if rp.ruleset.intro_night and night == 1:
        return f"nobody acts on the acquaintance {phase}"
    if step is not None and step.from_night > night:
        return f"this step starts on night {step.from_night}"
    return f"the step {step_id!r} could not be used on night {night}"


# Where RULESETS.md gives a preset's night order and its acquaintance night, by the seed its ruleset cites.
_NIGHT_ORDER = {"000": "4.8", "001": "5.7", "002": "6.9", "003": "7.3", "004": "D-S1"}
_INTRO_NIGHT = {
    "000": "000: «Во время «вводной» ночи не происходит никакой стрельбы, а также никто не пользуется "
    "способностями.»",
    "001": "RULESETS.md 5.4: the intro night only wakes the roles to meet them (D-C3: it is night 0)",
    "002": "D-CL10: night 1 is the acquaintance only («Мафия проснулась и знакомится»); every ability "
    "starts on night 2",
    "004": "D-S2: an acquaintance night (the mafia incl. the don meet; no actions, no kills)",
}


def _seed(rp: Replay) -> str:
    """The number of the rulebook the preset plays (``"002"``), or ``""`` (fiim)."""
    return PurePath(rp.ruleset.source).name[:3]


def _step_rule(rp: Replay, step_id: str) -> str:
    """Why an action can only be taken at its step: the preset's acquaintance night, or its night order."""
    if rp.ruleset.intro_night and rp.state.night <= 1 and _seed(rp) in _INTRO_NIGHT:
        return _INTRO_NIGHT[_seed(rp)]
    order = ", ".join(st.id for st in rp.ruleset.night_steps)
    where = _NIGHT_ORDER.get(_seed(rp), "the preset's night")
    where = where if where.startswith("D-") else f"RULESETS.md {where}"
    return f"{where}: a role acts only when the host calls its step, in the night order ({order})"


def _opening_hint(rp: Replay, index: int) -> str:
    """For a script whose first phase is wrong: how the preset's game opens (a checker's usual slip is to
    leave out classic's introductions day or simple's acquaintance night)."""
    if index != 0:
        return ""
    first = rp.state.phase_name
    if rp.state.intro:
        # The phase as the script names it: blood's «вводный» day runs as the engine's night (D-B2).
        what = "day of introductions" if first == "day" else "acquaintance night"
        return f' (a {rp.ruleset.id} game opens with its {what}: write {{"{first}": …}} first, even if empty)'
    return f" (a {rp.ruleset.id} game opens with a {first})"
