"""Stored evening plans: a start for the first draw of an evening, as a club's movement table.

Planning a whole evening well takes more search than a draw may spend (see
:mod:`scoring.domain.draw.evening`): a search of 12,000,000 moves (over a minute) found plans
with 15 repeated opponents at 22 players and 6 at 26, where the draws' own search (4.5 s, then
1.8 s twice) ends near 22 and 10 (docs/performance.md, "The evening plan"). But the first draw of an evening, before
anybody has played, depends only on the number of players: who is who does not matter yet. So
the plans for the default format (3 sessions of 4 rounds, teams of two) are computed once, with a
long search (``scripts/draw_plans.py``, ``make draw-plans``), and kept in
``stored_plans.json`` beside this module, players numbered 0 to n-1, as bridge clubs keep their
movements.

:func:`stored_start` gives the first draw that plan with the players shuffled by the draw's own
random source: every evening is a different evening, with the quality of the stored plan. The
planner then checks it like any other start (:func:`scoring.domain.draw.evening.plan_fits`:
no forbidden pair as partners, the sit-out rotation) and searches on from the cheapest start;
"mix clubs" is weighed by the search as always.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

from scoring.domain.draw.input import PlayerId
from scoring.domain.draw.result import SessionDraw

__all__ = ["PLANS_FILE", "ROUNDS", "SESSIONS", "SHUFFLES", "TEAM_SIZE", "stored_repeats", "stored_start"]

#: The file of the stored plans: ``{"rounds", "sessions", "team_size", "plans": {"<players>":
#: {"repeats": int, "sessions": [...]}}}``, the sessions as :func:`scoring.domain.draw.plan_to_json`.
PLANS_FILE = Path(__file__).with_name("stored_plans.json")
#: The format the stored plans are for: the Schwesing evening (docs/rules.md).
ROUNDS = 4
SESSIONS = 3
TEAM_SIZE = 2
#: Shuffles of the players tried before the stored plan is given up (wishes that the shuffle
#: breaks: with 13 pairs of 26 players who may not be partners about one shuffle in five fits).
SHUFFLES = 100


@cache
def _plans() -> dict[int, tuple[int, list]]:
    """The stored plans by number of players: (repeated opponents, sessions as JSON data)."""
    try:
        document = json.loads(PLANS_FILE.read_text(encoding="utf-8"))
        if (document["rounds"], document["sessions"], document["team_size"]) != (ROUNDS, SESSIONS, TEAM_SIZE):
            return {}
        return {int(n): (int(item["repeats"]), item["sessions"]) for n, item in document["plans"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def stored_repeats(players: int) -> int | None:
    """Repeated opponents of the stored plan for ``players`` players, or None without one."""
    found = _plans().get(players)
    return None if found is None else found[0]


def stored_start(
    players: Sequence[PlayerId],
    rounds: int,
    sessions: int,
    team_size: int,
    rng: random.Random,
    fits: Callable[[list[SessionDraw]], bool] = lambda draws: True,
) -> list[SessionDraw]:
    """The stored plan of an evening of ``players`` with the players shuffled by ``rng``, or ``[]``
    where none is stored (another format, another field size) or the file cannot be read.

    Only for a whole evening not yet begun: ``sessions`` must be the format's sessions and nobody
    may have played. ``fits`` is the caller's check of a shuffled plan (the wishes "not
    together", stand-ins sitting out first: :func:`~scoring.domain.draw.evening.plan_fits`); up to
    :data:`SHUFFLES` shuffles are tried, and ``[]`` is returned when none fits.
    """
    from scoring.domain.draw.evening import plan_from_json  # evening imports this module

    found = _plans().get(len(players))
    if found is None or (rounds, sessions, team_size) != (ROUNDS, SESSIONS, TEAM_SIZE):
        return []
    draws = plan_from_json(found[1])
    shuffled = list(players)
    for _ in range(SHUFFLES):
        rng.shuffle(shuffled)
        try:
            plan = [_relabelled(draw, shuffled) for draw in draws]
        except (IndexError, TypeError):  # a damaged file: players it does not have
            return []
        if plan and fits(plan):
            return plan
    return []


def _relabelled(draw: SessionDraw, ids: Sequence[PlayerId]) -> SessionDraw:
    """``draw`` with player ``i`` replaced by ``ids[i]`` (teams in the order of the plan)."""
    return SessionDraw(
        partnerships=tuple(tuple(sorted(ids[p] for p in team)) for team in draw.partnerships),
        sitout_players=tuple(sorted(ids[p] for p in draw.sitout_players)),
        rounds=draw.rounds,
    )
