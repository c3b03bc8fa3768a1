"""The player page's chart (scoring.web.charts): place one on top, scaled to the largest field, labels apart."""

from __future__ import annotations

import pytest

from scoring.web import charts


def test_chart_puts_place_one_on_top_and_scales_to_the_largest_field():
    chart = charts.place_chart([("01.03.", 1, 12, "a"), ("08.03.", 12, 12, "b"), ("15.03.", 3, 60, "c")])
    first, last_place, third = chart.points
    assert first.y == chart.top and chart.bottom > third.y > first.y
    assert third.y == pytest.approx(chart.top + (chart.bottom - chart.top) * 2 / 59)
    assert last_place.y > third.y
    assert chart.ticks[0].place == 1 and chart.ticks[-1].place == 60
    assert first.x < last_place.x < third.x
    assert charts.place_chart([]) is None
    single = charts.place_chart([("01.03.", 1, 1, "a")])
    assert single.points[0].y == (single.top + single.bottom) / 2


def test_chart_labels_do_not_overlap_with_many_evenings():
    chart = charts.place_chart([(f"{d:02d}.01.", 1 + d % 5, 20, "x") for d in range(1, 25)])
    labelled = [p.x for p in chart.points if p.label]
    assert len(labelled) < 24 and all(b - a >= charts.LABEL_WIDTH for a, b in zip(labelled, labelled[1:], strict=False))
