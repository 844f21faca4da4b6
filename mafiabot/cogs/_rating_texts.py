"""Ratings as text: a profile, a leaderboard page, a player's history, a stored game and its protocol."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import engine
from audio.numbers import GAME, count_phrase
from engine.demo import describe
from mafiabot.disclosure import HIDDEN, is_over, protocol_events
from mafiabot.game.render import render
from mafiabot.ratings import POINTS_TRACK
from mafiabot.storage import Board, GameRecord, GameSummary, Profile

TRACKS = {POINTS_TRACK: "Очки сезона", "elo_red": "Эло за красных", "elo_black": "Эло за чёрных"}
RESULTS = {"win": "победа", "loss": "поражение", "draw": "ничья", None: "—"}
STATUSES = {"aborted": "остановлена"}
SIDES = {"town": "мирные", "mafia": "мафия", "maniac": "маньяк", "vampires": "вампиры", "hunters": "охотники"}
PAGE = 10


@cache
def _ruleset(ruleset_id: str) -> engine.Ruleset | None:
    try:
        return engine.load_ruleset(ruleset_id)
    except engine.EngineError:
        return None


def role_name(ruleset_id: str, role_id: str) -> str:
    ruleset = _ruleset(ruleset_id)
    role = ruleset.roles.get(role_id) if ruleset else None
    return role.display if role else role_id


@cache
def any_role_name(role_id: str) -> str:
    """A role's display name from the first bundled preset that has it (role ids are shared, RULESETS 3)."""
    for preset in engine.available_presets():
        ruleset = _ruleset(preset)
        if ruleset is not None and role_id in ruleset.roles:
            return ruleset.roles[role_id].display
    return role_id


def side_name(side_id: str) -> str:
    return SIDES.get(side_id, side_id)


def _date(game: GameSummary) -> str:
    return f"<t:{int(game.created_at.timestamp())}:d>"


def history_line(g: GameSummary) -> str:
    """One game of a player's history; the storage has already turned a running game's card face down."""
    if g.role_id == HIDDEN:
        return f"#{g.game_id} {_date(g)} · {g.ruleset_id} · №{g.seat} · идёт"
    return (
        f"#{g.game_id} {_date(g)} · {g.ruleset_id} · №{g.seat} {role_name(g.ruleset_id, g.role_id)} · "
        f"{RESULTS[g.result] if g.result in RESULTS and g.result else STATUSES.get(g.status, '—')} · "
        f"{g.points:+.1f}"
    )


def profile_text(p: Profile, name: str) -> str:
    lines = [
        f"**{name}** — игр: {p.games}, побед: {p.wins}",
        f"Очки сезона: {p.points:.1f} · Эло за красных: {p.elo_red:.0f} · Эло за чёрных: {p.elo_black:.0f}",
        f"Замечаний за сезон: {p.fouls}",
    ]
    if p.by_side:
        sides = ", ".join(f"{side_name(s)} {t.wins}/{t.games}" for s, t in sorted(p.by_side.items()))
        lines.append(f"Победы по сторонам: {sides}")
    if p.by_role:
        roles = ", ".join(f"{any_role_name(r)} {t.wins}/{t.games}" for r, t in sorted(p.by_role.items()))
        lines.append(f"Победы по ролям: {roles}")
    if p.last_games:
        lines.append("**Последние игры**")
        lines += [history_line(g) for g in p.last_games]
    return "\n".join(lines)


def board_text(board: Board, track: str, season: str, page: int) -> str:
    pages = max(1, -(-board.total // PAGE))
    head = f"**{TRACKS[track]} · {season}** (страница {page + 1} из {pages})"
    if not board.rows:
        return head + "\nПока никого: сыграйте рейтинговую игру."
    digits = 1 if track == POINTS_TRACK else 0
    rows = [
        f"{r.rank}. {r.display_name} — {r.value:.{digits}f} ({count_phrase(r.games, GAME, digits=True)})"
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
            f"{RESULTS.get(p.result, '—')}, очки {p.points:+.1f}, замечаний {fouls}"
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
