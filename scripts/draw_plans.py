"""Compute the stored evening plans (``scoring/domain/draw/stored_plans.json``).

Run: ``make draw-plans`` (every field size, a few minutes a size) or
``.venv/bin/python scripts/draw_plans.py --players 26 --iterations 200000 --out var/plans.json``.

For each field size the evening planner (:func:`scoring.domain.draw.plan_evening`) plans a
whole evening of the default format (3 sessions of 4 rounds, teams of two) from an empty history
with a long budget: ``--iterations`` moves (the clock is not looked at, so the same command
writes the same file), for ``--seeds`` seeds; the plan with the fewest repeated opponents is
kept, and only if it has fewer than the plan already in the file. The players are numbered
0 to n-1; the app relabels them at random (:mod:`scoring.domain.draw.stored`).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scoring.domain.draw import History, PlanBudget, plan_evening, plan_to_json  # noqa: E402
from scoring.domain.draw.stored import PLANS_FILE, ROUNDS, SESSIONS, TEAM_SIZE  # noqa: E402
from scoring.domain.fairness import opponent_repeat_lower_bound  # noqa: E402


def _plan(args: tuple[int, int, int]) -> tuple[int, int, list]:
    """(players, repeats, plan) of one long search from an empty history."""
    players, seed, iterations = args
    plan = plan_evening(
        list(range(players)),
        History(),
        ROUNDS,
        SESSIONS,
        random.Random(seed),
        budget=PlanBudget(seconds=float("inf"), iterations=iterations),
        stop_at=opponent_repeat_lower_bound(players, SESSIONS, ROUNDS, TEAM_SIZE),
    )
    return players, plan.repeats, plan_to_json(plan.sessions)


def _sizes(text: str) -> list[int]:
    """``"26"``, ``"8-40"`` or ``"26,22,8-40"``: the field sizes, each once, in that order."""
    sizes: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        sizes += [n for n in range(int(low), int(high or low) + 1) if n not in sizes]
    return sizes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=_sizes, default=_sizes("8-40"), help="a size or a range, e.g. 8-40")
    parser.add_argument("--iterations", type=int, default=12_000_000, help="moves of each search")
    parser.add_argument("--seeds", type=int, default=1, help="searches per size (the best is kept)")
    parser.add_argument("--jobs", type=int, default=2, help="processes")
    parser.add_argument("--out", type=Path, default=PLANS_FILE, help="the file to write (and to improve on)")
    args = parser.parse_args(argv)
    stored = json.loads(args.out.read_text()) if args.out.exists() else {}
    plans = stored.get("plans", {})
    work = [(n, seed, args.iterations) for n in args.players for seed in range(args.seeds)]
    with multiprocessing.Pool(max(1, args.jobs)) as pool:
        for players, repeats, sessions in pool.imap_unordered(_plan, work):
            kept = plans.get(str(players))
            better = kept is None or repeats < kept["repeats"]
            print(f"{players} players: {repeats} repeated opponents" + (" (kept)" if better else ""), flush=True)
            if better:
                plans[str(players)] = {"repeats": repeats, "sessions": sessions}
                document = {
                    "rounds": ROUNDS,
                    "sessions": SESSIONS,
                    "team_size": TEAM_SIZE,
                    "plans": dict(sorted(plans.items(), key=lambda item: int(item[0]))),
                }
                args.out.parent.mkdir(parents=True, exist_ok=True)
                args.out.write_text(json.dumps(document, separators=(",", ":")) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
