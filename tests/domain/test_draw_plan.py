"""The evening plan (scoring.domain.draw.evening): the rules hold in every planned session over
many random rosters, the plan is never worse than today's session-by-session draw, it is
reproducible from its seed, and a plan is resumed only while it still fits. Small iteration caps:
the quality is measured by bench/bench_draw.py, not here."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scoring.domain.draw import (
    DrawError,
    History,
    PlanBudget,
    draw_session,
    evening_repeats,
    history_after,
    plan_evening,
    plan_fits,
    plan_from_json,
    plan_to_json,
)
from scoring.domain.draw.annealing import PlanSearch
from scoring.domain.draw.input import indexed_input

SMALL = PlanBudget(seconds=60.0, iterations=400)


def _seats(draw) -> Counter:
    """How often each player is seated per round (at a table, sitting out with the team, or alone)."""
    count: Counter = Counter()
    for round_draw in draw.rounds:
        for table in round_draw.tables:
            count.update(draw.partnerships[table.team_a])
            count.update(draw.partnerships[table.team_b])
        if round_draw.sitout_partnership is not None:
            count.update(draw.partnerships[round_draw.sitout_partnership])
        count.update(draw.sitout_players)
    return count


def _sat_out(draw, rounds: int) -> Counter:
    sat: Counter = Counter()
    for player in draw.sitout_players:
        sat[player] += rounds
    for round_draw in draw.rounds:
        if round_draw.sitout_partnership is not None:
            sat.update(draw.partnerships[round_draw.sitout_partnership])
    return sat


def _partner_repeats(history: History, draws) -> int:
    pairs = Counter(history.partners)
    for draw in draws:
        pairs.update(frozenset(team) for team in draw.partnerships)
    return sum(c - 1 for c in pairs.values() if c > 1)


def _team_meetings_twice(draw) -> int:
    meetings = Counter((t.team_a, t.team_b) for r in draw.rounds for t in r.tables)
    return sum(c - 1 for c in meetings.values() if c > 1)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    size=st.integers(min_value=4, max_value=30),
    sessions=st.integers(min_value=1, max_value=4),
    rounds=st.integers(min_value=1, max_value=5),
    seed=st.integers(min_value=0, max_value=2**32),
    wishes=st.integers(min_value=0, max_value=3),
    stand_ins=st.integers(min_value=0, max_value=2),
)
@example(size=6, sessions=3, rounds=1, seed=2, wishes=2, stand_ins=0)  # the wishes bend the rotation
def test_every_planned_session_keeps_the_rules(size, sessions, rounds, seed, wishes, stand_ins):
    """Every player seated once a round; no forbidden partners; sit-outs follow the rotation (a
    player who sat out fewer rounds never sits out fewer now); no more repeated partners, no more
    twice-met partnerships and no more repeated opponents than today's draw of the same roster."""
    players = list(range(10, 10 + size))
    pick = random.Random(seed)
    forbidden = [tuple(pick.sample(players, 2)) for _ in range(wishes)]
    standing_in = pick.sample(players, stand_ins)
    wish = {"forbidden": forbidden, "stand_ins": standing_in}
    try:
        plan = plan_evening(players, History(), rounds, sessions, random.Random(seed), budget=SMALL, **wish)
    except DrawError:
        return  # the wishes leave no draw: draw_session says so too (tested there)
    today = plan_evening(
        players, History(), rounds, sessions, random.Random(seed), budget=PlanBudget(iterations=0), **wish
    )
    assert len(plan.sessions) == sessions
    assert plan.repeats <= plan.baseline_repeats == today.repeats
    assert plan.repeats == evening_repeats(History(), plan.sessions)
    assert _partner_repeats(History(), plan.sessions) <= _partner_repeats(History(), today.sessions)
    twice = sum(_team_meetings_twice(draw) for draw in plan.sessions)
    assert twice <= sum(_team_meetings_twice(draw) for draw in today.sessions)
    barred = {frozenset(pair) for pair in forbidden}
    sitouts = Counter({p: -1000 for p in standing_in})  # stand-ins sit out first
    today_sitouts = Counter(sitouts)
    for draw, today_draw in zip(plan.sessions, today.sessions, strict=True):
        assert set(_seats(draw)) == set(players) and set(_seats(draw).values()) == {rounds}
        assert not barred & {frozenset(team) for team in draw.partnerships}
        sat = _sat_out(draw, rounds)
        if not forbidden:
            for p, q in itertools.permutations(players, 2):
                if sitouts[p] < sitouts[q]:
                    assert sat[p] >= sat[q], (p, q)
        sitouts.update(sat)
        # Two players who may not partner each other can leave no way to seat the next sit-out
        # partnership by the rotation (both have sat out least): the draw then bends it as
        # little as it can. The plan never bends it more than today's draw: after every session
        # the rounds sat out are shared out as today's draw shares them.
        today_sitouts.update(_sat_out(today_draw, rounds))
        assert sorted(sitouts[p] for p in players) == sorted(today_sitouts[p] for p in players)


def test_the_first_planned_session_is_a_valid_session_draw_with_history():
    """Planning from a real history (two sessions of today's draw): the plan of the last session
    repeats no partner and is never worse than today's draw of it."""
    players = list(range(1, 23))
    rng = random.Random(5)
    history = History()
    for _ in range(2):
        history = history_after(history, draw_session(players, history, 4, rng))
    plan = plan_evening(players, history, 4, 1, random.Random(7), budget=SMALL)
    assert _partner_repeats(history, plan.sessions) == 0
    assert plan.repeats <= plan.baseline_repeats
    assert plan.repeats == evening_repeats(history, plan.sessions)


def test_same_seed_same_plan_and_other_seeds_other_evenings():
    players = list(range(1, 17))
    first = plan_evening(players, History(), 4, 3, random.Random(11), budget=SMALL)
    again = plan_evening(players, History(), 4, 3, random.Random(11), budget=SMALL)
    other = plan_evening(players, History(), 4, 3, random.Random(12), budget=SMALL)
    assert first == again
    assert first.sessions != other.sessions


def test_no_budget_gives_todays_draw():
    players = list(range(1, 14))
    plan = plan_evening(players, History(), 4, 2, random.Random(3), budget=PlanBudget(iterations=0))
    assert plan.iterations == 0 and plan.repeats == plan.baseline_repeats


def test_the_time_budget_stops_the_search_with_the_best_plan_so_far():
    """A clock that jumps past the budget ends the search long before the iteration cap."""
    ticks = itertools.count()
    plan = plan_evening(
        list(range(1, 27)),
        History(),
        4,
        3,
        random.Random(1),
        budget=PlanBudget(seconds=5.0, iterations=1_000_000),
        clock=lambda: float(next(ticks)),
    )
    assert plan.iterations < 1_000
    assert plan.repeats <= plan.baseline_repeats


def test_the_search_lowers_the_repeats_of_a_crowded_evening():
    """26 players over three sessions: a modest budget already beats today's draw (the figures
    are in the bench; this checks that the search does something)."""
    plans = [
        plan_evening(list(range(1, 27)), History(), 4, 3, random.Random(seed), budget=PlanBudget(60.0, 20_000))
        for seed in range(3)
    ]
    assert sum(plan.repeats for plan in plans) < sum(plan.baseline_repeats for plan in plans)


def test_the_incremental_cost_matches_a_fresh_count():
    """After many moves the kept cost equals the cost counted from scratch of the same plan."""
    players = list(range(1, 23))
    baseline = []
    history = History()
    for s in range(3):
        draw = draw_session(players, history, 4, random.Random(s), clubs={p: "AB"[p % 2] for p in players})
        baseline.append(draw)
        history = history_after(history, draw)
    given_ = indexed_input(players, History(), 4, 4, clubs={p: "AB"[p % 2] for p in players})
    search = PlanSearch(given_.present, given_.met, given_.partnered, given_.barred, given_.club, baseline)
    search.anneal(random.Random(4), 5_000, float("inf"), lambda: 0.0)
    fresh = PlanSearch(given_.present, given_.met, given_.partnered, given_.barred, given_.club, search.best_draws())
    assert fresh.cost == search.best_cost


def test_a_plan_is_resumed_only_while_it_fits():
    players = list(range(1, 23))
    plan = plan_evening(players, History(), 4, 3, random.Random(9), budget=SMALL)
    history = history_after(History(), plan.sessions[0])
    rest = plan_from_json(plan_to_json(plan.sessions[1:]))
    assert rest == list(plan.sessions[1:])
    given_ = indexed_input(players, history, 4, 4)
    assert plan_fits(rest, given_.present, given_.sitouts, given_.partnered, 4, 2)
    # A late arrival: the plan no longer seats everybody.
    later = indexed_input([*players, 99], history, 4, 4)
    assert not plan_fits(rest, later.present, later.sitouts, later.partnered, 4, 2)
    # Sit-outs against the rotation: the players who sat out in session 1 sit out first again.
    unfair = [0 if s == 0 else 5 for s in given_.sitouts]
    if len(set(given_.sitouts)) > 1:
        assert not plan_fits(rest, given_.present, unfair, given_.partnered, 4, 2)
    resumed = plan_evening(players, history, 4, 2, random.Random(1), budget=PlanBudget(60.0, 200), start=rest)
    assert resumed.repeats <= evening_repeats(history, rest)


@pytest.mark.parametrize("data", [None, 3, [{"partnerships": "x"}], [{}]])
def test_a_malformed_stored_plan_is_ignored(data):
    assert plan_from_json(data) == []


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(size=st.integers(min_value=6, max_value=33), sessions=st.integers(1, 3), seed=st.integers(0, 2**32))
def test_teams_of_three_keep_their_rules(size, sessions, seed):
    """Six-handed Bräus: teams of three, ``n % 3`` sit out, every player once a round, sit-outs
    rotate, no more repeated teammates nor repeated opponents than today's draw of threes."""
    players = list(range(1, size + 1))
    plan = plan_evening(players, History(), 4, sessions, random.Random(seed), budget=SMALL, team_size=3)
    today = plan_evening(
        players, History(), 4, sessions, random.Random(seed), budget=PlanBudget(iterations=0), team_size=3
    )
    assert plan.repeats <= plan.baseline_repeats == today.repeats

    def teammates(draws) -> int:
        pairs = Counter(
            frozenset(pair) for draw in draws for team in draw.partnerships for pair in itertools.combinations(team, 2)
        )
        return sum(c - 1 for c in pairs.values() if c > 1)

    assert teammates(plan.sessions) <= teammates(today.sessions)
    sitouts: Counter = Counter()
    for draw in plan.sessions:
        assert all(len(team) == 3 for team in draw.partnerships) and len(draw.sitout_players) == size % 3
        assert set(_seats(draw)) == set(players) and set(_seats(draw).values()) == {4}
        sat = _sat_out(draw, 4)
        for p, q in itertools.permutations(players, 2):
            if sitouts[p] < sitouts[q]:
                assert sat[p] >= sat[q], (p, q)
        sitouts.update(sat)
