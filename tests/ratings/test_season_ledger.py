"""The season fold on small hand-made games: third parties, the side offset, previews."""

from __future__ import annotations

import pytest

from mafiabot.ratings import (
    POINTS_TRACK,
    FinishedGame,
    RatedSeat,
    RatingError,
    Result,
    SeasonLedger,
    Team,
    duel_winner,
)

W, L, D = Result.WIN, Result.LOSS, Result.DRAW


def game(results: dict[str, Result], sides: tuple[str, ...] = ("town",) * 4 + ("mafia",) * 2 + ("solo",)):
    """Seats 1..7 with the given sides; `results` maps a side to its result."""
    return FinishedGame([RatedSeat(i + 1, 101 + i, side, results[side]) for i, side in enumerate(sides)])


def test_a_third_party_win_is_a_draw_between_red_and_black() -> None:
    ledger = SeasonLedger()
    deltas = ledger.rate_game(game({"town": L, "mafia": L, "solo": W}))
    elo = [d for d in deltas if d.track != POINTS_TRACK]
    assert all(d.delta == 0 for d in elo) and len(elo) == 6  # equal teams, offset 0, S = E = ½
    assert 107 not in {d.user_id for d in elo}  # the maniac is not Elo-rated ...
    assert [(d.user_id, d.delta) for d in deltas if d.track == POINTS_TRACK] == [(107, 1.0)]  # ... but scores
    assert (ledger.black_wins, ledger.red_wins) == (0, 0)  # and the offset learns nothing
    assert ledger.standing(107).rated_games == 0 and ledger.standing(101).rated_games == 1


def test_the_offset_follows_the_servers_results() -> None:
    ledger = SeasonLedger()
    for _ in range(4):
        ledger.rate_game(game({"town": L, "mafia": W, "solo": L}))
    assert (ledger.black_wins, ledger.red_wins) == (4, 0)
    # p = (4 + 10) / (4 + 20) = 7/12; offset = 400 · log10(7/5) = 58.45
    assert ledger.offset() == pytest.approx(58.4512, abs=1e-4)


def test_preview_changes_nothing() -> None:
    ledger = SeasonLedger()
    finished = game({"town": W, "mafia": L, "solo": L})
    preview = ledger.preview(finished)
    assert ledger.players == {}
    assert ledger.rate_game(finished) == preview
    # Six rated players (the maniac is not): N/2 = 3, shared by four red: 32 · ½ · 3/4 = 12.
    assert ledger.rating(101, Team.RED) == pytest.approx(1512.0)


def test_duel_winner() -> None:
    assert duel_winner(game({"town": W, "mafia": L, "solo": L}).seats) is Team.RED
    assert duel_winner(game({"town": L, "mafia": W, "solo": L}).seats) is Team.BLACK
    assert duel_winner(game({"town": D, "mafia": D, "solo": D}).seats) is None
    with pytest.raises(RatingError):
        duel_winner(game({"town": W, "mafia": W, "solo": L}).seats)
