"""The draw of one session of six-handed Bräus: teams of three at tables of six.

Source: *Bräus* (Gotland) ("Bräus is a partnership game for either two teams of two with
partners sitting opposite, or two teams of three with partners alternating") and *Bräus*
(encyclopedia), "Playing" ("if six play, the team players sit alternately"); the tournament
format is ours, docs/rules.md, "Six-handed Bräus": teams of three at tables of six, nobody in
the same team twice whenever the numbers allow, sit-outs credited as in the four-handed game.
The result has the shape of the draw for teams of
two (:class:`scoring.domain.draw.SessionDraw`), with three players a partnership.

What the draw guarantees, in this order of priority:

0. **Not together** (``forbidden``): two players of a forbidden pair are never in one team.
   If that is impossible, :class:`~scoring.domain.draw.DrawError` names the players; if it is
   only impossible under the usual sit-out order, the order is bent as little as possible.
1. **Sit-outs rotate**, as in :mod:`scoring.domain.draw.pairs` rule 1: ``n % 3`` players sit out
   the whole session; with an odd number of teams one team sits out each round (each team at
   most once per session when there are at least as many teams as rounds). Sit-outs are
   counted in rounds and go to the present players with the fewest rounds sat out so far,
   ties at random; stand-ins sit out before ranked players; the teams that sit out a round are
   formed from the players due to sit out.
2. **Nobody in the same team twice** in an evening whenever the numbers allow it: a repeated
   teammate costs more than everything below (measured: 26 and 31 players over 3 sessions
   never repeat one, see below). With very few players (say 7 over 3 sessions) repeats are
   unavoidable; they are then kept few, never an error.
3. **Mix clubs** (``clubs``): teammates from the same club cost extra (after repeated
   teammates); same-club opponents at a table are kept few by the table schedule.
4. **Few repeated opponents**: teams whose members have met few different opponents between
   them are preferred (up to :data:`~scoring.domain.draw.formation.PLAN_OPPONENTS_MAX_PLAYERS`
   players), and the tables of every round are scheduled exactly as for teams of two
   (:func:`scoring.domain.draw.schedule.schedule_rounds`): two teams never meet twice in a session
   when the rounds allow it, and a meeting of two players who met ``c`` times before costs
   ``c * c``.

How: the teams are found by local search. The players are ranked by the sit-out rotation
(:func:`scoring.domain.draw.formation.sitout_groups` with ``team_size=3``), each group is cut into
random triples, and then two players in different teams (or in a team and among the
session's sit-outs) are exchanged as long as an exchange lowers the cost (forbidden pairs,
then the sit-out order, then repeated teammates, same-club teammates and the opponent
planning, in that order of weight). Exchanging two players with the same rounds sat out never
changes the sit-out order, so the search is free among the ties of the rotation; exchanges
that bend the order only pay off while a forbidden pair is left. Several randomised attempts
are made and the best kept. Up to 48 players the teams are drawn :data:`_FORMATIONS` times and
each gets a table schedule; the draw with the best schedule wins (fewer repeated opponents;
more greedy table schedules per formation hardly helped, more formations did).

Measured over 200 evenings (seeds 0-199, 3 sessions of 4 rounds, the tests' ``play_evening``):

- 26 players (8 teams, 2 sit out each session): no repeated teammate in any evening;
  repeated opponents 10.7 per player on average (10.0 pairs meet three times or more an
  evening), against a lower bound of 8.2 from
  :func:`scoring.domain.fairness.opponent_repeat_lower_bound` (each player meets 3
  opponents a round, so 36 meetings among 25 others: repeats are unavoidable).
- 31 players (10 teams, 1 sits out each session): no repeated teammate; 8.6 repeated
  opponents per player (bound 4.8; 2.5 pairs meet three times or more). With one formation
  and 12 greedy schedules instead, 10.9 and 8.9.
- Speed (one session, on the shared two-core test machine): 31 players 0.2 to 0.3 s, 48
  players about 1 s, 120 players about 1.5 s (mostly the exact matching of 40 teams in
  networkx), 300 players 0.05 s (no opponent planning above 120 players).

Limitations (measured, 40 seeds each, 3 sessions):

- Repeated teammates are unavoidable for 6 and 7 players (5 and 3 repeated pairs an
  evening). With 9 to 11 players they come from the sit-out rotation, which goes first:
  with an odd number of teams the team that sits out twice in the next session must be
  formed from the players with the fewest rounds sat out, who were in too few earlier teams
  to avoid each other (9 players: 6 repeated pairs an evening, 10 players 2, 11 players 3).
  From 12 to 45 players (20 seeds each) and with 8 none was measured, except 17 players:
  one repeated pair in the third session of every evening, again forced by the rotation (the
  one team that plays all rounds of session 3 must be three of the four players who sat out
  most, two of whom had to be in one team before).
- The team draw looks back only: unlike the draw for teams of two it does not check that a
  repeat-free later session stays possible (measured unnecessary from 12 players on). The
  tables are the greedy round-by-round schedule of :mod:`scoring.domain.draw.schedule` (a round robin
  is a candidate too), so the repeated opponents stay above the lower bound (see above).
- A forbidden pair the local search cannot resolve raises the error, even if some exotic
  draw would avoid it; the local search is restarted several times, and with a few wishes
  this was not seen in the tests.

The app draws teams of three through the evening planner
(:func:`scoring.domain.draw.plan_evening` with ``team_size=3``), which starts from this draw,
session by session, and lowers the repeated opponents over the evening.

Determinism: all randomness comes from the ``random.Random`` passed in; the same seed and
input give the same draw on every Python run.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Unpack

from scoring.domain.draw.formation import (
    PLAN_OPPONENTS_MAX_PLAYERS,
    Formation,
    numbered_formation,
    opponents_seen,
    partnering_error,
    sitout_groups,
)
from scoring.domain.draw.input import DrawWishes, History, Pair, PlayerId, indexed_input
from scoring.domain.draw.result import SessionDraw, pairs_within, session_draw
from scoring.domain.draw.schedule import Schedule, schedule_rounds, schedule_score

__all__ = ["TEAM_SIZE", "draw_session_threes"]

TEAM_SIZE = 3
"""Players a team in six-handed Bräus."""

# Randomised attempts at the teams (stops at the first attempt without any defect).
_ATTEMPTS_SMALL = 12
_ATTEMPTS_LARGE = 3
_SMALL = 48
# Up to _SMALL players, the teams are drawn this many times and the best table schedule kept.
_FORMATIONS = 4
# Randomised round-by-round schedules per formation (more hardly helps with teams of three).
_SCHEDULE_ATTEMPTS = 3
# Upper limit of improvement passes of the local search.
_MAX_PASSES = 60


def draw_session_threes(
    players: Sequence[PlayerId],
    history: History,
    rounds: int,
    rng: random.Random,
    **wishes: Unpack[DrawWishes],
) -> SessionDraw:
    """Draw teams of three, sit-outs and tables of six of one session (six-handed Bräus).

    Args:
        players: the players present for this session, in any order.
        history: what happened earlier this evening; ``partners`` are pairs of players who
            were in one team (:func:`scoring.domain.draw.history_after` records every pair of
            a team of three).
        rounds: number of rounds in the session, at least 1.
        rng: the only random source used; the same seed and input give the same draw.
        **wishes: keyword-only, each optional, meaning what they mean for
            :func:`scoring.domain.draw.draw_session`: ``forbidden`` (pairs never in one
            team, a hard constraint), ``clubs`` (player -> club: teammates, then opponents
            from the same club kept few) and ``stand_ins`` (not ranked; they sit out before
            ranked players).

    Returns:
        A :class:`~scoring.domain.draw.SessionDraw` whose partnerships are sorted triples of
        player ids, whose ``sitout_players`` are the ``len(players) % 3`` players sitting out
        the whole session, and whose rounds have tables of two teams (six players) and, with
        an odd number of teams, one sit-out team each. Every player appears exactly once per
        round.

    Raises:
        DrawError: ``duplicate_player``; ``too_few_players`` with fewer than 6 players;
            ``invalid_rounds``; ``partner_impossible``, ``partners_too_few`` or
            ``wishes_impossible`` if the ``forbidden`` pairs leave no way to form the teams
            (the error's ``player_ids`` names the players).
        TypeError: for a keyword argument that is not one of the wishes.
    """
    given = indexed_input(players, history, rounds, 2 * TEAM_SIZE, **wishes)
    size = len(given.present)
    plan = bool(given.met) and size <= PLAN_OPPONENTS_MAX_PLAYERS
    costs = _TeamCosts(
        partnered=given.partnered,
        barred=given.barred,
        club=given.club,
        seen=opponents_seen(size, given.met) if plan else None,
        size=size,
    )
    best: tuple[tuple[int, tuple[int, ...]], Formation, Schedule] | None = None
    for _ in range(_FORMATIONS if size <= _SMALL else 1):
        found = _form_teams(size, given.sitouts, rounds, rng, costs)
        if found is None:
            raise partnering_error(given.present, given.barred, team_size=TEAM_SIZE)
        defects, formation = found
        schedule = schedule_rounds(
            formation.teams, formation.cycle, formation.byes, rounds, given.met, rng, given.club, _SCHEDULE_ATTEMPTS
        )
        score = (defects, schedule_score(schedule, formation.teams, given.met, given.club))
        if best is None or score < best[0]:
            best = (score, formation, schedule)
    assert best is not None
    return session_draw(given.present, best[1], best[2])


class _TeamCosts:
    """The cost of a team of three (player indices); the weights order the priorities.

    One unit of a weight outweighs everything of the lower weights together (for all teams):
    forbidden pair > sit-out order (used by :func:`_improve`) > repeated teammate > same-club
    teammates > the opponent planning (players the team has met, at most ``size`` a team).
    """

    def __init__(
        self,
        partnered: set[Pair],
        barred: set[Pair],
        club: Sequence[str] | None,
        seen: Sequence[set[int]] | None,
        size: int,
    ) -> None:
        self.club_weight = size * size + 1
        self.repeat_weight = self.club_weight * (size + 1)
        self.rotation_weight = self.repeat_weight * (size + 1)
        self.forbidden_weight = self.rotation_weight << 96
        # The cost of two players in one team, for the pairs that cost anything.
        self.pairs: dict[Pair, int] = {}
        for pair in partnered:
            self.pairs[pair] = self.pairs.get(pair, 0) + self.repeat_weight
        for pair in barred:
            self.pairs[pair] = self.pairs.get(pair, 0) + self.forbidden_weight
        if club is not None:
            members: dict[str, list[int]] = {}
            for player, name in enumerate(club):
                if name:
                    members.setdefault(name, []).append(player)
            for group in members.values():
                for pair in pairs_within(group):
                    self.pairs[pair] = self.pairs.get(pair, 0) + self.club_weight
        self.club = club
        # The players each one has met, as a bit set (bit ``i`` for player index ``i``).
        self.seen = None if seen is None else [sum(1 << q for q in met) for met in seen]

    def of(self, team: Sequence[int]) -> int:
        """The cost of ``team``; 0 for a group that is not a team (the session's sit-outs)."""
        if len(team) != TEAM_SIZE:
            return 0
        a, b, c = sorted(team)
        get = self.pairs.get
        total = get((a, b), 0) + get((a, c), 0) + get((b, c), 0)
        if self.seen is not None:
            seen = self.seen
            total += ((seen[a] | seen[b] | seen[c]) & ~((1 << a) | (1 << b) | (1 << c))).bit_count()
        return total

    def defective(self, total: int) -> bool:
        """Whether a total cost has a forbidden pair, a repeated teammate or a same-club pair."""
        return total >= self.club_weight if self.club is not None else total >= self.repeat_weight


def _form_teams(
    size: int, sitouts: Sequence[int], rounds: int, rng: random.Random, costs: _TeamCosts
) -> tuple[int, Formation] | None:
    """The session's sit-out players and teams: the best of several local searches.

    Returns the formation's defects (its cost in units of the club weight: forbidden pairs,
    bent sit-out order, repeated and same-club teammates; the opponent planning left out)
    and the formation, or ``None`` if every attempt leaves a forbidden pair in one team.
    """
    attempts = _ATTEMPTS_SMALL if size <= _SMALL else _ATTEMPTS_LARGE
    best: tuple[int, list[list[int]], list[int]] | None = None
    for _ in range(attempts):
        groups = sitout_groups(size, sitouts, rounds, rng, team_size=TEAM_SIZE)
        units = [list(groups.sitters)]
        increments = [rounds]
        for members, increment in ((groups.extra, groups.repeat + 1), (groups.other, groups.repeat)):
            shuffled = list(members)
            rng.shuffle(shuffled)
            for k in range(0, len(shuffled), TEAM_SIZE):
                units.append(shuffled[k : k + TEAM_SIZE])
                increments.append(increment)
        total = _improve(units, increments, sitouts, rng, costs)
        if best is None or total < best[0]:
            best = (total, units, increments)
        if not costs.defective(total):
            break
    assert best is not None
    total, units, increments = best
    if total >= costs.forbidden_weight:
        return None
    extra = [tuple(sorted(unit)) for unit, d in zip(units[1:], increments[1:], strict=True) if d > min(increments[1:])]
    other = [tuple(sorted(unit)) for unit, d in zip(units[1:], increments[1:], strict=True) if d == min(increments[1:])]
    byes = len(units[1:]) % 2 == 1
    return total // costs.club_weight, numbered_formation(tuple(sorted(units[0])), extra, other, byes, rng)


def _improve(
    units: list[list[int]],
    increments: Sequence[int],
    sitouts: Sequence[int],
    rng: random.Random,
    costs: _TeamCosts,
) -> int:
    """Exchange players between ``units`` (in place) while that lowers the total cost.

    ``units[k]`` sits out ``increments[k]`` rounds this session; moving player ``p`` from a
    unit of increment ``d`` to one of ``e`` changes the sit-out order's cost by
    ``sitouts[p] * (e - d)`` (lowest when the fewest rounds sat out get the most sit-outs).
    Returns the total cost, the sit-out order's excess included.
    """
    where = {p: u for u, unit in enumerate(units) for p in unit}
    unit_costs = [costs.of(unit) for unit in units]
    players = sorted(where)
    for _ in range(_MAX_PASSES):
        improved = False
        order = list(players)
        rng.shuffle(order)
        for p in order:
            u = where[p]
            if unit_costs[u] == 0:
                continue
            start = rng.randrange(len(players))
            for offset in range(len(players)):
                q = players[(start + offset) % len(players)]
                v = where[q]
                if v == u:
                    continue
                moved = (sitouts[p] - sitouts[q]) * (increments[v] - increments[u])
                new_u = [q if x == p else x for x in units[u]]
                new_v = [p if x == q else x for x in units[v]]
                cost_u, cost_v = costs.of(new_u), costs.of(new_v)
                if cost_u + cost_v + moved * costs.rotation_weight < unit_costs[u] + unit_costs[v]:
                    units[u], units[v] = new_u, new_v
                    unit_costs[u], unit_costs[v] = cost_u, cost_v
                    where[p], where[q] = v, u
                    improved = True
                    break
        if not improved:
            break
    # The sit-out order's excess over the best order (fewest sat out get the most sit-outs).
    given = sorted((increments[u] for u in where.values()), reverse=True)
    best = sum(s * d for s, d in zip(sorted(sitouts), given, strict=True))
    excess = sum(sitouts[p] * increments[u] for p, u in where.items()) - best
    return sum(unit_costs) + excess * costs.rotation_weight
