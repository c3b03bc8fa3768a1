"""Read operations that feed pages, cut by feature; each runs a fixed number of queries, whatever
the number of players (annotate and prefetch, no query per row).

Every public name is re-exported here, so callers write ``from scoring import selectors`` and
``selectors.evening_ranking(...)``; the code lives in the feature modules:

- :mod:`.history`: the one loader of an evening's history (tables, partners, sit-outs), used by
  the ranking, the fairness report and the draw
- :mod:`.players`: the register, search, the alphabetical order, names shown
- :mod:`.evenings`: sessions with rounds, check-in counts, wishes for the draw, session changes
- :mod:`.ranking`: the individual ranking, whether the evening is complete, every deal
- :mod:`.fairness`: the fairness report of the draw
- :mod:`.table_entry`: the table's tablet page
- :mod:`.room`: live dashboard, round being played, where a player sits
"""

from __future__ import annotations

from scoring.selectors.evenings import (
    DrawWishes,
    SessionChanges,
    checked_in_count,
    draw_wishes,
    evening_progress,
    latest_session,
    session_changes,
    session_players,
    sessions_with_rounds,
)
from scoring.selectors.fairness import FairnessReport, FairnessRow, evening_fairness, played_rounds
from scoring.selectors.history import EveningHistory, RoundHistory, TableHistory, evening_history
from scoring.selectors.players import (
    PARTNERSHIP_PLAYERS,
    alphabetical,
    by_name,
    evening_display_names,
    known_match_keys,
    search_players,
)
from scoring.selectors.ranking import RankingRow, evening_deals, evening_is_confirmed, evening_ranking
from scoring.selectors.room import (
    CONFIRMED,
    ENTERED,
    IN_PROGRESS,
    NOT_STARTED,
    LiveCell,
    LiveGrid,
    PlayerSeats,
    PlayingNow,
    Seat,
    live_grid,
    player_seats,
    playing_now,
    seating_state,
)
from scoring.selectors.table_entry import NextSeat, ScorerState, next_seats, scorer_state

__all__ = [
    "EveningHistory",
    "RoundHistory",
    "TableHistory",
    "evening_history",
    "sessions_with_rounds",
    "evening_progress",
    "checked_in_count",
    "latest_session",
    "session_players",
    "DrawWishes",
    "draw_wishes",
    "SessionChanges",
    "session_changes",
    "FairnessRow",
    "FairnessReport",
    "played_rounds",
    "evening_fairness",
    "PARTNERSHIP_PLAYERS",
    "search_players",
    "by_name",
    "known_match_keys",
    "evening_display_names",
    "alphabetical",
    "RankingRow",
    "evening_ranking",
    "evening_is_confirmed",
    "evening_deals",
    "NOT_STARTED",
    "IN_PROGRESS",
    "ENTERED",
    "CONFIRMED",
    "seating_state",
    "LiveCell",
    "LiveGrid",
    "live_grid",
    "PlayingNow",
    "playing_now",
    "Seat",
    "PlayerSeats",
    "player_seats",
    "NextSeat",
    "ScorerState",
    "scorer_state",
    "next_seats",
]
