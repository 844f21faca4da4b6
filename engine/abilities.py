"""Night abilities: who may act at a step, which targets are legal, and the night's commands.

The commands only record choices in the :class:`~engine.state.NightLedger`; what they do is worked out
when the step closes (:mod:`engine.resolution`).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter, itemgetter
from pathlib import PurePath
from typing import Any, TypeVar

from engine.announce import Out
from engine.commands import Act, Propose
from engine.errors import DeadPlayer, IllegalCommand, IllegalTarget, NotYourTurn, WrongPhase
from engine.events import AUDIENCES, HOST_ONLY, NO_PARAMS, Event, event_of, interned, interned_in, to_seats
from engine.registry import STEP_KINDS
from engine.rules.model import AbilityDef, StepDef
from engine.seats import holders_of
from engine.state import Draft, GameState, LedgerDraft, put_ledger, put_ledger_field

_NOBODY: frozenset[int] = frozenset()
_SEAT, _STEP = itemgetter(0), itemgetter(1)  # of an action (seat, act, targets) or a proposal; of a choice
_ACT_NAME = attrgetter("act")  # of an ability
_T = TypeVar("_T", bound=tuple[Any, ...])
# events.interned: an action accepted by (seat, phrase), a proposal by (seat, target, team, seen by)
_ACCEPTED: dict[str | None, dict[int, Event]] = {}  # events.interned_in: [phrase][seat]
_PROPOSAL: dict[tuple[int, int, str, tuple[int, ...]], Event] = {}


def step_index(s: GameState, step_id: str) -> int:
    return s.ruleset.step_index(step_id)


def abilities_now(s: GameState, seat: int, step_id: str) -> Sequence[AbilityDef]:
    """The seat's abilities at this step that the rules allow tonight (night number, uses left)."""
    role = s.roles[seat - 1]  # s.role_of(seat), without the call
    abilities: tuple[AbilityDef, ...]
    try:
        abilities, plain_from = s.ruleset.abilities_now[role][step_id]
    except KeyError:
        abilities, plain_from = _plain_abilities(s, (role, step_id))
    if plain_from <= s.night:  # no uses to count, no shot to come after: every one of them tonight
        return abilities  # the ruleset's own tuple, not a copy: callers read the answer, never change it
    out = []
    for ab in abilities:
        if ab.from_night > s.night:
            continue
        if ab.uses and uses_of(s, seat, step_id) >= ab.uses:
            continue
        after = ab.params.get("not_after")  # city: no maniac shot after the ranger's (D-C8)
        if after and after in map(_STEP, s.ledger.chosen):
            continue
        out.append(ab)
    return out


_NEVER_PLAIN = 1 << 30  # a night the game never reaches


def _plain_abilities(s: GameState, key: tuple[str, str]) -> tuple[tuple[AbilityDef, ...], int]:
    """A role's abilities at a step (``key``: role, step) and the night from which all of them are allowed
    every night (none counted in uses, none barred by another's shot, city D-C8), or _NEVER_PLAIN where
    one of them is: abilities_now then asks the rules for each. Kept with the ruleset."""
    abilities = s.ruleset.ability_for_step(*key)
    conditional = any(ab.uses or ab.params.get("not_after") for ab in abilities)
    plain_from = _NEVER_PLAIN if conditional else max((ab.from_night for ab in abilities), default=0)
    found = s.ruleset.abilities_now.setdefault(key[0], {})[key[1]] = (abilities, plain_from)
    return found


def uses_of(s: GameState, seat: int, step_id: str) -> int:
    for x, st, n in s.uses:
        if x == seat and st == step_id:
            return n
    return 0


def actors_of_step(s: GameState, step: StepDef, awake: list[int] | None = None) -> list[int]:
    """Seats that choose at this step. Prisoners are woken but do not choose (D-H5, D-H15). ``awake``:
    the step's living holders, where the caller has them (``holders_of(s, step)``)."""
    if step.kind != "act":
        return []
    jailed = s.prisoners() if s.jail else _NOBODY
    if s.ruleset.blocks_known:  # city D-C7: a blocked role (or team) is told so and cannot choose
        if step.team in s.ledger.team_miss:
            return []
        blocked = s.ledger.blocked
        if blocked:  # no new set where nobody is blocked
            jailed = jailed | blocked if jailed else blocked
    if awake is not None:
        holders = list(awake)  # a fresh list
    elif step.team and s.team_joins:
        holders = holders_of(s, step)
    else:  # holders_of(s, step), written out: the deal's living seats of the step's role or team
        rules = s.ruleset
        last = rules.last_deal[0]
        memo = last[1] if s.roles is last[0] else rules.seating(s.roles)
        seats = memo[1].get(step.team, ()) if step.team else memo[0].get(step.role, ())
        holders = list(filter(s.alive.__contains__, seats))
    if step.team:
        # The extra shot (D-H7) is not offered to the impostor it has just killed.
        dead = s.ledger.pending if s.step.round == "extra" else ()
        if not jailed and not dead:
            return holders
        found = []  # a loop, not a comprehension: no cells for jailed and dead at every call
        for x in holders:
            if x not in jailed and x not in dead:
                found.append(x)
        return found
    step_id, actors = step.id, []  # a loop, not a comprehension: no function made at every step
    try:  # every holder has the step's role: where its abilities are plain tonight, they are each one's
        abilities, plain_from = s.ruleset.abilities_now[step.role][step_id]  # (abilities_now's first answer)
    except KeyError:
        plain_from = _NEVER_PLAIN
    if plain_from <= s.night:
        if abilities:
            for x in holders:
                if x not in jailed:
                    actors.append(x)
        return actors
    for x in holders:
        if x not in jailed and abilities_now(s, x, step_id):
            actors.append(x)
    return actors


def legal_targets(s: GameState, seat: int, ab: AbilityDef, living: list[int] | None = None) -> list[int]:
    """Targets the ability allows (D-G4 self-targeting, «не … два раза подряд», revive lists), in seat
    order. ``living``: the living in seat order (``s.living()``), where the caller keeps them."""
    revive = ab.params.get("revive")
    barred = ab.params.get("barred_roles", ())  # publicly known roles it may not pick (judges, D-CL9)
    last: tuple[int, ...] = ()
    if ab.not_same_twice:  # _last_targets(s, seat, ab.step), without the call
        for x, st, targets in s.last_targets:
            if x == seat and st == ab.step:
                last = targets
                break
    not_self = ab.self_target == "never" or (ab.self_target == "once" and (seat, ab.step) in s.self_used)
    if not revive and not barred:  # the living in seat order, less the barred seats
        if living is not None:  # a copy of the caller's list less a seat or two: no set, no sort
            out = living.copy()
            if not_self and seat in s.alive:
                out.remove(seat)
            for x in last:
                if x in out:
                    out.remove(x)
            return out
        if not_self:
            return sorted(s.alive.difference(last, (seat,)))
        return sorted(s.alive.difference(last)) if last else sorted(s.alive)
    candidates = victims_so_far(s) if revive else s.living()  # a fresh list
    if not barred and not last and not (not_self and seat in candidates):
        return candidates  # every candidate is allowed
    roles, out = s.roles, []  # a loop, not a comprehension: no cells for its five names at every call
    for t in candidates:
        if not (barred and roles[t - 1] in barred) and not (not_self and t == seat) and t not in last:
            out.append(t)
    return out


def _allowed(s: GameState, seat: int, ab: AbilityDef, target: int) -> bool:
    """``target in legal_targets(s, seat, ab)``, without the sorted list where the ability names no revive
    list and no barred roles (every ability of a random game but classic's doctor and judges' checkers)."""
    params = ab.params
    if params.get("revive") or params.get("barred_roles", ()):
        return target in legal_targets(s, seat, ab)
    if target not in s.alive:
        return False
    if ab.not_same_twice:  # not the target of his last night (_last_targets, without the call)
        for x, st, last in s.last_targets:
            if x == seat and st == ab.step:
                if target in last:
                    return False
                break
    if target != seat:
        return True
    return not (ab.self_target == "never" or (ab.self_target == "once" and (seat, ab.step) in s.self_used))


def _why_not(s: GameState, seat: int, ab: AbilityDef, target: int) -> str:
    """The rule that keeps ``target`` out of :func:`legal_targets` (for a record's --explain)."""
    if ab.params.get("revive"):
        return "D-CL8 variant 2: the doctor «is shown the list of this night's victims» and revives one"
    if target not in s.alive:
        return "D-G6: «Убитые не могут никаким образом участвовать в игре» — nor be chosen"
    if s.roles[target - 1] in ab.params.get("barred_roles", ()):
        return "D-CL9: the judges are known to all; the checkers may not pick them"
    if target == seat and (PurePath(s.ruleset.source).name[:3], ab.step) == ("004", "putana"):
        return "D-S9: the putana invites another player, not herself («приглашая его к себе»; D-G4)"
    if target == seat:
        return (
            "D-G4: «no ability may target its own user unless listed here» (city doctor once per game)"
            if ab.self_target == "once"
            else "D-G4: «no ability may target its own user unless listed here»"
        )
    return _NOT_TWICE.get((PurePath(s.ruleset.source).name[:3], ab.step), _NOT_TWICE[("001", "")])


# The rulebooks' «not the same player two nights running», by seed and step.
_NOT_TWICE = {
    ("001", ""): "001: «не может … две ночи подряд … к одному и тому же игроку»: not the same player two"
    " nights running",
    ("004", "doctor"): "004: «Нельзя 2 ночи подряд давать зелье одному и тому же жителю» (D-S10)",
    ("004", "putana"): "004: «Нельзя 2 ночи подряд приглашать в гости одного и того же жителя» (D-S9)",
}


def _why_no_ability(s: GameState, seat: int, step_id: str) -> str:
    """The rule that leaves the seat without an ability tonight (for a record's --explain): the night it
    starts from, the uses it has, or the shot before it (city D-C8)."""
    for ab in s.ruleset.ability_for_step(s.roles[seat - 1], step_id):
        if ab.from_night > s.night:
            return (
                f"the ability is used from night {ab.from_night} of the game on, every night of the script "
                f"counted, the acquaintance night too; this is night {s.night} (city D-C3: the ranger shoots "
                "«1 раз за игру, начиная со второй ночи», the acquaintance night not counted by the book)"
            )
        if ab.uses and uses_of(s, seat, step_id) >= ab.uses:
            return (
                f"the ability is used {ab.uses} time(s) a game and is spent "
                "(«1 раз за игру», «один раз за игру»)"
            )
        if ab.params.get("not_after"):
            return "D-C8: «Если перед маньяком был выстрел от рейнджера, маньяк стрелять не может»"
    return "RULESETS.md: an ability is used from the night and as often as its rulebook says"


def _why_not_team_target(s: GameState, target: int) -> str:
    if 1 <= target <= s.n_seats and target not in s.alive:
        return "D-G6: «Убитые не могут никаким образом участвовать в игре» — nor be chosen"
    return f"the target is a seat at the table, 1…{s.n_seats}"


def _team_at_table(s: GameState, step: StepDef, team: str) -> None:
    """A team with nobody at the table does not choose (its step is still called where night deaths are
    hidden, D-G8)."""
    if not holders_of(s, step):
        refusal = NotYourTurn(
            f"В команде «{team}» никого не осталось за столом: выбирать цель некому.", key="not-team-turn"
        )
        refusal.rule = (
            "D-G6: «Убитые не могут никаким образом участвовать в игре»: a team all out never shoots"
        )

        raise refusal


def _last_targets(s: GameState, seat: int, step_id: str) -> tuple[int, ...]:
    for x, st, targets in s.last_targets:
        if x == seat and st == step_id:
            return targets
    return ()


def team_targets(s: GameState) -> list[int]:
    """Group kills may target any living player, the group's own members included (D-G4). FIIM D-FI5
    ``call_all_seats``: the judge calls every seat, the gone too (a shot at one is a miss)."""
    if s.ruleset.params.get("call_all_seats"):
        return list(range(1, s.n_seats + 1))
    return s.living()


def _team_may_target(s: GameState, target: int) -> bool:
    """``target in team_targets(s)``, without the list."""
    if s.ruleset.params.get("call_all_seats"):
        return 1 <= target <= len(s.roles)
    return target in s.alive


def _current_step(s: GameState) -> StepDef:
    if s.phase != "night" or s.step.kind != "night":
        raise WrongPhase("Сейчас не время ночных действий.", key="not-night-step")
    step_id = s.step.night_step
    return s.ruleset.night_by_id.get(step_id) or s.ruleset.night_step(
        step_id
    )  # the method where not yet kept


def act(s: Draft, c: Act, out: Out) -> None:
    """An Act: a seat's choice at its night step, or a day ability (the judge's acquittal) where the day's
    step kind has one. The command's own handler (engine.game dispatches to it, a call less an act)."""
    if s.phase == "day" and hasattr(STEP_KINDS.get(s.step.kind), "act"):
        STEP_KINDS[s.step.kind].act(s, c.seat, tuple(c.targets), out)  # a day ability (acquittal)
        return
    seat, targets, act_name = c.seat, tuple(c.targets), c.act
    now = s.step
    if s.phase == "night" and now.kind == "night":  # _current_step(s), without the call where it is kept
        step = s.ruleset.night_by_id.get(now.night_step) or _current_step(s)
    else:
        step = _current_step(s)  # refuses
    if seat not in s.alive:
        raise DeadPlayer(f"Игрок {seat} выбыл и не может действовать.", key="out-no-act", seat=seat)
    if step.team or s.roles[seat - 1] != step.role:  # s.role_of(seat), without the call
        raise NotYourTurn(
            f"Сейчас ход «{step.id}», а не игрока {seat}.", key="not-your-night-turn", seat=seat
        )
    if s.ruleset.blocks_known and seat in s.ledger.blocked:
        raise NotYourTurn("Вы заблокированы этой ночью.", key="blocked")
    options: Sequence[AbilityDef]
    try:  # abilities_now(s, seat, step.id), without the call where they are plain tonight
        options, plain_from = s.ruleset.abilities_now[step.role][step.id]
        if plain_from > s.night:
            options = abilities_now(s, seat, step.id)
    except KeyError:
        options = abilities_now(s, seat, step.id)
    if not options:
        refusal = IllegalCommand(
            f"Игрок {seat} не может использовать способность этой ночью.", key="no-ability-tonight", seat=seat
        )
        refusal.rule = _why_no_ability(s, seat, step.id)
        raise refusal
    if act_name:
        for ab in options:  # a loop, not a comprehension: no cells for act_name and seat at every act
            if ab.act == act_name:
                break
        else:
            raise IllegalCommand(f"Нет действия «{act_name}» у этой роли.", key="no-such-act")
    elif len(options) > 1:
        acts = ", ".join(map(_ACT_NAME, options))
        refusal = IllegalCommand("Выберите действие: " + acts, key="choose-act")
        refusal.rule = (
            f'the role has several abilities tonight ({acts}): a record names one with "act" (README, Game '
            "records); seed 000: «Может либо застрелить одного игрока, либо узнать его роль» (D-H12)"
        )
        raise refusal
    else:
        ab = options[0]
    count = len(targets)
    if count != ab.targets or (count > 1 and len(set(targets)) != count):
        raise IllegalTarget(f"Нужно выбрать игроков: {ab.targets}.", key="targets-needed", count=ab.targets)
    for t in targets:
        if not _allowed(s, seat, ab, t):
            refusal = IllegalTarget(
                f"Игрока {t} нельзя выбрать для этого действия.", key="bad-target-for-act", t=t
            )
            refusal.rule = _why_not(s, seat, ab, t)
            raise refusal
    actions = s.ledger.actions
    if seat in map(_SEAT, actions):  # his earlier choice at this step gives way
        actions = _others(actions, seat)
    actions = actions + ((seat, ab.act, targets),)  # noqa: RUF005 (no list built and converted)
    if seat in s.ledger.skipped:
        put_ledger(s, actions=actions, skipped=s.ledger.skipped - {seat})
    else:
        led = s.ledger
        if isinstance(led, LedgerDraft):  # put_ledger_field, without the call where the draft owns it
            led.actions = actions
        else:
            put_ledger_field(s, "actions", actions)
    out.append(
        event_of(
            ("action", HOST_ONLY, {"seat": seat, "step": step.id, "targets": list(targets)}, None, NO_PARAMS)
        )
    )
    accepted = s.ruleset.phrases.get("action_accepted")
    try:
        found = _ACCEPTED[accepted][seat]
    except KeyError:
        found = interned_in(
            _ACCEPTED,
            (accepted,),
            seat,
            ("action_accepted", to_seats(seat), {"seat": seat}, accepted, NO_PARAMS),
        )
    out.append(found)


def _others(entries: tuple[_T, ...], seat: int) -> tuple[_T, ...]:
    """The entries (actions, proposals: the seat first) of seats other than ``seat``. A function of its own:
    a comprehension inside a handler makes its names cells for every call of the handler."""
    return tuple([x for x in entries if x[0] != seat])


def skip(s: Draft, seat: int, out: Out) -> None:
    step = _current_step(s)
    if (
        seat not in s.alive
        or (step.role and s.roles[seat - 1] != step.role)
        or (step.team and seat not in actors_of_step(s, step))
    ):
        raise NotYourTurn(f"Игрок {seat} сейчас не действует.", key="not-acting", seat=seat)
    if step.team:
        # D-G3: «every group kill choice (mafia / yakuza / hunters …)» is mandatory.
        raise IllegalCommand("Выбор команды обязателен: пропустить его нельзя.", key="team-must-choose")
    if step.role:
        options = abilities_now(s, seat, step.id)
        if options and not all(a.optional for a in options):
            raise IllegalCommand("Это действие обязательно: пропустить его нельзя.", key="must-act")
    put_ledger(s, actions=_others(s.ledger.actions, seat), skipped=s.ledger.skipped | {seat})
    out.append(Event("action_skipped", to_seats(seat), {"seat": seat}, s.ruleset.phrase("action_skipped")))


def propose(s: Draft, c: Propose, out: Out) -> None:
    """A Propose: a team member's proposal of the team's target (the command's own handler)."""
    seat, target = c.seat, c.target
    now = s.step
    if s.phase == "night" and now.kind == "night":  # _current_step(s), without the call where it is kept
        step = s.ruleset.night_by_id.get(now.night_step) or _current_step(s)
    else:
        step = _current_step(s)  # refuses
    if not step.team:
        raise NotYourTurn("Сейчас не ход команды.", key="not-team-turn")
    members = actors_of_step(s, step)  # a proposal does not change who acts
    if seat not in s.alive or seat not in members:
        raise NotYourTurn(f"Игрок {seat} не просыпается с этой командой.", key="not-in-team", seat=seat)
    if not _team_may_target(s, target):
        refusal = IllegalTarget(f"Игрока {target} нельзя выбрать.", key="bad-target", seat=target)
        refusal.rule = _why_not_team_target(s, target)
        raise refusal
    proposals = s.ledger.proposals
    if seat in map(_SEAT, proposals):  # his earlier proposal gives way
        proposals = _others(proposals, seat)
    proposals = proposals + ((seat, target),)  # noqa: RUF005 (no list built and converted)
    led = s.ledger
    if isinstance(led, LedgerDraft):  # put_ledger_field, without the call where the draft owns it
        led.proposals = proposals
    else:
        put_ledger_field(s, "proposals", proposals)
    # FIIM D-FI5: where each member shoots alone, nobody sees another member's pick.
    if s.ruleset.params.get("private_picks"):
        seen_by = to_seats(seat)
    else:  # to_seats(*members), without the call where the group is kept
        seen_by = AUDIENCES.get(tuple(members)) or to_seats(*members)
    key = (seat, target, step.team, seen_by.seats)
    out.append(
        _PROPOSAL.get(key)
        or interned(
            _PROPOSAL,
            key,
            ("proposal", seen_by, {"seat": seat, "target": target, "team": step.team}, None, NO_PARAMS),
        )
    )


def team_act(s: Draft, team: str, target: int, out: Out) -> None:
    step = _current_step(s)
    if step.team != team:
        raise NotYourTurn(f"Сейчас не ход команды «{team}».", key="not-team-turn")
    _team_at_table(s, step, team)
    if not _team_may_target(s, target):
        refusal = IllegalTarget(f"Игрока {target} нельзя выбрать.", key="bad-target", seat=target)
        refusal.rule = _why_not_team_target(s, target)
        raise refusal
    put_ledger_field(s, "team_target", target)
    out.append(Event("action", HOST_ONLY, {"team": team, "step": step.id, "targets": [target]}))


def step_complete(s: GameState) -> bool:
    """Everyone who must or may act at this step has chosen (the service may close it early)."""
    if s.phase != "night":
        return False
    if s.step.kind == "meet":
        return False
    step = _current_step(s)
    if step.team:
        if s.ledger.team_target:
            return True
        return {p[0] for p in s.ledger.proposals} >= set(actors_of_step(s, step))
    done = {a[0] for a in s.ledger.actions} | s.ledger.skipped
    return set(actors_of_step(s, step)) <= done


def victims_so_far(s: GameState) -> list[int]:
    """D-CL8 variant 2: the players «убиты» tonight so far (the night-immune are never among them)."""
    return sorted({t for t, _, _ in s.ledger.attempts if t in s.alive and hit_tonight(s, t)})


def hit_tonight(s: GameState, target: int) -> bool:
    """D-CL4: successfully hit by a kill resolved so far tonight, and not night-immune."""
    if s.ruleset.roles[s.roles[target - 1]].night_immune:
        return False
    return any(t == target for t, _, _ in s.ledger.attempts)
