"""Ratings as text: a profile, a leaderboard page, a player's history, a stored game and its protocol."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import engine
from engine.demo import describe
from mafiabot.disclosure import HIDDEN, is_over, protocol_events
from mafiabot.game.render import render
from mafiabot.i18n import DEFAULT, role_display, text
from mafiabot.ratings import POINTS_TRACK
from mafiabot.storage import Board, GameRecord, GameSummary, Profile

# The rating tracks, named by ``track-points``, ``track-elo_red``…; the Russian names for the command's
# choices (the Translator gives Discord their English).
TRACK_KEYS = {POINTS_TRACK: "track-points", "elo_red": "track-elo_red", "elo_black": "track-elo_black"}
TRACKS = {track: text(DEFAULT, key) for track, key in TRACK_KEYS.items()}
RESULTS = {"win": "result-win", "loss": "result-loss", "draw": "result-draw"}
STATUSES = {"aborted": "result-aborted"}
SIDES = ("town", "mafia", "maniac", "vampires", "hunters")
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


def side_name(side_id: str, language: str = DEFAULT) -> str:
    return text(language, f"rating-side-{side_id}") if side_id in SIDES else side_id


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
        sides = ", ".join(f"{side_name(s, lang)} {t.wins}/{t.games}" for s, t in sorted(p.by_side.items()))
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


def record_text(record: GameRecord) -> str:
    """A stored game's card; pass it through disclosure.record_shown first (a running game's roles)."""
    game = record.game
    winners = ", ".join(side_name(w) for w in game.winners) or "—"
    when = f"<t:{int(game.created_at.timestamp())}:f>"
    lines = [f"**Игра #{game.id}** · {game.ruleset_id} · {when} · {game.status} · победители: {winners}"]
    # Counted from the stored fouls: a seat's `fouls` holds only the last day's count where fouls reset daily.
    standing = [f for f in record.fouls if f.withdrawn_at is None]
    for p in record.participants:
        fouls = sum(1 for f in standing if f.seat == p.seat)
        if p.role_id == HIDDEN:
            left = ", покинул игру" if p.left else ""
            lines.append(f"№{p.seat} <@{p.user_id}>, замечаний {fouls}{left}")
            continue
        lines.append(
            f"№{p.seat} <@{p.user_id}> — {role_name(game.ruleset_id, p.role_id)} ({side_name(p.side_id)}), "
            f"{_result(RESULTS.get(p.result or ''), DEFAULT)}, очки {p.points:+.1f}, замечаний {fouls}"
            + (", удалён" if p.removed else "")
            + (", покинул игру" if p.left else "")
        )
    for f in record.fouls:
        by = "бот" if f.automatic else f"<@{f.given_by}>"
        line = f"Замечание №{f.id}: игрок №{f.seat}, день {f.day}, {f.reason} ({by})"
        if f.withdrawn_at is not None:
            line += f" — снято: {f.withdrawn_reason}"
        lines.append(line)
    return "\n".join(lines)


def protocol(record: GameRecord, names: dict[int, str]) -> str:
    """The game replayed from its stored command log, every event as a line: the host's view once the game
    is over, the table's (seats and public events) while it runs."""
    game = record.game
    roles, events, problems = protocol_events(record)
    title = _ruleset(game.ruleset_id)
    lines = [f"Игра #{game.id} · {title.title if title else game.ruleset_id}"]
    for p in record.participants:
        role = f" — {role_name(game.ruleset_id, roles[p.seat])}" if p.seat in roles else ""
        lines.append(f"№{p.seat} {names.get(p.seat, '')}{role}")
    if not is_over(game.status):
        lines.append("(игра идёт: роли и ночные ходы откроются после её окончания)")
    lines.append("")
    lines += _lines(events, names)
    lines += [f"(команда {problem} не применилась)" for problem in problems]
    return "\n".join(lines) + "\n"


def _lines(events: Sequence[engine.Event], names: dict[int, str]) -> list[str]:
    out = []
    for ev in events:
        if ev.type == "role_dealt":
            continue
        line = render(ev, lambda seat: names.get(seat, ""))
        text = line.text if line is not None else describe(ev, names)
        if text:
            out.append(("" if ev.audience.kind == "public" else "[лично] ") + text.strip())
    return out
