"""The one entry point: :func:`apply` takes a state and a command and returns the new state and the
events. :func:`new_game` seats the roles and starts the first phase."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from engine import abilities, ballot, conduct, day, rng
from engine.announce import line, say
from engine.commands import (
    Abort,
    Act,
    Advance,
    Answer,
    AskNominees,
    AwardVictory,
    Claim,
    Command,
    Foul,
    Nominate,
    OnRecord,
    Pass,
    Permit,
    Propose,
    Remove,
    RevokeImmunity,
    Skip,
    TeamAct,
    Unvote,
    Vote,
    Withdraw,
)
from engine.errors import GameOver, IllegalCommand, NotYourTurn, WrongPhase
from engine.events import EVERYONE, NO_PARAMS, Event, interned, interned_in, to_seats
from engine.flow import close_night_step, enter_phase, next_day_step, next_night_step, night_step_ended
from engine.kinds import fiim_day
from engine.outcome import check_win
from engine.registry import STEP_KINDS
from engine.rules import Ruleset
from engine.seats import PARTING_ROUNDS
from engine.state import Draft, GameState, Step, evolve, freeze, fresh_state, same_step, set_state_dict

# events.interned: a role dealt by (seat, role, phrase, the role's name and description)
_DEALT: dict[tuple[int, str, str | None, str, str], Event] = {}


def new_game(
    ruleset: Ruleset, roles: Sequence[str], seed: int, immune: Iterable[int] = (), at: float = 0.0
) -> tuple[GameState, list[Event]]:
    """Seat ``roles`` (seat i + 1 gets ``roles[i]``) and start the first phase of the cycle. ``immune``:
    seats with immunity from the previous game (city D-C5; only where the preset has it and the table
    is large enough)."""
    for i, role in enumerate(roles):
        if role not in ruleset.roles:
            raise IllegalCommand(
                f"Роль «{role}» (место {i + 1}) не входит в эти правила.",
                key="role-not-in-rules",
                role=role,
                place=i + 1,
            )
    if len(roles) < 2:
        raise IllegalCommand("Нужно хотя бы два игрока.", key="two-players-at-least")
    s = fresh_state(  # thaw(GameState(...)), without the generated __init__
        ruleset=ruleset,
        seed=seed,
        roles=tuple(roles),
        alive=frozenset(range(1, len(roles) + 1)),
        phase="setup",
        day=0,
        night=0,
        intro=False,
        step=Step("setup"),
        rng=rng.seed_state(seed),
        immune=_immune(ruleset, len(roles), immune),
    )
    out: list[Event] = []
    say(s, out, "game_start", preset=ruleset.title, count=len(roles))
    out.append(
        Event(
            "game_started",
            EVERYONE,
            {"ruleset": ruleset.id, "options": list(ruleset.selected_options), "seats": len(roles)},
        )
    )
    s.knowledge = s.knowledge | {(seat, seat) for seat in range(1, len(roles) + 1)}  # each sees his own
    dealt_phrase = ruleset.phrase("role_dealt")
    for seat, role in enumerate(roles, start=1):
        rdef = ruleset.roles[role]
        key = (seat, role, dealt_phrase, rdef.display, rdef.description)
        out.append(
            _DEALT.get(key)
            or interned(
                _DEALT,
                key,
                (
                    "role_dealt",
                    to_seats(seat),
                    {"seat": seat, "role": role},
                    dealt_phrase,
                    {"role": rdef.display, "role_description": rdef.description},
                ),
            )
        )
    enter_phase(s, out, after_steps=False)
    s.step = evolve(s.step, started_at=at)
    return freeze(s), out


def _immune(ruleset: Ruleset, players: int, seats: Iterable[int]) -> frozenset[int]:
    """D-C5: «Иммунитет действует при игре от 9 человек»."""
    wanted = frozenset(seats)
    for seat in wanted:
        if not 1 <= seat <= players:
            raise IllegalCommand(f"Нет места {seat} для иммунитета.", key="no-seat-for-immunity", seat=seat)
    minimum = ruleset.params.get("immunity_from")
    if minimum is None or players < int(minimum):
        return frozenset()
    return wanted


def deal(ruleset: Ruleset, players: int, seed: int) -> list[str]:
    """Shuffle the composition for ``players`` into seats (D-G9). A composition may be a larger deck
    (classic's whole deck, D-CL16; the two-player game's three cards, D-CL13): the first ``players``
    cards are dealt and the rest stay hidden."""
    decks: dict[int, tuple[str, ...]] = ruleset.lookups("decks")  # the deck of each table size, kept
    deck = decks.get(players)
    if deck is None:
        from engine.composition import composition

        deck = tuple(role for role, n in sorted(composition(ruleset, players).items()) for _ in range(n))
        decks[players] = deck
    seats = rng.shuffled_from(seed ^ 0x5EA7, deck)  # rng.shuffled(rng.seed_state(seed ^ 0x5EA7), deck)
    return seats[:players]


_new = object.__new__


def apply(state: GameState, command: Command) -> tuple[GameState, list[Event]]:
    """Apply one command. Raises :class:`IllegalCommand` (and leaves ``state`` as it was) if the rules
    do not allow it now."""
    s = _new(Draft)  # thaw(state), written out: this runs for every command
    set_state_dict(s, state.__dict__.copy())
    out: list[Event] = []
    apply_in_place(s, (command,), out)
    return freeze(s), out  # the draft itself becomes the finished state


def apply_all(state: GameState, commands: Sequence[Command], out: list[Event]) -> tuple[GameState, int]:
    """Apply ``commands`` in order until the game is over, appending their events to ``out``: the state and
    the events are those of :func:`apply` called for each command in turn, and the commands left after
    the game ended are not applied. Returns the last state and how many commands were applied. The state
    is copied once for all of them, not once per command; an IllegalCommand leaves ``state`` and
    ``out`` as they were."""
    s = _new(Draft)  # thaw(state), written out
    set_state_dict(s, state.__dict__.copy())
    start = len(out)
    try:
        done = apply_in_place(s, commands, out)
    except BaseException:
        del out[start:]
        raise
    return freeze(s), done


def apply_in_place(s: Draft, commands: Iterable[Command], out: list[Event]) -> int:
    """:func:`apply_all` on a draft its caller owns and reads between batches, with no copy at all: the
    draft goes through the states apply would give, command by command, and the caller freezes it when it
    is done with it (``engine.state.freeze``). A refused command leaves the draft half-changed, so this is
    only for a caller who then drops it (the simulator, whose commands are legal by construction)."""
    if s.phase == "over":
        raise GameOver("Игра уже окончена.", key="game-over")
    done = 0
    handlers, ends = _HANDLERS, _STEP_ENDS
    for command in commands:
        before = s.step
        kind = command.__class__
        if kind is Advance and before.kind in ends:  # _advance, without its call (four commands in ten)
            ends[before.kind](s, out)
        else:
            try:
                handler = handlers[kind]
            except KeyError:
                raise IllegalCommand(
                    f"Неизвестная команда {command.type!r}.", key="unknown-command"
                ) from None
            handler(s, command, out)
        done += 1
        after = s.step
        if after is not before:
            if after.started_at != command.at and not same_step(before, after):
                s.step = evolve(after, started_at=command.at)
            if s.phase == "over":  # the game ends on a step of its own (outcome.finish, _abort)
                break
    return done


def replay(
    ruleset: Ruleset, roles: Sequence[str], seed: int, commands: Iterable[Command]
) -> tuple[GameState, list[Event]]:
    """Rebuild a game from its command log."""
    state, events = new_game(ruleset, roles, seed)
    for command in commands:
        state, more = apply(state, command)
        events.extend(more)
    return state, events


# -- handlers --------------------------------------------------------------------------------------


def _advance(s: Draft, c: Advance, out: list[Event]) -> None:
    kind = s.step.kind
    end = _STEP_ENDS.get(kind)
    if end is not None:
        end(s, out)
    elif kind in STEP_KINDS:
        STEP_KINDS[kind].advance(s, out)
    else:
        raise WrongPhase("Сейчас нечего завершать.", key="nothing-to-end")


def _end_discussion(s: Draft, out: list[Event]) -> None:
    line(s, out, "discussion_stop")
    next_day_step(s, out)


def _end_tiebreak(s: Draft, out: list[Event]) -> None:
    ballot.no_elimination(s, out, "tie")


def _end_meet(s: Draft, out: list[Event]) -> None:
    out.append(night_step_ended(s.step.night_step, _sleep_phrase(s)))
    next_night_step(s, out)


def _sleep_phrase(s: GameState) -> str | None:
    for st in s.ruleset.intro_night:
        if st.id == s.step.night_step:
            return st.sleep or None
    return None


_PASSED: dict[str | None, dict[int, Event]] = {}  # events.interned_in: [phrase][seat]


def _pass(s: Draft, c: Pass, out: list[Event]) -> None:
    if s.step.kind != "speech":
        raise WrongPhase("Сейчас никто не говорит.", key="nobody-speaks")
    if c.seat != s.step.seat:
        raise NotYourTurn(f"Сейчас говорит игрок {s.step.seat}.", key="speaking-now", seat=s.step.seat)
    seat, phrase = c.seat, s.ruleset.phrases.get("speech_pass")
    try:
        found = _PASSED[phrase][seat]
    except KeyError:
        found = interned_in(_PASSED, (phrase,), seat, ("passed", EVERYONE, {"seat": seat}, phrase, NO_PARAMS))
    out.append(found)
    day.end_speech(s, out)


def _skip(s: Draft, c: Skip, out: list[Event]) -> None:
    abilities.skip(s, c.seat, out)


def _team_act(s: Draft, c: TeamAct, out: list[Event]) -> None:
    abilities.team_act(s, c.team, c.target, out)


def _withdraw(s: Draft, c: Withdraw, out: list[Event]) -> None:
    fiim_day.withdraw(s, c.seat, out)


def _on_record(s: Draft, c: OnRecord, out: list[Event]) -> None:
    fiim_day.on_record(s, c.seat, tuple(c.targets), tuple(c.colours), out)


def _unvote(s: Draft, c: Unvote, out: list[Event]) -> None:
    ballot.unvote(s, c.seat, out)


def _permit(s: Draft, c: Permit, out: list[Event]) -> None:
    day.permit(s, c.seat, c.target, c.allow, out)


def _ask_nominees(s: GameState, c: AskNominees, out: list[Event]) -> None:
    day.ask_nominees(s, c.seat, out)


def _revoke_immunity(s: Draft, c: RevokeImmunity, out: list[Event]) -> None:
    if c.seat not in s.immune:
        raise IllegalCommand(f"У игрока {c.seat} нет иммунитета.", key="no-immunity", seat=c.seat)
    s.immune = s.immune - {c.seat}
    phrase = s.ruleset.phrase("immunity_lost")
    out.append(Event("immunity_lost", EVERYONE, {"seat": c.seat}, phrase, {"seat": c.seat}))


def _award_victory(s: Draft, c: AwardVictory, out: list[Event]) -> None:
    conduct.award_victory(s, c.seat, c.reason, out)


def _answer(s: Draft, c: Answer, out: list[Event]) -> None:
    """D-S7: only the real maniac's answer counts; «Да» is made public and ends the game."""
    if s.step.kind != "question":
        raise WrongPhase("Вопрос не задан.", key="no-question")
    if c.seat != s.step.seat:
        raise NotYourTurn("Вопрос задан не вам.", key="question-not-yours")
    if not c.yes:
        _question_silence(s, out)
        return
    s.flags = s.flags | {"maniac_town"}
    out.append(
        Event(
            "maniac_answer",
            EVERYONE,
            {"seat": c.seat, "yes": True},
            s.ruleset.phrase("maniac_joins_town"),
            {"seat": c.seat},
        )
    )
    check_win(s, out)


def _question_silence(s: Draft, out: list[Event]) -> None:
    out.append(Event("maniac_answer", EVERYONE, {"yes": False}, s.ruleset.phrase("maniac_silent")))
    if check_win(s, out):
        return  # D-S6 5: a maniac playing for himself wins at once with at most one other player left
    if s.resume is not None:
        step = s.resume
        s.step = step
        s.resume = None
        out.append(Event("step_resumed", EVERYONE, {"kind": step.kind, "seat": step.seat}))
        if step.kind == "speech" and step.seat not in s.alive and step.round != "farewell":
            day.end_speech(s, out)
        return
    if s.phase == "night":
        next_night_step(s, out)
    else:
        next_day_step(s, out)


def _claim(s: Draft, c: Claim, out: list[Event]) -> None:
    """D-S8: a night victim may only say «Я комиссар»."""
    if c.seat not in s.claimable or "claim_commissar" not in s.ruleset.params.get("claims", []):
        refusal = NotYourTurn("Сейчас вы не можете сделать заявление.", key="no-claim-now")
        refusal.rule = (
            "D-S8: only a player killed last night says «Я комиссар», once, on the day after (004: «Если"
            " ЛЮБОЙ игрок до того как его убили ночью не говорил что он комиссар, то ОН МОЖЕТ сказать что он"
            " комиссар и покинуть стол»)"
        )
        raise refusal
    s.claimable = s.claimable - {c.seat}
    out.append(
        Event(
            "claim",
            EVERYONE,
            {"seat": c.seat, "claim": "commissar"},
            s.ruleset.phrase("claims_commissar"),
            {"seat": c.seat},
        )
    )


def _foul(s: Draft, c: Foul, out: list[Event]) -> None:
    _with_speaker_check(s, out, lambda: conduct.give_foul(s, c.seat, c.reason, out))


def _remove(s: Draft, c: Remove, out: list[Event]) -> None:
    _with_speaker_check(s, out, lambda: conduct.remove(s, c.seat, c.reason, out))


def _with_speaker_check(s: Draft, out: list[Event], action: object) -> None:
    """A removal during someone's step moves the game on: a removed speaker's turn ends; where a removal
    stops the vote under way (FIIM D-FI12, ``conduct.VOTE_STOPPED``), nobody leaves by it."""
    assert callable(action)
    action()
    if conduct.VOTE_STOPPED in s.flags:
        s.flags = s.flags - {conduct.VOTE_STOPPED}
        if not s.over:
            phrase = s.ruleset.phrase("vote_cancelled")
            out.append(Event("no_elimination", EVERYONE, {"reason": "cancelled"}, phrase))
            next_day_step(s, out)
    if s.over:
        return
    step = s.step
    if step.kind == "speech" and step.seat not in s.alive and step.round not in PARTING_ROUNDS:
        day.end_speech(s, out)
    elif step.kind == "question" and step.seat not in s.alive:
        _question_silence(s, out)


def _abort(s: Draft, c: Abort, out: list[Event]) -> None:
    s.phase = "over"
    s.winners = ()
    s.step = Step("over")
    s.agenda = ()
    s.flags = s.flags | {"aborted"}
    out.append(Event("game_aborted", EVERYONE, {"reason": c.reason}, s.ruleset.phrase("aborted")))


# How an Advance ends a step of each of the engine's own kinds (a preset's kinds: STEP_KINDS).
_STEP_ENDS: dict[str, Callable[[Draft, list[Event]], None]] = {
    "speech": day.end_speech,
    "discussion": _end_discussion,
    "nominations": next_day_step,
    "vote": ballot.close_candidate,
    "tiebreak": _end_tiebreak,
    "question": _question_silence,
    "night": close_night_step,
    "meet": _end_meet,
}


# Each handler takes the command of its class (the dispatch by class is what makes it so).
_HANDLERS: dict[type[Command], Callable[[Draft, Any, list[Event]], None]] = {
    Advance: _advance,
    Pass: _pass,
    Act: abilities.act,
    Skip: _skip,
    Propose: abilities.propose,
    TeamAct: _team_act,
    Nominate: day.nominate,
    Vote: ballot.vote,  # a preset's own vote (lift), the tiebreaker's choice or a hand in the ballot
    Unvote: _unvote,
    Answer: _answer,
    Claim: _claim,
    Foul: _foul,
    Remove: _remove,
    Permit: _permit,
    AskNominees: _ask_nominees,
    RevokeImmunity: _revoke_immunity,
    AwardVictory: _award_victory,
    Withdraw: _withdraw,
    OnRecord: _on_record,
    Abort: _abort,
}
