"""Day procedure as steps: morning, speeches, discussion, nominations, last words and the vote.

The bot mutes and unmutes by these steps, so each one says exactly who holds the floor
(:func:`engine.queries.speakers`). Steps are registered by name; a ruleset lists them in ``[day]``.
The ballots themselves, their tallies and ties are in :mod:`engine.ballot`.
"""

from __future__ import annotations

from operator import countOf, itemgetter

from engine.announce import Out, line, say
from engine.ballot import after_elimination, candidates, no_elimination, refuse, start_ballot, vote_threshold
from engine.commands import Nominate
from engine.errors import AlreadyActed, DeadPlayer, IllegalCommand, IllegalTarget, NotYourTurn, WrongPhase
from engine.events import EVERYONE, NO_PARAMS, Event, interned, interned_in, to_seats
from engine.flow import announce_speech, begin_speeches, next_day_step
from engine.outcome import check_win, eliminate
from engine.registry import WITHDRAWALS, day_step
from engine.seats import PARTING_ROUNDS, first_speaker_order
from engine.state import Draft, GameState, Step, put_next_speaker, put_step

_BY, _TARGET = itemgetter(0), itemgetter(1)  # of a nomination (by, target), in C
_NOMINATED: dict[str | None, dict[int, dict[int, Event]]] = {}  # events.interned_in: [phrase][target][seat]
_SPEECH_ENDED: dict[int, Event] = {}  # by seat
_CLAIM_OFFER: dict[tuple[int, str | None], Event] = {}  # by (seat, phrase)

# -- steps -----------------------------------------------------------------------------------------


@day_step("morning")
def _morning(s: Draft, out: Out) -> bool:
    """The night's results: victims in ascending seat order (D-G11), or the "nobody" line."""
    line(s, out, "day_breaks")
    after_intro = s.night == 1 and bool(s.ruleset.intro_night)
    if after_intro:
        return False
    victims = s.last_night_victims
    for v in victims:
        eliminate(s, v, "killed", out, reveal=s.ruleset.reveal_on_night_death)
    if not victims:
        line(s, out, "nobody_killed")
    if "claim_commissar" in s.ruleset.params.get("claims", []):
        s.claimable = frozenset(victims)
        for v in victims:
            phrase = s.ruleset.phrases.get("night_victim_claim")
            key = (v, phrase)
            out.append(
                _CLAIM_OFFER.get(key)
                or interned(_CLAIM_OFFER, key, ("claim_offer", to_seats(v), {"seat": v}, phrase, NO_PARAMS))
            )
    return check_win(s, out)


@day_step("intro_speeches")
def _intro_speeches(s: Draft, out: Out) -> bool:
    """002 day 1: «Каждый из участников игры по очереди сообщает всем остальным о том, что он честный
    горожанин» — in seat order from seat 1 (D-G9), no vote."""
    line(s, out, "intro_day")
    return begin_speeches(s, out, s.living(), "intro", s.ruleset.timer("intro_speech"))


@day_step("speeches")
def _speeches(s: Draft, out: Out) -> bool:
    """A speech for every living player in seat order, the first speaker rotating by day; the speaker
    may nominate during his own speech."""
    return begin_speeches(s, out, first_speaker_order(s), "day", s.ruleset.timer("speech"))


@day_step("discussion")
def _discussion(s: Draft, out: Out) -> bool:
    s.step = Step("discussion", seconds=s.ruleset.timer("discussion"))
    line(s, out, "discussion_start")
    return True


@day_step("nominations")
def _nominations(s: Draft, out: Out) -> bool:
    """002: «ведущий предлагает выдвинуть подозреваемых в причастности к «мафии»»."""
    s.step = Step("nominations", seconds=s.ruleset.timer("nominations"))
    line(s, out, "nominations")
    return True


@day_step("last_words")
def _last_words(s: Draft, out: Out) -> bool:
    """002: «ведущий предоставляет каждому «кандидату» последнее слово»."""
    return begin_speeches(s, out, candidates(s), "last_word", s.ruleset.timer("last_word"))


@day_step("vote")
def _vote(s: Draft, out: Out) -> bool:
    cands = candidates(s)
    if not cands and s.ruleset.voting.no_candidates == "everyone":
        cands = s.living()
    if len(cands) < max(1, s.ruleset.voting.min_candidates) or "vote_cancelled" in s.flags:
        if cands or s.nominations:
            line(s, out, "vote_not_held")
        out.append(Event("no_elimination", EVERYONE, {"reason": "no_vote"}, s.ruleset.phrase("no_vote")))
        s.flags = s.flags - {"vote_cancelled"}
        return False
    threshold = vote_threshold(s)
    say(s, out, "vote_start", seats=list(cands), count=threshold)
    start_ballot(s, out, cands, "main")
    return True


# -- nominations -----------------------------------------------------------------------------------


def victim_nominates(s: GameState, seat: int) -> bool:
    """FIIM D-FI8 ``night_victim_nominates`` ([MR] RULES_KILLED_NOMINATE_ALLOWED): where the club allows
    it, the night's victim may nominate in his last minute at the start of the day."""
    step = s.step
    return (
        step.kind == "speech"
        and step.round == "night_words"
        and step.seat == seat
        and bool(s.ruleset.params.get("night_victim_nominates"))
    )


def nominate(s: Draft, c: Nominate, out: Out) -> None:
    """A Nominate (the command's own handler: engine.game dispatches to it, a call less a nomination)."""
    seat, target = c.seat, c.target
    withdraw = s.ruleset.params.get("withdraw")
    if withdraw is not None and withdraw in WITHDRAWALS:  # FIIM D-FI8: the earlier nomination gives way
        WITHDRAWALS[withdraw](s, seat, target, out)
    if s.phase != "day":
        raise WrongPhase("Выдвигать кандидатуры можно только днём.", key="nominate-day-only")
    step = s.step
    day_speech = step.kind == "speech" and step.round == "day"
    # victim_nominates only where it may apply: never in a day speech (its round is the night victim's)
    last_word = not day_speech and victim_nominates(s, seat)
    if seat not in s.alive and not last_word:
        raise DeadPlayer(
            f"Игрок {seat} выбыл и не может выдвигать кандидатуры.", key="nominate-out", seat=seat
        )
    if day_speech:
        if seat != step.seat:
            raise NotYourTurn(
                f"Выдвигать можно только в свою минуту: сейчас говорит игрок {step.seat}.",
                key="nominate-own-minute",
                seat=step.seat,
            )
    elif step.kind != "nominations" and not last_word:
        raise WrongPhase("Сейчас нельзя выдвигать кандидатуры.", key="nominate-not-now")
    voting = s.ruleset.voting
    if target not in s.alive:
        gone = IllegalTarget(f"Игрок {target} не за столом.", key="not-at-table", seat=target)
        gone.rule = "D-G6: «Убитые не могут никаким образом участвовать в игре» — nor be nominated"
        raise gone
    if target == seat and not voting.self_nomination:
        refuse(
            s,
            seat,
            "self_nomination",
            IllegalTarget("Нельзя выставлять себя.", key="no-self-nomination"),
            out,
        )
        return
    if target in map(_TARGET, s.nominations):
        refusal = AlreadyActed(f"Игрок {target} уже выставлен.", key="already-nominated", seat=target)
        refusal.rule = (
            "a player already nominated is not nominated again: the host ignores it (city D-C12); a record "
            "leaves it out"
        )
        raise refusal
    if target in s.cleared:  # «нельзя несколько раз за день голосовать за одного и того же игрока»
        refusal = AlreadyActed(
            f"За игрока {target} сегодня уже голосовали.", key="voted-on-today", seat=target
        )
        refusal.rule = (
            "000: «нельзя несколько раз за день голосовать за одного и того же игрока» (D-H17: a candidate "
            "found innocent or acquitted is not voted on again that day)"
        )
        raise refusal
    if countOf(map(_BY, s.nominations), seat) >= voting.nominations_per_player:
        refusal = AlreadyActed("Вы уже выставили кандидатуру.", key="nominated-already")
        refusal.rule = (
            f"at most {voting.nominations_per_player} nomination(s) by one player a day (city D-C12: one in "
            "his minute, «выставить кандидатуру»)"
            if s.ruleset.source.endswith("001-city-mafia-club.txt")
            else f"at most {voting.nominations_per_player} nomination(s) by one player a day (FIIM [MR 7.6])"
            if s.ruleset.source == "FIIM.md"
            else f"at most {voting.nominations_per_player} nomination(s) by one player a day: the preset's "
            "[voting] nominations_per_player (its rulebook sets no number)"
        )
        raise refusal
    s.nominations = s.nominations + ((seat, target),)  # noqa: RUF005 (no list built and converted)
    phrase = s.ruleset.phrases.get("nominated")
    try:
        found = _NOMINATED[phrase][target][seat]
    except KeyError:
        found = interned_in(
            _NOMINATED,
            (phrase, target),
            seat,
            ("nominated", EVERYONE, {"seat": seat, "target": target}, phrase, {"seat": target}),
        )
    out.append(found)
    if seat in s.immune and s.day == 1:
        # D-C5: «Игрок лишается его, если он в первый день выставил игрока».
        s.immune = s.immune - {seat}
        phrase = s.ruleset.phrase("immunity_lost")
        out.append(Event("immunity_lost", EVERYONE, {"seat": seat}, phrase, {"seat": seat}))


# -- speeches --------------------------------------------------------------------------------------


def _own_minute(s: GameState, seat: int) -> None:
    step = s.step
    if s.phase != "day" or step.kind != "speech" or step.round != "day":
        raise WrongPhase("Сейчас ничья минута речи не идёт.", key="no-speech-now")
    if seat != step.seat:
        raise NotYourTurn(f"Сейчас говорит игрок {step.seat}.", key="speaking-now", seat=step.seat)
    if seat in s.no_speech:
        raise NotYourTurn("Сегодня вы лишены слова.", key="muted-today")


def permit(s: Draft, seat: int, target: int, allow: bool, out: Out) -> None:
    """001: «В свою минуту игрок может также разрешить говорить другому игроку, а затем отозвать
    разрешение (например, - «разрешаю 5», «запрещаю 5»)»."""
    if not s.ruleset.params.get("speech_permissions"):
        raise IllegalCommand(
            "В этих правилах нельзя разрешать говорить другим игрокам.", key="no-speech-permits"
        )
    _own_minute(s, seat)
    permitted = set(s.step.permitted)
    if target not in s.alive or target == seat:
        raise IllegalTarget(
            f"Игроку {target} нельзя {'разрешить' if allow else 'запретить'} говорить.",
            key="cannot-allow-speech" if allow else "cannot-forbid-speech",
            target=target,
        )
    if allow and target in s.no_speech:
        raise IllegalTarget(f"Игрок {target} сегодня лишён слова.", key="silenced-today", target=target)
    if allow == (target in permitted):
        raise AlreadyActed(
            f"Игроку {target} уже {'разрешено' if allow else 'не разрешено'} говорить.",
            key="speech-allowed-already" if allow else "speech-forbidden-already",
            target=target,
        )
    permitted = permitted | {target} if allow else permitted - {target}
    put_step(s, permitted=tuple(sorted(permitted)))
    key = "speech_allow" if allow else "speech_forbid"
    data = {"seat": seat, "target": target, "allow": allow}
    out.append(Event("permission", EVERYONE, data, s.ruleset.phrase(key), {"seat": seat, "target": target}))


def ask_nominees(s: GameState, seat: int, out: Out) -> None:
    """001: «Также игрок может спросить у ведущего: «Кто выставлен?»» (in his own minute)."""
    if not s.ruleset.phrase("nominees_list"):
        raise IllegalCommand(
            "В этих правилах ведущий не отвечает на вопрос «Кто выставлен?».", key="no-who-is-nominated"
        )
    _own_minute(s, seat)
    seats = candidates(s)
    phrase = s.ruleset.phrase("nominees_list") if seats else s.ruleset.phrase("no_nominees")
    out.append(Event("nominees", EVERYONE, {"seat": seat, "seats": seats}, phrase, {"seats": seats}))


def end_speech(s: Draft, out: Out) -> None:
    step = s.step
    seat, queue, round_name = step.seat, step.queue, step.round
    try:
        out.append(_SPEECH_ENDED[seat])
    except KeyError:
        out.append(interned(_SPEECH_ENDED, seat, ("speech_ended", EVERYONE, {"seat": seat}, None, NO_PARAMS)))
    if round_name == "day" and seat in s.no_speech and not s.ruleset.conduct.daily_reset:
        s.no_speech = s.no_speech - {seat}  # FIIM D-FI12: the lost speech is lost once
    if queue and round_name not in PARTING_ROUNDS:
        alive = s.alive
        if not alive.issuperset(queue):
            queue = tuple(filter(alive.__contains__, queue))  # in C: no cells for s and alive
    if queue:
        # A day speech made shorter for its speaker (FIIM's 30 s or 10 s turns) leaves the next one whole.
        if round_name == "day":
            seconds = s.ruleset.seconds.get("speech")
            if seconds is None:
                seconds = s.ruleset.timer("speech")
        else:
            seconds = step.seconds
        put_next_speaker(s, queue, seconds)
        # announce_speech(s, out), written out for its common case (a speech ends ≈ 40 times a game): the
        # next speaker, who has not lost his speech, is called by the preset's own event.
        seat = queue[0]
        if seat not in s.no_speech:
            try:
                found = s.ruleset.speeches[round_name][seconds][seat]
            except KeyError:
                pass
            else:
                out.append(found)
                return
        announce_speech(s, out)
        return
    if round_name == "tie_word":
        # A tied player removed during the defences (club rules) is off the revote; one left alone is not
        # voted on again.
        tied = list(filter(s.alive.__contains__, step.candidates))  # in C: no cell for s
        if len(tied) < 2:
            no_elimination(s, out, "tie")
            return
        line(s, out, "revote")
        start_ballot(s, out, tied, "after_words")
    elif step.round == "farewell":
        after_elimination(s, out)
    else:
        next_day_step(s, out)
