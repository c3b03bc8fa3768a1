"""Plan the evening, draw the session: the sessions left of an evening planned together, so that
players meet the same opponents again as rarely as possible (teams of two, and teams of three for
six-handed Bräus).

:func:`plan_evening` plans every session still to be drawn (partnerships, sit-outs and the
tables of every round) and returns the plan; the app seats only its first session. The next
draw plans the sessions left again, from what was really played (late arrivals, leavers,
swaps and replacements change the roster), so the evening is still drawn session by session.

What is optimised, in this order of priority (a unit of each outweighs everything below it):

0. **Hard rules**, never bent by the search: the wishes "not together" (``forbidden``) and the
   sit-out rotation of :mod:`scoring.domain.draw.pairs` rule 1 (who sits out a whole session
   and how many partnerships sit out a round come from the rotation, planned session after
   session; the search moves a player to a partnership that sits out more or less only if the
   player and the one taking the seat had sat out equally often, and the rotation still holds
   in every later planned session).
1. **No repeated partner** over the evening (history and plan).
2. **No two partnerships meet twice in a session** (where the rounds allow it).
3. With "mix clubs": **no partners from the same club**.
4. **Few repeated opponents over the evening**: two players who sit at one table on opposite
   teams ``c`` times in the evening (earlier sessions included) count ``c - 1``; with "mix
   clubs" each same-club opponent at a table counts a quarter of a repeat.

How: the start is today's draw, session by session (:func:`scoring.domain.draw.draw_session`
for each session left, each folded into the history for the next): the plan is never worse
than that. Then simulated annealing over the whole plan (:mod:`scoring.domain.draw.annealing`)
with three moves: exchange two players between two partnerships of one session (see rule 0 for
the sit-outs), exchange the opponents of two tables of one round, and exchange the rounds in
which two partnerships sit out. Every move is evaluated incrementally (only the tables it
touches), and the best plan seen is returned. The search stops at an iteration cap or at a
time budget (:class:`PlanBudget`), whichever comes first; the cooling follows the iterations,
so the same seed and history give the same plan whenever the iteration cap is reached within
the time budget.

Determinism and randomness: all randomness comes from the ``random.Random`` passed in; among
plans of equal cost the search is random, so the same roster on two evenings (two seeds) gives
different evenings.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from scoring.domain.draw.annealing import UNIT, PlanSearch
from scoring.domain.draw.input import DrawInput, History, PlayerId, indexed_input
from scoring.domain.draw.pairs import draw_session
from scoring.domain.draw.result import RoundDraw, SessionDraw, TableDraw, history_after, pairs_within
from scoring.domain.draw.stored import stored_start
from scoring.domain.draw.threes import draw_session_threes

__all__ = [
    "ITERATIONS_PER_SECOND",
    "EveningPlan",
    "PlanBudget",
    "evening_repeats",
    "plan_evening",
    "plan_fits",
    "plan_from_json",
    "plan_to_json",
]

ITERATIONS_PER_SECOND = 160_000
"""Moves the search tries in a second on an idle machine (measured: about 5 to 6 microseconds of
CPU a move for 22 to 26 players with Python 3.11); :meth:`PlanBudget.of` caps the moves at this rate,
so that on an idle machine the cap, not the clock, ends the search and the plan is reproducible."""


@dataclass(frozen=True)
class PlanBudget:
    """How long the search may run: whichever limit comes first ends it.

    Attributes:
        seconds: wall-clock time in seconds (a safety limit; the search returns the best plan
            found so far when it is reached, so on a busy machine the plan depends on time).
        iterations: moves tried; the cooling schedule follows them. 0 returns today's draw.
    """

    seconds: float = 4.5
    iterations: int = int(4.5 * ITERATIONS_PER_SECOND)

    @classmethod
    def of(cls, seconds: float, per_second: int = ITERATIONS_PER_SECOND) -> PlanBudget:
        """A budget of ``seconds``, the moves capped at ``per_second`` a second."""
        return cls(seconds=seconds, iterations=max(0, int(seconds * per_second)))


@dataclass(frozen=True)
class EveningPlan:
    """The plan of the sessions left.

    Attributes:
        sessions: the planned sessions in order; ``sessions[0]`` is the one to draw now.
        repeats: repeated opponents over the whole evening if it is played as planned (the
            history's meetings included): the sum of ``c - 1`` over pairs meeting ``c`` times.
        baseline_repeats: the same for today's session-by-session draw, the search's start.
        iterations: moves tried by the search.
    """

    sessions: tuple[SessionDraw, ...]
    repeats: int
    baseline_repeats: int
    iterations: int


def evening_repeats(history: History, draws: Iterable[SessionDraw]) -> int:
    """Repeated opponents of the evening: ``history`` with ``draws`` played after it."""
    for draw in draws:
        history = history_after(history, draw)
    return sum(c - 1 for c in history.opponents.values() if c > 1)


def plan_evening(
    players: Sequence[PlayerId],
    history: History,
    rounds: int,
    sessions: int,
    rng: random.Random,
    *,
    budget: PlanBudget | None = None,
    clock: Callable[[], float] = time.perf_counter,
    stop_at: int | None = None,
    start: Sequence[SessionDraw] = (),
    team_size: int = 2,
    forbidden: Iterable[Collection[PlayerId]] = (),
    clubs: Mapping[PlayerId, str] | None = None,
    stand_ins: Collection[PlayerId] = (),
) -> EveningPlan:
    """Plan the ``sessions`` sessions left of an evening; draw the first.

    Args:
        players: the players present now (they are assumed to stay for the sessions left).
        history: what was played earlier this evening.
        rounds: rounds per session (>= 1).
        sessions: sessions left to plan, this one included (>= 1).
        rng: the only random source.
        budget: the search's limits (default :class:`PlanBudget()`).
        clock: seconds, for the time budget (tests may pass a fake clock).
        stop_at: repeated opponents over the evening at which the search may stop early (a
            lower bound, e.g. :func:`scoring.domain.fairness.opponent_repeat_lower_bound`).
        start: an earlier plan of the same sessions (the rest of the previous draw's plan, see
            :func:`plan_to_json`). It is a second starting point if it still fits: exactly the
            players present in every session, no repeated partner, no forbidden pair, teams of
            ``team_size``, and sit-outs that follow the rotation from the real history
            (:func:`plan_fits`). The search starts from the cheaper of it and today's draw.
        team_size: 2, or 3 for six-handed Bräus (today's draw is then
            :func:`scoring.domain.draw.draw_session_threes`; teammates count as partners).
        forbidden, clubs, stand_ins: the wishes, as for :func:`scoring.domain.draw.draw_session`.

    Returns:
        The :class:`EveningPlan`; ``plan.sessions[0]`` obeys every rule of
        :func:`scoring.domain.draw.draw_session` (or :func:`~scoring.domain.draw.draw_session_threes`).

    Raises:
        DrawError: as :func:`scoring.domain.draw.draw_session` (checked before any search).
    """
    budget = budget or PlanBudget()
    began = clock()
    sessions = max(1, sessions)
    wishes = {"forbidden": [tuple(pair) for pair in forbidden], "clubs": clubs, "stand_ins": tuple(stand_ins)}
    baseline = _todays_draws(players, history, rounds, sessions, rng, team_size, wishes)
    baseline_repeats = evening_repeats(history, baseline)
    if budget.iterations <= 0:
        return EveningPlan(tuple(baseline), baseline_repeats, baseline_repeats, 0)
    given = indexed_input(players, history, rounds, 2 * team_size, **wishes)  # type: ignore[arg-type]
    search = PlanSearch(given.present, given.met, given.partnered, given.barred, given.club, baseline, given.sitouts)
    baseline_cost = search.cost
    starts = [start]
    if not given.met and not given.partnered:  # nobody has played: the stored plan for the field
        blocked = given.barred

        def fits(draws: list[SessionDraw]) -> bool:
            return plan_fits(draws, given.present, given.sitouts, blocked, rounds, sessions, team_size)

        starts.append(stored_start(given.present, rounds, sessions, team_size, rng, fits))
    search = _cheapest_start(search, given, starts, rounds, sessions, team_size)
    target = None if stop_at is None else UNIT * stop_at + search.club_floor
    iterations = search.anneal(rng, budget.iterations, began + budget.seconds, clock, target)
    planned = search.best_draws()
    repeats = evening_repeats(history, planned)
    if search.best_cost > baseline_cost:  # pragma: no cover - a safety net: the best is never dearer than its start
        planned, repeats = baseline, baseline_repeats
    return EveningPlan(tuple(planned), repeats, baseline_repeats, iterations)


def _todays_draws(
    players: Sequence[PlayerId],
    history: History,
    rounds: int,
    sessions: int,
    rng: random.Random,
    team_size: int,
    wishes: dict,
) -> list[SessionDraw]:
    """Today's draw of the ``sessions`` sessions left, session by session, each folded into the
    history for the next: the search's start, and what the plan is never worse than."""
    baseline: list[SessionDraw] = []
    after = history
    today = draw_session_threes if team_size == 3 else draw_session
    for _ in range(sessions):
        draw = today(players, after, rounds, random.Random(rng.getrandbits(64)), **wishes)
        baseline.append(draw)
        after = history_after(after, draw)
    return baseline


def _cheapest_start(
    search: PlanSearch,
    given: DrawInput,
    starts: Iterable[Sequence[SessionDraw]],
    rounds: int,
    sessions: int,
    team_size: int,
) -> PlanSearch:
    """``search`` (from today's draw), or the cheapest of ``starts`` (an earlier plan, a stored
    plan) that still fits and is cheaper."""
    blocked = given.partnered | given.barred
    for start in starts:
        if start and plan_fits(start, given.present, given.sitouts, blocked, rounds, sessions, team_size):
            other = PlanSearch(
                given.present, given.met, given.partnered, given.barred, given.club, start, given.sitouts
            )
            if other.cost < search.cost:
                search = other
    return search


def plan_fits(
    draws: Sequence[SessionDraw],
    present: Sequence[PlayerId],
    sitouts: Sequence[int],
    blocked: Collection[tuple[int, int]],
    rounds: int,
    sessions: int,
    team_size: int = 2,
) -> bool:
    """Whether a plan (e.g. the rest of an earlier one) is still a valid plan of the sessions left.

    ``present`` are the players (sorted; index ``i`` is ``present[i]``), ``sitouts`` their rounds
    sat out so far (stand-ins lowered, as :class:`~scoring.domain.draw.input.DrawInput`),
    ``blocked`` the index pairs that may not be partners (earlier partners, forbidden pairs).
    True if there are ``sessions`` sessions of ``rounds`` rounds, each seating every present
    player exactly once in teams of ``team_size`` (or as the session's sit-out), every round seating
    every team once (at a table or sitting out), no pair in ``blocked`` or twice in the plan as
    partners, and the sit-outs following the rotation: a player who has sat out fewer rounds
    than another never sits out fewer rounds in the session.
    """
    if len(draws) != sessions:
        return False
    index = {p: i for i, p in enumerate(present)}
    used = set(blocked)
    after = list(sitouts)
    for draw in draws:
        sat = _session_sat_out(draw, index, rounds, used, team_size)
        if sat is None or not _rotates(after, sat):
            return False
        after = [a + d for a, d in zip(after, sat, strict=True)]
    return True


def _session_sat_out(
    draw: SessionDraw, index: Mapping[PlayerId, int], rounds: int, used: set[tuple[int, int]], team_size: int
) -> list[int] | None:
    """Rounds each player (index) sits out in ``draw``, or ``None`` if the session does not seat
    every player of ``index`` once in teams of ``team_size``, every team once a round, or repeats a
    partner from ``used`` (the session's partners are added to ``used``)."""
    teams = draw.partnerships
    seated = [p for team in teams for p in team] + list(draw.sitout_players)
    if sorted(seated) != sorted(index) or any(len(team) != team_size for team in teams):
        return None
    if len(draw.sitout_players) != len(index) % team_size or len(draw.rounds) != rounds:
        return None
    pairs = [tuple(sorted((index[a], index[b]))) for team in teams for a, b in pairs_within(team)]
    if len(set(pairs)) < len(pairs) or set(pairs) & used:
        return None
    used.update(pairs)  # type: ignore[arg-type]
    sat = [0] * len(index)
    for p in draw.sitout_players:
        sat[index[p]] += rounds
    for round_draw in draw.rounds:
        seen = [t for table in round_draw.tables for t in (table.team_a, table.team_b)]
        if round_draw.sitout_partnership is not None:
            seen.append(round_draw.sitout_partnership)
            for p in teams[round_draw.sitout_partnership]:
                sat[index[p]] += 1
        if sorted(seen) != list(range(len(teams))) or len(seen) - len(round_draw.tables) * 2 > 1:
            return None
    return sat


def _rotates(before: Sequence[int], sat: Sequence[int]) -> bool:
    """Whether a player who sat out fewer rounds ``before`` never sits out fewer rounds (``sat``)."""
    levels: dict[int, list[int]] = {}
    for was, now in zip(before, sat, strict=True):
        levels.setdefault(was, []).append(now)
    lowest = None
    for level in sorted(levels):
        if lowest is not None and max(levels[level]) > lowest:
            return False
        lowest = min(levels[level]) if lowest is None else min(lowest, *levels[level])
    return True


def plan_to_json(draws: Sequence[SessionDraw]) -> list[dict]:
    """Planned sessions as JSON-ready data (to store a plan and resume it, :func:`plan_from_json`)."""
    return [
        {
            "partnerships": [list(team) for team in draw.partnerships],
            "sitout_players": list(draw.sitout_players),
            "rounds": [
                {
                    "tables": [[t.team_a, t.team_b] for t in round_draw.tables],
                    "sitout": round_draw.sitout_partnership,
                }
                for round_draw in draw.rounds
            ],
        }
        for draw in draws
    ]


def plan_from_json(data: object) -> list[SessionDraw]:
    """The sessions stored by :func:`plan_to_json`; an empty list for anything malformed."""
    try:
        return [
            SessionDraw(
                partnerships=tuple(tuple(int(p) for p in team) for team in item["partnerships"]),
                sitout_players=tuple(int(p) for p in item["sitout_players"]),
                rounds=tuple(
                    RoundDraw(
                        number=r,
                        tables=tuple(
                            TableDraw(number=k, team_a=int(a), team_b=int(b))
                            for k, (a, b) in enumerate(round_item["tables"], start=1)
                        ),
                        sitout_partnership=None if round_item["sitout"] is None else int(round_item["sitout"]),
                    )
                    for r, round_item in enumerate(item["rounds"], start=1)
                ),
            )
            for item in data  # type: ignore[attr-defined]
        ]
    except (TypeError, KeyError, ValueError):
        return []
