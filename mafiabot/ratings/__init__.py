"""Season points and team Elo for a guild's games: pure functions, no database and no Discord.

The formulas are in README.md beside this file.
"""

from mafiabot.ratings.elo import EloChange, EloConfig, EloSeat, Team, elo_changes, expected_black, side_offset
from mafiabot.ratings.errors import RatingError
from mafiabot.ratings.points import (
    Award,
    BestMove,
    GamePoints,
    PointsRules,
    Reason,
    Result,
    SeatOutcome,
    best_move_points,
    extra_points,
    game_points,
)
from mafiabot.ratings.season import (
    POINTS_TRACK,
    FinishedGame,
    PlayerStanding,
    RatedSeat,
    RatingDelta,
    SeasonLedger,
    duel_winner,
    ledger_from_totals,
)

__all__ = [
    "POINTS_TRACK",
    "Award",
    "BestMove",
    "EloChange",
    "EloConfig",
    "EloSeat",
    "FinishedGame",
    "GamePoints",
    "PlayerStanding",
    "PointsRules",
    "RatedSeat",
    "RatingDelta",
    "RatingError",
    "Reason",
    "Result",
    "SeasonLedger",
    "SeatOutcome",
    "Team",
    "best_move_points",
    "duel_winner",
    "elo_changes",
    "expected_black",
    "extra_points",
    "game_points",
    "ledger_from_totals",
    "side_offset",
]
