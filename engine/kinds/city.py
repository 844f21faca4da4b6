"""«Городская мафия» (seed 001, RULESETS.md section 5): the night's ability kinds, the dawn and the win.

All city night actions take effect together at dawn (D-C19): blocks → checks → shots → immunity →
heals → deaths → the agent's link → heals on the linked player. The fold over the night order only
records the actions in the ledger; :func:`city_dawn` settles them.
"""

from __future__ import annotations

from typing import Any

from engine.announce import Out
from engine.events import Event, to_seats
from engine.registry import ability_kind, night_resolution, win_check
from engine.rules.model import AbilityDef
from engine.state import Draft, GameState, LedgerDraft, put_ledger, put_ledger_field
from engine.wins import seats_of_side

MISSED = ("missed", 0)  # the mafia missed in a way the host announces (D-C10, D-C15)


def _mark(s: Draft, *marks: tuple[str, int]) -> None:
    led = s.ledger
    if isinstance(led, LedgerDraft):  # put_ledger_field, without the call where the draft owns it
        led.marks = s.ledger.marks | set(marks)
    else:
        put_ledger_field(s, "marks", s.ledger.marks | set(marks))


def has_mark(s: GameState, what: str, seat: int) -> bool:
    return (what, seat) in s.ledger.marks


# -- ability kinds ---------------------------------------------------------------------------------


@ability_kind("city_block")
def _agent(s: Draft, seat: int, ab: AbilityDef, targets: tuple[int, ...], index: int, out: Out) -> None:
    """«Если заблокирован любой член команды мафии, выстрела от мафии не будет, то же самое с маньяком.
    Блокировка любого активного персонажа приведет к невозможности выполнения им своей функции … Днем у
    игрока, у которого был Агент, будет алиби.»"""
    led = s.ledger
    if isinstance(led, LedgerDraft):  # put_ledger_field, without the call where the draft owns it
        led.blocked = s.ledger.blocked | set(targets)
    else:
        put_ledger_field(s, "blocked", s.ledger.blocked | set(targets))
    for t in targets:
        team = s.team_of(t)
        if team and s.ruleset.teams[team].kill_step:
            put_ledger(s, team_miss=s.ledger.team_miss | {team})
        _mark(s, ("alibi", t), ("visited", t))


@ability_kind("city_save")
def _lawyer(s: Draft, seat: int, ab: AbilityDef, targets: tuple[int, ...], index: int, out: Out) -> None:
    """«Игрок, на которого указал адвокат, получает алиби и одновременно лечится (от выстрела маньяка
    вылечить не может).»"""
    led = s.ledger
    if isinstance(led, LedgerDraft):  # put_ledger_field, without the call where the draft owns it
        led.protected = s.ledger.protected | set(targets)
    else:
        put_ledger_field(s, "protected", s.ledger.protected | set(targets))
    _mark(s, *(("alibi", t) for t in targets))


@ability_kind("check_is_role", informs=True)
def _is_role(s: Draft, seat: int, ab: AbilityDef, targets: tuple[int, ...], index: int, out: Out) -> None:
    """Don: «Ищет шерифа. Ведущий показывает ему, является ли проверяемый доном игрок шерифом.»"""
    target = targets[0]
    wanted = str(ab.params["role"])
    result = s.roles[target - 1] == wanted
    if result:
        s.knowledge = s.knowledge | {(seat, target)}
    phrases: dict[str, Any] = dict(ab.params.get("phrases", {}))
    data = {"seat": seat, "target": target, "result": result}
    out.append(Event("check", to_seats(seat), data, phrases.get("yes" if result else "no"), {"seat": target}))


@ability_kind("leaves_table")
def _asleep(s: Draft, seat: int, ab: AbilityDef, targets: tuple[int, ...], index: int, out: Out) -> None:
    """D-C17 (used as an ``if_idle`` hook): «Если шериф, агент или доктор ночью не проснулись, когда их
    будил ведущий, – игроки молча покидают стол.»"""
    if s.ruleset.params.get("remove_sleepers", True):
        _mark(s, ("asleep", seat))


# -- dawn ------------------------------------------------------------------------------------------


def shot_night(s: GameState) -> int:
    """D-C3: the acquaintance night is night 0; night 1 is the first night with shots."""
    return s.night - (1 if s.ruleset.intro_night else 0)


def _unhealable(s: GameState, source: str) -> bool:
    role = s.ruleset.roles.get(source)
    return bool(role and any(a.params.get("unhealable") for a in role.abilities))


@night_resolution("city")
def city_dawn(s: Draft) -> list[int]:
    """D-C19 and the rules it orders: «За попытку самострела мафией, стрельбу в иммунитетного игрока,
    неудачу при назначении отстрела … ведущий объявляет: «мафия промахнулась»»; «От выстрела маньяка не
    может вылечить никто»; «Если в иммунитетного игрока стрелял маньяк, ведущий не озвучит выстрел»; «Если
    ночью был убит Агент, он покидает стол вместе с игроком, к которому ходил ночью» unless that player
    was healed (D-C6). Returns the players shot dead, the agent's linked player included."""
    led = s.ledger
    healed = led.protected
    immune = s.immune if shot_night(s) == 1 else frozenset()
    dead: set[int] = set()
    shot: set[str] = set()
    for target, source, _index in led.attempts:
        shot.add(source)
        if target not in s.alive:
            continue
        if source in s.ruleset.teams:
            if s.team_of(target) == source or target in immune:
                _mark(s, MISSED)  # D-C4 attempted self-shot, D-C5 immune target
                continue
        elif _unhealable(s, source):
            if target not in immune:
                dead.add(target)
            continue
        if target not in healed:
            dead.add(target)
    for tid, team in s.ruleset.teams.items():
        # D-C10: no designation (or differing picks without the don) is a miss; a blocked team is not.
        if team.kill_step and tid not in shot and tid not in led.team_miss and s.team_members(tid):
            _mark(s, MISSED)
    for seat, step, targets in led.chosen:
        if seat not in dead:  # only a dead actor's link takes his target with him
            continue
        abilities = s.ruleset.ability_for_step(s.roles[seat - 1], step)
        if any(a.params.get("link") for a in abilities):
            for t in targets:
                if t in s.alive and t not in healed and t not in dead:
                    dead.add(t)
                    _mark(s, ("linked", t))
    s.tiebreaker = 0
    s.last_targets = led.chosen
    return sorted(dead)


# -- win -------------------------------------------------------------------------------------------


@win_check("city")
def city_win(s: GameState) -> Any:
    """D-C1, in order: nobody → draw; no mafia and no maniac → town; mafia ≥ everyone else → mafia;
    the maniac with no mafia and at most one other player → maniac; otherwise play on."""
    alive = s.alive
    if not alive:
        return ()
    # The dealt roles' sides, worked out once per deal: seats_of_side's memo, read once for both sides.
    facts = s.ruleset.deal_facts(s.roles)
    mafia_seats = facts.get("side:mafia")
    if mafia_seats is None:
        mafia_seats = seats_of_side(s, "mafia")
    solo_seats = facts.get("side:solo")
    if solo_seats is None:
        solo_seats = seats_of_side(s, "solo")
    mafia = len(alive.intersection(mafia_seats))
    solo = len(alive.intersection(solo_seats))
    if not mafia and not solo:
        return ("town",)
    if mafia and mafia >= len(alive) - mafia:
        return ("mafia",)
    if solo and not mafia and len(alive) - solo <= 1:
        return ("solo",)
    return None
