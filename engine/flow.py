"""Phase flow: nights, days and the steps inside them, in the order the preset plays them.

Every function here works on a private copy of the state (see :func:`engine.state.thaw`) and appends
the events it causes to ``out``. What an elimination leads to, and the end of the game, are in
:mod:`engine.outcome`; the night's resolution in :mod:`engine.resolution`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import filterfalse
from typing import Any

from engine.abilities import actors_of_step, victims_so_far
from engine.announce import Out, event, line, say
from engine.conduct import RESTRICTIONS, end_of_day, start_of_day
from engine.events import (
    AUDIENCES,
    EVERYONE,
    NO_PARAMS,
    Event,
    event_of,
    interned,
    interned_in,
    to_seats,
    to_team,
)
from engine.outcome import check_win
from engine.registry import DAY_STEPS, NIGHT_RESOLUTIONS
from engine.resolution import resolve_attempts, resolve_step
from engine.rules.model import StepDef
from engine.seats import holders_of, speech_lost
from engine.state import EMPTY_LEDGER, Draft, GameState, LedgerDraft, Step, clear_choices, put_step, step_of

# -- night -----------------------------------------------------------------------------------------


def enter_phase(s: Draft, out: Out, after_steps: bool) -> None:
    """Start the phase at ``s.position`` of the cycle. Phases of steps that follow each other share one
    ledger (blood: dawn, day and sunset, D-B9); the first talking phase after them resolves it."""
    rules, position = s.ruleset, s.position
    if position < len(rules.intro_phases):  # rules.phase_at(position), without the call
        name = rules.intro_phases[position]
    else:
        name = rules.loop_phases[(position - len(rules.intro_phases)) % len(rules.loop_phases)]
    if rules.phase_kinds[name] == "talk":  # rules.talks(name)
        if after_steps:
            dawn(s, out)
        else:
            start_day(s, out)
    elif after_steps:
        _continue_steps(s, out, name)
    else:
        start_night(s, out)


def next_phase(s: Draft, out: Out) -> None:
    rules = s.ruleset  # not talks(s.phase_name): a day or a night ends here, never the setup or the end
    position, intro_phases = s.position, rules.intro_phases
    if position < len(intro_phases):  # rules.phase_at(position), without the call
        name = intro_phases[position]
    else:
        name = rules.loop_phases[(position - len(intro_phases)) % len(rules.loop_phases)]
    s.position = position + 1
    enter_phase(s, out, rules.phase_kinds[name] != "talk")


def _continue_steps(s: Draft, out: Out, name: str) -> None:
    """The next phase of steps of the same cycle (blood: «на рассвете» → «днём» → «на закате»). Only the
    first phase of steps of a game is the intro (its acquaintance steps)."""
    s.phase = "night"
    s.intro = False
    say(s, out, f"{name}_starts")
    s.agenda = s.ruleset.night_agenda(name)
    next_night_step(s, out)


def start_night(s: Draft, out: Out) -> None:
    night = s.night + 1
    intro = night == 1 and bool(s.ruleset.intro_night)
    joins = s.team_joins
    for seat, team in s.pending_joins:
        if seat in s.alive:
            joins = (*joins, (seat, team))
            event(
                out, "team_joined", to_seats(seat), s.ruleset.phrase("werewolf_turned"), seat=seat, team=team
            )
    joined = joins != s.team_joins
    s.phase = "night"
    s.night = night
    s.intro = intro
    s.ledger = EMPTY_LEDGER
    s.team_joins = joins
    s.pending_joins = ()
    if joined and check_win(s, out):
        return  # D-G7: wins are checked after the werewolf joins (D-CL7): his clan may now be the majority
    end_of_day(s)
    key = "night_falls"
    if intro and s.ruleset.phrase("intro_night_falls"):
        key = "intro_night_falls"
    elif night == 1 and s.ruleset.phrase("first_night_falls"):
        key = "first_night_falls"
    line(s, out, key)
    if intro:
        line(s, out, "roles_dealing")  # city 5.4: the cards are dealt during the intro night
    s.agenda = s.ruleset.night_agenda(s.ruleset.phase_at(s.position), intro)  # s.phase_name: a night
    next_night_step(s, out)


def called_undealt(s: GameState, step: StepDef) -> bool:
    """D-CL16, 002: with the whole deck «Количество «мафии» и игровых ролей … известно только ведущему» —
    every role of the deck is called, dealt or not, as a dead one is (D-G8), so that the calls do not
    tell the table which cards were dealt."""
    if s.ruleset.params.get("composer") != "whole_deck":
        return False
    deck = set(s.ruleset.params.get("deck", ()))
    if step.team:
        return any(s.ruleset.roles[r].team == step.team for r in deck if r in s.ruleset.roles)
    return step.role in deck


def step_in_play(s: GameState, step: StepDef) -> bool:
    """Roles not in the composition are never called; dead roles are called only where the preset
    hides night deaths (D-G8); with the whole deck every role of the deck is called (D-CL16)."""
    if step.from_night > s.night:
        return False
    undealt = called_undealt(s, step)
    if not step.team and step.role not in s.roles and not undealt:
        return False  # the role was not dealt
    holders = holders_of(s, step, living_only=False)
    if not holders:
        return undealt
    if s.ruleset.call_dead_roles:
        return True
    awake = [h for h in holders if h in s.alive]
    return bool(awake) and not (step.team and _impostors_only(s, awake))


def _impostors_only(s: GameState, awake: list[int]) -> bool:
    """Seed 000: «вызываются только те персонажи, которые находятся в игре» — a team whose real members
    have all left (their roles shown) is not called for the impostor who poses as one of them (the
    sleepwalker, D-H7), where dead roles are not called (D-G8)."""
    roles = s.ruleset.roles
    dealt = s.roles
    for x in awake:  # noqa: SIM110 (a loop: all() of a generator makes a function and a frame)
        if not roles[dealt[x - 1]].impostor:
            return False
    return True


# events.interned: a night step's call by (step id, seconds, wake-up line), its end by (step id, line)
_NIGHT_STEP: dict[tuple[str, int, str | None], Event] = {}
_NIGHT_STEP_ENDED: dict[str | None, dict[str, Event]] = {}  # events.interned_in: [line][step id]


def night_step_ended(step_id: str, phrase: str | None) -> Event:
    """The event that ends the night step ``step_id`` with the host's line ``phrase``."""
    try:
        return _NIGHT_STEP_ENDED[phrase][step_id]
    except KeyError:
        fields = ("night_step_ended", EVERYONE, {"step": step_id}, phrase, NO_PARAMS)
        return interned_in(_NIGHT_STEP_ENDED, (phrase,), step_id, fields)


_NOTHING_KEPT: dict[str, Any] = {}  # no role's abilities kept yet (Ruleset.abilities_now)


def next_night_step(s: Draft, out: Out) -> None:
    agenda, rules = s.agenda, s.ruleset
    plans: dict[bool, dict[str, StepPlan]] = rules.night_plan  # [intro][step id]
    plan = plans.get(s.intro)
    if plan is None:
        plan = plans[s.intro] = {}
    while agenda:
        step_id, agenda = agenda[0], agenda[1:]
        entry = plan.get(step_id) or _plan_step(s, step_id)
        step, undealt, opened, seconds, wake, revives, prompt, called = entry
        # step_in_play, written out, keeping the holders for the step's call.
        if step.from_night > s.night:
            continue  # not yet
        # holders_of(s, step, False), written out: the deal's seats of the step's role or team, living or not
        if step.team and s.team_joins:
            holders: Sequence[int] = s.team_members(step.team, False)
        else:
            last = rules.last_deal[0]
            memo = last[1] if s.roles is last[0] else rules.seating(s.roles)
            holders = memo[1].get(step.team, ()) if step.team else memo[0].get(step.role, ())
        if not holders and not undealt:
            continue  # a role not dealt (its step has no holders), where the table may not know it (D-CL16)
        alive = s.alive
        awake = list(
            filter(alive.__contains__, holders)
        )  # holders_of(s, step): nothing below changes who lives
        if holders and not (awake or rules.call_dead_roles):
            continue
        if step.team and awake and not rules.call_dead_roles and _impostors_only(s, awake):
            continue
        s.agenda = agenda
        if step.kind != "act":
            actors: list[int] = []  # actors_of_step's first answer, without the call
        elif step.team or s.jail or rules.blocks_known:
            actors = actors_of_step(s, step, awake)
        else:  # a role's step: each living holder acts where the role's abilities are plain tonight
            kept = rules.abilities_now.get(step.role, _NOTHING_KEPT).get(step.id)
            if kept is not None and kept[1] <= s.night:
                actors = list(awake) if kept[0] else []
            else:
                actors = actors_of_step(s, step, awake)
        if step.team and wake:
            dealt_wake = _wake_for_deal(s, step.id, wake)
            if dealt_wake != wake:
                called = _night_step_called(step.id, seconds, dealt_wake)
        # A step nobody can act in (its holder is dead, jailed, out of uses) is still called, with the same
        # timer as any other (D-G8): the event is public and its length must not tell who can act. How
        # long the host waits before closing such a step is the host's business (the bot draws it from
        # the lengths of steps that living players took).
        s.step = opened  # the same every time the step is called (records are never changed)
        led = s.ledger
        if led.actions or led.skipped or led.proposals or led.team_target:
            if isinstance(led, LedgerDraft):  # clear_choices(s), without the call where the draft owns it
                led.actions, led.skipped, led.proposals, led.team_target = (), frozenset(), (), 0
            else:
                clear_choices(s)
        out.append(called)
        if awake:
            # to_seats(*awake) without the call where the group is kept
            aud = (
                to_team(step.team, awake) if step.team else (AUDIENCES.get(tuple(awake)) or to_seats(*awake))
            )
            data = {"step": step.id, "seats": awake, "actors": actors}
            out.append(
                event_of(("awake", aud, data, None, data.copy()))
            )  # event(out, "awake", …), written out
            if step.kind == "meet" and step.team:
                _introduce_team(s, step.team, awake, out)
            elif step.kind == "meet" and step.shows:
                _show_team(s, step.shows, awake, out)
            if step.kind == "act" and s.jail:
                jailed = list(filter(s.prisoners().__contains__, awake))  # in C: no cells
                if jailed:
                    phrase = s.ruleset.phrase("in_jail")
                    out.append(Event("in_jail", to_seats(*jailed), {"seats": jailed}, phrase))
            if revives:
                _show_revive_list(s, actors, out)
            if step.kind == "act" and (prompt is not None or len(actors) < len(awake)):
                _tell_unable(s, step, awake, actors, prompt, out)  # asked only where it has something to say
        return
    s.agenda = agenda
    next_phase(s, out)


# A night step as next_night_step calls it, the same every night of the ruleset: the step (as
# ``ruleset.night_step(id, intro)`` finds it), whether it is called although not dealt (called_undealt),
# the game's Step it opens (its kind, id and timer), its timer, its wake-up line, whether its role
# revives (D-CL8 variant 2: it is shown the victims), the role's own question at its wake-up (city D-C9) and
# the event that calls it (with its wake-up line; a team's line may give way to one for the deal).
StepPlan = tuple[StepDef, bool, Step, int, str | None, bool, str | None, Event]


def _night_step_called(step_id: str, seconds: int, wake: str | None) -> Event:
    """The event that calls the night step ``step_id`` with its timer and wake-up line."""
    called = (step_id, seconds, wake)
    return _NIGHT_STEP.get(called) or interned(
        _NIGHT_STEP,
        called,
        ("night_step", EVERYONE, {"step": step_id, "seconds": seconds}, wake, NO_PARAMS),
    )


def _plan_step(s: GameState, step_id: str) -> StepPlan:
    """The night step ``step_id`` of the current night (of the intro night where ``s.intro``), worked out
    on its first call and kept with the ruleset: next_night_step then looks each step of the agenda up
    once, whatever the deal (a plan per deal cost more than it saved, BENCHMARKS.md)."""
    step = s.ruleset.night_step(step_id, s.intro)
    if step.kind == "meet":
        seconds = s.ruleset.timer("meet")
    elif step.team:
        seconds = s.ruleset.timer("group_kill")
    else:
        seconds = s.ruleset.timer("night_step")
    seconds = int(s.ruleset.timers.get(step.id, seconds))  # a step's own timer (fiim's 10 s wake-ups)
    wake = s.ruleset.phrase(f"wake_{step.id}") or step.wake or None
    revives, prompt = False, None
    if step.role:
        revives = any(a.params.get("revive") for a in s.ruleset.roles[step.role].abilities)
        prompts = [a.params.get("prompt_phrase") for a in s.ruleset.ability_for_step(step.role, step.id)]
        prompt = next((str(p) for p in prompts if p), None)
    opened = Step("meet" if step.kind == "meet" else "night", night_step=step.id, seconds=seconds)
    called = _night_step_called(step.id, seconds, wake)
    found = (step, called_undealt(s, step), opened, seconds, wake, revives, prompt, called)
    s.ruleset.night_plan.setdefault(s.intro, {})[step_id] = found
    return found


def _wake_for_deal(s: GameState, step_id: str, wake: str) -> str:
    """A team's wake-up line that names a role not dealt in this game gives way to the preset's line
    without it (``wake_<step>_without_<role>`` in [phrases]): city's 7–8-player intro has no lawyer to wake
    «вместе с доном и адвокатом» (issue 13)."""
    table: dict[str, tuple[tuple[str, str], ...]] = s.ruleset.lookups("wake_without")
    found = table.get(step_id)
    if found is None:
        prefix = f"wake_{step_id}_without_"
        found = table[step_id] = tuple(
            (key[len(prefix) :], phrase)
            for key, phrase in s.ruleset.phrases.items()
            if key.startswith(prefix)
        )
    for role, phrase in found:
        if role not in s.roles:
            return phrase
    return wake


def _tell_unable(
    s: GameState, step: StepDef, awake: list[int], actors: list[int], prompt: str | None, out: Out
) -> None:
    """City D-C7 / D-C8: a blocked role is shown crossed arms at its wake-up («Вы заблокированы»), and a
    role that cannot use its ability tonight is told so where its ability names a phrase for it. Each
    actor of a role's step then hears the role's own question, if it has one (``prompt``)."""
    if step.kind != "act":
        return
    if len(actors) < len(awake):  # someone woken cannot choose (the actors are among the awake)
        _tell_idle(s, step, list(filterfalse(actors.__contains__, awake)), out)  # in C: no cells
    if prompt is not None:
        for seat in actors:
            # A role's own question at its wake-up (city D-C9: «Хотите спасти игрока этой ночью?»).
            out.append(Event("prompt", to_seats(seat), {"seat": seat, "step": step.id}, prompt))


def _tell_idle(s: GameState, step: StepDef, idle: list[int], out: Out) -> None:
    """_tell_unable for the woken who cannot choose (``idle``)."""
    if s.ruleset.blocks_known:
        blocked = [
            x for x in idle if x in s.ledger.blocked or (step.team and step.team in s.ledger.team_miss)
        ]
        if blocked:
            out.append(Event("blocked", to_seats(*blocked), {"seats": blocked}, s.ruleset.phrase("blocked")))
        idle = [x for x in idle if x not in blocked]
    for seat in idle:
        if step.team:
            continue
        for ab in s.ruleset.ability_for_step(s.roles[seat - 1], step.id):
            if ab.params.get("unavailable_phrase"):
                phrase = str(ab.params["unavailable_phrase"])
                out.append(Event("cannot_act", to_seats(seat), {"seat": seat, "step": step.id}, phrase))
                break


def _show_revive_list(s: GameState, actors: list[int], out: Out) -> None:
    """D-CL8 variant 2: «Ведущий показывает, какие игроки «убиты»» to the reviving doctor."""
    victims = victims_so_far(s)
    for seat in actors:
        out.append(
            Event(
                "victims_shown",
                to_seats(seat),
                {"seat": seat, "seats": victims},
                s.ruleset.phrase("doctor_victims"),
                {"seats": victims},
            )
        )


def _introduce_team(s: Draft, team: str, members: list[int], out: Out) -> None:
    """D-G12: the members see each other's seats; roles only where the preset shows them."""
    tdef = s.ruleset.teams[team]
    params: dict[str, Any] = {"seats": members}
    dealt = s.roles
    roles: dict[str, str] | None = None
    if tdef.show_roles:  # the preset's phrase names each member's role (priv_team_roles)
        params["members"] = [{"seat": x, "role": s.ruleset.roles[dealt[x - 1]].display} for x in members]
        roles = {str(x): dealt[x - 1] for x in members}  # each member's event has a copy of its own
        s.knowledge = s.knowledge | {(m, x) for m in members for x in members}
    leader = None
    if tdef.show_leader and tdef.leader:
        leader = [x for x in members if dealt[x - 1] == tdef.leader]
    phrase = s.ruleset.phrases.get("team_members")
    for m in members:
        data: dict[str, Any] = {"team": team, "seats": members}
        if roles is not None:
            data["roles"] = roles.copy()
        if leader is not None:
            data["leader"] = leader.copy()
        out.append(Event("team_members", to_seats(m), data, phrase, params))


def _show_team(s: GameState, team: str, awake: list[int], out: Out) -> None:
    """D-CL9: «Вся «мафия» поднимает руки, не открывая глаз, и таким образом «судья-мафия» узнает, кто
    принадлежит к их клану» — the woken role is shown the team's seats; the team learns nothing."""
    members = s.team_members(team)
    for seat in awake:
        data = {"seat": seat, "team": team, "seats": members}
        out.append(
            Event("team_shown", to_seats(seat), data, s.ruleset.phrase("team_shown"), {"seats": members})
        )


def close_night_step(s: Draft, out: Out) -> None:
    step_id, intro, rules = s.step.night_step, s.intro, s.ruleset
    step = (rules.intro_by_id if intro else rules.night_by_id).get(step_id) or rules.night_step(
        step_id, intro
    )
    if step.kind == "act" and resolve_step(s, step, out):
        return  # the step opened again (a team's extra shot, D-H7)
    phrase = step.sleep or None
    try:  # night_step_ended(step.id, phrase), written out (a night step ends ≈ 25 times a game)
        out.append(_NIGHT_STEP_ENDED[phrase][step.id])
    except KeyError:
        out.append(night_step_ended(step.id, phrase))
    next_night_step(s, out)


def dawn(s: Draft, out: Out) -> None:
    """The end of the night: attempts meet protections, deaths take effect (end-of-night presets)."""
    resolve = NIGHT_RESOLUTIONS.get(s.ruleset.night_resolution, resolve_attempts)
    victims = resolve(s) if not s.intro else []
    s.last_night_victims = tuple(victims)
    start_day(s, out)


# -- day -------------------------------------------------------------------------------------------


def start_day(s: Draft, out: Out) -> None:
    day = s.day + 1
    intro = s.position == 0
    agenda = tuple(s.ruleset.day_first if day == 1 else s.ruleset.day_normal)
    if s.ruleset.conduct.daily_reset:
        # D-F1's «лишён слова» lines come after the morning's news, not before «Наступает утро».
        at = 0
        for i, name in enumerate(agenda):
            if name.endswith("morning"):
                at = i + 1
                break
        agenda = (*agenda[:at], RESTRICTIONS, *agenda[at:])
    s.phase = "day"
    s.day = day
    s.intro = intro
    s.agenda = agenda
    s.nominations = ()
    s.ballots = ()
    s.voted = frozenset()
    s.tie_words_given = False
    s.claimable = frozenset()
    s.step = step_of("dawn")
    start_of_day(s, out)
    next_day_step(s, out)


def next_day_step(s: Draft, out: Out) -> None:
    if s.phase == "over":
        return
    while s.agenda:
        name, rest = s.agenda[0], s.agenda[1:]
        s.agenda = rest
        if DAY_STEPS[name](s, out):
            return  # the step waits for commands
        if s.phase == "over" or s.step.kind == "question":
            return
    next_phase(s, out)


def begin_speeches(s: Draft, out: Out, seats: list[int], purpose: str, seconds: int, **extra: Any) -> bool:
    """A queue of speeches, one seat at a time. Returns False when there is nobody to speak."""
    if not seats:
        return False
    if extra:
        s.step = Step(
            "speech", seat=seats[0], queue=tuple(seats[1:]), round=purpose, seconds=seconds, **extra
        )
    else:
        s.step = step_of("speech", seats[0], tuple(seats[1:]), round=purpose, seconds=seconds)
    announce_speech(s, out)
    return True


# The ruleset phrase key that hands a speech over, by the speech's round (the bot's panel says it too).
SPEECH_PHRASES = {
    "intro": "intro_speech_turn",
    "day": "speech_turn",
    "last_word": "last_word",
    "tie_word": "tie_word_turn",
    "farewell": "farewell",
    "night_words": "night_victim_words",
}


# events.interned: by (seat, round, seconds, phrase)
_SPEECH: dict[tuple[int, str, int, str | None], Event] = {}


def announce_speech(s: Draft, out: Out) -> None:
    step = s.step
    seat, round_name = step.seat, step.round
    if seat in s.no_speech and speech_lost(s, seat):  # speech_lost's first question, without the call
        _announce_lost_speech(s, out)
        return
    seconds = step.seconds
    try:  # the preset's own speeches (its phrase is the same for every one): [round][seconds][seat]
        found = s.ruleset.speeches[round_name][seconds][seat]
    except KeyError:
        found = _speech_event(s, seat, round_name, seconds)
    out.append(found)


def _speech_event(s: GameState, seat: int, round_name: str, seconds: int) -> Event:
    """The speech's call (_SPEECH's event), kept in the preset's table of announce_speech."""
    phrase = s.ruleset.phrases.get(SPEECH_PHRASES.get(round_name, "speech_turn"))
    key = (seat, round_name, seconds, phrase)
    found = _SPEECH.get(key) or interned(
        _SPEECH,
        key,
        (
            "speech",
            EVERYONE,
            {"seat": seat, "purpose": round_name, "seconds": seconds},
            phrase,
            {"seat": seat},
        ),
    )
    by_seconds = s.ruleset.speeches.setdefault(round_name, {})
    if len(by_seconds) >= 64:  # a bound, as events.interned's
        by_seconds.clear()
    by_seat = by_seconds.setdefault(seconds, {})
    by_seat[seat] = found
    return found


def _announce_lost_speech(s: Draft, out: Out) -> None:
    """announce_speech for a speaker who has lost his speech for his fouls (speech_lost)."""
    seat = s.step.seat
    key = SPEECH_PHRASES.get(s.step.round, "speech_turn")
    muted = True
    if muted and s.step.round == "day" and s.ruleset.params.get("short_speech_at_3_4") and len(s.alive) <= 4:
        # FIIM D-FI12: with 3–4 players left the lost speech is a 30 s one instead.
        s.no_speech = s.no_speech - {seat}
        put_step(s, seconds=s.ruleset.timer("short_speech"))
        muted = False
    if muted and s.step.round == "day" and "nomination_turn" in s.ruleset.timers:
        # FIIM D-FI8: instead of his lost speech he gets a short turn to nominate only (voice stays off).
        put_step(s, seconds=s.ruleset.timer("nomination_turn"))
    if muted and s.ruleset.phrase("speech_skipped"):
        key = "speech_skipped"
    data = {"seat": seat, "purpose": s.step.round, "seconds": 0 if muted else s.step.seconds}
    if muted and s.step.round == "day" and "nomination_turn" in s.ruleset.timers:
        data["nomination_seconds"] = s.step.seconds
    out.append(event_of(("speech", EVERYONE, data, s.ruleset.phrases.get(key), {"seat": seat})))
