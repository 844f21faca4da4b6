"""«Спортивная мафия» by the FIIM rules (docs/rules/FIIM.md, decisions D-FI*): the day's own steps.

The night reuses the core: the blacks' shot is the team step with ``tie = "designate"`` and no leader
(only identical picks of every living black make a target, F.6), the picks stay private
(``params.private_picks``); the don's and sheriff's checks are ``check_is_role`` and ``check_status``.
Here: the morning with the first-night victim's best move (D-FI13), the vote rules of F.8 (day 1 with a
lone nominee, a lone nominee later leaves, the anti-monster rule D-FI12), ties with the lift vote (D-FI10,
D-FI11; the lift itself is the city's ``lift`` step) and the draw after three quiet rounds (D-FI14).
"""

from __future__ import annotations

from engine.announce import Out, line, say
from engine.ballot import candidates, execute, no_elimination, start_ballot, tie_speeches
from engine.conduct import MUTE_NEXT_DAY, REMOVED
from engine.errors import IllegalTarget, NotYourTurn, WrongPhase
from engine.events import EVERYONE, Event, to_seats
from engine.flow import announce_speech, begin_speeches
from engine.kinds.city import shot_night
from engine.kinds.city_day import start_lift
from engine.outcome import announce_decided, check_win, eliminate, finish
from engine.registry import day_step, step_kind, tie_chain
from engine.state import Draft, GameState, Step

BEST_MOVE = "fiim_best_move:"  # flag: "fiim_best_move:<victim>:<a>,<b>,<c>"
_QUIET = "fiim_quiet:"  # flag: quiet rounds in a row
_ALIVE = "fiim_alive:"  # flag: players at the table at the end of the previous day
_VOTED_OUT = "fiim_day1_voted:"  # flag: players who left by day 1's vote (best_move = "mr")


def _flag(s: GameState, prefix: str) -> str:
    return next((f[len(prefix) :] for f in s.flags if f.startswith(prefix)), "")


def _set_flag(s: Draft, prefix: str, value: str) -> None:
    s.flags = frozenset(f for f in s.flags if not f.startswith(prefix)) | {prefix + value}


def best_move(s: GameState) -> tuple[int, tuple[int, ...]] | None:
    """The first-night victim's best move, if he named one: (victim, three seats)."""
    value = _flag(s, BEST_MOVE)
    if not value:
        return None
    victim, seats = value.split(":")
    return int(victim), tuple(int(x) for x in seats.split(","))


# -- morning ---------------------------------------------------------------------------------------


@day_step("fiim_morning")
def fiim_morning(s: Draft, out: Out) -> bool:
    """F.9, F.10: the judge says only who left (never the role, never whether it was a miss). The victim
    of the first shooting night may first name his best move (D-FI13); then his minute of last words."""
    line(s, out, "day_breaks")
    _lost_speech_today(s)
    if s.night == 1 and s.ruleset.intro_night:
        return False  # after the «договорка» nobody can have left
    killed = [x for x in s.last_night_victims if x in s.alive]
    gone_before = s.n_seats - len(s.alive)
    for seat in killed:
        eliminate(s, seat, "killed", out, reveal=False)
    if not killed:
        line(s, out, "nobody_killed")
        return False
    announce_decided(s, out)  # D-FI14: the result is fixed at the kill, told before his last word
    if len(killed) == 1 and shot_night(s) == 1 and _best_move_due(s, gone_before):
        victim = killed[0]
        s.step = Step("best_move", seat=victim, seconds=s.ruleset.timer("best_move"))
        out.append(Event("best_move_offer", to_seats(victim), {"seat": victim, "count": 3}))
        return True
    return begin_speeches(s, out, killed, "night_words", s.ruleset.timer("night_words"))


def _lost_speech_today(s: Draft) -> None:
    """D-FI12 ``mute_next_day``: a 3rd foul given by day costs the speech of the day after it."""
    due = {int(f[len(MUTE_NEXT_DAY) :]) for f in s.flags if f.startswith(MUTE_NEXT_DAY)}
    if due:
        kept = frozenset(f for f in s.flags if not f.startswith(MUTE_NEXT_DAY))
        s.flags = kept
        s.no_speech = s.no_speech | (due & s.alive)


def _best_move_due(s: GameState, gone_before: int) -> bool:
    """D-FI13 ``best_move``: "ef" ([EF]) grants it when at most one player left before the victim by any
    means; "mr" ([MR 8.17]) refuses it only when two or more left by the day-1 vote (a removal does not
    count)."""
    if s.ruleset.params.get("best_move") == "mr":
        return int(_flag(s, _VOTED_OUT) or 0) <= 1
    return gone_before <= 1


@step_kind("best_move")
class BestMove:
    """D-FI13: the victim privately names exactly three distinct seats other than his own, living or
    not; the pick is announced at the start of his last word. Without a pick in time, no best move."""

    count = 3  # seats named (the simulator picks this many)

    @staticmethod
    def actors(s: GameState) -> list[int]:
        return [s.step.seat]

    @staticmethod
    def targets(s: GameState, seat: int) -> list[int]:
        return [x for x in range(1, s.n_seats + 1) if x != seat]

    @staticmethod
    def act(s: Draft, seat: int, targets: tuple[int, ...], out: Out) -> None:
        if seat != s.step.seat:
            raise NotYourTurn(
                "Лучший ход называет только игрок, убитый в первую ночь.", key="best-move-first-killed"
            )
        picked = tuple(targets)
        if len(picked) != 3 or len(set(picked)) != 3:
            raise IllegalTarget("Назовите ровно трёх разных игроков.", key="best-move-three")
        if seat in picked or not all(1 <= x <= s.n_seats for x in picked):
            raise IllegalTarget("В лучший ход входят три других игрока за столом.", key="best-move-others")
        seats = tuple(sorted(picked))
        _set_flag(s, BEST_MOVE, f"{seat}:{','.join(map(str, seats))}")
        data = {"seat": seat, "seats": list(seats)}
        out.append(Event("best_move", EVERYONE, data, s.ruleset.phrase("best_move"), dict(data)))
        _last_words(s, seat, out)

    @staticmethod
    def advance(s: Draft, out: Out) -> None:
        if s.step.kind != "best_move":
            raise WrongPhase("Сейчас не лучший ход.", key="no-best-move-now")
        _last_words(s, s.step.seat, out)


def _last_words(s: Draft, seat: int, out: Out) -> None:
    s.step = Step("speech", seat=seat, round="night_words", seconds=s.ruleset.timer("night_words"))
    announce_speech(s, out)


@day_step("fiim_win")
def fiim_win(s: Draft, out: Out) -> bool:
    """D-FI14: the result of a night kill is fixed at the kill; the victim still has his last word."""
    return check_win(s, out)


# -- voting ----------------------------------------------------------------------------------------


@day_step("fiim_vote")
def fiim_vote(s: Draft, out: Out) -> bool:
    """F.8: no nominee → night; day 1 with one nominee → night; later a lone nominee leaves (every vote
    would go to him); two or more → the ballot. A removal cancels the vote (D-FI12, «антимонстр»)."""
    if "vote_cancelled" in s.flags:
        s.flags = s.flags - {"vote_cancelled"}
        out.append(
            Event("no_elimination", EVERYONE, {"reason": "cancelled"}, s.ruleset.phrase("vote_cancelled"))
        )
        return False
    cands = candidates(s)
    if not cands or (len(cands) == 1 and s.day == 1):
        out.append(Event("no_elimination", EVERYONE, {"reason": "no_vote"}, s.ruleset.phrase("no_vote")))
        return False
    if len(cands) == 1:
        line(s, out, "vote_accepted")
        out.append(Event("lone_nominee", EVERYONE, {"seat": cands[0]}))
        execute(s, cands[0], out)
        return True
    say(s, out, "vote_start", seats=cands)
    start_ballot(s, out, cands, "main")
    return True


@tie_chain("fiim")
def fiim_ties(s: Draft, tied: list[int], out: Out) -> None:
    """F.8 ties: the tied speak 30 s each in nomination order and are voted on again; a different tie
    repeats this; the same number tied twice in a row → the lift vote (the city's ``lift`` step: more
    than half of the living must vote yes, D-FI10). A tie of the whole table, or lifting 2 of 4 / 3 of
    9 where the club forbids it (D-FI11), sends the town to the night."""
    step = s.step
    out.append(Event("tie", EVERYONE, {"seats": tied, "round": step.round}))
    living = len(s.alive)
    if len(tied) == living:
        no_elimination(s, out, "tie")  # [MR 7.21 option 1], [EF "Rule 7.8"]
        return
    if step.round == "main" or len(tied) != len(step.candidates):
        order = _nomination_order(s, tied)
        revote = order[::-1] if s.ruleset.params.get("revote_order") == "reverse" else order
        tie_speeches(s, tied, order, revote, out)
        return
    params = s.ruleset.params
    if (living, len(tied)) == (4, 2) and not params.get("lift_2_of_4", True):
        no_elimination(s, out, "tie")
        return
    if (living, len(tied)) == (9, 3) and not params.get("lift_3_of_9", True):
        no_elimination(s, out, "tie")
        return
    start_lift(s, _nomination_order(s, tied), out)


def _nomination_order(s: GameState, seats: list[int]) -> list[int]:
    order = [t for _, t in s.nominations]
    return sorted(seats, key=lambda x: order.index(x) if x in order else len(order) + x)


# -- rounds without departures -----------------------------------------------------------------------


@day_step("fiim_round_end")
def fiim_round_end(s: Draft, out: Out) -> bool:
    """F.11, D-FI14: a draw when nobody left the table during three rounds in a row (a round is a night
    and the day after it, night 0 with day 1 included; removals count as departures)."""
    limit = int(s.ruleset.params.get("quiet_rounds_draw", 3))
    if s.day == 1:
        # Night 0 has no shot: whoever left by now left by day 1's vote or by a removal.
        removed = sum(1 for f in s.flags if f.startswith(REMOVED))
        _set_flag(s, _VOTED_OUT, str(s.n_seats - len(s.alive) - removed))
    before = int(_flag(s, _ALIVE) or s.n_seats)
    quiet = int(_flag(s, _QUIET) or 0) + 1 if len(s.alive) == before else 0
    _set_flag(s, _ALIVE, str(len(s.alive)))
    _set_flag(s, _QUIET, str(quiet))
    if limit and quiet >= limit:
        out.append(Event("quiet_draw", EVERYONE, {"rounds": quiet}))
        finish(s, out, ())
        return True
    return False
