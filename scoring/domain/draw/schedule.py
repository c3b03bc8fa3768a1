"""The tables of every round of one session: which teams meet (opponents change from round to
round), for teams of two and of three alike. The best of several randomised round-by-round
schedules (each round a minimum-cost matching) and a round robin (circle method); see
:mod:`scoring.domain.draw.pairs`, rules 3 and 4 and "How".
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from scoring.domain.draw.input import Pair, Team, same_club, sorted_pair
from scoring.domain.draw.matching import EXACT_MATCHING_MAX_NODES, min_cost_matching

Schedule = list[list[Pair]]


def _greedy_attempts(playing_teams: int) -> int:
    """How many randomised round-by-round schedules to build (cost grows with size)."""
    if playing_teams <= 16:
        return 12
    if playing_teams <= EXACT_MATCHING_MAX_NODES:
        return 3
    return 2


def schedule_rounds(
    teams: Sequence[Team],
    cycle: Sequence[int],
    byes: bool,
    rounds: int,
    met: Mapping[Pair, int],
    rng: random.Random,
    club: Sequence[str] | None = None,
    attempts: int | None = None,
) -> Schedule:
    """The tables (pairs of team indices) of every round: the best of several candidates.

    ``attempts`` randomised round-by-round schedules are built (default:
    :func:`_greedy_attempts`), and the round robin is a candidate too.
    """
    team_count = len(teams)
    playing = [[t for t in range(team_count) if not byes or t != cycle[r % team_count]] for r in range(rounds)]
    best: tuple[tuple[int, ...], Schedule] | None = None
    for _ in range(_greedy_attempts(len(playing[0])) if attempts is None else attempts):
        schedule = _greedy_schedule(teams, playing, met, rng, club)
        score = schedule_score(schedule, teams, met, club)
        if best is None or score < best[0]:
            best = (score, schedule)
        if not any(score):
            return schedule
    schedule = _round_robin_schedule(cycle, byes, rounds)
    score = schedule_score(schedule, teams, met, club)
    assert best is not None
    if score < best[0]:
        best = (score, schedule)
    return best[1]


def _greedy_schedule(
    teams: Sequence[Team],
    playing: Sequence[Sequence[int]],
    met: Mapping[Pair, int],
    rng: random.Random,
    club: Sequence[str] | None = None,
) -> Schedule:
    """Round by round: a minimum-cost matching given the meetings of the rounds before.

    With ``club``, every unit of the cost above outweighs all same-club opponents of the
    round, which come last.
    """
    meetings: dict[Pair, int] = {}
    local: dict[Pair, int] = {}
    top_met = max(met.values(), default=0)
    table_pairs = len(teams[0]) ** 2  # pairs of opponents at a table: 4, or 9 for teams of three
    schedule: Schedule = []
    for round_index, nodes in enumerate(playing):
        # A session meeting outweighs all individual repeats of a round.
        session_weight = 1 + table_pairs * (len(nodes) // 2) * _repeat_cost(top_met + round_index)
        club_scale = 1 + table_pairs * (len(nodes) // 2)

        def cost(
            i: int,
            j: int,
            nodes: Sequence[int] = nodes,
            weight: int = session_weight,
            club_scale: int = club_scale,
        ) -> int:
            a, b = nodes[i], nodes[j]
            total = weight * meetings.get((a, b), 0)
            for x in teams[a]:
                for y in teams[b]:
                    key = sorted_pair(x, y)
                    total += _repeat_cost(met.get(key, 0) + local.get(key, 0))
            if club is not None:
                total = total * club_scale + _table_clubs(club, teams[a], teams[b])
            return total

        matching = min_cost_matching(len(nodes), cost, rng)
        assert matching is not None  # every pair of partnerships may meet
        tables = [(nodes[i], nodes[j]) for i, j in matching]
        for a, b in tables:
            meetings[(a, b)] = meetings.get((a, b), 0) + 1
            for x in teams[a]:
                for y in teams[b]:
                    key = sorted_pair(x, y)
                    local[key] = local.get(key, 0) + 1
        schedule.append(tables)
    return schedule


def _round_robin_schedule(cycle: Sequence[int], byes: bool, rounds: int) -> Schedule:
    """The circle-method round robin, teams numbered by ``cycle``.

    With byes a dummy team is added; in round ``r`` it meets ``cycle[r % len(cycle)]``, which
    is exactly the team that sits out. No two teams meet twice in the first ``nodes - 1``
    rounds; later rounds repeat the cycle, which spreads unavoidable repeats evenly.
    """
    team_count = len(cycle)
    nodes = team_count + 1 if byes else team_count
    period = nodes - 1
    schedule: Schedule = []
    for r in range(rounds):
        k = r % period
        circle = [(k, nodes - 1)]
        circle += [((k + i) % period, (k - i) % period) for i in range(1, nodes // 2)]
        tables = [sorted_pair(cycle[a], cycle[b]) for a, b in circle if a < team_count and b < team_count]
        schedule.append(sorted(tables))
    return schedule


def _repeat_cost(earlier: int) -> int:
    """Cost of one more meeting of two players who have met ``earlier`` times as opponents."""
    return earlier * earlier


def _table_clubs(club: Sequence[str], team_a: Team, team_b: Team) -> int:
    """Opponents from the same club at a table of ``team_a`` and ``team_b`` (0 to 4, or 9)."""
    return sum(same_club(club, x, y) for x in team_a for y in team_b)


def schedule_score(
    schedule: Schedule,
    teams: Sequence[Team],
    met: Mapping[Pair, int],
    club: Sequence[str] | None = None,
) -> tuple[int, ...]:
    """(repeated meetings of partnerships in the session, repeated meetings of individuals).

    The first is the sum over pairs of partnerships of ``m * (m - 1) / 2`` for their ``m``
    meetings in the session; the second adds :func:`_repeat_cost` for every meeting of two
    players at a table, counting their meetings earlier in the evening. With ``club`` a third
    element counts same-club opponents. Lower is better, compared as a tuple (the session
    comes first).
    """
    meetings: dict[Pair, int] = {}
    local: dict[Pair, int] = {}
    session_cost = individual_cost = club_cost = 0
    for tables in schedule:
        for a, b in tables:
            if club is not None:
                club_cost += _table_clubs(club, teams[a], teams[b])
            session_cost += meetings.get((a, b), 0)
            meetings[(a, b)] = meetings.get((a, b), 0) + 1
            for x in teams[a]:
                for y in teams[b]:
                    key = sorted_pair(x, y)
                    individual_cost += _repeat_cost(met.get(key, 0) + local.get(key, 0))
                    local[key] = local.get(key, 0) + 1
    if club is not None:
        return session_cost, individual_cost, club_cost
    return session_cost, individual_cost
