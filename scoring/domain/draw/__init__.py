"""The draw of one session (Durchgang): partnerships, sit-outs and the tables of every round.

Two draws: teams of two (:func:`draw_session`, the rules and how they are met in
:mod:`scoring.domain.draw.pairs`) and teams of three for six-handed Bräus
(:func:`draw_session_threes`, :mod:`scoring.domain.draw.threes`). What they share, a module
each:

- :mod:`~scoring.domain.draw.input`: the players, the evening so far (:class:`History`), the
  wishes; checked (:class:`DrawError`) and turned into player indices;
- :mod:`~scoring.domain.draw.formation`: the sit-out rotation and the numbered teams of a
  session;
- :mod:`~scoring.domain.draw.matching`: minimum-cost perfect matching (networkx, or a local
  search for many players);
- :mod:`~scoring.domain.draw.schedule`: the tables of every round (opponents);
- :mod:`~scoring.domain.draw.evening`: the evening plan (:func:`plan_evening`): the sessions
  left planned together for few repeated opponents, starting from the session-by-session draw;
  its search (the plan's state, moves and annealing) in :mod:`~scoring.domain.draw.annealing`;
- :mod:`~scoring.domain.draw.result`: the draw (:class:`SessionDraw`) and the evening's history
  after it (:func:`history_after`).

Both draws are seeded: all randomness comes from the ``random.Random`` passed in, so a stored
seed reproduces a draw exactly. Pure Python and networkx: no Django import.
"""

from scoring.domain.draw.evening import (
    EveningPlan,
    PlanBudget,
    evening_repeats,
    plan_evening,
    plan_fits,
    plan_from_json,
    plan_to_json,
)
from scoring.domain.draw.input import DrawError, History
from scoring.domain.draw.matching import EXACT_MATCHING_MAX_NODES
from scoring.domain.draw.pairs import draw_session
from scoring.domain.draw.result import RoundDraw, SessionDraw, TableDraw, history_after, pairs_within
from scoring.domain.draw.threes import draw_session_threes

__all__ = [
    "EXACT_MATCHING_MAX_NODES",
    "DrawError",
    "EveningPlan",
    "History",
    "PlanBudget",
    "RoundDraw",
    "SessionDraw",
    "TableDraw",
    "draw_session",
    "draw_session_threes",
    "evening_repeats",
    "history_after",
    "pairs_within",
    "plan_evening",
    "plan_fits",
    "plan_from_json",
    "plan_to_json",
]
