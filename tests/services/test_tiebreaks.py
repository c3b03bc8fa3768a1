"""Tie-breaks per evening: the chain in the ranking selector (its pages, screen, PDF and exports:
tests/views/test_tiebreaks.py).

The hand-made evening: 8 players, one session of one round of four deals, two tables.
Table 1: team A wins all four deals (4 matchsticks, 4 deals won, no daring and striking).
Table 2: team A wins two deals with a successful dare each (2 x (1 + 1) = 4 matchsticks, 2 deals
won, 2 from daring and striking), team B wins the other two (2 matchsticks).
So four players have 4 matchsticks: without a chain they share place 1.
"""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import date
from fractions import Fraction

import pytest
from django.utils import translation

from scoring import selectors, services
from scoring.domain.tiebreaks import Criterion
from scoring.models import Deal, Round, Seating
from tests import factories
from tests.conftest import make_evening

pytestmark = pytest.mark.django_db

B, D, S, F = Criterion.BEST_SESSION, Criterion.DEALS_WON, Criterion.BONUS_STICKS, Criterion.FEWEST_SITOUTS


@pytest.fixture
def tied():
    """The hand-made evening; returns (evening, table-1 team A players, table-2 team A players)."""
    evening = make_evening(8, sessions_count=1, rounds_per_session=1)
    session = services.draw_session(evening=evening, seed=3)
    first, second = (
        Seating.objects.filter(round__session=session)
        .order_by("table__number")
        .select_related(*selectors.PARTNERSHIP_PLAYERS)
    )
    factories.enter_deals(first, [factories.A_WINS] * 4, table=None)
    factories.enter_deals(
        second, [("A", False, 1, 0), ("A", False, 1, 0), ("B", False, 0, 0), ("B", False, 0, 0)], table=None
    )
    for seating in (first, second):
        services.enter_and_confirm_seating(seating_id=seating.pk)
    return evening, first.team_a.players, second.team_a.players


def places(evening) -> dict[str, tuple[int, bool]]:
    return {row.player.name: (row.place, row.shared) for row in selectors.evening_ranking(evening)}


def test_without_a_chain_equal_totals_share_a_place(tied):
    evening, winners, darers = tied
    result = places(evening)
    for player in (*winners, *darers):
        assert result[player.name] == (1, True)
    rows = {row.player.pk: row for row in selectors.evening_ranking(evening)}
    for player in winners:
        assert rows[player.pk].tiebreaks == {B: 4, D: 4, S: 0, F: 0}
    for player in darers:
        assert rows[player.pk].tiebreaks == {B: 4, D: 2, S: 2, F: 0}
    assert selectors.tiebreak_columns(evening, selectors.evening_ranking(evening)) == ()


def test_the_chain_separates_and_says_by_which_rule(tied):
    evening, winners, darers = tied
    services.set_evening_tiebreaks(evening_id=evening.pk, criteria=["best_session", "deals_won", ""])
    evening.refresh_from_db()
    rows = selectors.evening_ranking(evening)
    result = {row.player.name: (row.place, row.shared) for row in rows}
    for player in winners:  # best session equal (4), more deals won (4 against 2)
        assert result[player.name] == (1, True)
    for player in darers:
        assert result[player.name] == (3, True)
    second_winner = rows[1]
    assert second_winner.ahead_by is D and second_winner.ahead_of == rows[2].player
    assert rows[2].behind_by is D
    assert selectors.tiebreak_columns(evening, rows) == (B, D)

    services.set_evening_tiebreaks(evening_id=evening.pk, criteria=["bonus_sticks"])
    evening.refresh_from_db()
    result = places(evening)
    assert {result[p.name] for p in darers} == {(1, True)}
    assert {result[p.name] for p in winners} == {(3, True)}


# --- A whole evening with sit-outs, checked against values the test computes itself ---------------


def independent_values(evening) -> dict[int, dict]:
    """Per player: total, best session, deals won, bonus, rounds sat out, from the deals and the
    rounds' sit-out partnerships (every round finished: the credit is the round's team average)."""
    sessions: dict[int, dict[int, Fraction]] = defaultdict(lambda: defaultdict(Fraction))
    won: dict[int, int] = defaultdict(int)
    bonus: dict[int, int] = defaultdict(int)
    sat: dict[int, int] = defaultdict(int)
    for deal in Deal.objects.filter(seating__round__session__evening=evening).select_related(
        "seating__round__session", *(f"seating__{p}" for p in selectors.PARTNERSHIP_PLAYERS)
    ):
        number = deal.seating.round.session.number
        for team, points, extra, letter in (
            (deal.seating.team_a, deal.points_a, deal.bonus_a, "A"),
            (deal.seating.team_b, deal.points_b, deal.bonus_b, "B"),
        ):
            for player in team.players:
                sessions[player.pk][number] += points
                bonus[player.pk] += extra
                won[player.pk] += deal.winner == letter
    for rnd in Round.objects.filter(session__evening=evening, sitout_partnership__isnull=False).select_related(
        "session", "sitout_partnership"
    ):
        points = [p for s in rnd.seatings.all() for d in s.deals.all() for p in (d.points_a, d.points_b)]
        teams = 2 * rnd.seatings.count()
        credit = Fraction(sum(points), teams)
        for pid in (rnd.sitout_partnership.player_1_id, rnd.sitout_partnership.player_2_id):
            sessions[pid][rnd.session.number] += credit
            sat[pid] += 1
    return {
        pid: {
            "total": sum(per.values(), Fraction(0)),
            B: max(per.values()),
            D: won[pid],
            S: bonus[pid],
            F: sat[pid],
        }
        for pid, per in sessions.items()
    }


def test_a_played_evening_with_sit_outs_is_ordered_by_the_chain(django_assert_max_num_queries):
    evening = make_evening(18, sessions_count=2, rounds_per_session=2, deals_per_round=2)  # 9 teams: one sits out
    services.set_evening_tiebreaks(evening_id=evening.pk, criteria=["fewest_sitouts", "bonus_sticks", "deals_won"])
    rng = random.Random(4)
    for number in (1, 2):
        session = services.draw_session(evening=evening, seed=number)
        for seating in Seating.objects.filter(round__session=session):
            factories.enter_deals(
                seating,
                [(rng.choice("AB"), False, *rng.choice([(0, 0), (1, 0), (0, 1)])) for _ in range(2)],
                table=None,
            )
            services.enter_and_confirm_seating(seating_id=seating.pk)
    evening.refresh_from_db()
    expected = independent_values(evening)
    rows = selectors.evening_ranking(evening)
    assert len(rows) == 18
    chain = (F, S, D)
    for row in rows:
        mine = expected[row.player.pk]
        assert row.total == mine["total"]
        assert row.tiebreaks == {c: mine[c] for c in (B, D, S, F)}
    for upper, lower in zip(rows, rows[1:], strict=False):
        a, b = expected[upper.player.pk], expected[lower.player.pk]
        key_a = (-a["total"], a[F], -a[S], -a[D])
        key_b = (-b["total"], b[F], -b[S], -b[D])
        assert key_a <= key_b
        assert (upper.place == lower.place) == (key_a == key_b)
        if a["total"] == b["total"] and key_a != key_b:
            first_difference = next(c for c in chain if a[c] != b[c])
            assert upper.ahead_by is first_difference and lower.behind_by is first_difference
        else:
            assert upper.ahead_by is None


def test_an_evening_from_before_the_chain_has_none():
    evening = services.create_evening(name="Alt", date=date(2026, 1, 2))
    assert evening.tiebreaks == "" and selectors.evening_chain(evening) == ()
    evening.tiebreaks = "best_session,nonsense"  # never an error page for a bad stored value
    assert selectors.evening_chain(evening) == ()


def test_translated_labels_use_the_domain_names_as_msgids():
    from scoring.web import tiebreak_labels

    with translation.override("en"):
        for criterion in Criterion:
            assert str(tiebreak_labels.LABELS[criterion]) == criterion.label
            assert str(tiebreak_labels.COLUMNS[criterion]) == criterion.column
    with translation.override("de"):
        assert [name for _, name in tiebreak_labels.choices()] == [
            "bester einzelner Durchgang",
            "meiste gewonnene Spiele",
            "meiste Streichhölzer aus Wagen und Schlagen",
            "wenigste ausgesetzte Runden",
        ]
