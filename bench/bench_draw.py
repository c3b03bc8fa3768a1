"""How fast the draw is, and how close it comes to the fewest possible repeated opponents.

Run: ``make bench`` or ``.venv/bin/python bench/bench_draw.py [--evenings N]``. Plain Python:
only the pure draw (``scoring.domain``), no Django and no database.

Prints, one figure per line:

- the time to draw one session (4 rounds) for 24, 60, 200 and 1000 players: the median of a
  few draws of the *third* session of an evening (the hardest: the history of two sessions
  must be respected), and the slowest of them (aim: 200 players < 0.5 s, 1000 < 5 s); the same
  for six-handed Bräus (teams of three) with 26, 31, 120 and 300 players (aim: 31 < 1 s, 300 < 5 s);
- over N simulated evenings (default 200) of 26 players, 3 sessions of 4 rounds: the average
  number of repeated individual opponents per player (a player who meets an opponent ``c``
  times counts ``c - 1``), against the lower bound per player, both the a priori bound for
  26 players (``opponent_repeat_lower_bound``) and the average bound for the partnerships
  and sit-outs actually drawn (``lower_bound``); and how many evenings had a pair of players
  meet three times or more, and a repeated partner;
- the evening plan (``plan_evening``, the draw as the app makes it) against today's
  session-by-session draw (``draw_session``) for 12, 16, 22, 26, 40 and 60 players, stable roster,
  3 sessions of 4 rounds, over N evenings each (``--plan-evenings``, default 200, or the
  environment variable ``BENCH_DRAW_EVENINGS``): repeated opponents of the evening (mean, min-max)
  for both, the a-priori bound, and the time of the first draw (which plans all sessions) and of
  the later draws (mean and slowest, wall clock and CPU), and the repeats of the stored plan the
  first draw starts from (``scoring.domain.draw.stored``; None where none is stored). The planner runs with the app's
  default budget (4.5 s for the first draw, 1.8 s later, the moves capped at
  ``ITERATIONS_PER_SECOND``, as the settings ``DRAW_PLAN_SECONDS_FIRST``,
  ``DRAW_PLAN_SECONDS_LATER`` and ``DRAW_PLAN_ITERATIONS_PER_SECOND``); each later draw resumes
  the rest of the previous plan, as the app does. On a busy shared machine ``--cpu-clock``
  counts the budget in CPU seconds of the process (what an idle machine gives); ``--jobs N``
  shares the evenings among N processes (each counts its own CPU seconds).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import sys
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scoring.domain.draw import (  # noqa: E402
    History,
    PlanBudget,
    draw_session,
    draw_session_threes,
    evening_repeats,
    history_after,
    plan_evening,
)
from scoring.domain.draw.stored import stored_repeats  # noqa: E402
from scoring.domain.fairness import (  # noqa: E402
    lower_bound,
    opponent_counts,
    opponent_repeat_lower_bound,
    repeated_opponents,
    rounds_of,
)


def time_third_session(players: int, repeat: int, draw=draw_session) -> tuple[float, float]:
    """Median and slowest time (seconds) to draw session 3 of an evening of ``players``
    (``draw``: teams of two, or :func:`draw_session_threes` for six-handed Bräus)."""
    times = []
    for seed in range(repeat):
        rng = random.Random(seed)
        ids = list(range(1, players + 1))
        history = History()
        for _ in range(2):
            history = history_after(history, draw(ids, history, 4, rng))
        start = time.perf_counter()
        draw(ids, history, 4, rng)
        times.append(time.perf_counter() - start)
    return statistics.median(times), max(times)


def simulate(evenings: int, players: int = 26, sessions: int = 3, rounds: int = 4) -> dict:
    repeats, bounds, triples, partner_repeats = [], [], 0, 0
    ids = list(range(1, players + 1))
    for seed in range(evenings):
        rng = random.Random(seed)
        history = History()
        played = []
        for number in range(1, sessions + 1):
            draw = draw_session(ids, history, rounds, rng)
            played += rounds_of(draw, number)
            history = history_after(history, draw)
        counts = opponent_counts(played)
        repeats.append(repeated_opponents(counts))
        bounds.append(lower_bound(played))
        triples += max(counts.values()) >= 3
        partner_repeats += len(history.partners) < sessions * (players // 2)
    per_player = 2 / players
    return {
        "repeats": statistics.mean(repeats) * per_player,
        "worst": max(repeats) * per_player,
        "bound_drawn": statistics.mean(bounds) * per_player,
        "bound": opponent_repeat_lower_bound(players, sessions, rounds) * per_player,
        "triples": triples,
        "partner_repeats": partner_repeats,
    }


PLAN_FIELDS = (12, 16, 22, 26, 40, 60)
FIRST_SECONDS = 4.5  # the default of DRAW_PLAN_SECONDS_FIRST
LATER_SECONDS = 1.8  # the default of DRAW_PLAN_SECONDS_LATER


def _plan_one_evening(
    players: int, seed: int, sessions: int = 3, rounds: int = 4, clock=time.perf_counter
) -> tuple[int, int, list[float], list[float]]:
    """One evening of ``players``: repeated opponents drawn by the planner (as the app draws: the
    first draw plans all sessions, each later one resumes the rest of the plan) and by today's
    session-by-session draw, same seed; the wall-clock and CPU seconds of each planner draw."""
    ids = list(range(1, players + 1))
    history = History()
    rng = random.Random(seed)
    for _ in range(sessions):
        draw = draw_session(ids, history, rounds, rng)
        history = history_after(history, draw)
    today = evening_repeats(history, [])
    history = History()
    rest: tuple = ()
    walls, cpus = [], []
    bound = opponent_repeat_lower_bound(players, sessions, rounds)
    for number in range(1, sessions + 1):
        budget = PlanBudget.of(FIRST_SECONDS if number == 1 else LATER_SECONDS)
        wall, cpu = time.perf_counter(), time.process_time()
        plan = plan_evening(
            ids,
            history,
            rounds,
            sessions - number + 1,
            random.Random(seed * 1000 + number),
            budget=budget,
            stop_at=bound,
            start=rest,
            clock=clock,
        )
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        rest = plan.sessions[1:]
        history = history_after(history, plan.sessions[0])
    return evening_repeats(history, []), today, walls, cpus


def plan_versus_today(
    players: int,
    evenings: int,
    sessions: int = 3,
    rounds: int = 4,
    clock=time.perf_counter,
    first_seed: int = 0,
    jobs: int = 1,
) -> dict:
    """Repeated opponents of ``evenings`` evenings drawn by the planner and by today's
    session-by-session draw (:func:`_plan_one_evening`, seeds ``first_seed`` on), and the times per
    draw (wall clock and CPU); ``jobs`` processes share the evenings."""
    work = partial(_plan_one_evening, players, sessions=sessions, rounds=rounds, clock=clock)
    seeds = range(first_seed, first_seed + evenings)
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            results = pool.map(work, seeds, chunksize=1)
    else:
        results = [work(seed) for seed in seeds]
    return {
        "bound": opponent_repeat_lower_bound(players, sessions, rounds),
        "planned": [r[0] for r in results],
        "today": [r[1] for r in results],
        "first": [r[2][0] for r in results],
        "later": [t for r in results for t in r[2][1:]],
        "first_cpu": [r[3][0] for r in results],
        "later_cpu": [t for r in results for t in r[3][1:]],
    }


def _spread(values: list) -> str:
    return f"{statistics.mean(values):.1f} ({min(values)}-{max(values)})"


def print_plan_versus_today(
    evenings: int, fields=PLAN_FIELDS, clock=time.perf_counter, first_seed: int = 0, jobs: int = 1
) -> None:
    for players in fields:
        r = plan_versus_today(players, evenings, clock=clock, first_seed=first_seed, jobs=jobs)
        print(
            f"{players} players, 3 sessions x 4 rounds, {evenings} evenings: repeated opponents "
            f"planned {_spread(r['planned'])}, today's draw {_spread(r['today'])}, bound {r['bound']}, "
            f"stored plan {stored_repeats(players)}; "
            f"first draw {statistics.mean(r['first']):.2f} s (slowest {max(r['first']):.2f} s, "
            f"CPU {statistics.mean(r['first_cpu']):.2f} s), later draws {statistics.mean(r['later']):.2f} s "
            f"(slowest {max(r['later']):.2f} s, CPU {statistics.mean(r['later_cpu']):.2f} s)",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--evenings", type=int, default=200)
    parser.add_argument(
        "--plan-evenings", type=int, default=int(os.environ.get("BENCH_DRAW_EVENINGS", "200")), metavar="N"
    )
    parser.add_argument("--plan-only", action="store_true", help="only the planner against today's draw")
    parser.add_argument("--players", type=int, nargs="*", default=PLAN_FIELDS, help="field sizes of the planner")
    parser.add_argument(
        "--cpu-clock",
        action="store_true",
        help="time budgets in CPU seconds of the process (what an idle machine gives on a shared, busy one)",
    )
    parser.add_argument("--first-seed", type=int, default=0, help="seed of the planner's first evening")
    parser.add_argument(
        "--jobs", type=int, default=1, metavar="N", help="processes sharing the planner's evenings (default 1)"
    )
    args = parser.parse_args()
    clock = time.process_time if args.cpu_clock else time.perf_counter
    if args.plan_only:
        print_plan_versus_today(args.plan_evenings, args.players, clock, args.first_seed, args.jobs)
        return
    for players, repeat in ((24, 5), (60, 5), (200, 3), (1000, 3)):
        median, worst = time_third_session(players, repeat)
        print(
            f"draw of one session (third of the evening), {players} players: "
            f"{median:.3f} s (slowest of {repeat}: {worst:.3f} s)"
        )
    for players, repeat in ((26, 5), (31, 5), (120, 3), (300, 3)):
        median, worst = time_third_session(players, repeat, draw=draw_session_threes)
        print(
            f"six-handed Bräus, draw of one session in teams of three (third of the evening), {players} players: "
            f"{median:.3f} s (slowest of {repeat}: {worst:.3f} s)"
        )
    result = simulate(args.evenings)
    n = args.evenings
    print(
        f"26 players, 3 sessions x 4 rounds, {n} evenings: repeated opponents per player: "
        f"{result['repeats']:.2f} on average (worst evening {result['worst']:.2f})"
    )
    print(
        f"26 players, 3 sessions x 4 rounds: lower bound per player: {result['bound']:.2f} a priori, "
        f"{result['bound_drawn']:.2f} for the partnerships and sit-outs drawn"
    )
    print(
        f"26 players, 3 sessions x 4 rounds: evenings with a pair meeting 3 times or more: "
        f"{result['triples']} of {n}; with a repeated partner: {result['partner_repeats']} of {n}"
    )
    print_plan_versus_today(args.plan_evenings, args.players, clock, jobs=args.jobs)


if __name__ == "__main__":
    main()
