"""The outcome of the game: eliminations and what follows from them, the win check, the end.

A seat leaving the table (killed, executed, removed) may turn a werewolf and free prisoners; after it the
preset's win check (D-G7) decides whether the game is over, and :func:`finish` reveals the roles.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import filterfalse
from typing import Any

from engine.announce import Out, event, line, say
from engine.events import EVERYONE, Event, event_of, to_seats
from engine.registry import GAME_OVER_HOOKS, WIN_CHECKS
from engine.state import Draft, GameState, Step, step_of

_LEAVING_PHRASES = {"killed": "player_killed", "executed": "executed", "removed": "removed"}


def eliminate(s: Draft, seat: int, how: str, out: Out, reveal: bool, phrase: str = "", **extra: Any) -> None:
    """A seat leaves the table (``how``: killed, executed, removed; ``phrase`` overrides the phrase key,
    ``extra`` adds fields such as a removal's reason). A role revealed only because it is always shown
    on leaving (city's maniac) uses the ``…_revealed`` phrase and then the ``revealed_left`` line."""
    s.alive = s.alive - {seat}
    data: dict[str, Any] = {"seat": seat, **extra}
    params: dict[str, Any] = {"seat": seat}
    rules = s.ruleset
    phrases = rules.phrases  # rules.phrase(key) is phrases.get(key): read without the method's call
    role = s.roles[seat - 1]  # s.role_of(seat), without the call
    by_role = not reveal and rules.roles[role].reveal_on_leave
    if reveal or by_role:
        data["role"] = role
        data["role_name"] = params["role"] = rules.roles[role].display
        s.revealed = s.revealed | {seat}
    phrase_key = _LEAVING_PHRASES[how]
    if how == "killed" and phrases.get("player_killed_neutral") and _several_killers(s):
        phrase_key = "player_killed_neutral"
    if how == "executed" and not reveal and phrases.get("executed_hidden"):
        phrase_key = "executed_hidden"
    phrase_key = phrase or phrase_key
    if by_role and phrases.get(f"{phrase_key}_revealed"):
        phrase_key = f"{phrase_key}_revealed"
    out.append(event_of((how, EVERYONE, data, phrases.get(phrase_key), params)))  # Event(…), in C
    if by_role:
        say(s, out, "revealed_left", seat=seat, role=params["role"])
    if rules.joining_roles():  # asked here: most presets have no role that joins a team
        _werewolf_trigger(s, seat, out)
    if s.jail:  # asked here: most games jail nobody
        _free_prisoners(s, seat, out)


def _free_prisoners(s: Draft, seat: int, out: Out) -> None:
    """D-H15: «Если тюремщик убит, все заключённые выходят на свободу» (their release is announced with
    his death; at night they were already free from the moment he was killed). A prisoner taken this
    very night, whose imprisonment the morning («утром ведущий объявляет, кто стал заключённым») has not
    told yet, is freed without a word: naming him would tell the table what the jailer's check found.
    Called where somebody is jailed (a function of its own: its comprehensions would make eliminate's
    names cells at every elimination)."""
    freed = sorted(p for j, p in s.jail if j == seat and p in s.alive)
    if any(j == seat for j, _ in s.jail):
        s.jail = tuple(e for e in s.jail if e[0] != seat)
    if s.phase == "night" or s.step.kind == "dawn":  # the night's deaths, before the morning's notices
        tonight = {t for kind, j, t in s.ledger.next_day if kind == "jailed" and j == seat}
        freed = [p for p in freed if p not in tonight]
    if freed:
        out.append(Event("released", EVERYONE, {"seats": freed}, s.ruleset.phrase("prisoners_released")))


def _several_killers(s: GameState) -> bool:
    """D-CL12: the exact «мафия коварно убила» line only when the mafia is the only killer in play."""
    facts = s.ruleset.deal_facts(s.roles)
    several: bool | None = facts.get("several_killers")
    if several is None:
        several = facts["several_killers"] = _count_killers(s) > 1
    return several


def _count_killers(s: GameState) -> int:
    killers = set()
    dealt = set(s.roles)
    if s.ruleset.params.get("composer") == "whole_deck":  # D-CL16: the table does not know the deal
        dealt |= {r for r in s.ruleset.params.get("deck", ()) if r in s.ruleset.roles}
    for role_id in dealt:
        role = s.ruleset.roles[role_id]
        if role.team and s.ruleset.teams[role.team].kill_step:
            killers.add(role.team)
        if any(a.kind == "kill" for a in role.abilities):
            killers.add(role_id)
    return len(killers)


def _werewolf_trigger(s: Draft, seat: int, out: Out) -> None:
    """D-CL7: the first elimination of a clan member turns a dormant werewolf into that clan's member
    «ближайшей же ночью»."""
    joining = s.ruleset.joining_roles()  # not empty: eliminate asks before the call
    team = s.team_of(seat)
    if not team or not s.ruleset.teams[team].kill_step:
        return
    dealt = s.ruleset.seats_by_role(s.roles)
    if not any(map(dealt.__contains__, joining)):
        return  # nobody at the table joins a team
    for other in s.living():
        role = s.ruleset.roles[s.roles[other - 1]]
        if not role.joins_team_on_loss or any(j[0] == other for j in s.team_joins):
            continue
        pending = _pending_join(s, other)
        if pending is None:
            s.pending_joins = (*s.pending_joins, (other, team))
        elif s.step.kind == "dawn" and _wakes_first(s, team, pending):
            # «mafia if both lost one at once»: the night's victims are one batch, announced at dawn.
            rest = tuple(filterfalse(_joins_of(other), s.pending_joins))  # no cell for other at every call
            s.pending_joins = (*rest, (other, team))


def _joins_of(seat: int) -> Callable[[tuple[int, str]], bool]:
    """Whether a pending join is ``seat``'s."""
    return lambda join: join[0] == seat


def _pending_join(s: GameState, seat: int) -> str | None:
    """The team ``seat`` is to join at nightfall, if any (the first such entry)."""
    for x, team in s.pending_joins:
        if x == seat:
            return team
    return None


def _wakes_first(s: GameState, team: str, other: str) -> bool:
    order = [step.id for step in s.ruleset.night_steps]
    teams = s.ruleset.teams
    return order.index(teams[team].kill_step) < order.index(teams[other].kill_step)


DECIDED = "decided:"  # flag: the result told before the last word ("decided:town", "decided:" a draw)


def decided(s: GameState) -> bool:
    """The result was told before a last word (:func:`announce_decided`) and waits for its end."""
    return bool(s.flags) and any(f.startswith(DECIDED) for f in s.flags)


def announce_decided(s: Draft, out: Out) -> None:
    """Issue 13 (FIIM D-FI14, city, simple): a player voted or shot out who still has his last word does
    not keep the result waiting — it is told when the rules decide it, then his words follow and the game
    ends after them with that result (a removal in that minute changes nothing)."""
    if s.flags and any(f.startswith(DECIDED) for f in s.flags):
        return
    verdict = WIN_CHECKS[s.ruleset.win_check](s)
    if verdict is None or verdict == "ask_maniac":
        return
    winners = tuple(verdict)
    s.flags = s.flags | {DECIDED + ",".join(winners)}
    out.append(_result_event(s, winners, "result_decided"))


def _result_event(s: GameState, winners: tuple[str, ...], kind: str) -> Event:
    if not winners:
        return Event(kind, EVERYONE, {"winners": [], "draw": True}, s.ruleset.phrase("draw"))
    params: dict[str, Any] = {}
    loners = [x for x in s.living() if s.ruleset.roles[s.roles[x - 1]].side == "solo"]
    if winners == ("solo",) and len(loners) == 1:  # «Победил одиночка — {role}!»
        params = {"seat": loners[0], "role": s.ruleset.roles[s.roles[loners[0] - 1]].display}
    return Event(kind, EVERYONE, {"winners": list(winners)}, s.ruleset.phrase(f"win_{winners[0]}"), params)


def check_win(s: Draft, out: Out) -> bool:
    """Evaluate the preset's win check (D-G7). True when the game stopped (over, or a question asked)."""
    if s.phase == "over":
        return True
    decided = next((f[len(DECIDED) :] for f in s.flags if f.startswith(DECIDED)), None) if s.flags else None
    if decided is not None:
        finish(s, out, tuple(x for x in decided.split(",") if x), announced=True)
        return True
    verdict = WIN_CHECKS[s.ruleset.win_check](s)
    if verdict is None:
        return False
    if verdict == "ask_maniac":
        maniac = _maniac(s)
        s.flags = s.flags | {"maniac_asked"}
        s.step = Step("question", seat=maniac, seconds=s.ruleset.timer("question"))
        line(s, out, "maniac_question")
        event(out, "question", to_seats(maniac), s.ruleset.phrase("maniac_question_private"), seat=maniac)
        return True
    finish(s, out, tuple(verdict))
    return True


def _maniac(s: GameState) -> int:
    """The living maniac's seat (a function of its own: a generator in check_win makes s a cell)."""
    return next(x for x in s.living() if s.roles[x - 1] == "maniac")


def finish(s: Draft, out: Out, winners: tuple[str, ...], announced: bool = False) -> None:
    """The end. ``announced``: the result was told before the last word (announce_decided), so the end
    does not say it again."""
    ended = _result_event(s, winners, "game_over")
    s.phase = "over"
    s.winners = winners
    s.draw = not winners
    s.step = step_of("over")
    s.agenda = ()
    if announced:
        ended = Event("game_over", EVERYONE, {**ended.data, "announced": True})
    out.append(ended)
    for hook in GAME_OVER_HOOKS:
        hook(s, out)
    roles = [{"seat": i + 1, "role": s.ruleset.roles[r].display, "role_id": r} for i, r in enumerate(s.roles)]
    s.revealed = frozenset(range(1, s.n_seats + 1))
    out.append(
        Event("roles_revealed", EVERYONE, {"roles": roles}, s.ruleset.phrase("roles"), {"roles_list": roles})
    )
