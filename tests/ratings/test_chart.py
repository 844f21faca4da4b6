"""The rating chart is matplotlib's: a titled PNG on Discord's dark background, its line in the
accent colour, a lone start without a stray dot years wide, and safe to draw from several threads."""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import numpy as np
from PIL import Image

from mafiabot.ratings.chart import BACKGROUND, LINE, rating_chart

START = datetime(2026, 11, 1, 19, 0, tzinfo=UTC)


def _rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def _pixels_near(image: Image.Image, color: str) -> int:
    pixels = np.asarray(image.convert("RGB"), dtype=np.int16)
    return int((np.abs(pixels - np.array(_rgb(color))) < 24).all(axis=2).sum())


def _season(games: int) -> list[tuple[datetime, float]]:
    return [(START, 1500.0)] + [
        (START + timedelta(days=i), 1500.0 + 8 * (-1) ** i * i) for i in range(1, games + 1)
    ]


def test_the_chart_is_titled_dark_and_draws_its_line() -> None:
    image = Image.open(io.BytesIO(rating_chart(_season(6), name="Аня", track="Эло за красных")))
    assert image.size == (800, 400) and image.info["Title"] == "Аня — Эло за красных"
    assert image.convert("RGB").getpixel((2, 2)) == _rgb(BACKGROUND)  # Discord's dark theme
    assert _pixels_near(image, LINE) > 1500  # an anti-aliased line, not a few dots


def test_a_season_without_games_is_a_start_line_and_a_note() -> None:
    lone = Image.open(io.BytesIO(rating_chart(_season(0), name="Новичок", track="Очки сезона")))
    many = Image.open(io.BytesIO(rating_chart(_season(6), name="Новичок", track="Очки сезона")))
    assert lone.size == (800, 400)
    assert 0 < _pixels_near(lone, LINE) < _pixels_near(many, LINE) / 5  # the one point, no line


def test_charts_drawn_at_once_in_threads_are_each_their_own() -> None:
    names = [f"игрок {i}" for i in range(6)]
    with ThreadPoolExecutor(max_workers=3) as pool:
        pictures = list(pool.map(lambda n: rating_chart(_season(4), name=n, track="Очки сезона"), names))
    assert [Image.open(io.BytesIO(p)).info["Title"] for p in pictures] == [
        f"{n} — Очки сезона" for n in names
    ]
