"""The one error of the ratings package."""


class RatingError(ValueError):
    """Input that no rating rule accepts (a malformed best move, extra points over the cap, …)."""
