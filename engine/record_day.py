"""The days of a game record, replayed through the engine (see :mod:`engine.record`).

A day's entries are sent when the engine reaches the moment they belong to: nominations in their
author's speech (or at the nominations step), votes on each ballot in ballot order, permissions and
passes in the speaker's speech, a removal at the start of the day or at the moment it names. Every
entry must be used that day, whether or not the game ended that day.

Day keys beyond the contract's, read by the step kinds that declare them (``record_key``):
``"court": [[accused, [judges voting «казнить»]], …]`` and ``"court_choice": [[judge, candidate], …]``
(classic judges), ``"golden_minute": [seat, …]``, ``"bets": [[seat, target], …]`` and ``"cards":
[[seat, "hidden" | "opponent"], …]`` (the two-player game). Where a day has several rounds of
nominations (a judges' day after a spare), ``"nominations"`` and ``"votes"`` may list one group per
round: ``[[[8, 7]], [[7, 1]]]``, every ballot of the day in order.
"""

from __future__ import annotations

from typing import Any

from engine.commands import (
    Act,
    Advance,
    Answer,
    AskNominees,
    AwardVictory,
    Claim,
    Foul,
    Nominate,
    Pass,
    Permit,
    Remove,
    RevokeImmunity,
    Vote,
)
from engine.registry import STEP_KINDS
from engine.replaying import Replay
from engine.seats import PARTING_ROUNDS

DAY_KEYS = {
    "nominations",
    "votes",
    "revote",
    "lift",
    "fouls",
    "actions",
    "tiebreak",
    "maniac_answer",
    "claims",
    "removals",
    "speeches",
    "passes",
    "permissions",
    "asks",
    "immunity_revoked",
    "victory_awarded",
}

# The moments of a day a removal may name (its third element): {"speech": seat}, {"ballot": candidate},
# {"step": kind}.
# {"tie_word": seat}: during seat's words in a tie (city's «оправдательные 30 секунд» after a car crash).
MOMENTS = ("speech", "ballot", "step", "tie_word")

CONTRACT = "README, Game records: "
PHASE_FORMS = (
    CONTRACT + "«A night (or any phase of steps) is a list of action entries» and «A day is an object»; "
    "blood's night is its day of talk and its day a phase of steps"
)
SPEECHES = CONTRACT + "«speeches: every speech of the day, in the order the host gives the floor»"
EVERY_ENTRY = CONTRACT + "«every entry of a day must be used that day, also on the day the game ends»"
NO_NOMINATIONS = (
    "RULESETS.md 6.4–6.5 (classic): day 1 is introductions only — «Каждый из участников игры по очереди"
    " сообщает всем остальным о том, что он честный горожанин»; nominations and the vote start on day 2"
)
SPEAKING_ORDER = (
    CONTRACT + "«in presets with nominations during one's speech they must follow the speaking order»"
)


def _step_keys() -> dict[str, Any]:
    """Day inputs of the presets' own step kinds: a kind with ``record_key`` reads its entries with
    ``record(state, entries)``, which takes those of the step now open from the front of the list and
    returns ``(command, entry)`` pairs (classic: ``court``, ``court_choice``, ``golden_minute``,
    ``bets``, ``cards``)."""
    return {kind.record_key: kind for kind in STEP_KINDS.values() if getattr(kind, "record_key", "")}


def _rounds(value: Any) -> bool:
    """A list of rounds (a list of ballots, or of groups of nominations) rather than one."""
    return (
        isinstance(value, list)
        and bool(value)
        and isinstance(value[0], list)
        and (not value[0] or isinstance(value[0][0], list))
    )


def _seats(rp: Replay, obj: dict[str, Any], key: str) -> list[int]:
    value = obj.get(key, [])
    if not isinstance(value, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in value):
        raise rp.fail({key: value}, "a list of seats")
    return list(value)


def _removals(rp: Replay, obj: dict[str, Any]) -> tuple[list[Any], list[Any]]:
    """The day's removals: those of the start of the day, and those naming a moment of the day."""
    at_start, later = [], []
    for entry in obj.get("removals", []):
        if not isinstance(entry, list) or not 1 <= len(entry) <= 3:
            raise rp.fail(entry, "a removal is [seat, reason] or [seat, reason, moment]")
        if len(entry) < 3:
            at_start.append(entry)
            continue
        moment = entry[2]
        if not isinstance(moment, dict) or len(moment) != 1 or next(iter(moment)) not in MOMENTS:
            raise rp.fail(
                entry,
                'the moment is {"speech": seat}, {"tie_word": seat}, {"ballot": candidate} or {"step": kind}',
            )
        later.append(entry)
    return at_start, later


def _remove(rp: Replay, entry: list[Any]) -> None:
    rp.send(Remove(seat=int(entry[0]), reason=str(entry[1]) if len(entry) > 1 else ""), entry)


def replay_day(rp: Replay, obj: Any) -> None:
    if not isinstance(obj, dict):
        name = rp.state.phase_name
        example = '{"nominations": [[4, 9]], "votes": [[9, [4, 5]]]}'
        raise rp.fail(obj, f"a {name} is the table's talk here: an object with voting keys, e.g. {example} "
                      "({} if nobody was nominated)", PHASE_FORMS)  # fmt: skip
    by_key = _step_keys()
    for key in by_key:
        if key in obj and not isinstance(obj[key], list):
            raise rp.fail({key: obj[key]}, "must be a list")
    inputs = {key: list(obj[key]) for key in by_key if key in obj}
    unknown = set(obj) - DAY_KEYS - set(by_key)
    if unknown:
        raise rp.fail(sorted(unknown), "unknown keys for a day")
    at_start, later = _removals(rp, obj)
    speeches = _seats(rp, obj, "speeches") if "speeches" in obj else None
    passes = _seats(rp, obj, "passes")
    permissions = list(obj.get("permissions", []))
    for entry in permissions:
        if (
            not isinstance(entry, list)
            or len(entry) not in (2, 3)
            or (len(entry) == 3 and entry[2] is not False)
        ):
            raise rp.fail(entry, "a permission is [speaker, target] («разрешаю») or [speaker, target, false]")
    for entry in obj.get("fouls", []):
        rp.send(Foul(seat=int(entry[0]), reason=str(entry[1]) if len(entry) > 1 else ""), entry)
    for entry in at_start:
        _remove(rp, entry)
    for seat in _seats(rp, obj, "immunity_revoked"):
        rp.send(RevokeImmunity(seat=seat), {"immunity_revoked": seat})
    asks = _seats(rp, obj, "asks")
    award = obj.get("victory_awarded")
    if award is not None:
        if not isinstance(award, list) or not 1 <= len(award) <= 2 or not isinstance(award[0], int):
            raise rp.fail({"victory_awarded": award}, "victory_awarded is [seat, reason]")
        reason = str(award[1]) if len(award) > 1 else ""
        rp.send(AwardVictory(seat=award[0], reason=reason), {"victory_awarded": award})
    for seat in obj.get("claims", []):
        rp.send(Claim(seat=int(seat)), {"claims": seat})
    actions = list(obj.get("actions", []))
    for entry in actions:
        if not isinstance(entry, dict) or set(entry) != {"seat", "target"}:
            raise rp.fail(entry, "a day action is {seat, target}")
    if actions and not rp.ruleset.params.get("acquittal"):
        raise rp.fail(actions, "nobody has a day ability in this preset")
    lift = obj.get("lift")
    # Several rounds of nominations in a day (classic judges: after a spare, D-CL9) are written as a list
    # of groups, one per nominations step; likewise "votes" as a list of ballots.
    groups = [[list(n) for n in g] for g in obj["nominations"]] if _rounds(obj.get("nominations")) else []
    nominations = [] if groups else [list(n) for n in obj.get("nominations", [])]
    rounds: list[list[Any]] = []
    if _rounds(obj.get("votes")):
        rounds.extend(obj["votes"])
    elif "votes" in obj:
        rounds.append(obj["votes"])
    revote = obj.get("revote")
    if revote and "votes" not in obj:
        # Without "votes" the revote's hands would be taken for the first ballot's.
        raise rp.fail(
            {"revote": revote},
            'a revote follows the day\'s first ballot: write "votes" too ("votes": [] if nobody voted in it)',
            CONTRACT
            + "«`votes`: `[candidate, [voters]]` in ballot order; `revote`: one round, or a list of rounds»",
        )
    if revote:
        rounds.extend(revote if isinstance(revote[0][0], list) else [revote])
    answer = obj.get("maniac_answer")
    tiebreak = obj.get("tiebreak")

    def at(kind: str, value: Any) -> bool:
        """Send the removals naming this moment; True when one was sent (the state is to be read again)."""
        due = [e for e in later if e[2] == {kind: value}]
        for entry in due:
            later.remove(entry)
            _remove(rp, entry)
        return bool(due)

    day, intro, first_event = rp.state.day, rp.state.intro, len(rp.events)
    spoken: list[int] = []  # the day's speeches in the order given (for the nominations' message)
    speech: tuple[Any, ...] = ()  # the speech now heard: (seat, purpose, queue), counted once
    steps_seen: set[str] = set()
    nominating = False  # a moment of the day where players nominate came
    while rp.state.phase == "day" and rp.state.day == day and not rp.state.over:
        step = rp.state.step
        if step.kind not in steps_seen:
            steps_seen.add(step.kind)
            if at("step", step.kind):
                continue
        if step.kind == "question":
            if answer is not None:
                rp.send(Answer(seat=step.seat, yes=bool(answer)), {"maniac_answer": answer})
                answer = None
            else:
                rp.send(Advance())
        elif step.kind == "speech":
            if speech != (step.seat, step.round, step.queue):
                speech = (step.seat, step.round, step.queue)
                if step.round == "day":
                    spoken.append(step.seat)
                muted = step.seat in rp.state.no_speech and step.round not in PARTING_ROUNDS
                if speeches is not None and not muted:
                    if not speeches or speeches[0] != step.seat:
                        shown = speeches[0] if speeches else "nobody"
                        free = _free(steps_seen, spoken)
                        raise rp.fail(
                            {"speeches": shown},
                            f"the floor goes to seat {step.seat} here ({step.round}){free}",
                            SPEECHES,
                        )
                    speeches.pop(0)
                if at("speech", step.seat) or (step.round == "tie_word" and at("tie_word", step.seat)):
                    continue
            if step.round == "day":
                nominating = True
                while permissions and int(permissions[0][0]) == step.seat:
                    p = permissions.pop(0)
                    rp.send(Permit(seat=int(p[0]), target=int(p[1]), allow=len(p) == 2), p)
                while asks and asks[0] == step.seat:
                    rp.send(AskNominees(seat=asks.pop(0)), {"asks": step.seat})
                while nominations and int(nominations[0][0]) == step.seat:
                    n = nominations.pop(0)
                    rp.send(Nominate(seat=int(n[0]), target=int(n[1])), n)
            if passes and passes[0] == step.seat:
                rp.send(Pass(seat=passes.pop(0)), {"passes": step.seat})
            else:
                rp.send(Advance())
        elif step.kind == "nominations":
            nominating = True
            if groups:
                nominations = groups.pop(0)
            while nominations:
                n = nominations.pop(0)
                rp.send(Nominate(seat=int(n[0]), target=int(n[1])), n)
            rp.send(Advance())
        elif step.kind == "vote":
            _ballot(rp, rounds[0] if rounds else [], lambda c: at("ballot", c))
            if rounds and (not rounds[0] or len(step.candidates) > 1):
                rounds.pop(0)
        elif (
            actions
            and int(actions[0]["target"]) == step.seat
            and rp.state.phase == "day"
            and rp.state.step.kind in STEP_KINDS
        ):
            entry = actions.pop(0)
            rp.send(Act(seat=int(entry["seat"]), targets=(int(entry["target"]),)), entry)
        elif getattr(STEP_KINDS.get(step.kind), "record_key", "") in inputs:
            kind = STEP_KINDS[step.kind]
            entries = inputs[kind.record_key]
            try:
                taken = kind.record(rp.state, entries)
            except (ValueError, TypeError, IndexError) as exc:
                raise rp.fail({kind.record_key: entries[:1]}, str(exc)) from None
            before = rp.state.step
            for command, entry in taken:
                if rp.state.over:
                    raise rp.fail({kind.record_key: entry}, "the game was already over", EVERY_ENTRY)
                rp.send(command, {kind.record_key: entry})
            if rp.state.step is before and not rp.state.over:
                rp.send(Advance())
        elif step.kind == "lift":
            for voter in lift or []:
                rp.send(Vote(seat=int(voter)), {"lift": lift})
            lift = None
            rp.send(Advance())
        elif step.kind == "tiebreak" and tiebreak is not None:
            rp.send(Vote(seat=step.seat, candidate=int(tiebreak)), {"tiebreak": tiebreak})
            tiebreak = None
        else:
            rp.send(Advance())
    # Every entry of the day must have been used, whether or not the game ended that day.
    over = " (the game ended this day)" if rp.state.over else ""
    if nominations or any(groups):
        left = nominations[0] if nominations else next(g for g in groups if g)[0]
        if not nominating:
            what = "no nominations"
            if intro:
                what = "the day of introductions: it has no nominations and no vote"
            rule = NO_NOMINATIONS if intro and rp.ruleset.source.endswith("002-classic-variants.txt") else ""
            raise rp.fail(left, f"nobody nominates on this day ({what}){over}", rule)
        message = f"nomination out of speaking order (or after the nominations closed){over}"
        if spoken:
            message += f"; the day's speeches went {spoken}"
        raise rp.fail(left, message, SPEAKING_ORDER)
    left_over: list[tuple[Any, str]] = []
    for key, entries in inputs.items():
        if entries:
            why = getattr(by_key[key], "unused", None)
            reason = why(rp.state, entries[0]) if why else ""
            message = f"no {key} step took this entry this day" + (f": {reason}" if reason else "")
            left_over.append(({key: entries[0]}, message))
    rules: dict[int, str] = {}  # a left-over entry's own rule, by its place in left_over
    if actions:
        acquitted = [e.data["seat"] for e in rp.events[first_event:] if e.type == "acquitted"]
        if acquitted:
            queen = "queen" in rp.ruleset.params.get("acquitters", ())  # blood: the night's talk (D-B10)
            rules[len(left_over)] = ONCE_A_NIGHT if queen else ONCE_A_DAY
            phase = "night" if queen else "day"
            message = f"the {phase}'s one acquittal was already used (seat {acquitted[0]} acquitted)"
        else:
            message = "no acquittal was possible at this point of the day"
        left_over.append((actions[0], message))
    for ballot in rounds:
        if any(not isinstance(e, list) or len(e) != 2 or e[1] for e in ballot):
            why = ": the day of introductions has no vote" if intro else _why_no_ballot(rp, first_event)
            left_over.append((ballot, "no such ballot took place this day" + why))
    if tiebreak is not None:
        message = "no deciding ballot took place this day" + _why_no_tiebreak(rp, first_event)
        left_over.append(({"tiebreak": tiebreak}, message))
    if lift:
        left_over.append(({"lift": lift}, "no vote to leave together took place this day"))
    if answer is not None:
        left_over.append(({"maniac_answer": answer}, "the maniac was not asked this day"))
    if later:
        left_over.append((later[0], "this moment did not come this day"))
    if permissions:
        left_over.append((permissions[0], "not in the speaker's own speech this day"))
    if (passes or speeches) and _no_turns(rp):
        rules[len(left_over)] = NO_TURNS
        left_over.append(
            (
                {"speeches" if speeches else "passes": (speeches or passes)[0]},
                "nobody has a turn to speak this day",
            )
        )
    if passes:
        left_over.append(({"passes": passes[0]}, "this seat had no speech left to end this day"))
    if asks:
        left_over.append(({"asks": asks[0]}, "not in the asker's own speech this day"))
    if speeches:
        left_over.append(
            ({"speeches": speeches[0]}, "no such speech took place this day" + _free(steps_seen, spoken))
        )
    if left_over:
        entry, message = left_over[0]
        raise rp.fail(entry, message + over, rules.get(0, EVERY_ENTRY))


def _no_turns(rp: Replay) -> bool:
    """The preset's day gives nobody a turn to speak (hobbyworld, blood: a discussion, then the vote)."""
    steps = (*rp.ruleset.day_first, *rp.ruleset.day_normal)
    return not any(word in k for k in steps for word in ("speech", "word", "discussion"))


ONCE_A_DAY = (
    "000 judge: «судья может блокировать голосование подобным образом только раз в день: следующий "
    "осуждённый уже наверняка подвергается суду Линча» (D-H16)"
)
ONCE_A_NIGHT = (
    "003 queen: «королева может блокировать голосование подобным образом только раз за ночь: следующий "
    "осуждённый уже наверняка будет казнён» (D-B10)"
)
NO_TURNS = (
    "RULESETS.md 4.7: the day is a free discussion with nominations, without turns to speak; night victims "
    "«не успевают ничего сообщить» and the lynched only shows his card (D-H21: no last words) — leave "
    "speeches and passes out"
)

# Why a day had no vote, as the engine told it (``no_elimination``'s reason).
NO_VOTE_BECAUSE = {
    "cancelled": "the vote was cancelled: a nominee left the table before it (001: «Если игровой стол днём "
    "покинул игрок, выставленный на голосование, голосование не состоится»)",
    "no_vote": "fewer than two players were nominated (001: «Для активации голосования должно быть "
    "выставлено хотя бы два игрока»)",
}


def _why_no_ballot(rp: Replay, first_event: int) -> str:
    """What the day's events say about a vote that did not happen, for a ballot entry left unused."""
    for event in rp.events[first_event:]:
        because = NO_VOTE_BECAUSE.get(str(event.data.get("reason")), "")
        if event.data.get("reason") == "no_vote" and rp.ruleset.voting.min_candidates < 2:
            because = "nobody was nominated this day"  # one nominee is voted on (classic, simple, …)
        if event.type == "no_elimination" and because:
            return f": {because}"
    held = [
        f"{e.data['candidate']} ({e.data['round']})" for e in rp.events[first_event:] if e.type == "ballot"
    ]
    if not held:
        return ""
    tied = any(e.type == "tie" for e in rp.events[first_event:])
    return f" (the ballots held: {', '.join(held)}{'' if tied else '; no vote was tied, so no revote'})"


def _free(steps_seen: set[str], spoken: list[int]) -> str:
    """For a ``speeches`` entry on a day of free discussion (classic): nobody is given the floor in turn."""
    if "discussion" in steps_seen and not spoken:
        return (
            " (this day's discussion is free, without turns: its speeches are the candidates' last words,"
            " tie words and golden minutes)"
        )
    return ""


def _why_no_tiebreak(rp: Replay, first_event: int) -> str:
    """Why the day's tie (if any) had no deciding ballot: classic's «последний убитый прошлой ночью
    честный горожанин» (D-CL3) decides only a tie that stands after the candidates' words."""
    if rp.ruleset.voting.ties != "classic":
        return f" (the {rp.ruleset.id} preset has none)"
    ties = [e for e in rp.events[first_event:] if e.type == "tie"]
    if not ties:
        return " (no vote of the day was tied)"
    if ties[-1].data.get("round") != "after_words":
        return " (the tie was not one of two candidates still tied after their words)"
    return (
        " (the tie stood, but nobody killed last night was an honest citizen who could decide it:"
        " D-CL3 «If there is no such player (day 2, a save, the victim was not honest) … nobody is"
        " eliminated that day»)"
    )


def _ballot(rp: Replay, queue: list[Any], opening: Any) -> None:
    """Vote on the ballot now open, taking its entries from the front of ``queue``. A ballot of one
    candidate (the sequential variant) takes only his entry and leaves the rest for the next ballots.
    ``opening(candidate)`` sends what happens as a candidate's ballot opens (a removal)."""
    s = rp.state
    order = list(s.step.candidates)
    if len(order) == 1 and queue and isinstance(queue[0], list) and queue[0][:1] != [order[0]]:
        rp.send(Advance())
        return
    for candidate in order:
        opening(candidate)
        if rp.state.over or rp.state.step.kind != "vote":
            return  # the removal ended the game, or asked the maniac (D-S7); the day goes on from there
        voters: list[int] = []
        if queue:
            entry = queue[0]
            if not isinstance(entry, list) or len(entry) != 2:
                raise rp.fail(entry, "a vote entry is [candidate, [voters]]")
            if int(entry[0]) == candidate:
                voters = [int(v) for v in entry[1]]
                queue.pop(0)
            elif int(entry[0]) not in order:
                raise rp.fail(entry, f"{entry[0]} is not a candidate (candidates: {order})")
            # else the entry is a later candidate's: this one had no hands (a ballot without entries)
        for v in voters:
            rp.send(Vote(seat=v, candidate=candidate), [candidate, voters])
        rp.send(Advance())
    if queue and len(order) > 1:
        if isinstance(queue[0], list) and queue[0][:1] and queue[0][0] in order:
            raise rp.fail(queue[0], f"the candidates are voted in the order {order}, each once")
        raise rp.fail(queue[0], f"{queue[0][0]} is not a candidate (candidates: {order})")
