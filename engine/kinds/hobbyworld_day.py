"""Hobby World «Мафия»: the day (RULESETS.md 4.7, D-H16…D-H19). The morning's notices (prisoners, the
godfather's and the swindler's targets), the vote in both of the book's methods, the runoff and the lot,
and the judge's once-a-day acquittal.

«Обязательных правил только два: нельзя несколько раз за день голосовать за одного и того же игрока, и
каждый день один (и только один) игрок должен быть предан суду Линча.»
"""

from __future__ import annotations

from engine import rng
from engine.announce import Out, line, say
from engine.ballot import condemn, execute, may_vote, no_elimination, start_ballot
from engine.errors import AlreadyActed, IllegalTarget, NotYourTurn
from engine.events import EVERYONE, Event, to_seats
from engine.flow import next_day_step
from engine.registry import day_step, step_kind, tally, tie_chain
from engine.state import Draft, GameState, Step

TODAY = "today:"  # prefix of the flags that last one day
LYNCHED = TODAY + "lynched"
ACQUITTED = TODAY + "acquitted"
TOLD = TODAY + "swindled_told"
VOTED = TODAY + "voted"  # the candidates of this round of nominations have been voted on
ALL_LIVING = TODAY + "everyone"  # nobody was nominated: every living player is a candidate


def _sequential(s: GameState) -> bool:
    return s.ruleset.voting.tally == "sequential_majority"


# -- morning ---------------------------------------------------------------------------------------


@day_step("hw_notices")
def _notices(s: Draft, out: Out) -> bool:
    """4.10: «утром ведущий объявляет, кто стал заключённым»; «Наутро ведущий объявляет, кто из игроков
    не может голосовать». The swindler's target is told privately before the vote (D-H18)."""
    s.flags = frozenset(f for f in s.flags if not f.startswith(TODAY))
    s.cleared = frozenset()
    s.day_votes = ()
    s.vote_links = ()
    for kind, actor, target in s.ledger.next_day:
        if kind == "jailed" and target in s.prisoners():
            out.append(
                Event("jailed", EVERYONE, {"seat": target}, s.ruleset.phrase("jailed"), {"seat": target})
            )
        elif kind == "deny_vote" and target in s.alive:
            s.no_vote = s.no_vote | {target}
            out.append(
                Event(
                    "vote_denied",
                    EVERYONE,
                    {"seat": target},
                    s.ruleset.phrase("vote_denied"),
                    {"seat": target},
                )
            )
        elif kind == "link_vote" and target in s.alive and actor in s.alive:
            s.vote_links = (*s.vote_links, (actor, target))
    return False


# -- the vote --------------------------------------------------------------------------------------


def eligible_voters(s: GameState) -> list[int]:
    """D-H15, D-H19: prisoners and the godfather's target are not participants; the swindler's target is
    (his vote is cast for him)."""
    jailed = s.prisoners()
    return [x for x in s.living() if x not in s.no_vote and x not in jailed]


@day_step("hw_vote")
def _vote(s: Draft, out: Out) -> bool:
    """D-H17: plurality (the book's method) or one candidate at a time (the book's variant)."""
    if LYNCHED in s.flags:
        return False
    _remember_single_ballot(s)
    if ALL_LIVING in s.flags:
        cands = _others(s)
    else:
        cands = list(dict.fromkeys(t for _, t in s.nominations if t in s.alive and t not in s.cleared))
    if not cands and VOTED in s.flags and ALL_LIVING not in s.flags and _others(s):
        # Every candidate was found innocent (or acquitted): a new round of nominations among the others.
        _new_round(s)
        return False
    if not cands:
        cands = _others(s)
        if cands:
            s.flags = s.flags | {ALL_LIVING}
            line(s, out, "no_nominations")
    if not cands:
        return _most_voted_today(s, out)
    _tell_followers(s, out)
    if _sequential(s):
        cands = cands[:1]
        s.agenda = ("hw_vote", *s.agenda)
    s.cleared = s.cleared | set(cands)
    s.flags = s.flags | {VOTED}
    say(s, out, "vote_start", seats=cands)
    start_ballot(s, out, cands, "single" if _sequential(s) else "main")
    return True


def _new_round(s: Draft) -> None:
    s.nominations = ()
    s.flags = s.flags - {VOTED, ALL_LIVING}
    s.agenda = ("nominations", "hw_vote", *s.agenda)


def _others(s: GameState) -> list[int]:
    return [x for x in s.living() if x not in s.cleared]


def _remember_single_ballot(s: Draft) -> None:
    """The sequential variant keeps each candidate's votes for the day's last resort."""
    step = s.step
    if step.kind == "vote" and step.round == "single" and step.candidates:
        count = sum(1 for _, c in s.ballots if c == step.candidates[0])
        s.day_votes = (*s.day_votes, (step.candidates[0], count))


def _tell_followers(s: Draft, out: Out) -> None:
    if TOLD in s.flags:
        return
    s.flags = s.flags | {TOLD}
    for leader, follower in s.vote_links:
        if follower in s.alive and may_vote(s, leader):
            out.append(
                Event("vote_linked", to_seats(follower), {"seat": follower}, s.ruleset.phrase("vote_linked"))
            )


def _most_voted_today(s: Draft, out: Out) -> bool:
    """D-H17: nobody is left to vote on — the candidate with the most condemnation votes today is lynched
    (the lot among ties), so that the day still has its one lynch."""
    acquitted = {int(f.split(":")[2]) for f in s.flags if f.startswith(ACQUITTED + ":")}
    votes: dict[int, int] = {}
    for seat, n in s.day_votes:
        if seat in s.alive and seat not in acquitted:
            votes[seat] = max(n, votes.get(seat, 0))
    pool = votes or {x: 0 for x in s.living() if x not in acquitted}
    if not pool:
        no_elimination(s, out, "no_vote")
        return True
    top = max(pool.values())
    tied = sorted(x for x, n in pool.items() if n == top)
    condemn(s, _lot(s, out, tied), out)
    return True


def _lot(s: Draft, out: Out, tied: list[int]) -> int:
    if len(tied) == 1:
        return tied[0]
    pick, state = rng.choice(s.rng, tied)
    s.rng = state
    out.append(
        Event(
            "lot",
            EVERYONE,
            {"seats": tied, "seat": pick},
            s.ruleset.phrase("vote_tie_random"),
            {"seat": pick},
        )
    )
    return pick


@tally("sequential_majority")
def _sequential_majority(s: GameState, counts: dict[int, int]) -> tuple[str, object]:
    """«выбрать только одного кандидата и проголосовать за него; если за осуждение выскажется меньше
    половины участников, то счесть его невиновным» — condemned with at least half of the eligible voters
    (D-H17)."""
    (candidate, votes), *_ = counts.items()
    if 2 * votes >= len(eligible_voters(s)):
        return ("elect", candidate)
    return ("none", None)


@tie_chain("runoff_lot")
def _runoff_lot(s: Draft, tied: list[int], out: Out) -> None:
    """D-H17: a tie for most → one runoff among the tied; still tied → the lot (``tie_break = "random"``)
    or nobody (``"no_lynch"``)."""
    out.append(Event("tie", EVERYONE, {"seats": tied, "round": s.step.round}))
    if s.step.round == "main":
        say(s, out, "vote_tie", seats=tied)
        start_ballot(s, out, tied, "runoff")
        return
    if s.ruleset.params.get("tie_break", "random") == "no_lynch":
        no_elimination(s, out, "tie")
        return
    condemn(s, _lot(s, out, sorted(tied)), out)


# -- the judge's acquittal -------------------------------------------------------------------------


@step_kind("acquittal")
class Acquittal:
    """Судья: «Днём, если по итогам голосования игрок должен быть предан суду Линча, но судья высказался в
    его защиту (не поднял руку), ведущий объявляет, что игрок оправдан.» «судья может блокировать
    голосование подобным образом только раз в день: следующий осуждённый уже наверняка подвергается суду
    Линча.» (D-H16)

    The pause is held whenever a judge could still acquit by what everyone knows (living, not jailed, not
    deprived of his vote, no acquittal today), so that it never tells whether he voted."""

    @staticmethod
    def _judges(s: GameState) -> list[int]:
        if ACQUITTED in s.flags:
            return []
        roles = s.ruleset.params.get("acquitters", [])
        jailed = s.prisoners()
        return [x for x in s.living() if s.roles[x - 1] in roles and x not in jailed and x not in s.no_vote]

    @staticmethod
    def offer(s: Draft, condemned: int, out: Out) -> bool:
        judges = Acquittal._judges(s)
        if not judges:
            s.flags = s.flags | {LYNCHED}
            return False
        step = s.step
        s.step = Step(
            "acquittal",
            seat=condemned,
            candidates=step.candidates,
            round=step.round,
            seconds=s.ruleset.timer("acquittal"),
        )
        for judge in Acquittal.actors(s):
            out.append(
                Event(
                    "acquittal_offer",
                    to_seats(judge),
                    {"seat": judge, "target": condemned},
                    s.ruleset.phrase("judge_offer"),
                    {"seat": condemned},
                )
            )
        return True

    @staticmethod
    def actors(s: GameState) -> list[int]:
        """Judges who did not raise a hand against the condemned (nor had it raised for them)."""
        condemned = s.step.seat
        return [j for j in Acquittal._judges(s) if (j, condemned) not in s.ballots]

    @staticmethod
    def targets(s: GameState, seat: int) -> list[int]:
        return [s.step.seat]

    @staticmethod
    def act(s: Draft, seat: int, targets: tuple[int, ...], out: Out) -> None:
        condemned = s.step.seat
        if seat not in Acquittal._judges(s):
            raise NotYourTurn(f"Игрок {seat} не может оправдать осуждённого.", key="cannot-acquit", seat=seat)
        if targets != (condemned,):
            raise IllegalTarget(
                f"Оправдать можно только осуждённого игрока {condemned}.",
                key="acquit-condemned-only",
                condemned=condemned,
            )
        if (seat, condemned) in s.ballots:
            raise AlreadyActed(
                "Вы голосовали за осуждение этого игрока и не можете его оправдать.",
                key="acquit-voted-against",
            )
        s.flags = s.flags | {ACQUITTED, f"{ACQUITTED}:{condemned}"}
        out.append(
            Event(
                "acquitted",
                EVERYONE,
                {"seat": condemned},
                s.ruleset.phrase("judge_acquits"),
                {"seat": condemned},
            )
        )
        Acquittal._next_condemned(s, condemned, out)

    @staticmethod
    def advance(s: Draft, out: Out) -> None:
        s.flags = s.flags | {LYNCHED}
        execute(s, s.step.seat, out)

    @staticmethod
    def _next_condemned(s: Draft, acquitted: int, out: Out) -> None:
        """D-H16: the next condemned is the remaining candidate with the most votes (ties as D-H17); if no
        remaining candidate has a vote, a new nomination round among the others. In the sequential
        variant the vote simply goes on with the next candidate."""
        if _sequential(s):
            if s.agenda[:1] != ("hw_vote",):  # condemned by the day's last resort: it runs again
                s.agenda = ("hw_vote", *s.agenda)
            next_day_step(s, out)
            return
        counts = {c: sum(1 for _, x in s.ballots if x == c) for c in s.step.candidates if c != acquitted}
        counts = {c: n for c, n in counts.items() if n > 0 and c in s.alive}
        if not counts:
            _new_round(s)
            next_day_step(s, out)
            return
        top = max(counts.values())
        tied = [c for c, n in counts.items() if n == top]
        if len(tied) == 1:
            condemn(s, tied[0], out)
        else:
            _runoff_lot(s, tied, out)
