"""Classic «Игра с судьями» (seed 002, RULESETS.md 6.16, D-CL9, D-CL2 step 5): the judges are named,
the mafia judge is shown the mafia on night 1 (a ``shows`` meet step in ``classic.toml``), the players'
vote sends a player to court, the judges decide, and a day's court must kill one player.

Day steps: ``judges_named``, ``court_open``, ``court_close``; step kinds ``court`` (the preset's
``acquittal``) and ``court_choice``; win check ``classic_judges``. Each does nothing where no judge
is seated.
"""

from __future__ import annotations

from typing import Any

from engine import rng
from engine.announce import Out, say
from engine.ballot import execute
from engine.errors import IllegalTarget, NotYourTurn
from engine.events import EVERYONE, HOST_ONLY, Event, to_seats
from engine.flow import next_day_step
from engine.registry import day_step, step_kind, win_check
from engine.state import Draft, GameState, Step
from engine.wins import classic_clans

JUDGES = ("tribunal_judge", "tribunal_judge_mafia")
SPARED = "court_spared:"  # today's candidates the court spared (cleared when a day starts)
COURT_KILLED = "court_killed"  # the court killed today


def judges(s: GameState, living_only: bool = True) -> list[int]:
    dealt = s.ruleset.seats_by_role(s.roles)
    seats = sorted(x for role in JUDGES for x in dealt.get(role, ()))
    return [x for x in seats if x in s.alive] if living_only else seats


def _spared(s: GameState) -> list[int]:
    return sorted(int(f[len(SPARED) :]) for f in s.flags if f.startswith(SPARED))


def _timer(s: GameState, key: str, default: int) -> int:
    return int(s.ruleset.timers.get(key, default))


# -- judges (D-CL9) --------------------------------------------------------------------------------


@day_step("judges_named")
def _judges_named(s: GameState, out: Out) -> bool:
    """D-CL9: «the three judges are publicly named at the start (which one is mafia is secret)»."""
    seats = judges(s)
    if seats:
        phrase = s.ruleset.phrase("judges_named")
        out.append(Event("judges_named", EVERYONE, {"seats": seats}, phrase, {"seats": seats}))
    return False


@step_kind("court")
class Court:
    """002: «игроки только обсуждают подозреваемых и голосованием решают, кого представить суду.
    «Судьи» большинством голосов решают «убить» данного игрока или нет. Если «судьи» данного игрока не
    «убивают», игроки выставляют следующую кандидатуру.» «"Судья", которого представили на суд, не
    имеет права голоса при голосовании «судей» за него.»

    A judge votes «казнить» with ``Vote(seat, candidate=accused)`` and may take it back with
    ``candidate=0``; a judge who has not voted «казнить» when the court closes spares (D-CL9: kill iff
    «казнить» has a strict majority of the court)."""

    record_key = "court"

    @staticmethod
    def offer(s: Draft, accused: int, out: Out) -> bool:
        living, seated = judges(s), judges(s, living_only=False)
        if accused in living and len(living) == 1 and len(seated) - len(living) >= 2:
            # «В игре можно «убить» только двоих судей»: the last judge is not sent to court.
            out.append(Event("court_refused", EVERYONE, {"seat": accused}))
            s.cleared = s.cleared | {accused}
            _next_round(s, out)
            return True
        court = [j for j in living if j != accused]
        if not court:
            return False  # no judge left to sit: the players' vote stands
        s.ballots = ()
        s.step = Step("court", seat=accused, candidates=(accused,), seconds=_timer(s, "court", 30))
        phrase = s.ruleset.phrase("court_sent")
        out.append(
            Event("court_sent", EVERYONE, {"seat": accused, "judges": court}, phrase, {"seat": accused})
        )
        for j in court:
            data = {"seat": j, "target": accused}
            out.append(
                Event("court_ballot", to_seats(j), data, s.ruleset.phrase("court_ballot"), {"seat": accused})
            )
        return True

    @staticmethod
    def voters(s: GameState) -> list[int]:
        return [j for j in judges(s) if j != s.step.seat]

    @staticmethod
    def choices(s: GameState, seat: int) -> list[int]:
        return [s.step.seat, 0]

    @staticmethod
    def vote(s: Draft, seat: int, candidate: int, out: Out) -> None:
        if seat not in Court.voters(s):
            raise NotYourTurn(
                f"Игрок {seat} не судит игрока {s.step.seat}.",
                key="not-judging",
                seat=seat,
                accused=s.step.seat,
            )
        if candidate not in (s.step.seat, 0):
            raise IllegalTarget(
                f"Суд решает судьбу игрока {s.step.seat}.", key="court-decides-on", seat=s.step.seat
            )
        s.ballots = (*tuple(b for b in s.ballots if b[0] != seat), (seat, candidate))
        out.append(Event("court_vote", HOST_ONLY, {"seat": seat, "kill": candidate != 0}))
        out.append(
            Event("action_accepted", to_seats(seat), {"seat": seat}, s.ruleset.phrase("action_accepted"))
        )

    @staticmethod
    def advance(s: Draft, out: Out) -> None:
        accused, court = s.step.seat, Court.voters(s)
        kill = sum(1 for j, c in s.ballots if c == accused and j in court)
        out.append(Event("court_count", HOST_ONLY, {"seat": accused, "kill": kill, "judges": court}))
        if 2 * kill > len(court):
            _court_kills(s, accused, out)
            return
        s.flags = s.flags | {f"{SPARED}{accused}"}
        s.cleared = s.cleared | {accused}
        phrase = s.ruleset.phrase("court_spare")
        out.append(Event("acquitted", EVERYONE, {"seat": accused, "by": "court"}, phrase, {"seat": accused}))
        if len(_spared(s)) >= 3:
            _must_choose(s, out)  # D-CL9: after the third spared candidate of a day
        else:
            _next_round(s, out)

    @staticmethod
    def record(s: GameState, entries: list[Any]) -> list[tuple[Any, Any]]:
        """``"court": [[accused, [judges voting «казнить»]], …]``, one entry per court session."""
        from engine.commands import Vote

        if not entries:
            return []
        entry = entries[0]
        if not isinstance(entry, list) or len(entry) != 2 or int(entry[0]) != s.step.seat:
            raise ValueError(
                f"the court judges player {s.step.seat} here (a court entry is [accused, [judges]])"
            )
        entries.pop(0)
        return [(Vote(seat=int(j), candidate=s.step.seat), entry) for j in entry[1]]


def _court_kills(s: Draft, seat: int, out: Out) -> None:
    s.flags = s.flags | {COURT_KILLED}
    phrase = s.ruleset.phrase("court_kill")
    out.append(Event("court_verdict", EVERYONE, {"seat": seat, "verdict": "kill"}, phrase, {"seat": seat}))
    execute(s, seat, out)


def _next_round(s: Draft, out: Out) -> None:
    """«игроки выставляют следующую кандидатуру»: nominations, last words and the vote once more."""
    normal = s.ruleset.day_normal
    first, last = normal.index("nominations"), normal.index("vote")
    s.agenda = (*normal[first : last + 1], *s.agenda)
    s.nominations = ()
    s.ballots = ()
    s.voted = frozenset()
    s.tie_words_given = False
    next_day_step(s, out)


def _must_choose(s: Draft, out: Out) -> bool:
    """«Днем «судьи» обязаны «убить» одного игрока»: D-CL9, the court picks one of the day's spared
    candidates by majority."""
    spared = [x for x in _spared(s) if x in s.alive]
    if not spared or not judges(s):
        return False
    s.ballots = ()
    s.step = Step("court_choice", candidates=tuple(spared), seconds=_timer(s, "court", 30))
    say(s, out, "court_must_choose", seats=spared)
    out.append(Event("court_must_choose", EVERYONE, {"seats": spared}))
    for j in CourtChoice.voters(s):
        data = {"seat": j, "candidates": spared}
        out.append(Event("court_choice_ballot", to_seats(j), data, None, {"seats": spared}))
    return True


@step_kind("court_choice")
class CourtChoice:
    """D-CL9: «the court must pick one of the day's spared candidates to kill by majority (random among
    ties)». A spared judge does not sit on it (he «не имеет права голоса» about himself) unless no other
    judge is living; nobody picks himself."""

    record_key = "court_choice"

    @staticmethod
    def voters(s: GameState) -> list[int]:
        living = judges(s)
        return [j for j in living if j not in s.step.candidates] or living

    @staticmethod
    def choices(s: GameState, seat: int) -> list[int]:
        return [c for c in s.step.candidates if c != seat]

    @staticmethod
    def vote(s: Draft, seat: int, candidate: int, out: Out) -> None:
        if seat not in CourtChoice.voters(s):
            raise NotYourTurn(f"Игрок {seat} не входит в суд.", key="not-in-court", seat=seat)
        if candidate not in CourtChoice.choices(s, seat):
            raise IllegalTarget(
                f"Суд выбирает среди помилованных сегодня: {list(s.step.candidates)}.",
                key="court-chooses-among",
                candidates=", ".join(str(x) for x in s.step.candidates),
            )
        s.ballots = (*tuple(b for b in s.ballots if b[0] != seat), (seat, candidate))
        out.append(Event("court_vote", HOST_ONLY, {"seat": seat, "candidate": candidate}))
        out.append(
            Event("action_accepted", to_seats(seat), {"seat": seat}, s.ruleset.phrase("action_accepted"))
        )

    @staticmethod
    def advance(s: Draft, out: Out) -> None:
        court = CourtChoice.voters(s)
        counts = {c: sum(1 for j, x in s.ballots if x == c and j in court) for c in s.step.candidates}
        top = max(counts.values())
        tied = [c for c, n in counts.items() if n == top]
        pick = tied[0]
        if len(tied) > 1:
            pick, state = rng.choice(s.rng, tied)
            s.rng = state
        out.append(Event("court_count", HOST_ONLY, {"counts": {str(c): n for c, n in counts.items()}}))
        _court_kills(s, pick, out)

    @staticmethod
    def record(s: GameState, entries: list[Any]) -> list[tuple[Any, Any]]:
        """``"court_choice": [[judge, candidate], …]``."""
        from engine.commands import Vote

        taken = [(Vote(seat=int(e[0]), candidate=int(e[1])), e) for e in entries]
        entries.clear()
        return taken


@day_step("court_open")
def _court_open(s: Draft, out: Out) -> bool:
    """A new day: yesterday's spared may be sent to court again (D-CL9: «cannot be sent again that
    day»)."""
    if s.cleared or any(f.startswith(SPARED) or f == COURT_KILLED for f in s.flags):
        s.flags = frozenset(f for f in s.flags if not f.startswith(SPARED) and f != COURT_KILLED)
        s.cleared = frozenset()
    return False


@day_step("court_close")
def _court_close(s: Draft, out: Out) -> bool:
    """The end of a judges' day: if the court spared and nobody is left to send (the players nominated
    nobody more), it must still kill one of the spared (D-CL9)."""
    spared = [x for x in _spared(s) if x in s.alive]
    return bool(spared) and COURT_KILLED not in s.flags and _must_choose(s, out)


@win_check("classic_judges")
def classic_judges(s: GameState) -> Any:
    """D-CL2 with step 5, after 002: «Если убили всю мафию, в том числе и «судью-мафия», то победили
    «честные». Если остался только один «судья», и он «мафия», то победила «мафия».»"""
    verdict = classic_clans(s)
    if verdict is not None:
        return verdict
    living, seated = judges(s), judges(s, living_only=False)
    if len(living) == 1 and len(seated) - 1 >= 2 and s.roles[living[0] - 1] == "tribunal_judge_mafia":
        return ("mafia",)
    return None
