"""Hobby World «Мафия» (seed 000; RULESETS.md section 4, its night resolution 4.9 and D-H*): the night's
ability kinds that the core does not have, and the win check.

The kinds only write the night ledger; the sequential resolution itself (an actor killed earlier this
night is ineffective, group shots are simultaneous, the bodyguard dies instead of his ward) is the
core's ``night.deaths = "immediate"`` mode in :mod:`engine.resolution`.
"""

from __future__ import annotations

from typing import Any

from engine.announce import Out
from engine.events import Event, to_seats
from engine.registry import ability_kind, win_check
from engine.resolution import seen_role
from engine.rules.model import AbilityDef
from engine.state import Draft, GameState, put_ledger

Targets = tuple[int, ...]


@ability_kind("block_protect")
def _block_protect(s: Draft, seat: int, ab: AbilityDef, targets: Targets, index: int, out: Out) -> None:
    """Красотка: «Этот игрок не может пользоваться своими способностями этой ночью, но также не может быть
    убит.»"""
    put_ledger(s, blocked=s.ledger.blocked | set(targets), protected=s.ledger.protected | set(targets))


@ability_kind("guard")
def _guard(s: Draft, seat: int, ab: AbilityDef, targets: Targets, index: int, out: Out) -> None:
    """Телохранитель: «Погибает вместо него, если он должен быть убит этой ночью.» (D-H10)"""
    put_ledger(s, guards=(*s.ledger.guards, (seat, targets[0])))


@ability_kind("frame")
def _frame(s: Draft, seat: int, ab: AbilityDef, targets: Targets, index: int, out: Out) -> None:
    """Стукач: «Если кто-нибудь узнаёт роль этого игрока, ведущий должен сообщить, что этот игрок
    мафиози.» — for the checks of this night only (D-H14)."""
    shown = str(ab.params.get("shows", "mafioso"))
    put_ledger(s, framed=(*s.ledger.framed, (targets[0], shown)))


def _next_day(s: Draft, kind: str, seat: int, target: int) -> None:
    put_ledger(s, next_day=(*s.ledger.next_day, (kind, seat, target)))


@ability_kind("deny_vote")
def _deny_vote(s: Draft, seat: int, ab: AbilityDef, targets: Targets, index: int, out: Out) -> None:
    """Крёстный отец: «Этот игрок не может голосовать днём.» (D-H19; announced in the morning)"""
    _next_day(s, "deny_vote", seat, targets[0])


@ability_kind("link_vote")
def _link_vote(s: Draft, seat: int, ab: AbilityDef, targets: Targets, index: int, out: Out) -> None:
    """Аферист: «Днём этот игрок голосует так же, как аферист.» (D-H18)"""
    _next_day(s, "link_vote", seat, targets[0])


def _card(s: Draft, seat: int, target: int, out: Out) -> str:
    """Show the role card as a check sees it (a frame shows «Мафиози», D-H14); returns the role seen."""
    role = seen_role(s, target)
    if role == s.roles[target - 1]:
        s.knowledge = s.knowledge | {(seat, target)}
    data = {"seat": seat, "target": target, "result": role}
    params = {"seat": target, "role": s.ruleset.roles[role].display}
    out.append(Event("check", to_seats(seat), data, s.ruleset.phrase("role_card"), params))
    return role


@ability_kind("check_role_revealed", informs=True)
def _priest_check(s: Draft, seat: int, ab: AbilityDef, targets: Targets, index: int, out: Out) -> None:
    """Священник: «Этот игрок узнаёт личность священника» — the checked player, if still living, is told
    who the priest is (D-H22)."""
    target = targets[0]
    _card(s, seat, target, out)
    if ab.params.get("inform_only"):
        return
    if target in s.alive and target not in s.ledger.dead_tonight and target not in s.ledger.pending:
        s.knowledge = s.knowledge | {(target, seat)}
        out.append(
            Event(
                "priest_revealed",
                to_seats(target),
                {"seat": target, "priest": seat},
                s.ruleset.phrase("priest_revealed"),
                {"seat": seat},
            )
        )


@ability_kind("jail", informs=True)
def _jail(s: Draft, seat: int, ab: AbilityDef, targets: Targets, index: int, out: Out) -> None:
    """Тюремщик: «Может узнать роль одного игрока. Если этот игрок преступник, он сразу отправляется в
    тюрьму.» «На одиночку действие тюремщика не распространяется»; a framed player «считается мафиози и
    попадает в тюрьму» (D-H14, D-H15)."""
    target = targets[0]
    role = _card(s, seat, target, out)
    criminal_sides = ab.params.get("sides", ["mafia", "yakuza"])
    if ab.params.get("inform_only"):
        return
    if s.ruleset.roles[role].side in criminal_sides and target not in s.prisoners():
        s.jail = (*s.jail, (seat, target))
        _next_day(s, "jailed", seat, target)


@ability_kind("compare_sides", informs=True)
def _compare_sides(s: GameState, seat: int, ab: AbilityDef, targets: Targets, index: int, out: Out) -> None:
    """Журналист: «Может выбрать двух игроков, чтобы узнать, одинаковые у них стороны или разные.» «При
    этом особые роли не учитываются» — mafia and yakuza are one side, the criminals; a framed player
    counts as a mafioso (D-H14)."""
    groups: dict[str, Any] = dict(ab.params.get("groups", {}))

    def group(x: int) -> str:
        side = s.ruleset.roles[seen_role(s, x)].side
        return str(groups.get(side, side))

    a, b = targets
    result = "same" if group(a) == group(b) else "different"
    key = "same_side" if result == "same" else "different_side"
    data = {"seat": seat, "target": a, "targets": [a, b], "result": result}
    out.append(Event("check", to_seats(seat), data, s.ruleset.phrase(key), {"seat": a, "target": b}))


@ability_kind("leader_test", informs=True)
def _leader_test(s: Draft, seat: int, ab: AbilityDef, targets: Targets, index: int, out: Out) -> None:
    """Поклонница: «Может выбрать одного игрока. Если это лидер, узнаёт его роль.» — «Да» with the role,
    or «Нет»; a framed player is a mafioso, so «Нет» (D-H13)."""
    target = targets[0]
    role = seen_role(s, target)
    leaders = ab.params.get("leaders", [])
    result: str | bool = role if role in leaders else False
    if result:
        s.knowledge = s.knowledge | {(seat, target)}
        phrase, params = s.ruleset.phrase("fan_yes"), {"seat": target, "role": s.ruleset.roles[role].display}
    else:
        phrase, params = s.ruleset.phrase("fan_no"), {"seat": target}
    out.append(
        Event("check", to_seats(seat), {"seat": seat, "target": target, "result": result}, phrase, params)
    )


# -- win -------------------------------------------------------------------------------------------


@win_check("hobbyworld")
def hobbyworld(s: GameState) -> Any:
    """D-H20 after «Победа мирным жителям засчитывается, как только им удаётся вывести из игры всех
    мафиози», «При численном равенстве сторон также побеждает мафия», «Одиночка побеждает в том случае,
    если все игроки кроме него убиты» and, with the yakuza, «якудза побеждает, если мирные жители не
    могут выиграть и при этом все мафиози перебиты». Prisoners count as living."""
    living = s.living()
    if not living:
        return ()
    sides = [s.ruleset.roles[s.roles[x - 1]].side for x in living]
    mafia, yakuza, loner = sides.count("mafia"), sides.count("yakuza"), sides.count("solo")
    town = len(living) - mafia - yakuza - loner
    if loner and loner == len(living):
        return ("solo",)
    if mafia + yakuza == 0 and (loner == 0 or not s.ruleset.params.get("town_needs_loner_dead", True)):
        return ("town",)
    if yakuza == 0 and mafia > 0 and mafia >= town + loner:
        return ("mafia",)
    if mafia == 0 and yakuza > 0 and yakuza >= town + loner:
        return ("yakuza",)
    return None
