"""Club conduct: fouls («замечания», 001) and bans (004), with the consequences the preset sets.

RULESETS.md 9 and D-F1, D-F5, D-F6: counts reset at the start of each day where the preset says so; a
player who ended a day with 3 fouls loses his speech the next day, with 4 also his vote; reaching the
removal threshold removes him at once.
"""

from __future__ import annotations

from engine.errors import DeadPlayer, IllegalCommand
from engine.events import EVERYONE, Event
from engine.flow import Out, check_win, eliminate
from engine.state import GameState, put


def _set_fouls(s: GameState, seat: int, count: int) -> None:
    rest = tuple(f for f in s.fouls if f[0] != seat)
    put(s, fouls=(*rest, (seat, count)) if count else rest)


def give_foul(s: GameState, seat: int, reason: str, out: Out) -> None:
    conduct = s.ruleset.conduct
    if conduct.kind == "none":
        raise IllegalCommand("В этих правилах нет замечаний (включите правила клуба в настройках).")
    if seat not in s.alive:
        raise DeadPlayer(f"Игрок {seat} уже выбыл.")
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


def remove(s: GameState, seat: int, reason: str, out: Out) -> None:
    """D-F5: immediate elimination without last words; a removed nominee cancels the day's vote if it
    happens before voting; the win check follows."""
    if seat not in s.alive:
        raise DeadPlayer(f"Игрок {seat} уже выбыл.")
    key = {
        "fouls": "banned_out" if s.ruleset.conduct.kind == "bans" else "removed",
        "confession": "confessed",
    }.get(reason, "removed")
    eliminate(s, seat, "removed", out, reveal=s.ruleset.reveal_on_vote)
    out[-1] = Event(
        "removed", EVERYONE, {**out[-1].data, "reason": reason}, s.ruleset.phrase(key), {"seat": seat}
    )
    nominated = [t for _, t in s.nominations]
    if s.phase == "day" and seat in nominated and s.step.kind != "vote":
        put(s, flags=s.flags | {"vote_cancelled"})
    check_win(s, out)


def start_of_day(s: GameState, out: Out) -> None:
    conduct = s.ruleset.conduct
    if not conduct.daily_reset:
        put(s, no_speech=frozenset(), no_vote=frozenset())
        return
    no_speech, no_vote = set(), set()
    for seat, count in s.fouls:
        if seat not in s.alive:
            continue
        effects = {v for k, v in conduct.thresholds.items() if count >= k}
        if "no_vote" in effects:
            no_vote.add(seat)
            no_speech.add(seat)
            out.append(
                Event(
                    "restricted",
                    EVERYONE,
                    {"seat": seat, "speech": False, "vote": False},
                    s.ruleset.phrase("foul_no_vote"),
                    {"seat": seat},
                )
            )
        elif "no_speech" in effects:
            no_speech.add(seat)
            out.append(
                Event(
                    "restricted",
                    EVERYONE,
                    {"seat": seat, "speech": False, "vote": True},
                    s.ruleset.phrase("foul_muted"),
                    {"seat": seat},
                )
            )
    put(s, no_speech=frozenset(no_speech), no_vote=frozenset(no_vote), fouls=())
