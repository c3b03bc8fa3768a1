"""Season maths (scoring.domain.season), without a database."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.domain.season import (
    AVERAGE,
    POINTS,
    SUM,
    EveningResult,
    SeasonRuleError,
    SeasonRules,
    check_rules,
    parse_placement_points,
    season_is_final,
    season_ranking,
)
from scoring.domain.tiebreaks import Criterion


def r(total, place, shared=False):
    return EveningResult(Fraction(total), place, shared)


def test_sum_of_evening_totals_with_shared_places():
    lines = season_ranking(
        {"a": {0: r(70, 1), 1: r(50, 2)}, "b": {0: r(60, 2), 1: r(60, 1)}, "c": {1: r(20, 3)}}, SeasonRules(SUM)
    )
    assert [(line.player, line.total, line.place, line.shared) for line in lines] == [
        ("a", 120, 1, True),
        ("b", 120, 1, True),
        ("c", 20, 3, False),
    ]


def test_best_n_drops_the_worst_and_the_earlier_of_equal_values():
    lines = season_ranking({"a": {0: r(30, 2), 1: r(50, 1), 2: r(30, 1), 3: r(40, 1)}}, SeasonRules(SUM, best_of=2))
    (line,) = lines
    assert line.total == 90 and line.counted == 2 and line.played == 4
    assert [index for index, cell in line.cells.items() if cell.dropped] == [0, 2]


def test_placement_points_shared_places_get_the_points_of_their_place_and_far_places_nothing():
    rules = SeasonRules(POINTS, placement_points=(10, 6, 3))
    lines = season_ranking(
        {"a": {0: r(50, 1)}, "b": {0: r(40, 2, True)}, "c": {0: r(40, 2, True)}, "d": {0: r(1, 4)}}, rules
    )
    assert {line.player: line.total for line in lines} == {"a": 10, "b": 6, "c": 6, "d": 0}


def test_average_per_evening_played_is_exact():
    lines = season_ranking({"a": {0: r(10, 1), 1: r(11, 1), 2: r(11, 1)}}, SeasonRules(AVERAGE))
    assert lines[0].total == Fraction(32, 3)


def test_below_the_minimum_listed_after_the_ranked_without_a_place():
    lines = season_ranking({"a": {0: r(99, 1)}, "b": {0: r(10, 2), 1: r(10, 1)}}, SeasonRules(SUM, min_evenings=2))
    assert [(line.player, line.ranked, line.place) for line in lines] == [("b", True, 1), ("a", False, None)]


def test_a_tie_break_chain_separates_equal_values_over_the_evenings_that_count():
    def t(total, place, best, won):
        return EveningResult(Fraction(total), place, tiebreaks={Criterion.BEST_SESSION: best, Criterion.DEALS_WON: won})

    results = {
        "a": {0: t(10, 1, 9, 3), 1: t(1, 9, 1, 50)},  # the 50 deals won are on a dropped evening
        "b": {0: t(10, 1, 9, 4)},
        "c": {0: t(12, 1, 5, 0)},
        "d": {0: t(10, 2, 9, 4)},
    }
    rules = SeasonRules(SUM, best_of=1)
    shared = season_ranking(results, rules)
    assert [(line.player, line.place) for line in shared] == [("c", 1), ("a", 2), ("b", 2), ("d", 2)]
    lines = season_ranking(results, rules, chain=(Criterion.BEST_SESSION, Criterion.DEALS_WON))
    assert [(line.player, line.place, line.shared) for line in lines] == [
        ("c", 1, False),
        ("b", 2, True),
        ("d", 2, True),
        ("a", 4, False),
    ]
    assert lines[2].ahead_by is Criterion.DEALS_WON and lines[0].ahead_by is None


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "points_empty"),
        ("25, , 16", "points_gap"),
        ("25, 20, -1", "points_negative"),
        ("25, 30", "points_rising"),
        ("25, zwanzig", "points_not_number"),
        ("25, ２０", "points_not_number"),
    ],
)
def test_bad_placement_tables_are_refused(text, code):
    with pytest.raises(SeasonRuleError) as caught:
        parse_placement_points(text)
    assert caught.value.code == code


def test_placement_table_one_per_line_or_with_commas():
    assert parse_placement_points("25\n20\n16\n") == (25, 20, 16)
    assert parse_placement_points("10; 5, 0") == (10, 5, 0)


@pytest.mark.parametrize(
    ("rules", "code"),
    [
        (SeasonRules(SUM, best_of=9), "best_of"),
        (SeasonRules(SUM, best_of=0), "best_of"),
        (SeasonRules(SUM, min_evenings=9), "min_evenings"),
        (SeasonRules("x"), "scoring"),
    ],
)
def test_rules_that_cannot_work_are_refused(rules, code):
    with pytest.raises(SeasonRuleError) as caught:
        check_rules(rules, planned_evenings=8)
    assert caught.value.code == code


def test_final_only_when_every_planned_evening_is_there_and_confirmed():
    assert not season_is_final(3, [True, True])
    assert not season_is_final(2, [True, False])
    assert season_is_final(2, [True, True])
