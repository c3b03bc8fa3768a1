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
  meet three times or more, and a repeated partner.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scoring.domain.draw import History, draw_session, draw_session_threes, history_after  # noqa: E402
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--evenings", type=int, default=200)
    args = parser.parse_args()
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


if __name__ == "__main__":
    main()
