"""A stored game as the protocol page shows it: seats, the course of the game by phase, votes with their
voters, fouls, points. Everything comes through mafiabot.disclosure, so a running game gives its seats
and public events only, whatever asks for it."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache

import engine
from engine.demo import describe
from mafiabot.disclosure import is_over, protocol_events, record_shown, replay
from mafiabot.game.describe import describe as describe_in
from mafiabot.game.render import render
from mafiabot.i18n import DEFAULT, preset_title, rating_side, role_display, text
from mafiabot.offences import stored_reason_shown
from mafiabot.ratings import POINTS_TRACK
from mafiabot.storage import GameRecord

# The pages' words, in the server's language (the ratings' own catalogue entries: ratings.ftl).
TRACK_IDS = (POINTS_TRACK, "elo_red", "elo_black")  # ``track-*``


def tracks(language: str = DEFAULT) -> dict[str, str]:
    return {track: text(language, f"track-{track}") for track in TRACK_IDS}


def results(language: str = DEFAULT) -> dict[str, str]:
    return {result: text(language, f"result-{result}") for result in ("win", "loss", "draw")}


def statuses(language: str = DEFAULT) -> dict[str, str]:
    return {status: text(language, f"game-status-{status}") for status in ("running", "finished", "aborted")}


TRACKS = tracks()

# The host's opening lines of a phase: where the protocol starts a new section.
_DAY_OPENERS = {"intro_day", "day_breaks", "day_starts", "small_day_start", "two_players_start"}
_NIGHT_OPENERS = {"first_night_falls", "intro_night_falls", "night_falls"}
_SUNSET_OPENERS = {"sunset_starts"}
# Events that add nothing to a reader of the protocol (the seats table has the roles; a speech's end is
# the next speech's start), or that the table never sees as a line.
_SKIPPED = {
    "role_dealt",
    "speech_ended",
    "awake",
    "action_accepted",
    "team_members",
    "prompt",
    "game_started",
}
# CSS classes of the lines worth seeing at a glance.
_KINDS = {
    "nominated": "nomination",
    "voted": "vote",
    "vote_count": "vote",
    "tie": "vote",
    "executed": "out",
    "killed": "out",
    "removed": "out",
    "foul": "foul",
    "speech": "speech",
    "game_over": "end",
}


@cache
def _ruleset(ruleset_id: str) -> engine.Ruleset | None:
    try:
        return engine.load_ruleset(ruleset_id)
    except engine.EngineError:
        return None


def ruleset_title(ruleset_id: str, language: str = DEFAULT) -> str:
    rules = _ruleset(ruleset_id)
    return preset_title(language, rules) if rules else ruleset_id


@cache
def role_name(role_id: str, ruleset_id: str = "", language: str = DEFAULT) -> str:
    """A role's name in the game's rules, else in the first bundled preset that has it."""
    for preset in (ruleset_id, *engine.available_presets()):
        rules = _ruleset(preset) if preset else None
        if rules is not None and role_id in rules.roles:
            return role_display(language, rules, role_id)
    return role_id


@dataclass(frozen=True)
class SeatLine:
    seat: int
    user_id: int
    name: str
    role: str  # "" while the card is face down
    side: str
    result: str
    fouls: int
    removed: bool
    left: bool
    points: dict[str, float]  # track -> the game's change


@dataclass(frozen=True)
class Line:
    text: str
    kind: str = ""  # a CSS class
    private: bool = False  # told to a seat or the host only (shown after the end)


@dataclass
class Section:
    title: str
    lines: list[Line] = field(default_factory=list)


@dataclass(frozen=True)
class FoulLine:
    seat: int
    day: int
    reason: str
    withdrawn: str | None


@dataclass(frozen=True)
class Protocol:
    game_id: int
    ruleset: str
    status: str
    over: bool
    created_at: datetime
    ended_at: datetime | None
    winners: list[str]
    seats: list[SeatLine]
    sections: list[Section]
    fouls: list[FoulLine]
    problems: list[str]


def build(record: GameRecord, names: dict[int, str], language: str = DEFAULT) -> Protocol:
    """The protocol of ``record`` (``names``: who sat where) as anyone may read it."""
    game = record.game
    over = is_over(game.status)
    state = None if over else replay(record)[0]
    shown = record_shown(record, state)
    _, events, problems = protocol_events(record)
    points: dict[int, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for change in shown.rating_changes:
        points[change.user_id][change.track] += change.delta
    standing = [f for f in shown.fouls if f.withdrawn_at is None]
    seats = [
        SeatLine(
            seat=p.seat,
            user_id=p.user_id,
            name=names.get(p.seat, str(p.user_id)),
            role=role_name(p.role_id, game.ruleset_id, language) if p.role_id else "",
            side=rating_side(p.side_id, language) if p.side_id else "",
            result=results(language).get(p.result or "", "—") if over else "",
            fouls=sum(1 for f in standing if f.seat == p.seat),
            removed=p.removed,
            left=p.left,
            points=dict(points[p.user_id]),
        )
        for p in shown.participants
    ]
    return Protocol(
        game_id=game.id or 0,
        ruleset=ruleset_title(game.ruleset_id, language),
        status=statuses(language).get(game.status, game.status),
        over=over,
        created_at=game.created_at,
        ended_at=game.ended_at,
        winners=[rating_side(w, language) for w in game.winners] if over else [],
        seats=seats,
        sections=sections(events, names, language, _ruleset(game.ruleset_id)),
        fouls=[
            FoulLine(
                f.seat,
                f.day,
                stored_reason_shown(language, f.reason),
                f.withdrawn_reason if f.withdrawn_at else None,
            )
            for f in shown.fouls
        ],
        problems=problems,
    )


def sections(
    events: Sequence[engine.Event],
    names: dict[int, str],
    language: str = DEFAULT,
    rules: engine.Ruleset | None = None,
) -> list[Section]:
    """The events in order, a section per phase; a ballot's votes in one line with their voters (in
    Russian in the engine's own words, as the page always read; elsewhere in the server's language)."""
    ruleset = rules if language != DEFAULT else None
    counts: dict[str, int] = defaultdict(int)
    out = [Section(text(language, "web-section-start"))]

    def name_of(seat: int) -> str:
        return names.get(seat, "")

    def who(seat: int) -> str:
        return text(language, "game-protocol-seat", seat=seat, name=names.get(seat, ""), role="").strip()

    votes: list[int] = []
    candidate: int | None = None

    def close_votes() -> None:
        nonlocal candidate
        if candidate is not None:
            voters = ", ".join(who(s) for s in votes) or text(language, "web-votes-nobody")
            said = text(language, "web-votes", candidate=who(candidate), count=len(votes), voters=voters)
            out[-1].lines.append(Line(said, "vote"))
        votes.clear()
        candidate = None

    for ev in events:
        if ev.type == "voted" and ev.audience.kind == "public":
            if ev.data.get("candidate") != candidate:
                close_votes()
                candidate = ev.data.get("candidate")
            votes.append(int(ev.data["seat"]))
            continue
        close_votes()
        key = ev.data.get("key") if ev.type == "announce" else None
        for openers, word in ((_DAY_OPENERS, "day"), (_NIGHT_OPENERS, "night"), (_SUNSET_OPENERS, "sunset")):
            if key in openers:
                counts[word] += 1
                out.append(Section(text(language, f"web-section-{word}", number=counts[word])))
        if ev.type in _SKIPPED:
            continue
        line = render(ev, name_of, ruleset, language)
        if line is not None:
            said: str | None = line.text
        else:
            said = describe(ev, names) if ruleset is None else describe_in(ev, names, ruleset, language)
        if said:
            out[-1].lines.append(Line(said.strip(), _KINDS.get(ev.type, ""), ev.audience.kind != "public"))
    close_votes()
    return [s for s in out if s.lines]
