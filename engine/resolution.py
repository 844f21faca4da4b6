"""The night's resolution and the basic ability kinds.

Resolution is a fold over the night order into the :class:`~engine.state.NightLedger`
(RULESETS.md 4.9): each step, when it closes, applies its actions to the ledger; the attempts meet
the protections at dawn (:func:`resolve_attempts`). The ability kinds registered here (kill, protect,
block, checks) are the ones every preset shares; a preset's own kinds live in :mod:`engine.kinds`.
"""

from __future__ import annotations

from dataclasses import replace
from operator import itemgetter
from typing import Any

from engine.abilities import abilities_now, actors_of_step, hit_tonight
from engine.announce import Out
from engine.events import HOST_ONLY, Event, to_seats, to_team
from engine.registry import ABILITY_KINDS, INFORMING_KINDS, ability_kind
from engine.rules.model import AbilityDef, StepDef
from engine.seats import holders_of
from engine.state import Draft, GameState, LedgerDraft, Step, put_ledger, put_ledger_field

_ACTOR = itemgetter(0)  # of an action (seat, act, targets)


def effective(s: GameState, seat: int) -> bool:
    """RULESETS.md 1: living, not blocked, not jailed, and (where deaths are immediate) not killed earlier
    tonight; in end-of-night presets a player killed tonight still acts."""
    led = s.ledger
    return (
        seat in s.alive
        and seat not in led.blocked
        and seat not in led.dead_tonight
        and (not s.jail or seat not in s.prisoners())
    )


_NOTHING_KEPT: dict[str, Any] = {}  # no role's abilities kept yet (Ruleset.abilities_now)


def resolve_step(s: Draft, step: StepDef, out: Out) -> bool:
    """Apply the step's actions to the ledger. True when the step opens again (a team's extra shot)."""
    index = s.ruleset.night_index.get(step.id)
    if index is None:
        index = s.ruleset.step_index(step.id)  # fills the table on first use
    if step.team:
        return _resolve_team(s, step, index, out)
    if s.ledger.pending:
        flush_pending(s)
    actions = s.ledger.actions
    if not actions:  # nobody acted: the ledger stays as it is (nothing chosen)
        idle = s.ruleset.idle_kept[0]  # s.ruleset.idle_steps(), without the call once kept
        if idle is None:
            idle = s.ruleset.idle_steps()
        if step.id in idle:
            _idle_actors(s, step, index, out)
        return False
    chosen = list(s.ledger.chosen)
    plain = s.ruleset.abilities_now.get(step.role, _NOTHING_KEPT).get(step.id)  # the role's, where kept
    for seat, act_name, targets in actions:
        # abilities_now(s, seat, step.id), without the call where they are plain tonight (the actor has the
        # step's role: act refuses any other)
        now = plain[0] if plain is not None and plain[1] <= s.night else abilities_now(s, seat, step.id)
        for ab in now:  # the ability acted with (a loop: no generator made)
            if ab.act == act_name:
                break
        else:
            raise StopIteration
        # The seat's uses of the step, one more, and his self-target noted: uses_of (the first entry of the
        # seat and step) and the other entries, in one pass.
        n, kept = None, []
        for use in s.uses:
            if use[0] == seat and use[1] == step.id:
                if n is None:
                    n = use[2]
            else:
                kept.append(use)
        kept.append((seat, step.id, (n or 0) + 1))
        s.uses = tuple(kept)
        if seat in targets:
            s.self_used = s.self_used | {(seat, step.id)}
        chosen.append((seat, step.id, targets))
        led = s.ledger  # effective(s, seat), written out (an act is resolved ≈ 15 times a game)
        if (
            seat not in s.alive
            or seat in led.blocked
            or seat in led.dead_tonight
            or (s.jail and seat in s.prisoners())
        ):
            if (
                ab.kind in INFORMING_KINDS
                and s.ruleset.params.get("ineffective_check_feedback") == "true_result"
            ):
                # D-H5 variant: he learns what he would have learned, and nothing else happens.
                info_only = replace(ab, params={**ab.params, "inform_only": True})
                ABILITY_KINDS[ab.kind](s, seat, info_only, targets, index, out)
            elif ab.kind in INFORMING_KINDS:
                out.append(
                    Event("check_nothing", to_seats(seat), {"seat": seat}, s.ruleset.phrase("check_nothing"))
                )
            continue
        ABILITY_KINDS[ab.kind](s, seat, ab, targets, index, out)
    led = s.ledger
    if isinstance(led, LedgerDraft):  # put_ledger_field, without the call where the draft owns it
        led.chosen = tuple(chosen)
    else:
        put_ledger_field(s, "chosen", tuple(chosen))
    idle = s.ruleset.idle_kept[0]  # s.ruleset.idle_steps(), without the call once kept
    if idle is None:
        idle = s.ruleset.idle_steps()
    if step.id in idle:
        _idle_actors(s, step, index, out)
    return False


def _idle_actors(s: GameState, step: StepDef, index: int, out: Out) -> None:
    """An actor who neither acted nor skipped: the kind named by his ability's ``if_idle`` applies
    (city D-C17: a sheriff, agent or doctor who does not wake up leaves the table). Asked only at a step
    whose ability says what happens to an idle actor (``Ruleset.idle_steps``)."""
    led = s.ledger
    for seat in actors_of_step(s, step):
        if seat in led.skipped or seat in map(_ACTOR, led.actions):  # he acted or skipped
            continue
        for ab in abilities_now(s, seat, step.id):
            if ab.params.get("if_idle"):
                ABILITY_KINDS[str(ab.params["if_idle"])](s, seat, ab, (), index, out)
                break


def _leader_pick(s: GameState, leader: str, tied: list[int]) -> int:
    """A tie broken by the leader's proposal: his pick where it is among the tied, else 0 (a function of
    its own: the comprehension would make _resolve_team's names cells at every team's step)."""
    leader_pick = [t for x, t in s.ledger.proposals if s.roles[x - 1] == leader]
    return leader_pick[0] if leader_pick and leader_pick[0] in tied else 0


def _resolve_team(s: Draft, step: StepDef, index: int, out: Out) -> bool:
    """D-H8: the team's target is the most proposed one; a tie or no proposal is a miss (the leader's
    proposal breaks ties where the preset says so)."""
    tdef = s.ruleset.teams[step.team]
    members = holders_of(s, step)
    target = s.ledger.team_target
    if not target and tdef.tie == "designate":
        target = _designated(s, tdef.leader, members)
    elif not target and s.ledger.proposals:
        counts: dict[int, int] = {}  # votes per target, in the order first proposed
        for _, t in s.ledger.proposals:
            counts[t] = counts.get(t, 0) + 1
        top = max(counts.values())
        tied = []
        for t, c in counts.items():
            if c == top:
                tied.append(t)
        if len(tied) == 1:
            target = tied[0]
        elif tdef.tie == "leader":
            target = _leader_pick(s, tdef.leader, tied)
    if not target:
        out.append(Event("team_missed", HOST_ONLY, {"team": step.team, "reason": "no_target"}))
        return False
    # A team with a leader misses only when the leader is blocked (004: «Если «Путана» пригласит в гости
    # одного из мафиози, то это не влияет на выстрел «Мафии» (за исключением, если будет приглашен «Дон»)»).
    # Otherwise it shoots while one real member is effective; an impostor (the sleepwalker) does not
    # keep the shot alive (D-H6).
    shoots = bool(tdef.leader)
    if not shoots:
        roles, dealt = s.ruleset.roles, s.roles
        for m in members:
            if not roles[dealt[m - 1]].impostor and effective(s, m):
                shoots = True
                break
    if step.team in s.ledger.team_miss or not shoots:
        out.append(
            Event("team_missed", HOST_ONLY, {"team": step.team, "reason": "blocked", "target": target})
        )
        return False
    attempt(s, target, step.team, index)
    return _extra_shot(s, step, target, out)


def _extra_shot(s: Draft, step: StepDef, target: int, out: Out) -> bool:
    """D-H7: «Если убит мафией, мафия может застрелить ещё одного игрока» — only when the team's own shot
    killed its impostor, once a night; the step opens again at once."""
    role = s.ruleset.roles[s.roles[target - 1]]
    if not (
        s.ruleset.night_deaths == "immediate"
        and role.impostor
        and role.team == step.team
        and target in s.ledger.pending
    ):
        return False
    if step.team in s.ledger.extra_shots:
        return False
    put_ledger(
        s,
        extra_shots=s.ledger.extra_shots | {step.team},
        actions=(),
        skipped=frozenset(),
        proposals=(),
        team_target=0,
    )
    s.step = Step("night", night_step=step.id, round="extra", seconds=s.ruleset.timer("group_kill"))
    members = actors_of_step(s, step)
    out.append(
        Event("extra_shot", to_team(step.team, members), {"team": step.team}, s.ruleset.phrase("extra_shot"))
    )
    return True


def _designated(s: GameState, leader: str, members: list[int]) -> int:
    """City D-C10: while the leader (the don) lives only his pick counts; without him every living member
    must pick, and only identical picks make a target."""
    picks = dict(s.ledger.proposals)
    leaders = [m for m in members if s.roles[m - 1] == leader]
    if leaders:
        return picks.get(leaders[0], 0)
    chosen = {picks.get(m, 0) for m in members}
    return chosen.pop() if len(chosen) == 1 else 0


def attempt(s: Draft, target: int, source: str, index: int) -> None:
    """A kill attempt. End-of-night presets resolve every attempt at dawn; where deaths are immediate it
    is resolved now, so that a player killed at this step is ineffective at the later ones."""
    led = s.ledger
    if isinstance(led, LedgerDraft):  # put_ledger_field, without the call where the draft owns it
        led.attempts = (*led.attempts, (target, source, index))
    else:
        put_ledger_field(s, "attempts", (*led.attempts, (target, source, index)))
    if s.ruleset.night_deaths == "immediate":
        _strike(s, target, group=source in s.ruleset.teams)


def _living_tonight(s: GameState, seat: int) -> bool:
    return seat in s.alive and seat not in s.ledger.dead_tonight


def _strike(s: Draft, target: int, group: bool) -> None:
    """RULESETS.md 4.9 ``attempt`` and D-H10: protection first; then the bodyguard's ward. Seed 000:
    «Если в течение этой ночи выбранный телохранителем игрок должен быть убит, он не умирает, вместо него
    погибает телохранитель» — the ward survives every attempt of the night, and the bodyguard dies once,
    at the first of them, unless he is protected himself; killed earlier that night, he still saves
    his ward (D-H10 as revised: the seed wins over the reading that he absorbs one attempt only)."""
    led = s.ledger
    if not _living_tonight(s, target) or target in led.pending:
        return
    if target in led.protected or s.ruleset.roles[s.roles[target - 1]].night_immune:
        return
    for guard, ward in led.guards:
        if ward != target or guard == target or guard not in s.alive:
            continue  # a guard who has left the table (executed in blood's long night) guards nobody
        if guard in led.absorbed or guard in led.protected or guard in led.dead_tonight:
            return  # the ward «не умирает» all night; the bodyguard dies once, or is saved himself
        put_ledger(s, absorbed=led.absorbed | {guard})
        if guard in led.pending:
            return  # already dying in this group shot: he dies once
        target = guard
        break
    if _survives(s, target):
        return
    if group:
        # D-H9: group shots are simultaneous; their victims die together when the next step begins.
        led = s.ledger
        if isinstance(led, LedgerDraft):  # put_ledger_field, without the call where the draft owns it
            led.pending = (*s.ledger.pending, target)
        else:
            put_ledger_field(s, "pending", (*s.ledger.pending, target))
    else:
        led = s.ledger
        if isinstance(led, LedgerDraft):  # put_ledger_field, without the call where the draft owns it
            led.dead_tonight = (*s.ledger.dead_tonight, target)
        else:
            put_ledger_field(s, "dead_tonight", (*s.ledger.dead_tonight, target))


def _survives(s: Draft, target: int) -> bool:
    """A role with several lives (blood's ghoul, D-B6: «Может быть убит только со второй попытки») lives
    through its first attempts of the game; an attempt stopped by a protection or a guard never gets
    here, so it does not count («Если упырь защищён …, считается, что покушения на него не было»)."""
    lives = s.ruleset.roles[s.roles[target - 1]].lives
    if lives < 2:
        return False
    mark = f"survived:{target}:"
    survived = sum(1 for f in s.flags if f.startswith(mark))
    if survived >= lives - 1:
        return False
    s.flags = s.flags | {f"{mark}{survived + 1}"}
    return True


def flush_pending(s: Draft) -> None:
    if s.ledger.pending:
        put_ledger(s, dead_tonight=s.ledger.dead_tonight + s.ledger.pending, pending=())


def resolve_attempts(s: Draft) -> list[int]:
    """Dawn: every attempt meets the protections; returns the victims in ascending seat order (D-G11)."""
    if s.ruleset.night_deaths == "immediate":
        flush_pending(s)
        s.tiebreaker = 0
        s.last_targets = s.ledger.chosen
        return sorted(set(s.ledger.dead_tonight))
    victims: dict[int, int] = {}
    for target, _source, index in s.ledger.attempts:
        if target not in s.alive or target in s.ledger.protected:
            continue
        if s.ruleset.roles[s.roles[target - 1]].night_immune:
            continue
        victims[target] = max(index, victims.get(target, -1))
    tiebreaker, roles, dealt = 0, s.ruleset.roles, s.roles
    for v, index in victims.items():  # the town victim of the latest step, the first of equals
        if roles[dealt[v - 1]].side == "town" and (not tiebreaker or index > victims[tiebreaker]):
            tiebreaker = v
    s.tiebreaker = tiebreaker
    s.last_targets = s.ledger.chosen
    return sorted(victims)


# -- ability kinds ---------------------------------------------------------------------------------


@ability_kind("kill")
def _kill(s: Draft, seat: int, ab: AbilityDef, targets: tuple[int, ...], index: int, out: Out) -> None:
    """«может «убить» любого игрока» — a kill attempt that protections may stop."""
    spare = ab.params.get("spare_roles", [])
    for t in targets:
        if s.roles[t - 1] not in spare:
            attempt(s, t, s.roles[seat - 1], index)


@ability_kind("protect")
def _protect(s: Draft, seat: int, ab: AbilityDef, targets: tuple[int, ...], index: int, out: Out) -> None:
    """«не страшен в эту ночь ни кинжал маньяка, ни шальная пуля мафии» — kill attempts on the target fail.
    With ``revive`` (classic doctor, variant 2) the target is one of tonight's victims."""
    led = s.ledger
    if isinstance(led, LedgerDraft):  # put_ledger_field, without the call where the draft owns it
        led.protected = s.ledger.protected | set(targets)
    else:
        put_ledger_field(s, "protected", s.ledger.protected | set(targets))


@ability_kind("block")
def _block(s: Draft, seat: int, ab: AbilityDef, targets: tuple[int, ...], index: int, out: Out) -> None:
    """«блокирует действие любого игрока» — the target's ability has no effect tonight; blocking a
    team's leader (the don) makes the team miss."""
    led = s.ledger
    if isinstance(led, LedgerDraft):  # put_ledger_field, without the call where the draft owns it
        led.blocked = s.ledger.blocked | set(targets)
    else:
        put_ledger_field(s, "blocked", s.ledger.blocked | set(targets))
    for t in targets:
        for tid, team in s.ruleset.teams.items():
            if team.leader and s.roles[t - 1] == team.leader:
                put_ledger(s, team_miss=s.ledger.team_miss | {tid})


def status_seen(s: GameState, target: int, ab: AbilityDef) -> str:
    role = s.roles[target - 1]
    seen: dict[str, str] = dict(ab.params.get("seen_as", {}))
    if role in seen:
        return seen[role]
    if any(x == target for x, _ in s.team_joins):
        return "mafia"
    return "mafia" if s.ruleset.roles[role].status == "mafia" else "not_mafia"


@ability_kind("check_status", informs=True)
def _check_status(
    s: GameState, seat: int, ab: AbilityDef, targets: tuple[int, ...], index: int, out: Out
) -> None:
    """«ведущий показывает таблички «мафия», «честный» или «убит»» (classic) / «мафия» — «не мафия»."""
    target = targets[0]
    result = (
        "killed" if ab.params.get("killed_plate") and hit_tonight(s, target) else status_seen(s, target, ab)
    )
    phrases: dict[str, Any] = dict(ab.params.get("phrases", {}))
    data = {"seat": seat, "target": target, "result": result}
    out.append(Event("check", to_seats(seat), data, phrases.get(result), {"seat": target}))


def seen_role(s: GameState, target: int) -> str:
    """The role a check sees: a frame tonight shows its role instead of the real one (D-H14)."""
    for seat, shown in s.ledger.framed:
        if seat == target:
            return shown
    return s.roles[target - 1]


@ability_kind("check_role", informs=True)
def _check_role(s: Draft, seat: int, ab: AbilityDef, targets: tuple[int, ...], index: int, out: Out) -> None:
    """The host shows the target's role card to the checker («ведущий показывает … маленькую карточку с
    ролью проверяемого игрока»); a framed target shows the frame's card."""
    target = targets[0]
    role = seen_role(s, target)
    if role == s.roles[target - 1]:
        s.knowledge = s.knowledge | {(seat, target)}
    data = {"seat": seat, "target": target, "result": role}
    params = {"seat": target, "role": s.ruleset.roles[role].display}
    out.append(Event("check", to_seats(seat), data, s.ruleset.phrase("role_card"), params))
