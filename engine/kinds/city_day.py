"""«Городская мафия» (seed 001, RULESETS.md 5.5–5.9, D-C12…D-C15, D-C20): the city's day.

The morning announces departures without roles (the maniac excepted), night victims get thirty seconds;
one-minute speeches run in seat order from a rotating first speaker; a vote needs two nominees; a tie is
an «автокатастрофа»: thirty-second defences, a revote, and then a vote on whether all the tied leave
together. An alibi (agent's or lawyer's) keeps a condemned player at the table.
"""

from __future__ import annotations

from engine.announce import Out, line, say
from engine.ballot import candidates, may_vote, refuse, start_ballot, tie_speeches
from engine.errors import AlreadyActed, DeadPlayer, NotYourTurn, WrongPhase
from engine.events import EVERYONE, Event
from engine.flow import announce_speech, begin_speeches, next_day_step
from engine.kinds.city import MISSED, has_mark
from engine.outcome import announce_decided, check_win, eliminate
from engine.registry import day_step, step_kind, tie_chain
from engine.state import Draft, GameState, Step

# -- morning ---------------------------------------------------------------------------------------


@day_step("city_morning")
def city_morning(s: Draft, out: Out) -> bool:
    """D-C15: «Ведущий не называет роли покинувших стол игроков, за исключением Маньяка»; the miss line,
    then each departure in seat order, or the "nobody" line. D-C14: night victims get thirty seconds, in
    which they «могут назвать свою роль»; players who slept through their step leave silently (D-C17)."""
    line(s, out, "day_breaks")
    if s.night == 1 and s.ruleset.intro_night:
        if s.immune:
            seats = sorted(s.immune)
            out.append(
                Event(
                    "immunity",
                    EVERYONE,
                    {"seats": seats},
                    s.ruleset.phrase("immunity_list"),
                    {"seats": seats},
                )
            )
        return False
    missed = MISSED in s.ledger.marks
    if missed:
        out.append(Event("mafia_missed", EVERYONE, {}, s.ruleset.phrase("mafia_missed")))
    killed = [x for x in s.last_night_victims if x in s.alive]
    marks = s.ledger.marks  # has_mark(s, "asleep", x), without a call for each living seat
    asleep = [x for x in s.living() if ("asleep", x) in marks and x not in killed]
    for seat in sorted(killed + asleep):
        if seat in killed:
            eliminate(s, seat, "killed", out, reveal=False)
        else:
            eliminate(s, seat, "removed", out, reveal=False, phrase="player_killed", reason="asleep")
    if not killed and not asleep and not missed:
        line(s, out, "nobody_killed")
    if check_win(s, out):
        return True
    return begin_speeches(s, out, killed, "night_words", s.ruleset.timer("night_words"))


# -- speeches --------------------------------------------------------------------------------------


@day_step("city_speeches")
def city_speeches(s: Draft, out: Out) -> bool:
    """«У каждого игрока есть одна минута на то, чтобы высказать свои подозрения и выставить кандидатуру
    на голосование.» D-C12: day 1 starts with seat 1; each later day with the next living seat after the
    previous day's first speaker."""
    living = s.living()
    if not living:
        return False
    previous = s.first_speaker
    first = next((x for x in living if x > previous), living[0]) if previous else living[0]
    s.first_speaker = first
    i = living.index(first)
    return begin_speeches(s, out, living[i:] + living[:i], "day", s.ruleset.timer("speech"))


# -- voting ----------------------------------------------------------------------------------------


@day_step("city_vote")
def city_vote(s: Draft, out: Out) -> bool:
    """«Для активации голосования должно быть выставлено хотя бы два игрока.» «Если игровой стол днём
    покинул игрок, выставленный на голосование, голосование не состоится.»"""
    if "vote_cancelled" in s.flags:
        s.flags = s.flags - {"vote_cancelled"}
        out.append(
            Event("no_elimination", EVERYONE, {"reason": "cancelled"}, s.ruleset.phrase("vote_cancelled"))
        )
        return False
    cands = candidates(s)
    if len(cands) < max(2, s.ruleset.voting.min_candidates):
        out.append(Event("no_elimination", EVERYONE, {"reason": "no_vote"}, s.ruleset.phrase("no_vote")))
        return False
    say(s, out, "vote_start", seats=cands)
    start_ballot(s, out, cands, "main")
    return True


def _alibi(s: GameState, seat: int, out: Out) -> bool:
    """«Если мирный город отправит его на казнь, игрок останется за столом, а ведущий объявит о том, что
    у игрока есть алиби.» (D-C20: only on the day right after the night it was given.)"""
    if not has_mark(s, "alibi", seat):
        return False
    data = {"seat": seat, "reason": "alibi"}
    out.append(Event("acquitted", EVERYONE, data, s.ruleset.phrase("alibi"), {"seat": seat}))
    return True


@step_kind("alibi")
class AlibiCheck:
    """The condemnation hook (``params.acquittal``): the count is «Принято», then an alibi may save."""

    @staticmethod
    def offer(s: Draft, seat: int, out: Out) -> bool:
        line(s, out, "vote_accepted")
        if not _alibi(s, seat, out):
            return False
        next_day_step(s, out)
        return True


@tie_chain("city")
def car_crash(s: Draft, tied: list[int], out: Out) -> None:
    """«Если игроки набрали равное количество голосов, ведущий объявляет «автокатастрофу», игрокам
    даются поочерёдно оправдательные 30 секунд, после чего город приступает к повторному голосованию.
    При повторной автокатастрофе начинается голосование за то, чтобы игроки вместе покинули игровой
    стол, или остались.»"""
    line(s, out, "vote_accepted")
    first = s.step.round == "main"
    out.append(Event("tie", EVERYONE, {"seats": tied, "round": s.step.round}))
    tied = sorted(tied)
    if first:
        tie_speeches(s, tied, tied, tied, out)
        return
    start_lift(s, tied, out)


def start_lift(s: Draft, seats: list[int], out: Out) -> None:
    """«начинается голосование за то, чтобы игроки вместе покинули игровой стол, или остались» (city;
    fiim D-FI10): the ``lift`` step on ``seats``."""
    s.ballots = ()
    s.step = Step("lift", candidates=tuple(seats), seconds=s.ruleset.timer("vote"))
    out.append(
        Event("lift_ballot", EVERYONE, {"seats": seats}, s.ruleset.phrase("lift_vote"), {"seats": seats})
    )


@step_kind("lift")
class LiftVote:
    """The vote on whether all the tied leave together: «Игроки вместе покидают стол, если большая часть
    города за это проголосует … При равном количестве голосов игровой стол не покидает никто, город уходит
    в ночь.» D-C13: "leave" must be more than half of the players who may vote today."""

    @staticmethod
    def voters(s: GameState) -> list[int]:
        voted = {v for v, _ in s.ballots}
        return [x for x in s.living() if may_vote(s, x) and x not in voted]

    @staticmethod
    def vote(s: Draft, seat: int, candidate: int, out: Out) -> None:
        if seat not in s.alive:
            raise DeadPlayer(f"Игрок {seat} выбыл и не голосует.", key="out-no-vote", seat=seat)
        if not may_vote(s, seat):
            raise NotYourTurn(f"Игрок {seat} сегодня не голосует.", key="not-voting-today", seat=seat)
        if any(v == seat for v, _ in s.ballots):
            # «повторное голосование – замечание», answered like a second vote on the day's ballot
            refuse(s, seat, "second_vote", AlreadyActed("Вы уже проголосовали.", key="voted-already"), out)
            return
        s.ballots = (*s.ballots, (seat, 0))
        out.append(Event("voted", EVERYONE, {"seat": seat, "candidate": 0}))

    @staticmethod
    def advance(s: Draft, out: Out) -> None:
        if s.step.kind != "lift":
            raise WrongPhase("Сейчас нет голосования.", key="no-vote-now")
        line(s, out, "vote_thanks")
        tied = [x for x in s.step.candidates if x in s.alive]
        eligible = [x for x in s.living() if may_vote(s, x)]
        leave = len(s.ballots)
        passed = 2 * leave > len(eligible)
        line(s, out, "vote_accepted")
        data = {"seats": tied, "count": leave, "eligible": len(eligible), "passed": passed}
        out.append(Event("lift_count", EVERYONE, data))
        if not passed:
            out.append(
                Event(
                    "no_elimination", EVERYONE, {"reason": "lift_failed"}, s.ruleset.phrase("nobody_leaves")
                )
            )
            next_day_step(s, out)
            return
        leaving = [x for x in tied if not _alibi(s, x, out)]
        if not leaving:
            next_day_step(s, out)
            return
        out.append(
            Event(
                "leave_together",
                EVERYONE,
                {"seats": leaving},
                s.ruleset.phrase("leave_together"),
                {"seats": leaving},
            )
        )
        for seat in leaving:
            eliminate(s, seat, "executed", out, reveal=s.ruleset.reveal_on_vote)
        announce_decided(s, out)  # issue 13: the result first, then the farewells
        step = Step(
            "speech",
            seat=leaving[0],
            queue=tuple(leaving[1:]),
            round="farewell",
            seconds=s.ruleset.timer("farewell"),
        )
        s.step = step
        announce_speech(s, out)
