"""Game records: a compact, human-writable script of a game, replayed through the engine.

The format is the fixed contract of the project (README, "Game records"). :func:`play_record` turns
each phase of the script into engine commands in the order the preset runs them; anything the rules
forbid raises :class:`RecordError` naming the phase and the entry.

Day keys beyond the contract's, read by the step kinds that declare them (``record_key``):
``"court": [[accused, [judges voting «казнить»]], …]`` and ``"court_choice": [[judge, candidate], …]``
(classic judges), ``"golden_minute": [seat, …]``, ``"bets": [[seat, target], …]`` and ``"cards":
[[seat, "hidden" | "opponent"], …]`` (the two-player game). Where a day has several rounds of
nominations (a judges' day after a spare), ``"nominations"`` and ``"votes"`` may list one group per
round: ``[[[8, 7]], [[7, 1]]]``, every ballot of the day in order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.commands import Act, Advance, Answer, Claim, Command, Foul, Nominate, Remove, TeamAct, Vote
from engine.errors import EngineError, IllegalCommand
from engine.events import Event
from engine.game import apply, new_game
from engine.registry import STEP_KINDS
from engine.rules import Ruleset, load_ruleset
from engine.state import GameState

DAY_KEYS = {
    "nominations",
    "votes",
    "revote",
    "lift",
    "fouls",
    "actions",
    "tiebreak",
    "maniac_answer",
    "claims",
    "removals",
}


class RecordError(EngineError):
    """A record that breaks the rules or the format. The message names the phase and the entry."""


@dataclass
class Replay:
    ruleset: Ruleset
    state: GameState
    events: list[Event] = field(default_factory=list)
    commands: list[Command] = field(default_factory=list)
    where: str = ""

    def send(self, command: Command, entry: Any = None) -> None:
        try:
            self.state, more = apply(self.state, command)
        except IllegalCommand as exc:
            raise RecordError(
                f"{self.where}: {_show(entry if entry is not None else command)}: {exc}"
            ) from None
        self.commands.append(command)
        self.events.extend(more)

    def fail(self, entry: Any, message: str) -> RecordError:
        return RecordError(f"{self.where}: {_show(entry)}: {message}")


def _show(entry: Any) -> str:
    import json

    if isinstance(entry, Command):
        return json.dumps(entry.to_json(), ensure_ascii=False)
    return json.dumps(entry, ensure_ascii=False)


def play_record(record: Mapping[str, Any]) -> Replay:
    for key in ("ruleset", "seats", "script"):
        if key not in record:
            raise RecordError(f"record: missing key {key!r}")
    unknown = set(record) - {"ruleset", "options", "seed", "seats", "script"}
    if unknown:
        raise RecordError(f"record: unknown keys {sorted(unknown)}")
    options = dict(record.get("options") or {})
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
            raise RecordError(f"seats[{i}]: unknown role {role!r} for the preset {ruleset.id!r}")
    try:
        state, events = new_game(ruleset, seats, int(record.get("seed", 0)), immune=[int(x) for x in immune])
    except IllegalCommand as exc:
        raise RecordError(f"seats: {exc}") from None
    rp = Replay(ruleset, state, events)
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
            raise rp.fail(phase, "the game is already over")
        if expected < rp.state.position and name == rp.ruleset.phase_at(expected):
            # A phase of steps where nobody could act passed without waiting (blood's dawn without dawn
            # roles): the script may name it, with nothing in it.
            if value not in ([], {}, {"actions": []}):
                raise rp.fail(phase, "nobody could act in this phase")
            expected += 1
            continue
        expected = rp.state.position + 1
        if name != rp.state.phase_name:
            raise rp.fail(name, f"the engine expects the phase {rp.state.phase_name!r} here")
        if rp.state.phase == "night":  # a phase of role steps, whatever the preset calls it
            _night(rp, value)
        else:
            _day(rp, value)
    return rp


# -- night -----------------------------------------------------------------------------------------


def _night(rp: Replay, entries: Any) -> None:
    if isinstance(entries, dict) and set(entries) <= {"actions"}:
        entries = entries.get("actions", [])
    if not isinstance(entries, list):
        raise rp.fail(entries, "a night is a list of action entries")
    pending = [(_night_entry(rp, e), e) for e in entries]
    night, position = rp.state.night, rp.state.position
    while rp.state.phase == "night" and rp.state.position == position and not rp.state.over:
        step = rp.state.step
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
    for (step_id, _), entry in pending:
        raise rp.fail(entry, _why_not_called(rp, step_id, night))


def _night_entry(rp: Replay, e: Any) -> tuple[str, Command]:
    s = rp.state
    if not isinstance(e, dict):
        raise rp.fail(e, "an action entry is an object")
    if "team" in e:
        if set(e) - {"team", "target"}:
            raise rp.fail(e, "a team entry has only team and target")
        team = e["team"]
        if team not in rp.ruleset.teams or not rp.ruleset.teams[team].kill_step:
            raise rp.fail(e, f"no team {team!r} shoots in this preset")
        return rp.ruleset.teams[team].kill_step, TeamAct(team=team, target=int(e.get("target", 0)))
    if set(e) - {"seat", "target", "targets", "act"} or "seat" not in e:
        raise rp.fail(e, "an action entry has seat and target (or targets, act)")
    seat = int(e["seat"])
    if not 1 <= seat <= s.n_seats:
        raise rp.fail(e, f"there is no seat {seat}")
    if seat not in s.alive:
        raise rp.fail(e, f"seat {seat} has been eliminated and cannot act")
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
        raise rp.fail(e, f"seat {seat} ({role}) has no night ability{' ' + act if act else ''}")
    return steps[0], Act(seat=seat, targets=targets, act=act)


def _neutralised(s: GameState, command: Command) -> bool:
    """An entry that another role's action made ineffective where the actor is told so and cannot
    choose (city D-C7: blocked by the agent; D-C8: the maniac after the ranger's shot)."""
    if not isinstance(command, Act):
        return False
    if s.ruleset.blocks_known and command.seat in s.ledger.blocked:
        return True
    fired = {st for _, st, _ in s.ledger.chosen}
    abilities = s.ruleset.ability_for_step(s.role_of(command.seat), s.step.night_step)
    return any(a.params.get("not_after") in fired for a in abilities)


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


# -- day -------------------------------------------------------------------------------------------


def _step_keys() -> dict[str, Any]:
    """Day inputs of the presets' own step kinds: a kind with ``record_key`` reads its entries with
    ``record(state, entries)``, which takes those of the step now open from the front of the list and
    returns ``(command, entry)`` pairs (classic: ``court``, ``court_choice``, ``golden_minute``,
    ``bets``, ``cards``)."""
    return {kind.record_key: kind for kind in STEP_KINDS.values() if getattr(kind, "record_key", "")}


def _rounds(value: Any) -> bool:
    """A list of rounds (a list of ballots, or of groups of nominations) rather than one."""
    return (
        isinstance(value, list)
        and bool(value)
        and isinstance(value[0], list)
        and (not value[0] or isinstance(value[0][0], list))
    )


def _day(rp: Replay, obj: Any) -> None:
    if not isinstance(obj, dict):
        raise rp.fail(obj, "a day is an object with voting keys")
    by_key = _step_keys()
    for key in by_key:
        if key in obj and not isinstance(obj[key], list):
            raise rp.fail({key: obj[key]}, "must be a list")
    inputs = {key: list(obj[key]) for key in by_key if key in obj}
    unknown = set(obj) - DAY_KEYS - set(by_key)
    if unknown:
        raise rp.fail(sorted(unknown), "unknown keys for a day")
    for entry in obj.get("fouls", []):
        rp.send(Foul(seat=int(entry[0]), reason=str(entry[1]) if len(entry) > 1 else ""), entry)
    for entry in obj.get("removals", []):
        rp.send(Remove(seat=int(entry[0]), reason=str(entry[1]) if len(entry) > 1 else ""), entry)
    for seat in obj.get("claims", []):
        rp.send(Claim(seat=int(seat)), seat)
    actions = list(obj.get("actions", []))
    for entry in actions:
        if not isinstance(entry, dict) or set(entry) != {"seat", "target"}:
            raise rp.fail(entry, "a day action is {seat, target}")
    if actions and not rp.ruleset.params.get("acquittal"):
        raise rp.fail(actions, "nobody has a day ability in this preset")
    lift = obj.get("lift")
    # Several rounds of nominations in a day (classic judges: after a spare, D-CL9) are written as a list
    # of groups, one per nominations step; likewise "votes" as a list of ballots.
    groups = [[list(n) for n in g] for g in obj["nominations"]] if _rounds(obj.get("nominations")) else []
    nominations = [] if groups else [list(n) for n in obj.get("nominations", [])]
    rounds: list[list[Any]] = []
    if _rounds(obj.get("votes")):
        rounds.extend(obj["votes"])
    elif "votes" in obj:
        rounds.append(obj["votes"])
    revote = obj.get("revote")
    if revote:
        rounds.extend(revote if isinstance(revote[0][0], list) else [revote])
    answer = obj.get("maniac_answer")
    tiebreak = obj.get("tiebreak")
    day = rp.state.day
    while rp.state.phase == "day" and rp.state.day == day and not rp.state.over:
        step = rp.state.step
        if step.kind == "question":
            if answer is not None:
                rp.send(Answer(seat=step.seat, yes=bool(answer)), {"maniac_answer": answer})
                answer = None
            else:
                rp.send(Advance())
        elif step.kind == "speech" and step.round == "day":
            while nominations and int(nominations[0][0]) == step.seat:
                n = nominations.pop(0)
                rp.send(Nominate(seat=int(n[0]), target=int(n[1])), n)
            rp.send(Advance())
        elif step.kind == "nominations":
            if groups:
                nominations = groups.pop(0)
            while nominations:
                n = nominations.pop(0)
                rp.send(Nominate(seat=int(n[0]), target=int(n[1])), n)
            rp.send(Advance())
        elif step.kind == "vote":
            _ballot(rp, rounds[0] if rounds else [])
            if rounds and (not rounds[0] or len(step.candidates) > 1):
                rounds.pop(0)
        elif (
            actions
            and int(actions[0]["target"]) == step.seat
            and rp.state.phase == "day"
            and rp.state.step.kind in STEP_KINDS
        ):
            entry = actions.pop(0)
            rp.send(Act(seat=int(entry["seat"]), targets=(int(entry["target"]),)), entry)
        elif getattr(STEP_KINDS.get(step.kind), "record_key", "") in inputs:
            kind = STEP_KINDS[step.kind]
            entries = inputs[kind.record_key]
            try:
                taken = kind.record(rp.state, entries)
            except (ValueError, TypeError, IndexError) as exc:
                raise rp.fail({kind.record_key: entries[:1]}, str(exc)) from None
            before = rp.state.step
            for command, entry in taken:
                if rp.state.over:
                    raise rp.fail({kind.record_key: entry}, "the game was already over")
                rp.send(command, {kind.record_key: entry})
            if rp.state.step is before and not rp.state.over:
                rp.send(Advance())
        elif step.kind == "lift":
            for voter in lift or []:
                rp.send(Vote(seat=int(voter)), {"lift": lift})
            lift = None
            rp.send(Advance())
        elif step.kind == "tiebreak" and tiebreak is not None:
            rp.send(Vote(seat=step.seat, candidate=int(tiebreak)), {"tiebreak": tiebreak})
            tiebreak = None
        else:
            rp.send(Advance())
    # Every entry of the day must have been used, whether or not the game ended that day.
    over = " (the game ended this day)" if rp.state.over else ""
    if nominations or any(groups):
        left = nominations[0] if nominations else next(g for g in groups if g)[0]
        raise rp.fail(left, f"nomination out of speaking order (or after the nominations closed){over}")
    for key, entries in inputs.items():
        if entries:
            raise rp.fail({key: entries[0]}, f"no {key} step took this entry this day{over}")
    if actions:
        raise rp.fail(actions[0], f"no acquittal was possible at this point of the day{over}")
    for ballot in rounds:
        if any(not isinstance(e, list) or len(e) != 2 or e[1] for e in ballot):
            raise rp.fail(ballot, f"no such ballot took place this day{over}")
    if tiebreak is not None:
        raise rp.fail({"tiebreak": tiebreak}, f"no deciding ballot took place this day{over}")
    if lift:
        raise rp.fail({"lift": lift}, f"no vote to leave together took place this day{over}")
    if answer is not None:
        raise rp.fail({"maniac_answer": answer}, f"the maniac was not asked this day{over}")


def _ballot(rp: Replay, queue: list[Any]) -> None:
    """Vote on the ballot now open, taking its entries from the front of ``queue``. A ballot of one
    candidate (the sequential variant) takes only his entry and leaves the rest for the next ballots."""
    s = rp.state
    order = list(s.step.candidates)
    if len(order) == 1 and queue and isinstance(queue[0], list) and queue[0][:1] != [order[0]]:
        rp.send(Advance())
        return
    for candidate in order:
        voters: list[int] = []
        if queue:
            entry = queue[0]
            if not isinstance(entry, list) or len(entry) != 2:
                raise rp.fail(entry, "a vote entry is [candidate, [voters]]")
            if int(entry[0]) == candidate:
                voters = [int(v) for v in entry[1]]
                queue.pop(0)
            elif int(entry[0]) not in order:
                raise rp.fail(entry, f"{entry[0]} is not a candidate (candidates: {order})")
            else:
                raise rp.fail(entry, f"the candidates are voted in the order {order}")
        for v in voters:
            rp.send(Vote(seat=v, candidate=candidate), [candidate, voters])
        rp.send(Advance())
    if queue and len(order) > 1:
        raise rp.fail(queue[0], f"{queue[0][0]} is not a candidate (candidates: {order})")
