"""FIIM tournament scoring (docs/rules/FIIM.md F.14, D-FI15): a finished game's points per seat, and the
standings of a tournament of games, with a CSV export.

The profiles are data (``[params.scoring_profiles]`` and ``[params.ci_profiles]`` of the fiim preset);
this module only applies them. Pure functions over a game's final state and its events.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.errors import IllegalCommand
from engine.events import Event
from engine.kinds.fiim import best_move
from engine.state import GameState


@dataclass(frozen=True)
class SeatScore:
    """One seat's points in one game. ``first_night_victim``: shot on the first shooting night."""

    seat: int
    player: str
    role: str
    side: str
    won: bool
    win_points: float = 0.0
    best_move: float = 0.0
    penalty: float = 0.0
    extra: float = 0.0
    ci: float = 0.0
    first_night_victim: bool = False

    @property
    def total(self) -> float:
        return round(self.win_points + self.best_move + self.penalty + self.extra + self.ci, 4)


@dataclass(frozen=True)
class TournamentGame:
    """A played game of a tournament: who sat where, the final state, its events, the judge's extra points."""

    players: Sequence[str]
    state: GameState
    events: Sequence[Event]
    extra: Mapping[int, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Standing:
    player: str
    games: int
    wins: int
    win_points: float
    best_move: float
    penalty: float
    extra: float
    ci: float
    total: float
    role_wins: int = 0  # wins as the sheriff or the don
    first_night: int = 0  # games in which he was shot on the first shooting night

    @property
    def additional(self) -> float:
        """Every point but the win's: best move, the judge's extra points and the penalties."""
        return round(self.best_move + self.extra + self.penalty, 4)


# The order of places when totals are equal (FIIM.md names none): mafiaratings' default sorting
# "(epg)wsk" ([MR-scoring] include/scoring.php SCORING_DEFAULT_SORTING) — the sum of the extra, penalty and
# best-move points, then wins, then wins in a special role, then first-night deaths; a profile may name
# its own order in ``tie_breaks``. Each key is "more is better".
TIE_BREAKS: dict[str, Any] = {
    "additional": lambda s: s.additional,
    "wins": lambda s: s.wins,
    "role_wins": lambda s: s.role_wins,
    "first_night": lambda s: s.first_night,
    "best_move": lambda s: s.best_move,
    "extra": lambda s: s.extra,
}
DEFAULT_TIE_BREAKS = ("additional", "wins", "role_wins", "first_night")
SPECIAL_ROLES = frozenset({"don", "city_sheriff"})


def place_key(row: Standing, tie_breaks: Sequence[str] = DEFAULT_TIE_BREAKS) -> tuple[Any, ...]:
    """Sort key of a row of the standings: the total first, then the tie-breaks, then the name."""
    return (-row.total, *(-TIE_BREAKS[k](row) for k in tie_breaks), row.player)


def places(table: Sequence[Standing], tie_breaks: Sequence[str] = DEFAULT_TIE_BREAKS) -> list[int]:
    """Each row's place: rows equal in the total and every tie-break share one («1, 2, 2, 4»)."""
    out: list[int] = []
    for i, row in enumerate(table):
        same = i and place_key(row, tie_breaks)[:-1] == place_key(table[i - 1], tie_breaks)[:-1]
        out.append(out[-1] if same else i + 1)
    return out


def profile_of(state: GameState, name: str | None = None) -> Mapping[str, float]:
    params = state.ruleset.params
    profiles: Mapping[str, Mapping[str, float]] = params.get("scoring_profiles", {})
    key = name or str(params.get("scoring", ""))
    if key not in profiles:
        raise IllegalCommand(
            f"Нет профиля подсчёта очков «{key}»; есть: {', '.join(sorted(profiles)) or 'никаких'}.",
            key="no-scoring-profile",
            profile=key,
            known=", ".join(sorted(profiles)) or "—",
        )
    return profiles[key]


def check_extra(points: float, profile: Mapping[str, float]) -> float:
    """D-FI15: the judge's extra points, a real number in [extra_min, extra_max] in steps of extra_step."""
    low, high, step = float(profile["extra_min"]), float(profile["extra_max"]), float(profile["extra_step"])
    if not low <= points <= high:
        raise IllegalCommand(
            f"Дополнительные баллы — от {low:g} до {high:g}, а не {points:g}.",
            key="extra-range",
            low=f"{low:g}",
            high=f"{high:g}",
            points=f"{points:g}",
        )
    if abs(points / step - round(points / step)) > 1e-9:
        raise IllegalCommand(
            f"Дополнительные баллы ставятся с шагом {step:g}.", key="extra-step", step=f"{step:g}"
        )
    return points


def first_night_victims(events: Iterable[Event]) -> list[int]:
    """D-FI3: the seats shot on the first shooting night (killed after the first shot step, before the
    second)."""
    shots = 0
    victims: list[int] = []
    for ev in events:
        if ev.type == "night_step" and ev.data.get("step") == "mafia":
            shots += 1
        elif ev.type == "killed" and shots == 1:
            victims.append(int(ev.data["seat"]))
    return victims


def score_game(
    state: GameState,
    events: Sequence[Event],
    players: Sequence[str],
    extra: Mapping[int, float] | None = None,
    profile: str | None = None,
) -> list[SeatScore]:
    """F.14: win +1 for every member of the winning team (dead or alive); a red first-night victim's best
    move +0.4 (3 blacks of 3) or +0.25 (2 of 3); −0.5 for leaving by 4 fouls, for a removal, and for the
    offender of a team defeat; the judge's extra points."""
    if not state.over:
        raise IllegalCommand("Очки считаются только по окончании игры.", key="points-after-end")
    if len(players) != state.n_seats:
        raise IllegalCommand(
            f"Нужно {state.n_seats} имён игроков, а не {len(players)}.",
            key="points-names",
            n_seats=state.n_seats,
            count=len(players),
        )
    prof = profile_of(state, profile)
    extra = dict(extra or {})
    for seat, points in extra.items():
        if not 1 <= seat <= state.n_seats:
            raise IllegalCommand(f"Нет игрока {seat}.", key="no-player", seat=seat)
        check_extra(points, prof)
    roles = state.ruleset.roles
    winners = set(state.winners or ())
    penalty: dict[int, float] = {}
    for ev in events:
        if ev.type == "removed":
            key = "four_fouls" if ev.data.get("reason") == "fouls" else "removed"
            penalty[int(ev.data["seat"])] = penalty.get(int(ev.data["seat"]), 0.0) + float(prof[key])
        elif ev.type == "victory_awarded":
            penalty[int(ev.data["seat"])] = penalty.get(int(ev.data["seat"]), 0.0) + float(prof["removed"])
    move: dict[int, float] = {}
    named = best_move(state)
    if named:
        victim, seats = named
        if roles[state.roles[victim - 1]].side == "town":
            blacks = sum(1 for x in seats if roles[state.roles[x - 1]].side == "mafia")
            move[victim] = float(prof.get(f"best_move_{blacks}", 0.0))
    first = set(first_night_victims(events))
    out = []
    for seat in range(1, state.n_seats + 1):
        role = state.roles[seat - 1]
        side = roles[role].side
        won = side in winners
        out.append(
            SeatScore(
                seat=seat,
                player=players[seat - 1],
                role=role,
                side=side,
                won=won,
                win_points=float(prof["win"]) if won else 0.0,
                best_move=move.get(seat, 0.0),
                penalty=round(penalty.get(seat, 0.0), 4),
                extra=extra.get(seat, 0.0),
                first_night_victim=seat in first,
            )
        )
    return out


def standings(
    games: Sequence[TournamentGame], profile: str | None = None, ci: str | None = None
) -> list[Standing]:
    """The tournament table: each player's points summed over his games, best first (the total, then the
    profile's tie-breaks, :data:`DEFAULT_TIE_BREAKS` unless it names its own, then the name). ``ci``
    names a profile of ``[params.ci_profiles]`` (D-FI15, off by default): ``clamp(a·B/N − b, 0, cap)``
    for a red first-night victim whose team lost, B = his red first-night deaths, N = his games."""
    scored = [score_game(g.state, g.events, g.players, g.extra, profile) for g in games]
    ci_name = ci if ci is not None else (_ci_of(games[0].state, profile) if games else "")
    ci_points: dict[tuple[int, int], float] = {}
    if ci_name:
        table: Mapping[str, Mapping[str, float]] = games[0].state.ruleset.params.get("ci_profiles", {})
        if ci_name not in table:
            raise IllegalCommand(
                f"Нет профиля компенсации «{ci_name}».", key="no-compensation-profile", ci_name=ci_name
            )
        c = table[ci_name]
        played: dict[str, int] = {}
        shot: dict[str, int] = {}
        for game in scored:
            for sc in game:
                played[sc.player] = played.get(sc.player, 0) + 1
                if sc.first_night_victim and sc.side == "town":
                    shot[sc.player] = shot.get(sc.player, 0) + 1
        for gi, game in enumerate(scored):
            for sc in game:
                if sc.first_night_victim and sc.side == "town" and not sc.won:
                    value = float(c["a"]) * shot[sc.player] / played[sc.player] - float(c["b"])
                    ci_points[gi, sc.seat] = round(max(0.0, min(float(c["cap"]), value)), 4)
    rows: dict[str, dict[str, Any]] = {}
    for gi, game in enumerate(scored):
        for sc in game:
            row = rows.setdefault(
                sc.player,
                {
                    "games": 0,
                    "wins": 0,
                    "win_points": 0.0,
                    "best_move": 0.0,
                    "penalty": 0.0,
                    "extra": 0.0,
                    "ci": 0.0,
                    "role_wins": 0,
                    "first_night": 0,
                },
            )
            row["games"] += 1
            row["wins"] += int(sc.won)
            row["role_wins"] += int(sc.won and sc.role in SPECIAL_ROLES)
            row["first_night"] += int(sc.first_night_victim)
            row["win_points"] += sc.win_points
            row["best_move"] += sc.best_move
            row["penalty"] += sc.penalty
            row["extra"] += sc.extra
            row["ci"] += ci_points.get((gi, sc.seat), 0.0)
    result = []
    for player, r in rows.items():
        parts = {k: round(v, 4) for k, v in r.items() if isinstance(v, float)}
        total = round(sum(parts.values()), 4)
        result.append(
            Standing(
                player,
                r["games"],
                r["wins"],
                total=total,
                role_wins=r["role_wins"],
                first_night=r["first_night"],
                **parts,
            )
        )
    order = tie_breaks_of(games[0].state, profile) if games else DEFAULT_TIE_BREAKS
    return sorted(result, key=lambda x: place_key(x, order))


def _ci_of(state: GameState, profile: str | None) -> str:
    """The Ci profile a tournament's scoring profile names (``ci``, e.g. ``fiim_mr19_ci``), else the game's
    own ``params.ci`` (the lobby option)."""
    named = profile_of(state, profile).get("ci")
    return str(named) if named else str(state.ruleset.params.get("ci", ""))


def tie_breaks_of(state: GameState, profile: str | None = None) -> tuple[str, ...]:
    """The profile's order of tie-breaks (``tie_breaks``), or the default one."""
    named: Any = profile_of(state, profile).get("tie_breaks", DEFAULT_TIE_BREAKS)
    unknown = [k for k in named if k not in TIE_BREAKS]
    if unknown:
        raise IllegalCommand(
            f"Неизвестный порядок мест при равенстве очков: {', '.join(unknown)}.",
            key="unknown-tie-order",
            unknown=", ".join(unknown),
        )
    return tuple(named)


def standings_csv(table: Sequence[Standing], tie_breaks: Sequence[str] = DEFAULT_TIE_BREAKS) -> str:
    """The standings as CSV (one header row, then one row per player in place order; equal rows share a
    place), with the tie-breaks' figures after the total."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    header = ["place", "player", "games", "wins", "win", "best_move", "penalty", "extra", "ci", "total"]
    writer.writerow([*header, "additional", "role_wins", "first_night"])
    for place, s in zip(places(table, tie_breaks), table, strict=True):
        writer.writerow(
            [
                place,
                s.player,
                s.games,
                s.wins,
                *(f"{v:g}" for v in (s.win_points, s.best_move, s.penalty, s.extra, s.ci, s.total)),
                f"{s.additional:g}",
                s.role_wins,
                s.first_night,
            ]
        )
    return buf.getvalue()
