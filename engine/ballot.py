"""Day ballots: who may vote, the votes, the count, and what a tally or a tie leads to.

A ballot calls the candidates one at a time (:func:`start_ballot`); when the last one's count closes the
preset's tally names the condemned, a tie or nobody, and a tie goes down the preset's tie chain.
Tallies and tie chains are registered by name; a ruleset names them in ``[voting]``.
"""

from __future__ import annotations

import math
from operator import countOf, itemgetter
from typing import Any

from engine.announce import Out, line_of, say
from engine.commands import Vote
from engine.conduct import give_foul
from engine.errors import AlreadyActed, DeadPlayer, IllegalCommand, IllegalTarget, NotYourTurn, WrongPhase
from engine.events import EVERYONE, NO_PARAMS, Event, interned_in, to_seats
from engine.flow import announce_speech, next_day_step
from engine.outcome import announce_decided, check_win, eliminate
from engine.registry import STEP_KINDS, TALLIES, TIE_CHAINS, tally, tie_chain
from engine.state import Draft, GameState, Step, put_next_in_queue, step_of

_VOTER, _CANDIDATE = itemgetter(0), itemgetter(1)  # of a ballot (voter, candidate), in C
# events.interned: the busiest events of a ballot, by the values that vary.
# Tables of tables (events.interned_in), read as _VOTED[candidate][seat] and so on.
_VOTED: dict[int, dict[int, Event]] = {}  # [candidate][seat]
_BALLOT: dict[str | None, dict[str, dict[int, Event]]] = {}  # [phrase][round][candidate]
_VOTE_COUNT: dict[
    str | None, dict[str, dict[int, dict[int, Event]]]
] = {}  # [phrase][round][count][candidate]


def candidates(s: GameState) -> list[int]:
    return list(filter(s.alive.__contains__, map(_CANDIDATE, s.nominations)))  # in C, no comprehension


def vote_threshold(s: GameState) -> int:
    return math.ceil(len(s.alive) / 2)


# A second hand in one ballot, where it is no foul (for a record's --explain).
SECOND_VOTE = (
    "one vote per voter in a ballot: classic D-CL3 «each voter votes for exactly one candidate and may change"
    " until the candidate's count closes («три»)»; simple D-S5 «one vote per living player or abstention»;"
    " hobbyworld and blood D-H17 «each eligible voter votes for at most one candidate or abstains»"
)


def refuse(s: Draft, seat: int, reason: str, error: IllegalCommand, out: Out) -> None:
    """D-F2: where the preset says so, a self-nomination, a self-vote or a second vote is refused with a
    foul («За выставление себя на голосование, голосование за себя, повторное голосование … замечание»);
    elsewhere it is an illegal command."""
    if not s.ruleset.voting.foul_refusals or s.ruleset.conduct.kind == "none":
        if reason == "second_vote" and not error.rule:
            error.rule = SECOND_VOTE
        raise error
    out.append(Event("refused", to_seats(seat), {"seat": seat, "reason": reason, "message": str(error)}))
    give_foul(s, seat, reason, out)


def after_elimination(s: Draft, out: Out) -> None:
    if not check_win(s, out):
        next_day_step(s, out)


def start_ballot(s: Draft, out: Out, cands: list[int], round_name: str) -> None:
    s.ballots = ()
    s.voted = frozenset()
    s.step = step_of("vote", cands[0], tuple(cands[1:]), tuple(cands), round_name, s.ruleset.timer("vote"))
    _announce_candidate(s, out)


def _announce_candidate(s: GameState, out: Out) -> None:
    step = s.step
    seat, round_name = step.seat, step.round
    phrase = s.ruleset.phrases.get("vote_candidate")
    try:
        found = _BALLOT[phrase][round_name][seat]
    except KeyError:
        found = interned_in(
            _BALLOT,
            (phrase, round_name),
            seat,
            ("ballot", EVERYONE, {"candidate": seat, "round": round_name}, phrase, {"seat": seat}),
        )
    out.append(found)


def may_vote(s: GameState, seat: int) -> bool:
    """Living, not deprived of the vote (fouls, D-H19), not a prisoner (D-H15) and not bound to vote as
    another player does (D-H18)."""
    if seat not in s.alive or seat in s.no_vote:
        return False
    if s.jail and seat in s.prisoners():
        return False
    return not (s.vote_links and _follower(s, seat))


def _follower(s: GameState, seat: int) -> bool:
    """D-H18: the swindler's target votes as the swindler while the swindler himself may vote."""
    for leader, follower in s.vote_links:
        if follower == seat and leader in s.alive and leader not in s.no_vote and leader not in s.prisoners():
            return True
    return False


def unvote(s: Draft, seat: int, out: Out) -> None:
    """D-CL3: a voter «may change until the candidate's count closes («три»)»: his hand goes down, and he
    may vote for a later candidate (or, not voting at all, is counted as the preset says)."""
    step = s.step
    if step.kind != "vote":
        raise WrongPhase("Сейчас нет голосования.", key="no-vote-now")
    if not s.ruleset.voting.withdraw:
        raise AlreadyActed("По этим правилам голос не снимают.", key="no-unvote")
    if not any(v == seat and c == step.seat for v, c in s.ballots):
        raise NotYourTurn(f"Вы не голосовали против игрока {step.seat}.", key="did-not-vote", seat=step.seat)
    # A voter whose vote is bound to this one (hobbyworld's swindler) lowers his hand with him.
    followers = {f for leader, f in s.vote_links if leader == seat and _follower(s, f)}
    gone = {seat} | followers
    s.ballots = tuple(b for b in s.ballots if not (b[0] in gone and b[1] == step.seat))
    for voter in sorted(gone):
        out.append(Event("unvoted", EVERYONE, {"seat": voter, "candidate": step.seat}))


def why_no_vote(s: GameState) -> str:
    """The rules that can take a living player's vote for a day (for a record's --explain): the club's
    fouls (001, D-F1) and the roles that deny a vote (000's godfather D-H19, 003's hunter_leader)."""
    rules = []
    if "no_vote" in s.ruleset.conduct.thresholds.values():
        rules.append("001: «4 замечания – нельзя также голосовать» (D-F1: four fouls of the previous day)")
    if any(ab.kind == "deny_vote" for r in set(s.roles) for ab in s.ruleset.roles[r].abilities):
        rules.append("«Этот игрок не может голосовать» (000 godfather D-H19, 003 главарь): chosen by a role")
    return "; ".join(rules) or "the seat's vote is taken away for this day"


def vote(s: Draft, c: Vote, out: Out) -> None:
    """A Vote command (engine.game's handler of it): a vote of a preset's own step (lift), the tiebreaker's
    choice, or a hand for the candidate on the ballot."""
    step = s.step
    seat, candidate = c.seat, c.candidate
    kind = step.kind
    if kind != "vote":
        if hasattr(STEP_KINDS.get(kind), "vote"):
            STEP_KINDS[kind].vote(s, seat, candidate, out)  # a vote of a preset's own (lift)
            return
        if kind == "tiebreak":
            _tiebreak_vote(s, seat, candidate, out)
            return
        raise WrongPhase("Сейчас нет голосования.", key="no-vote-now")
    if seat not in s.alive:
        raise DeadPlayer(f"Игрок {seat} выбыл и не голосует.", key="out-no-vote", seat=seat)
    if seat in s.no_vote:
        refusal = NotYourTurn(f"Игрок {seat} сегодня лишён права голоса.", key="no-vote-today", seat=seat)
        refusal.rule = why_no_vote(s)
        raise refusal
    if s.jail and seat in s.prisoners():
        refusal = NotYourTurn(f"Игрок {seat} в тюрьме и не голосует.", key="jailed-no-vote", seat=seat)
        refusal.rule = "D-H15 (003 prince, 000 jailer): «Заключённые не имеют права голосовать»"
        raise refusal
    if s.vote_links and _follower(s, seat):
        refusal = NotYourTurn(
            f"Игрок {seat} сегодня голосует так же, как аферист.", key="swindled-vote", seat=seat
        )
        refusal.rule = (
            "000 swindler: «Днём этот игрок голосует так же, как аферист» (D-H18: his ballot is the "
            "swindler's, cast with it; a record may list him beside the swindler or leave him out)"
        )
        raise refusal
    if candidate != step.seat:
        raise IllegalTarget(
            f"Сейчас голосуем за игрока {step.seat}, а не за {candidate}.",
            key="vote-other-candidate",
            seat=step.seat,
            candidate=candidate,
        )
    if seat in map(_VOTER, s.ballots):  # he has voted in this round
        refuse(s, seat, "second_vote", AlreadyActed("Вы уже проголосовали.", key="voted-already"), out)
        return
    if seat == candidate and not s.ruleset.voting.self_vote:
        refuse(s, seat, "self_vote", IllegalTarget("Нельзя голосовать за себя.", key="no-vote-for-self"), out)
        return
    s.ballots = s.ballots + ((seat, candidate),)  # noqa: RUF005 (no list built and converted)
    try:
        found = _VOTED[candidate][seat]
    except KeyError:
        found = interned_in(
            _VOTED,
            (candidate,),
            seat,
            ("voted", EVERYONE, {"seat": seat, "candidate": candidate}, None, NO_PARAMS),
        )
    out.append(found)
    if s.vote_links:
        _follow(s, seat, candidate, out)


def _follow(s: Draft, seat: int, candidate: int, out: Out) -> None:
    """D-H18: the voters bound to ``seat``'s vote vote with him (a function of its own: the generator
    below would make its names cells for every vote)."""
    for leader, follower in s.vote_links:
        if leader == seat and _follower(s, follower) and not any(v == follower for v, _ in s.ballots):
            s.ballots = (*s.ballots, (follower, candidate))
            out.append(Event("voted", EVERYONE, {"seat": follower, "candidate": candidate}))


def close_candidate(s: Draft, out: Out) -> None:
    """«ведущий досчитает до трех, назовет число голосов и попросит проголосовать за следующего»."""
    step = s.step
    if not step.queue and s.ruleset.voting.abstain == "last_candidate":
        _add_abstainers(s, step, out)
    count = countOf(map(_CANDIDATE, s.ballots), step.seat)
    rules = s.ruleset
    found = rules.lines.get("vote_count")  # line(s, out, "vote_count"), written out
    if found is None:
        found = line_of(s, "vote_count")
    if found:
        out.append(found)
    seat, round_name = step.seat, step.round
    phrase = rules.phrases.get("vote_result")
    try:
        found = _VOTE_COUNT[phrase][round_name][count][seat]
    except KeyError:
        found = interned_in(
            _VOTE_COUNT,
            (phrase, round_name, count),
            seat,
            (
                "vote_count",
                EVERYONE,
                {"candidate": seat, "count": count, "round": round_name},
                phrase,
                {"seat": seat, "count": count},
            ),
        )
    out.append(found)
    if step.queue and not (rules.params.get("stop_when_decided") and _decided(s)):
        put_next_in_queue(s)
        # _announce_candidate(s, out), written out (a ballot calls ≈ 3 candidates): the next one called
        seat = step.queue[0]
        phrase = rules.phrases.get("vote_candidate")
        try:
            found = _BALLOT[phrase][round_name][seat]
        except KeyError:
            found = interned_in(
                _BALLOT,
                (phrase, round_name),
                seat,
                ("ballot", EVERYONE, {"candidate": seat, "round": round_name}, phrase, {"seat": seat}),
            )
        out.append(found)
        return
    if step.queue:
        data = {"skipped": list(step.queue), "round": step.round}
        out.append(Event("ballot_decided", EVERYONE, data, s.ruleset.phrases.get("vote_decided")))
    counts = dict.fromkeys(step.candidates, 0)  # each candidate's votes, in ballot order
    for _, x in s.ballots:
        if x in counts:
            counts[x] += 1
    verdict = TALLIES[s.ruleset.voting.tally](s, counts)
    if verdict[0] == "elect":
        condemn(s, verdict[1], out)
    elif verdict[0] == "tie":
        TIE_CHAINS[s.ruleset.voting.ties](s, list(verdict[1]), out)
    else:
        # A ballot of one candidate (the sequential variant) names him: «счесть его невиновным».
        no_elimination(s, out, "below_threshold", step.seat if len(step.candidates) == 1 else 0)


def _add_abstainers(s: Draft, step: Step, out: Out) -> None:
    """The voters who did not vote are counted for the last candidate (``abstain = "last_candidate"``). A
    function of its own: its comprehensions would make close_candidate's names cells for every count."""
    voters = dict(s.ballots)  # by voter
    if not s.jail and not s.vote_links:  # may_vote, when nobody is jailed or bound to another's vote
        no_vote = s.no_vote
        missing = [x for x in s.living() if x not in no_vote and x not in voters]
    else:
        missing = [x for x in s.living() if may_vote(s, x) and x not in voters]
    if not s.ruleset.voting.self_vote:
        missing = [x for x in missing if x != step.seat]  # no vote for himself where self-votes are out
    if missing:
        s.ballots = s.ballots + tuple((x, step.seat) for x in missing)
        out.append(
            Event(
                "abstainers_added",
                EVERYONE,
                {"seats": missing, "candidate": step.seat},
                s.ruleset.phrase("vote_abstainers"),
                {"seat": step.seat},
            )
        )


def _decided(s: GameState) -> bool:
    """FIIM D-FI9 ``stop_when_decided`` ([EF] ``alwaysContinueVoting = false``): the ballot stops once the
    votes not yet cast could not bring a candidate still to be called level with the leader (the last
    candidate's share of the unused votes, [MR 7.13], is among them, so the result is the same)."""
    if not s.ruleset.params.get("stop_when_decided"):
        return False
    cast = list(map(_CANDIDATE, s.ballots))
    top = max(map(cast.count, s.step.candidates))
    left = -len(s.ballots)
    for x in s.living():
        if may_vote(s, x):
            left += 1
    return left < top


def condemn(s: Draft, seat: int, out: Out) -> None:
    """The vote named ``seat``. Where the preset has an acquittal (judge D-H16, queen), its step kind may
    first offer it; the execution then waits for that step."""
    if seat not in s.alive:
        # D-F5: removed during the vote («голоса засчитываются»): he has already left, without last words.
        after_elimination(s, out)
        return
    acquittal = s.ruleset.params.get("acquittal")
    if acquittal and STEP_KINDS[acquittal].offer(s, seat, out):
        return
    execute(s, seat, out)


def execute(s: Draft, seat: int, out: Out) -> None:
    eliminate(s, seat, "executed", out, reveal=s.ruleset.reveal_on_vote)
    farewell = s.ruleset.timer("farewell")
    if farewell > 0 and not s.over:
        announce_decided(s, out)  # issue 13: the result first, then the farewell
        s.step = step_of("speech", seat, round="farewell", seconds=farewell)
        announce_speech(s, out)
        return
    after_elimination(s, out)


def no_elimination(s: Draft, out: Out, reason: str, seat: int = 0) -> None:
    key = {"below_threshold": "nobody_voted_out", "tie": "no_elimination"}.get(reason, "no_elimination")
    data: dict[str, Any] = {"reason": reason, "seat": seat} if seat else {"reason": reason}
    out.append(Event("no_elimination", EVERYONE, data, s.ruleset.phrase(key), {"seat": seat} if seat else {}))
    next_day_step(s, out)


def _tiebreak_vote(s: Draft, seat: int, candidate: int, out: Out) -> None:
    if seat != s.step.seat:
        raise NotYourTurn("Решающий голос принадлежит другому игроку.", key="not-your-tiebreak")
    if candidate not in s.step.candidates:
        raise IllegalTarget(
            f"Игрок {candidate} не участвует в переголосовании.", key="not-in-revote", seat=candidate
        )
    out.append(Event("tiebreak_vote", EVERYONE, {"seat": seat, "candidate": candidate}))
    condemn(s, candidate, out)


# -- tallies and tie chains ------------------------------------------------------------------------


@tally("plurality")
def _plurality(s: GameState, counts: dict[int, int]) -> tuple[str, Any]:
    return _top(counts, max(counts.values()))


def _top(counts: dict[int, int], top: int) -> tuple[str, Any]:
    """The candidate with ``top`` votes, or the tie of all of them (a loop: no comprehension made)."""
    tied = []
    for c, n in counts.items():
        if n == top:
            tied.append(c)
    return ("elect", tied[0]) if len(tied) == 1 else ("tie", tied)


@tally("half")
def _half(s: GameState, counts: dict[int, int]) -> tuple[str, Any]:
    """004: «Тот, кто получил половину или более голосов - признан виновным» (D-S5: half of the living,
    rounded up; several above it → the most votes; equal top → nobody)."""
    threshold = vote_threshold(s)
    top = max(counts.values(), default=0)
    if not counts or top < threshold:  # nobody has half the votes
        return ("none", None)
    return _top(counts, top)


@tie_chain("none")
def _no_tie_rule(s: Draft, tied: list[int], out: Out) -> None:
    out.append(Event("tie", EVERYONE, {"seats": tied}, s.ruleset.phrase("vote_tie"), {"seats": tied}))
    no_elimination(s, out, "tie")


@tie_chain("classic")
def _classic_ties(s: Draft, tied: list[int], out: Out) -> None:
    """002 and D-CL3: two tied of three or more → revote between the two; two candidates tied → a word
    each and a revote; still tied → the honest citizen killed last night decides; three or more tied
    → one revote among them, then nobody."""
    step = s.step
    out.append(Event("tie", EVERYONE, {"seats": tied, "round": step.round}))
    if len(tied) >= 3:
        if step.round == "main":
            say(s, out, "vote_tie", seats=tied)
            start_ballot(s, out, tied, "revote")
        else:
            no_elimination(s, out, "tie")
        return
    if len(step.candidates) >= 3:
        say(s, out, "vote_tie", seats=tied)
        start_ballot(s, out, tied, "revote")
        return
    if not s.tie_words_given:
        s.tie_words_given = True
        tie_speeches(s, tied, tied, tied, out, phrase="tie_words")
        return
    breaker = s.tiebreaker
    if not breaker:
        no_elimination(s, out, "tie")
        return
    say(s, out, "tiebreaker", seat=breaker)
    s.step = Step("tiebreak", seat=breaker, candidates=tuple(tied), seconds=s.ruleset.timer("tiebreak"))
    out.append(
        Event(
            "tiebreak_ballot",
            to_seats(breaker),
            {"seat": breaker, "candidates": tied},
            s.ruleset.phrase("tiebreak_private"),
            {"seats": tied},
        )
    )


def tie_speeches(
    s: Draft, tied: list[int], order: list[int], revote: list[int], out: Out, *, phrase: str = "vote_tie"
) -> None:
    """«игрокам даются поочерёдно оправдательные 30 секунд» (city), F.8 (fiim), the tie words of the other
    rulebooks: the tie of ``tied`` is announced with ``phrase``, the tied speak in ``order``, then are
    voted on again in the order ``revote``."""
    say(s, out, phrase, seats=tied)
    s.step = Step(
        "speech",
        seat=order[0],
        queue=tuple(order[1:]),
        candidates=tuple(revote),
        round="tie_word",
        seconds=s.ruleset.timer("tie_word"),
    )
    announce_speech(s, out)
