"""A small chart of a player's places over their evenings, drawn on the server as SVG
(``templates/includes/place_chart.svg.html``): no JavaScript, no library, no CDN. The strict CSP
forbids inline ``style`` attributes; the SVG uses presentation attributes and CSS classes of
``static/css/bruus.css``.

Place 1 is at the top; the vertical scale runs to the largest field (the most players ranked in
any of the evenings), so a 3rd place of 12 and a 3rd place of 60 sit at the same height.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 420
HEIGHT = 220
LEFT = 40  # room for the place numbers
RIGHT = 12
TOP = 14
BOTTOM = 36  # room for the dates
LABEL_WIDTH = 84  # a short date ("21.11.2026") at the chart's font size, with a gap


@dataclass(frozen=True)
class ChartPoint:
    x: float
    y: float
    place: int
    label: str  # the evening's date, short
    title: str  # the evening's name and the place, for the tooltip and screen readers


@dataclass(frozen=True)
class Tick:
    y: float
    place: int


@dataclass(frozen=True)
class PlaceChart:
    width: int
    height: int
    points: tuple[ChartPoint, ...]
    ticks: tuple[Tick, ...]
    left: int
    right: int  # x of the right edge of the plot
    top: int
    bottom: int  # y of the bottom edge of the plot

    @property
    def polyline(self) -> str:
        """The ``points`` attribute of the line through every place."""
        return " ".join(f"{p.x:.1f},{p.y:.1f}" for p in self.points)


def place_chart(places: Sequence[tuple[str, int, int, str]]) -> PlaceChart | None:
    """Geometry of the chart.

    Args:
        places: per evening in date order: (short date, place, players ranked, title).

    Returns:
        The chart, or None without any place (nothing to draw).
    """
    if not places:
        return None
    worst = max(max(field, place) for _, place, field, _ in places)
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def y_of(place: int) -> float:
        return TOP + (plot_h * (place - 1) / (worst - 1) if worst > 1 else plot_h / 2)

    step = plot_w / len(places)
    every = math.ceil(LABEL_WIDTH / step)  # dates would overlap: label every n-th evening
    points = tuple(
        ChartPoint(
            x=LEFT + step * (i + 0.5),
            y=y_of(place),
            place=place,
            label=label if i % every == 0 else "",
            title=title,
        )
        for i, (label, place, _, title) in enumerate(places)
    )
    ticks = tuple(Tick(y=y_of(place), place=place) for place in _tick_places(worst))
    return PlaceChart(
        width=WIDTH,
        height=HEIGHT,
        points=points,
        ticks=ticks,
        left=LEFT,
        right=WIDTH - RIGHT,
        top=TOP,
        bottom=HEIGHT - BOTTOM,
    )


def _tick_places(worst: int) -> list[int]:
    """1, the last place and a few round numbers between (at most about 6 lines)."""
    if worst <= 6:
        return list(range(1, worst + 1))
    step = next(s for s in (2, 5, 10, 20, 25, 50, 100, 250, 500) if worst / s <= 5)
    return sorted({1, worst, *range(step, worst, step)} - {p for p in range(worst - step // 2, worst)})
