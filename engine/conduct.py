"""Club conduct: fouls («замечания», 001) and bans (004), with the consequences the preset sets.

RULESETS.md 9 and D-F1, D-F5, D-F6: counts reset at the start of each day where the preset says so; a
player who ended a day with 3 fouls loses his speech the next day, with 4 also his vote; reaching the
removal threshold removes him at once.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.announce import Out
from engine.errors import DeadPlayer, IllegalCommand
from engine.events import EVERYONE, Event
from engine.outcome import check_win, decided, eliminate, finish
from engine.registry import day_step
from engine.seats import PARTING_ROUNDS
from engine.state import Draft, GameState

MUTE_NEXT_DAY = "mute_next_day:"  # flag: a seat whose lost speech is the next day's (FIIM D-FI12)
REMOVED = "removed:"  # flag: a seat that left by a removal, not by the vote or the night (FIIM D-FI13)
VOTE_STOPPED = "vote_stopped"  # flag: a removal stops the vote under way (FIIM D-FI12 «антимонстр»)


def _set_fouls(s: Draft, seat: int, count: int) -> None:
    rest = s.fouls
    for f in rest:
        if f[0] == seat:  # his earlier count gives way
            rest = tuple(f for f in s.fouls if f[0] != seat)
            break
    s.fouls = (*rest, (seat, count)) if count else rest


def _at_table(s: GameState, seat: int) -> None:
    """A seat beyond the table was never dealt: «уже выбыл» would be untrue (issue 13)."""
    if not 1 <= seat <= s.n_seats:
        raise IllegalCommand(f"За столом нет места №{seat}.", key="no-seat-number", seat=seat)


def give_foul(s: Draft, seat: int, reason: str, out: Out) -> None:
    conduct = s.ruleset.conduct
    if conduct.kind == "none":
        refusal = IllegalCommand(
            "В этих правилах нет замечаний (включите правила клуба в настройках).", key="no-fouls-in-rules"
        )
        refusal.rule = (
            "RULESETS.md 9: fouls are the club conduct rules of seeds 001 and 004 (and FIIM's); this preset "
            "has none (a ruleset file with a [conduct] table adds them) — a removal [seat, reason] may still "
            "be written"
        )
        raise refusal
    _at_table(s, seat)
    if seat not in s.alive:
        raise DeadPlayer(f"Игрок {seat} уже выбыл.", key="player-out", seat=seat)
    if s.phase == "night" and reason in s.ruleset.params.get("removed_at_night", ()):
        # D-F2: «клятвы, споры»: a foul by day, removal after «в городе ночь».
        remove(s, seat, reason, out)
        return
    count = s.fouls_of(seat) + 1
    _set_fouls(s, seat, count)
    key = "ban_given" if conduct.kind == "bans" else "foul_given"
    out.append(
        Event(
            "foul",
            EVERYONE,
            {"seat": seat, "count": count, "reason": reason},
            s.ruleset.phrase(key),
            {"seat": seat, "count": count},
        )
    )
    if conduct.thresholds.get(count) == "removed":
        remove(s, seat, "fouls", out)
    elif conduct.thresholds.get(count) == "no_speech" and not conduct.daily_reset:
        # FIIM D-FI12: fouls count over the whole game; the 3rd costs the next regular speech, once;
        # with ``mute_next_day`` a 3rd foul by day costs the next day's speech (the morning moves it).
        if s.ruleset.params.get("mute_next_day") and s.phase == "day":
            s.flags = s.flags | {f"{MUTE_NEXT_DAY}{seat}"}
        else:
            s.no_speech = s.no_speech | {seat}


def remove(s: Draft, seat: int, reason: str, out: Out) -> None:
    """D-F5: immediate elimination without last words; a removed nominee cancels the day's vote if it
    happens before voting; the win check follows."""
    _at_table(s, seat)
    if seat not in s.alive:
        raise DeadPlayer(f"Игрок {seat} уже выбыл.", key="player-out", seat=seat)
    key = {
        "fouls": "banned_out" if s.ruleset.conduct.kind == "bans" else "removed",
        "confession": "confessed",
    }.get(reason, "removed")
    eliminate(s, seat, "removed", out, reveal=s.ruleset.reveal_on_vote, phrase=key, reason=reason)
    s.flags = s.flags | {f"{REMOVED}{seat}"}
    if reason in ("left", "deliberate") and s.ruleset.phrase("rating_penalty"):
        # D-F4: «Если игрок покинул игру до её завершения или намеренно набирает замечания … «-5» баллов»
        points = int(s.ruleset.params.get("rating_penalty", -5))
        data = {"seat": seat, "points": points}
        phrase = s.ruleset.phrase("rating_penalty")
        out.append(Event("rating_penalty", EVERYONE, data, phrase, {"seat": seat}))
    nominated = [t for _, t in s.nominations]
    cancels = s.ruleset.params.get("removal_cancels_vote", "if_nominated")
    voting = s.phase == "day" and _voting(s)
    if cancels == "always" and not voting:
        # FIIM D-FI12 («антимонстр»): any removal cancels the current or nearest vote.
        s.flags = s.flags | {"vote_cancelled"}
    elif cancels == "if_nominated" and s.phase == "day" and seat in nominated and not voting:
        s.flags = s.flags | {"vote_cancelled"}
    interrupted = s.step
    if interrupted.kind == "speech" and interrupted.round in PARTING_ROUNDS and decided(s):
        # Issue 13, FIIM D-FI14, [MR 8.20 option 1]: the result was told at the vote or the kill; a removal
        # in the last word changes nothing, and the game ends after that minute, not at the removal.
        return
    if check_win(s, out):
        if s.step.kind == "question" and interrupted.kind not in ("dawn", "question"):
            # D-S7 asks the maniac at once; the speech, ballot or night step goes on after his answer
            # (D-F5: «голосование не отменяется»).
            s.resume = interrupted
        return
    if cancels == "always" and voting:
        # FIIM D-FI12, [MR 9.10 option 1]: «ближайшее или текущее голосование не проводится» — a removal
        # while the vote is under way (a ballot, the tie's words, a revote, the lift) stops it; the
        # command's handler (game._with_speaker_check) ends it and the day goes on to the night.
        s.flags = s.flags | {VOTE_STOPPED}


def _voting(s: GameState) -> bool:
    """«если удаление случилось в момент голосования, голоса засчитываются»: the ballots, a tie's words
    and revotes are all part of the vote."""
    step = s.step
    return step.kind in ("vote", "lift", "tiebreak") or (step.kind == "speech" and step.round == "tie_word")


def award_victory(s: Draft, seat: int, reason: str, out: Out) -> None:
    """D-F3: «присуждение победы противоположным командам, сидящим за игровым столом» — every side other
    than the offender's with a living member wins (if none is living, every other side dealt)."""
    if s.ruleset.conduct.kind == "none":
        raise IllegalCommand(
            "В этих правилах нет правил клуба (включите их в настройках).", key="no-club-rules"
        )
    if not 1 <= seat <= s.n_seats:
        raise IllegalCommand(f"Нет игрока {seat}.", key="no-player", seat=seat)
    own = s.ruleset.roles[s.roles[seat - 1]].side
    order = list(s.ruleset.sides)
    living = {s.ruleset.roles[s.roles[x - 1]].side for x in s.alive} - {own}
    dealt = {s.ruleset.roles[r].side for r in s.roles} - {own}
    winners = tuple(x for x in order if x in (living or dealt))
    names: dict[str, str] = dict(s.ruleset.params.get("side_names", {}))
    teams = ", ".join(names.get(x, x) for x in winners)
    data = {"seat": seat, "reason": reason, "winners": list(winners)}
    phrase = s.ruleset.phrase("victory_awarded")
    out.append(Event("victory_awarded", EVERYONE, data, phrase, {"teams": teams}))
    # Several teams awarded: the award's line has told them all, and no single side's «Победили …» line
    # may follow it (city: the town and the maniac against a mafioso).
    finish(s, out, winners, announced=len(winners) > 1)


def end_of_day(s: Draft) -> None:
    """D-F1: «Замечания обнуляются каждый день»: the day's counts decide the next day's restrictions and
    are then reset, so that fouls given at night count toward the following day."""
    conduct = s.ruleset.conduct
    if not conduct.daily_reset:
        return
    no_speech, no_vote = set(), set()
    for seat, count in s.fouls:
        effects = _effects(conduct.thresholds, count)
        if "no_vote" in effects:
            no_vote.add(seat)
        if effects & {"no_vote", "no_speech"}:
            no_speech.add(seat)
    s.no_speech = frozenset(no_speech)
    s.no_vote = frozenset(no_vote)
    s.fouls = ()


def _effects(thresholds: Mapping[int, str], count: int) -> set[str]:
    """What ``count`` fouls bring (a function of its own: the comprehension would make end_of_day's names
    cells at every nightfall)."""
    return {v for k, v in thresholds.items() if count >= k}


def start_of_day(s: Draft, out: Out) -> None:
    """Without a daily reset nothing carries over to the new day (but FIIM's lost speech, below); with
    one, the restrictions earned on the previous day hold, and the RESTRICTIONS day step announces them
    after the morning's news."""
    conduct = s.ruleset.conduct
    if not conduct.daily_reset:
        # Whole-game fouls (FIIM): a lost speech not yet taken stays lost until it is.
        whole_game = "no_speech" in conduct.thresholds.values()
        s.no_speech = s.no_speech if whole_game else frozenset()
        s.no_vote = frozenset()


RESTRICTIONS = "conduct_restrictions"


@day_step(RESTRICTIONS)
def announce_restrictions(s: GameState, out: Out) -> bool:
    """D-F1: «лишён слова» for the day, said after «Наступает утро» and the night's news, before the
    first speech (issue 13). A seat killed in the night is not named."""
    for seat in sorted(s.no_speech):
        if seat not in s.alive:
            continue
        if seat in s.no_vote:
            out.append(
                Event(
                    "restricted",
                    EVERYONE,
                    {"seat": seat, "speech": False, "vote": False},
                    s.ruleset.phrase("foul_no_vote"),
                    {"seat": seat},
                )
            )
        else:
            out.append(
                Event(
                    "restricted",
                    EVERYONE,
                    {"seat": seat, "speech": False, "vote": True},
                    s.ruleset.phrase("foul_muted"),
                    {"seat": seat},
                )
            )
    return False
