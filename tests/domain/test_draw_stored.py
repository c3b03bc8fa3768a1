"""The stored evening plans (scoring.domain.draw.stored): every stored plan is a valid evening with
the repeats it claims; the first draw of an evening starts from it with the players shuffled (a
different evening for every seed, never worse than the stored plan), keeps the wishes, and is not
used once somebody has played, for another format, or when the file is missing or damaged."""

from __future__ import annotations

import json
import random

import pytest

from scoring.domain.draw import History, PlanBudget, evening_repeats, history_after, plan_evening, plan_fits, stored
from scoring.domain.draw.evening import plan_from_json
from scoring.domain.fairness import opponent_repeat_lower_bound

SMALL = PlanBudget(seconds=60.0, iterations=400)


def _stored_sizes() -> list[int]:
    document = json.loads(stored.PLANS_FILE.read_text(encoding="utf-8"))
    return sorted(int(n) for n in document["plans"])


def test_the_stored_plans_cover_the_club_fields():
    assert set(range(12, 37)) <= set(_stored_sizes())


@pytest.mark.parametrize("players", _stored_sizes())
def test_every_stored_plan_is_a_valid_evening_with_the_repeats_it_claims(players):
    document = json.loads(stored.PLANS_FILE.read_text(encoding="utf-8"))
    item = document["plans"][str(players)]
    draws = plan_from_json(item["sessions"])
    ids = list(range(players))
    assert plan_fits(draws, ids, [0] * players, set(), stored.ROUNDS, stored.SESSIONS, stored.TEAM_SIZE)
    assert evening_repeats(History(), draws) == item["repeats"] == stored.stored_repeats(players)
    assert item["repeats"] >= opponent_repeat_lower_bound(players, stored.SESSIONS, stored.ROUNDS)


def _first_draw(players: int, seed: int, **wishes):
    return plan_evening(list(range(1, players + 1)), History(), 4, 3, random.Random(seed), budget=SMALL, **wishes)


@pytest.mark.parametrize("players", [22, 26])
def test_the_first_draw_starts_from_the_stored_plan_shuffled(players):
    claimed = stored.stored_repeats(players)
    plans = [_first_draw(players, seed) for seed in range(3)]
    for plan in plans:
        # A few hundred moves find nothing like it: the plan is the stored one (or better).
        assert plan.repeats <= claimed < plan.baseline_repeats
    firsts = {plan.sessions[0].partnerships for plan in plans}
    assert len(firsts) == 3  # every seed another evening


def test_the_stored_start_keeps_the_wishes():
    forbidden = [(a, a + 1) for a in range(1, 26, 2)]  # 13 pairs that may not be partners
    plan = _first_draw(26, 5, forbidden=forbidden)
    for draw in plan.sessions:
        for team in draw.partnerships:
            assert tuple(sorted(team)) not in forbidden
    assert plan.repeats <= stored.stored_repeats(26) + 4  # still close to the stored plan


def test_once_somebody_has_played_the_plan_comes_from_the_history():
    players = list(range(1, 27))
    first = _first_draw(26, 1)
    history = history_after(History(), first.sessions[0])
    assert stored.stored_start(players, 4, 3, 2, random.Random(1))  # there is one for 26
    later = plan_evening(players, history, 4, 2, random.Random(2), budget=SMALL)
    assert evening_repeats(history, later.sessions) <= later.baseline_repeats


def test_no_stored_plan_for_another_format():
    players = list(range(1, 27))
    assert stored.stored_start(players, 5, 3, 2, random.Random(1)) == []
    assert stored.stored_start(players, 4, 2, 2, random.Random(1)) == []
    assert stored.stored_start(players, 4, 3, 3, random.Random(1)) == []
    assert stored.stored_start(list(range(1, 400)), 4, 3, 2, random.Random(1)) == []


DAMAGED = [
    "",
    "{not json",
    "[]",
    '{"rounds": 5, "sessions": 3, "team_size": 2, "plans": {}}',
    '{"rounds": 4, "sessions": 3, "team_size": 2, "plans": {"26": {"repeats": "many"}}}',
    '{"rounds": 4, "sessions": 3, "team_size": 2, "plans": {"26": {"repeats": 1, "sessions":'
    ' [{"partnerships": [[0, 99]], "sitout_players": [], "rounds": []}]}}}',
]


@pytest.mark.parametrize("content", DAMAGED)
def test_a_missing_or_damaged_file_means_no_stored_plan(tmp_path, monkeypatch, content):
    path = tmp_path / "stored_plans.json"
    if content:
        path.write_text(content)
    monkeypatch.setattr(stored, "PLANS_FILE", path)
    stored._plans.cache_clear()
    try:
        assert stored.stored_start(list(range(1, 27)), 4, 3, 2, random.Random(1)) == []
        plan = _first_draw(26, 1)
        assert plan.repeats <= plan.baseline_repeats  # the search from today's draw, as before
    finally:
        stored._plans.cache_clear()


def test_with_stand_ins_the_plan_keeps_them_sitting_out_first():
    """Stand-ins sit out before any ranked player in every session (docs/rules.md, "Sitting out"),
    which no stored plan does (its sit-outs rotate): the plan comes from today's draw and the search."""
    plan = _first_draw(26, 3, stand_ins=(1, 2))
    for draw in plan.sessions:
        sitting_out = {
            player
            for round_draw in draw.rounds
            if round_draw.sitout_partnership is not None
            for player in draw.partnerships[round_draw.sitout_partnership]
        }
        assert {1, 2} <= sitting_out
    assert plan.repeats <= plan.baseline_repeats
