"""Ratings as text: a profile, a leaderboard page, a player's history, a stored game and its protocol."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import engine
from engine.demo import describe
from mafiabot.disclosure import HIDDEN, is_over, protocol_events
from mafiabot.game.describe import describe as describe_in
from mafiabot.game.render import render
from mafiabot.i18n import DEFAULT, preset_title, rating_side, role_display, text
from mafiabot.offences import stored_reason_shown
from mafiabot.ratings import POINTS_TRACK
from mafiabot.storage import Board, GameRecord, GameSummary, Profile

# The rating tracks, named by ``track-points``, ``track-elo_red``…; the Russian names for the command's
# choices (the Translator gives Discord their English).
TRACK_KEYS = {POINTS_TRACK: "track-points", "elo_red": "track-elo_red", "elo_black": "track-elo_black"}
TRACKS = {track: text(DEFAULT, key) for track, key in TRACK_KEYS.items()}
RESULTS = {"win": "result-win", "loss": "result-loss", "draw": "result-draw"}
STATUSES = {"aborted": "result-aborted"}
STATUS_NAMES = ("lobby", "running", "over", "finished", "aborted")  # ``game-status-*``
PAGE = 10


def track_name(track: str, language: str = DEFAULT) -> str:
    return text(language, TRACK_KEYS[track])


@cache
def _ruleset(ruleset_id: str) -> engine.Ruleset | None:
    try:
        return engine.load_ruleset(ruleset_id)
    except engine.EngineError:
        return None


def role_name(ruleset_id: str, role_id: str, language: str = DEFAULT) -> str:
    ruleset = _ruleset(ruleset_id)
    if ruleset is None or role_id not in ruleset.roles:
        return role_id
    return role_display(language, ruleset, role_id)


@cache
def any_role_name(role_id: str, language: str = DEFAULT) -> str:
    """A role's name from the first bundled preset that has it (role ids are shared, RULESETS 3)."""
    for preset in engine.available_presets():
        ruleset = _ruleset(preset)
        if ruleset is not None and role_id in ruleset.roles:
            return role_display(language, ruleset, role_id)
    return role_id


def _result(key: str | None, language: str) -> str:
    return text(language, key) if key else "—"


def _date(game: GameSummary) -> str:
    return f"<t:{int(game.created_at.timestamp())}:d>"


def history_line(g: GameSummary, language: str = DEFAULT) -> str:
    """One game of a player's history; the storage has already turned a running game's card face down."""
    where = {"game": str(g.game_id), "date": _date(g), "rules": g.ruleset_id, "seat": g.seat}
    if g.role_id == HIDDEN:
        return text(language, "history-running", **where)
    result = RESULTS.get(g.result or "") or STATUSES.get(g.status)
    return text(
        language,
        "history-line",
        role=role_name(g.ruleset_id, g.role_id, language),
        result=_result(result, language),
        points=f"{g.points:+.1f}",
        **where,
    )


def profile_text(p: Profile, name: str, language: str = DEFAULT) -> str:
    lang = language
    lines = [
        text(lang, "profile-head", name=name, games=p.games, wins=p.wins),
        text(
            lang,
            "profile-tracks",
            points=f"{p.points:.1f}",
            red=f"{p.elo_red:.0f}",
            black=f"{p.elo_black:.0f}",
        ),
        text(lang, "profile-fouls", fouls=p.fouls),
    ]
    if p.by_side:
        sides = ", ".join(f"{rating_side(s, lang)} {t.wins}/{t.games}" for s, t in sorted(p.by_side.items()))
        lines.append(text(lang, "profile-by-side", sides=sides))
    if p.by_role:
        roles = ", ".join(
            f"{any_role_name(r, lang)} {t.wins}/{t.games}" for r, t in sorted(p.by_role.items())
        )
        lines.append(text(lang, "profile-by-role", roles=roles))
    if p.last_games:
        lines.append(text(lang, "profile-last-games"))
        lines += [history_line(g, lang) for g in p.last_games]
    return "\n".join(lines)


def board_text(board: Board, track: str, season: str, page: int, language: str = DEFAULT) -> str:
    pages = max(1, -(-board.total // PAGE))
    head = text(
        language, "board-head", track=track_name(track, language), season=season, page=page + 1, pages=pages
    )
    if not board.rows:
        return head + "\n" + text(language, "board-empty")
    digits = 1 if track == POINTS_TRACK else 0
    rows = [
        text(
            language,
            "board-row",
            rank=r.rank,
            name=r.display_name,
            value=f"{r.value:.{digits}f}",
            games=r.games,
        )
        for r in board.rows
    ]
    return "\n".join([head, *rows])


def record_text(record: GameRecord, language: str = DEFAULT) -> str:
    """A stored game's card; pass it through disclosure.record_shown first (a running game's roles)."""
    lang = language
    game = record.game
    winners = ", ".join(rating_side(w, lang) for w in game.winners) or "—"
    when = f"<t:{int(game.created_at.timestamp())}:f>"
    status = text(lang, f"game-status-{game.status}") if game.status in STATUS_NAMES else game.status
    head = {"game": str(game.id), "rules": game.ruleset_id, "when": when, "status": status}
    lines = [text(lang, "game-card-head", winners=winners, **head)]
    # Counted from the stored fouls: a seat's `fouls` holds only the last day's count where fouls reset daily.
    standing = [f for f in record.fouls if f.withdrawn_at is None]
    for p in record.participants:
        fouls = sum(1 for f in standing if f.seat == p.seat)
        left = text(lang, "game-card-left") if p.left else ""
        if p.role_id == HIDDEN:
            lines.append(text(lang, "game-card-seat-hidden", seat=p.seat, user=p.user_id, fouls=fouls) + left)
            continue
        lines.append(
            text(
                lang,
                "game-card-seat",
                seat=p.seat,
                user=p.user_id,
                role=role_name(game.ruleset_id, p.role_id, lang),
                side=rating_side(p.side_id, lang),
                result=_result(RESULTS.get(p.result or ""), lang),
                points=f"{p.points:+.1f}",
                fouls=fouls,
            )
            + (text(lang, "game-card-removed") if p.removed else "")
            + left
        )
    for f in record.fouls:
        by = text(lang, "game-card-by-bot") if f.automatic else f"<@{f.given_by}>"
        line = text(
            lang,
            "game-card-foul",
            number=f.id,
            seat=f.seat,
            day=f.day,
            reason=stored_reason_shown(lang, f.reason),
            by=by,
        )
        if f.withdrawn_at is not None:
            line += text(lang, "game-card-foul-withdrawn", reason=f.withdrawn_reason)
        lines.append(line)
    return "\n".join(lines)


def protocol(record: GameRecord, names: dict[int, str], language: str = DEFAULT) -> str:
    """The game replayed from its stored command log, every event as a line: the host's view once the game
    is over, the table's (seats and public events) while it runs."""
    game = record.game
    roles, events, problems = protocol_events(record)
    rules = _ruleset(game.ruleset_id)
    title = preset_title(language, rules) if rules else game.ruleset_id
    lines = [text(language, "game-protocol-head", game=str(game.id), title=title)]
    for p in record.participants:
        role = f" — {role_name(game.ruleset_id, roles[p.seat], language)}" if p.seat in roles else ""
        lines.append(text(language, "game-protocol-seat", seat=p.seat, name=names.get(p.seat, ""), role=role))
    if not is_over(game.status):
        lines.append(text(language, "game-protocol-running"))
    lines.append("")
    lines += _lines(events, names, rules, language)
    lines += [text(language, "game-protocol-not-applied", command=problem) for problem in problems]
    return "\n".join(lines) + "\n"


def _lines(
    events: Sequence[engine.Event], names: dict[int, str], rules: engine.Ruleset | None, language: str
) -> list[str]:
    # In Russian the engine's own words (as the protocol always read); elsewhere the game's language.
    ruleset = rules if language != DEFAULT else None
    private = text(language, "game-protocol-private")
    out = []
    for ev in events:
        if ev.type == "role_dealt":
            continue
        line = render(ev, lambda seat: names.get(seat, ""), ruleset, language)
        if line is not None:
            said: str | None = line.text
        elif ruleset is None:
            said = describe(ev, names)
        else:
            said = describe_in(ev, names, ruleset, language)
        if said:
            out.append(("" if ev.audience.kind == "public" else private + " ") + said.strip())
    return out
