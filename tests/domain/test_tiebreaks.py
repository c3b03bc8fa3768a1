"""Tie-break chain (scoring/domain/tiebreaks.py), no database. Cases computed by hand."""

from fractions import Fraction

import pytest

from scoring.domain.errors import DomainError
from scoring.domain.tiebreaks import Criterion, Row, chain_text, criteria_used, parse_chain, rank_rows

B, D, S, F = Criterion.BEST_SESSION, Criterion.DEALS_WON, Criterion.BONUS_STICKS, Criterion.FEWEST_SITOUTS


def table(lines):
    return [(line.key, line.place, line.shared, line.above_by, line.below_by) for line in lines]


def test_values_are_stable_strings():
    assert [c.value for c in Criterion] == ["best_session", "deals_won", "bonus_sticks", "fewest_sitouts"]
    assert F.lower_is_better and not any(c.lower_is_better for c in (B, D, S))


def test_without_a_chain_equal_totals_share_a_place_as_before():
    rows = [Row("a", 10), Row("b", 7, {B: 5}), Row("c", 7, {B: 3}), Row("d", 3)]
    assert table(rank_rows(rows)) == [
        ("a", 1, False, None, None),
        ("b", 2, True, None, None),
        ("c", 2, True, None, None),
        ("d", 4, False, None, None),
    ]


def test_best_session_separates_two_players_on_74():
    # Anke 18 + 23 + 33 = 74, best 33; Bernd 25 + 25 + 24 = 74, best 25; Carla 80.
    rows = [
        Row("Bernd", 74, {B: 25}),
        Row("Anke", 74, {B: 33}),
        Row("Carla", 80, {B: 30}),
    ]
    assert table(rank_rows(rows, [B])) == [
        ("Carla", 1, False, None, None),  # 80 > 74: the total decides, not the chain
        ("Anke", 2, False, None, B),
        ("Bernd", 3, False, B, None),
    ]


def test_the_second_criterion_decides_only_when_the_first_is_equal():
    rows = [
        Row("a", 50, {B: 20, D: 7}),
        Row("b", 50, {B: 20, D: 9}),
        Row("c", 50, {B: 21, D: 1}),
        Row("d", 50, {B: 20, D: 9}),
    ]
    lines = rank_rows(rows, [B, D], name_key=lambda row: row.key)
    # c has the best session (21); b and d are equal on both (9 deals) and share 2; a is 4th by deals.
    assert table(lines) == [
        ("c", 1, False, None, B),
        ("b", 2, True, B, None),
        ("d", 2, True, None, D),
        ("a", 4, False, D, None),
    ]


def test_fewest_sitouts_ranks_the_lower_value_first():
    rows = [Row("x", 30, {F: 2}), Row("y", 30, {F: 0}), Row("z", 30, {F: 1})]
    assert [(line.key, line.place) for line in rank_rows(rows, [F])] == [("y", 1), ("z", 2), ("x", 3)]


def test_fractions_from_sitout_credit_compare_exactly():
    # Best session 13/3 (sit-out credit 4.333...) against 4.3: shown both as "4,3", yet 13/3 is more.
    rows = [Row("p", Fraction(61, 3), {B: Fraction(43, 10)}), Row("q", Fraction(61, 3), {B: Fraction(13, 3)})]
    lines = rank_rows(rows, [B])
    assert [(line.key, line.place, line.above_by) for line in lines] == [("q", 1, None), ("p", 2, B)]


def test_chain_order_matters():
    rows = [Row("a", 40, {D: 10, S: 1}), Row("b", 40, {D: 8, S: 5})]
    assert [line.key for line in rank_rows(rows, [D, S])] == ["a", "b"]
    assert [line.key for line in rank_rows(rows, [S, D])] == ["b", "a"]
    assert rank_rows(rows, [S, D])[0].below_by is S


def test_a_chain_that_does_not_separate_keeps_the_shared_place():
    rows = [Row("a", 12, {S: 2, F: 1}), Row("b", 12, {S: 2, F: 1}), Row("c", 11, {S: 9, F: 0})]
    assert table(rank_rows(rows, [S, F], name_key=lambda row: row.key)) == [
        ("a", 1, True, None, None),
        ("b", 1, True, None, None),
        ("c", 3, False, None, None),
    ]


def test_a_missing_value_is_refused():
    with pytest.raises(DomainError) as error:
        rank_rows([Row("a", 1, {B: 1}), Row("b", 1, {})], [B])
    assert error.value.code == "missing_value"


def test_parse_and_store_a_chain():
    assert parse_chain("") == () and parse_chain(None) == ()
    assert parse_chain("best_session, deals_won") == (B, D)
    assert chain_text((F, S)) == "fewest_sitouts,bonus_sticks"
    assert parse_chain(chain_text((F, S))) == (F, S)
    with pytest.raises(DomainError) as unknown:
        parse_chain("best_session,luck")
    assert unknown.value.code == "unknown_criterion"
    with pytest.raises(DomainError) as twice:
        parse_chain("deals_won,deals_won")
    assert twice.value.code == "repeated_criterion"


def test_empty_input():
    assert rank_rows([], [B, D]) == []


def test_criteria_used_are_the_chain_up_to_the_deepest_decision():
    chain = (B, D, S)
    no_tie = rank_rows([Row("a", 3, {B: 1, D: 1, S: 1}), Row("b", 2, {B: 1, D: 1, S: 1})], chain)
    assert criteria_used(no_tie, chain) == ()  # no equal totals: the chain decided nothing
    by_deals = rank_rows([Row("a", 3, {B: 1, D: 2, S: 0}), Row("b", 3, {B: 1, D: 1, S: 5})], chain)
    assert criteria_used(by_deals, chain) == (B, D)  # best session compared (equal), deals decided
    still_equal = rank_rows([Row("a", 3, {B: 1, D: 1, S: 1}), Row("b", 3, {B: 1, D: 1, S: 1})], chain)
    assert criteria_used(still_equal, chain) == chain
    assert criteria_used(rank_rows([Row("a", 1), Row("b", 1)]), ()) == ()
