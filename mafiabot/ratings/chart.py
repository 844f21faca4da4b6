"""A player's rating over a season as a PNG, drawn by matplotlib: for the profile web page and for the
picture `/mafia rating` posts in Discord.

matplotlib because it is the best-kept plotting library for Python, draws anti-aliased lines and text
with a font that has Cyrillic (DejaVu Sans, bundled), and renders off-screen (Agg) with no display.
Only its object API is used (a Figure of its own per call, never pyplot's global state), so charts
may be drawn in worker threads at once. Colours suit Discord's dark theme.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from datetime import UTC, datetime

from matplotlib import dates as mdates
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from mafiabot.i18n import DEFAULT, text

WIDTH, HEIGHT, DPI = 8.0, 4.0, 100  # 800×400 pixels
BACKGROUND = "#313338"  # Discord's dark message background
PANEL = "#2b2d31"
TEXT = "#dbdee1"
MUTED = "#949ba4"
GRID = "#3f4147"
LINE = "#f0b232"
START = "#80848e"

# Dates as the club reads them (day.month), whatever the machine's locale.
_FORMATS = ["%Y", "%m.%Y", "%d.%m", "%H:%M", "%H:%M", "%S.%f"]
_ZERO_FORMATS = ["", "%Y", "%m.%Y", "%d.%m", "%H:%M", "%H:%M"]
_OFFSET_FORMATS = ["", "%Y", "%m.%Y", "%d.%m.%Y", "%d.%m.%Y", "%d.%m.%Y %H:%M"]


_EPOCH = datetime.fromisoformat(mdates.get_epoch()).replace(tzinfo=UTC)  # type: ignore[no-untyped-call]


def _day(moment: datetime) -> float:
    """matplotlib's date number: days since its epoch (what its date locators and formatters read)."""
    return (moment.astimezone(UTC) - _EPOCH).total_seconds() / 86400


def rating_chart(
    points: Sequence[tuple[datetime, float]], *, name: str, track: str, language: str = DEFAULT
) -> bytes:
    """The PNG of ``points`` (the season's start, then the value after each change, oldest first):
    titled with the player's ``name`` and the ``track``'s label, dates below, values at the left."""
    figure = Figure(figsize=(WIDTH, HEIGHT), dpi=DPI, facecolor=BACKGROUND, layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    axes.set_facecolor(PANEL)
    for spine in axes.spines.values():
        spine.set_color(GRID)
    axes.tick_params(colors=MUTED, labelcolor=TEXT, labelsize=10)
    axes.grid(True, color=GRID, linewidth=0.8)
    axes.set_axisbelow(True)
    figure.suptitle(f"{name} — {track}", color=TEXT, fontsize=14, fontweight="bold")
    axes.set_ylabel(track, color=MUTED)
    axes.set_xlabel(text(language, "chart-date"), color=MUTED)
    locator = mdates.AutoDateLocator(minticks=3, maxticks=8)  # type: ignore[no-untyped-call]
    axes.xaxis.set_major_locator(locator)
    axes.xaxis.set_major_formatter(
        mdates.ConciseDateFormatter(  # type: ignore[no-untyped-call]
            locator, formats=_FORMATS, zero_formats=_ZERO_FORMATS, offset_formats=_OFFSET_FORMATS
        )
    )
    axes.xaxis.get_offset_text().set_color(MUTED)
    if points:
        start_value = points[0][1]
        axes.axhline(
            start_value,
            color=START,
            linestyle="--",
            linewidth=1,
            label=text(language, "chart-season-start", value=f"{start_value:g}"),
        )
        when = [_day(t) for t, _ in points]
        values = [v for _, v in points]
        label = text(language, "chart-after-game" if len(points) > 1 else "chart-now")
        axes.plot(
            when,
            values,
            color=LINE,
            linewidth=2.2,
            marker="o",
            markersize=5,
            label=label,
            drawstyle="steps-post",
        )  # a rating holds until the next game
        last = values[-1]
        axes.annotate(
            f"{last:.1f}" if abs(last) < 100 else f"{last:.0f}",
            (when[-1], last),
            xytext=(6, 6),
            textcoords="offset points",
            color=LINE,
            fontweight="bold",
        )
        low, high = min(values), max(values)
        pad = max((high - low) * 0.15, 1.0 if abs(high) < 100 else 10.0)
        axes.set_ylim(low - pad, high + pad)
        if len(points) == 1:  # the season's start alone: a few days around it, not a lone dot in years
            axes.set_xlim(when[-1] - 3, when[-1] + 3)
            axes.text(
                0.5, 0.2, text(language, "chart-no-games"), transform=axes.transAxes, ha="center", color=MUTED
            )
        legend = axes.legend(loc="upper left", facecolor=BACKGROUND, edgecolor=GRID, fontsize=9)
        for label_text in legend.get_texts():
            label_text.set_color(TEXT)
    out = io.BytesIO()
    # The title also goes into the file's metadata: what the picture shows, for readers without sight.
    figure.savefig(out, format="png", facecolor=BACKGROUND, metadata={"Title": f"{name} — {track}"})
    return out.getvalue()
