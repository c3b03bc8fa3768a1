"""Tests of the session draw (scoring.domain.draw); no Django, no database."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.domain.draw import (
    DrawError,
    History,
    RoundDraw,
    SessionDraw,
    Table,
    draw_session,
    history_after,
)

ROOT = Path(__file__).resolve().parents[2]


def play_evening(players, sessions=3, rounds=4, seed=0):
    """Draw ``sessions`` sessions; returns [(history before, draw), ...] and the final history."""
    rng = random.Random(seed)
    history = History()
    played = []
    for _ in range(sessions):
        draw = draw_session(players, history, rounds, rng)
        played.append((history, draw))
        history = history_after(history, draw)
    return played, history


def sitters_of(draw: SessionDraw) -> set:
    """Everybody who sits out at least one round of the session."""
    sitters = set()
    if draw.sitout_player is not None:
        sitters.add(draw.sitout_player)
    for round_draw in draw.rounds:
        if round_draw.sitout_partnership is not None:
            sitters.update(draw.partnerships[round_draw.sitout_partnership])
    return sitters


def check_evening(players, sessions=3, rounds=4, seed=0):
    """Assert every rule of the draw for one evening; returns the final history."""
    played, final = play_evening(players, sessions, rounds, seed)
    present = sorted(players)
    partner_count = Counter()
    for before, draw in played:
        n = len(present)
        playing = n - 1 if n % 2 else n
        # Shape of the draw.
        assert (draw.sitout_player is not None) == (n % 2 == 1)
        assert len(draw.partnerships) == playing // 2
        assert all(a < b for a, b in draw.partnerships)
        assert len(draw.rounds) == rounds
        in_teams = sorted(p for team in draw.partnerships for p in team)
        assert in_teams == sorted(set(present) - {draw.sitout_player})
        for team in draw.partnerships:
            partner_count[frozenset(team)] += 1
        # Every present player exactly once per round.
        meetings = Counter()
        sitout_teams = Counter()
        for number, round_draw in enumerate(draw.rounds, start=1):
            assert round_draw.number == number
            assert [t.number for t in round_draw.tables] == list(
                range(1, len(round_draw.tables) + 1)
            )
            seen = []
            for table in round_draw.tables:
                assert table.team_a < table.team_b
                seen += draw.partnerships[table.team_a] + draw.partnerships[table.team_b]
                meetings[(table.team_a, table.team_b)] += 1
            if round_draw.sitout_partnership is not None:
                seen += draw.partnerships[round_draw.sitout_partnership]
                sitout_teams[round_draw.sitout_partnership] += 1
            if draw.sitout_player is not None:
                seen.append(draw.sitout_player)
            assert sorted(seen) == present
            has_bye = playing % 4 == 2
            assert (round_draw.sitout_partnership is not None) == has_bye
        # Sit-out partnerships rotate evenly within the session.
        if sitout_teams:
            counts = [sitout_teams.get(t, 0) for t in range(len(draw.partnerships))]
            assert sum(counts) == rounds
            assert max(counts) - min(counts) <= 1
        # Opponents within the session: no repeat while at least five partnerships play.
        playing_teams = 2 * len(draw.rounds[0].tables)
        if playing_teams >= 5 and rounds <= playing_teams - 1:
            assert max(meetings.values()) == 1, meetings.most_common(3)
        # Sit-outs go to the players with the fewest rounds sat out so far.
        counts_before = {p: before.sitouts.get(p, 0) for p in present}
        sitters = sitters_of(draw)
        others = set(present) - sitters
        if sitters and others:
            assert max(counts_before[p] for p in sitters) <= min(counts_before[p] for p in others)
        # Nobody sits out twice while a present player has not sat out at all.
        if any(counts_before[p] > 0 for p in sitters):
            assert all(p in sitters for p in present if counts_before[p] == 0)
    # No partner twice in the evening.
    assert max(partner_count.values()) == 1, [k for k, v in partner_count.items() if v > 1]
    return final


# --- determinism ---------------------------------------------------------------------------------


def test_same_seed_gives_identical_draw():
    players = list(range(1, 31))
    first, _ = play_evening(players, seed=42)
    second, _ = play_evening(players, seed=42)
    assert [d for _, d in first] == [d for _, d in second]


def test_player_order_does_not_change_the_draw():
    players = list(range(1, 23))
    shuffled = players[:]
    random.Random(5).shuffle(shuffled)
    assert draw_session(players, History(), 4, random.Random(9)) == draw_session(
        shuffled, History(), 4, random.Random(9)
    )


def test_different_seeds_usually_give_different_draws():
    players = list(range(1, 25))
    draws = {draw_session(players, History(), 4, random.Random(seed)) for seed in range(10)}
    # SessionDraw is a frozen dataclass of tuples, so it is hashable.
    assert len(draws) == 10


_HASHSEED_SCRIPT = """
import random
from scoring.domain.draw import History, draw_session, history_after
players = ["Anke", "Boy", "Christa", "Dirk", "Elke", "Frerk", "Gesa", "Hauke", "Inken", "Jan",
           "Kerrin", "Lorenz", "Momme", "Nahne"]
rng = random.Random(2020)
history = History()
for _ in range(3):
    draw = draw_session(players, history, 4, rng)
    print(draw)
    history = history_after(history, draw)
"""


def test_draw_does_not_depend_on_string_hashing():
    """String ids with different PYTHONHASHSEED values give the same evening."""
    outputs = set()
    for hashseed in ("0", "1", "4711"):
        env = {**os.environ, "PYTHONHASHSEED": hashseed, "PYTHONPATH": str(ROOT)}
        result = subprocess.run(
            [sys.executable, "-c", _HASHSEED_SCRIPT],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        outputs.add(result.stdout)
    assert len(outputs) == 1


# --- the rules, for many player counts ---------------------------------------------------------


@pytest.mark.parametrize("n", [*range(4, 41), 60, 101, 200])
def test_evening_of_three_sessions_keeps_all_rules(n):
    for seed in range(2):
        check_evening(list(range(100, 100 + n)), seed=seed)


def test_26_players_twelve_sitout_partnerships_are_24_different_players():
    players = list(range(1, 27))
    played, final = play_evening(players, sessions=3, rounds=4, seed=3)
    sitting = []
    for _, draw in played:
        assert draw.sitout_player is None
        for round_draw in draw.rounds:
            sitting += draw.partnerships[round_draw.sitout_partnership]
    assert len(sitting) == 24
    assert len(set(sitting)) == 24
    assert sorted(Counter(final.sitouts.values()).items()) == [(1, 24)]


def test_odd_count_rotates_the_session_sitout():
    players = list(range(1, 10))  # 9: one player out per session, 8 play, no byes
    played, final = play_evening(players, sessions=3, seed=1)
    session_sitters = [draw.sitout_player for _, draw in played]
    assert len(set(session_sitters)) == 3
    assert all(final.sitouts[p] == 4 for p in session_sitters)


def test_four_partnerships_spread_unavoidable_repeats_evenly():
    # 8 players, 4 rounds: three rounds meet everybody once, the fourth must repeat one round.
    draw = draw_session(list(range(8)), History(), 4, random.Random(7))
    meetings = Counter((t.team_a, t.team_b) for r in draw.rounds for t in r.tables)
    assert len(meetings) == 6
    assert sorted(meetings.values()) == [1, 1, 1, 1, 2, 2]


def test_byes_with_four_playing_partnerships_still_avoid_repeats():
    # 10 players: 5 partnerships, one sits out each round; a round robin of five has no repeat.
    for seed in range(10):
        draw = draw_session(list(range(10)), History(), 4, random.Random(seed))
        meetings = Counter((t.team_a, t.team_b) for r in draw.rounds for t in r.tables)
        assert max(meetings.values()) == 1


def test_full_round_robin_of_partners_for_eight_players():
    # 7 sessions: every player partners each of the other 7 exactly once.
    final = check_evening(list(range(8)), sessions=7, rounds=4, seed=11)
    assert len(final.partners) == 28


def test_individual_opponent_repeats_are_avoided_when_there_is_room():
    final = check_evening(list(range(60)), seed=4)
    assert max(final.opponents.values()) == 1


def test_individual_opponent_repeats_stay_low_for_a_club_evening():
    # 24 players meet 24 opponents in 12 rounds among 23 others: some repeats are forced.
    final = check_evening(list(range(24)), seed=8)
    assert max(final.opponents.values()) <= 2


def test_arrivals_and_leavers_between_sessions():
    rng = random.Random(12)
    history = History()
    evenings = [list(range(1, 17)), list(range(1, 20)), list(range(3, 20))]
    for players in evenings:
        draw = draw_session(players, history, 4, rng)
        for team in draw.partnerships:
            assert frozenset(team) not in history.partners
        zero = {p for p in players if history.sitouts.get(p, 0) == 0}
        sitters = sitters_of(draw)
        if any(history.sitouts.get(p, 0) > 0 for p in sitters):
            assert zero <= sitters
        history = history_after(history, draw)


def test_history_after_counts_partners_opponents_and_sitouts():
    draw = SessionDraw(
        partnerships=((1, 2), (3, 4), (5, 6)),
        sitout_player=7,
        rounds=(
            RoundDraw(1, (Table(1, 0, 1),), 2),
            RoundDraw(2, (Table(1, 0, 2),), 1),
        ),
    )
    before = History(
        partners=frozenset({frozenset({1, 3})}),
        opponents={frozenset({1, 3}): 2},
        sitouts={7: 1, 5: 1},
    )
    after = history_after(before, draw)
    assert after.partners == frozenset(
        {frozenset({1, 3}), frozenset({1, 2}), frozenset({3, 4}), frozenset({5, 6})}
    )
    assert after.opponents[frozenset({1, 3})] == 3
    assert after.opponents[frozenset({2, 4})] == 1
    assert after.opponents[frozenset({1, 5})] == 1
    assert frozenset({3, 5}) not in after.opponents
    assert after.sitouts == {7: 3, 5: 2, 6: 1, 3: 1, 4: 1}
    assert before.opponents == {frozenset({1, 3}): 2}  # input unchanged


def test_history_of_absent_players_is_ignored():
    history = History(
        partners=frozenset({frozenset({1, 99})}),
        opponents={frozenset({1, 99}): 5},
        sitouts={99: 0},
    )
    draw = draw_session([1, 2, 3, 4], history, 3, random.Random(0))
    assert len(draw.partnerships) == 2


# --- property test -------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(min_value=4, max_value=120),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    sessions=st.integers(min_value=1, max_value=3),
    rounds=st.integers(min_value=1, max_value=5),
)
def test_property_rules_hold_for_any_count_and_seed(n, seed, sessions, rounds):
    check_evening(list(range(1000, 1000 + n)), sessions=sessions, rounds=rounds, seed=seed)


# --- errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [0, 1, 3])
def test_fewer_than_four_players(count):
    with pytest.raises(DrawError) as info:
        draw_session(list(range(count)), History(), 4, random.Random(0))
    assert info.value.code == "too_few_players"
    assert info.value.params == {"count": count}
    assert str(info.value) == (
        f"At least 4 players are needed for one table; {count} are checked in."
    )


def test_duplicate_player_ids():
    with pytest.raises(DrawError) as info:
        draw_session([1, 2, 3, 4, 3], History(), 4, random.Random(0))
    assert info.value.code == "duplicate_player"
    assert info.value.params == {"player": 3}


@pytest.mark.parametrize("rounds", [0, -1, 2.5, True])
def test_invalid_rounds(rounds):
    with pytest.raises(DrawError) as info:
        draw_session([1, 2, 3, 4], History(), rounds, random.Random(0))
    assert info.value.code == "invalid_rounds"


def test_error_codes_are_distinct_and_messages_have_placeholders():
    errors = []
    for args in (([1, 1, 2, 3], 4), ([1, 2], 4), ([1, 2, 3, 4], 0)):
        with pytest.raises(DrawError) as info:
            draw_session(args[0], History(), args[1], random.Random(0))
        errors.append(info.value)
    assert len({e.code for e in errors}) == 3
    assert all("%(" in e.message for e in errors)
