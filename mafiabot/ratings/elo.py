"""Team-average Elo with separate red (town) and black (mafia) ratings. Formulas: README.md here."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from mafiabot.ratings.errors import RatingError


class Team(StrEnum):
    RED = "red"
    BLACK = "black"

    @property
    def track(self) -> str:
        return f"elo_{self.value}"


@dataclass(frozen=True)
class EloConfig:
    base: float = 1500.0
    scale: float = 400.0
    k_new: float = 32.0
    k_settled: float = 16.0
    # A player's first `provisional_games` rated games (both tracks together, in the season) use k_new.
    provisional_games: int = 15
    # Pseudo-games of a 50 % black-win share mixed into the observed share, so a new server has offset 0.
    offset_prior_games: float = 20.0
    red_sides: frozenset[str] = frozenset({"town", "vampires"})
    black_sides: frozenset[str] = frozenset({"mafia", "hunters"})

    def team_of(self, side_id: str) -> Team | None:
        """The Elo team of a side; None for third parties (solo, yakuza), who are not Elo-rated."""
        if side_id in self.red_sides:
            return Team.RED
        if side_id in self.black_sides:
            return Team.BLACK
        return None

    def k_factor(self, games_played: int) -> float:
        return self.k_new if games_played < self.provisional_games else self.k_settled


@dataclass(frozen=True)
class EloSeat:
    user_id: int
    team: Team
    rating: float  # the player's current rating on this team's track
    games_played: int  # rated games before this one, for K


@dataclass(frozen=True)
class EloChange:
    user_id: int
    team: Team
    k: float
    expected: float
    delta: float


def side_offset(black_wins: int, red_wins: int, config: EloConfig = EloConfig()) -> float:
    """The black side's advantage in rating points, fitted to this server's decided games.

    p = (black_wins + prior/2) / (black_wins + red_wins + prior);  offset = scale·log10(p / (1 − p)).
    """
    if black_wins < 0 or red_wins < 0:
        raise RatingError("win counts cannot be negative")
    prior = config.offset_prior_games
    total = black_wins + red_wins + prior
    if total == 0:
        return 0.0
    p = (black_wins + prior / 2) / total
    if p <= 0.0 or p >= 1.0:
        raise RatingError("a side offset needs a prior when one side has never won")
    return float(config.scale * math.log10(p / (1 - p)))


def expected_black(red_average: float, black_average: float, offset: float, scale: float = 400.0) -> float:
    """E_black = 1 / (1 + 10^((R̄_red − (R̄_black + offset)) / scale))."""
    return float(1.0 / (1.0 + 10.0 ** ((red_average - (black_average + offset)) / scale)))


def elo_changes(
    seats: Sequence[EloSeat],
    winner: Team | None,
    *,
    offset: float = 0.0,
    config: EloConfig = EloConfig(),
) -> list[EloChange]:
    """Rating changes of one game. `winner` None means neither red nor black won (draw, or a third party
    won): the red–black duel counts as a draw.

    Each team's stake is shared evenly: a player's change is K·(S − E)·(N / 2) / n_team, where N is the
    number of rated players and n_team the size of his team. With one K for everybody the changes of a
    game sum to zero; in general Σ delta/K = 0.
    """
    red = [s for s in seats if s.team is Team.RED]
    black = [s for s in seats if s.team is Team.BLACK]
    if not red or not black:
        return []
    if len({s.user_id for s in seats}) != len(seats):
        raise RatingError("a player is rated twice in one game")
    e_black = expected_black(
        sum(s.rating for s in red) / len(red), sum(s.rating for s in black) / len(black), offset, config.scale
    )
    score_black = 0.5 if winner is None else (1.0 if winner is Team.BLACK else 0.0)
    half = len(seats) / 2
    changes = []
    for team, members, expected, score in (
        (Team.RED, red, 1.0 - e_black, 1.0 - score_black),
        (Team.BLACK, black, e_black, score_black),
    ):
        share = half / len(members)
        for s in members:
            k = config.k_factor(s.games_played)
            changes.append(EloChange(s.user_id, team, k, expected, k * (score - expected) * share))
    return changes
