"""Read operations that feed pages, cut by feature; each runs a fixed number of queries, whatever
the number of players (annotate and prefetch, no query per row).

Every public name is re-exported here, so callers write ``from scoring import selectors`` and
``selectors.evening_ranking(...)``; the code lives in the feature modules:

- :mod:`.history`: the one loader of an evening's history (tables, partners, sit-outs, every
  player's :class:`Seat` per round), used by the ranking, the fairness report, the draw, the
  printed documents and the seat finder
- :mod:`.player_history`: a register player's evenings (player page)
- :mod:`.players`: the register, search, the alphabetical order, names shown, the import preview
- :mod:`.evenings`: sessions with rounds, check-in counts, wishes for the draw, session changes
- :mod:`.ranking`: the individual ranking, whether the evening is complete, every deal
- :mod:`.fairness`: the fairness report of the draw
- :mod:`.season`: the season ranking across evenings
- :mod:`.table_entry`: the table's tablet page, the organiser's page of one table in one round
- :mod:`.room`: live dashboard, round being played, where a player sits
- :mod:`.projector`: the seating of the next round for the projector
- :mod:`.tablets`: the evenings being played, the table a typed table code opens
- :mod:`.clock`: the round clock as the screens show it, the live overview's clock panel
"""

from __future__ import annotations

from scoring.selectors.clock import ClockPanel, RoundClock, clock_panel, round_clock
from scoring.selectors.evenings import (
    DrawWishes,
    EveningContents,
    SessionChanges,
    checked_in_count,
    draw_wishes,
    evening_contents,
    evening_has_deals,
    evening_progress,
    latest_session,
    next_session_blocker,
    session_changes,
    session_is_confirmed,
    session_players,
    sessions_with_rounds,
    tables_not_started,
)
from scoring.selectors.fairness import FairnessReport, FairnessRow, evening_fairness, played_rounds
from scoring.selectors.history import (
    EveningHistory,
    RoundHistory,
    Seat,
    TableHistory,
    evening_histories,
    evening_history,
)
from scoring.selectors.player_history import PlayedEvening, PlayerHistory, player_evening_ids, player_history
from scoring.selectors.player_merge import MergePreview, merge_preview
from scoring.selectors.players import (
    PARTNERSHIP_PLAYERS,
    ImportPreview,
    alphabetical,
    by_name,
    evening_display_names,
    import_preview,
    known_match_keys,
    search_players,
)
from scoring.selectors.projector import ProjectorSeating, SeatingTable, projector_seating
from scoring.selectors.ranking import (
    PlayedFigures,
    RankingRow,
    evening_chain,
    evening_deals,
    evening_is_confirmed,
    evening_ranking,
    evening_rankings,
    tiebreak_columns,
    tiebreak_values,
)
from scoring.selectors.room import (
    CONFIRMED,
    ENTERED,
    IN_PROGRESS,
    NOT_STARTED,
    LiveCell,
    LiveGrid,
    PlayerSeats,
    PlayingNow,
    live_grid,
    player_seats,
    playing_now,
    seating_state,
    session_seats,
)
from scoring.selectors.season import (
    SeasonColumn,
    SeasonRanking,
    season_chain,
    season_evenings,
    season_ranking,
    season_rules,
)
from scoring.selectors.table_entry import (
    DealRow,
    NextSeat,
    ScorerState,
    SeatingSheet,
    SheetRow,
    current_seating,
    matchsticks,
    next_seats,
    scorer_state,
    seating_sheet,
    table_signature,
)
from scoring.selectors.tablets import evenings_being_played, evenings_being_played_count, table_for_code

__all__ = [
    "MergePreview",
    "current_seating",
    "merge_preview",
    "next_session_blocker",
    "session_is_confirmed",
    "ClockPanel",
    "RoundClock",
    "clock_panel",
    "round_clock",
    "EveningHistory",
    "RoundHistory",
    "TableHistory",
    "evening_history",
    "evening_histories",
    "SeasonColumn",
    "SeasonRanking",
    "season_evenings",
    "season_chain",
    "season_ranking",
    "season_rules",
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
    "ImportPreview",
    "import_preview",
    "evening_display_names",
    "alphabetical",
    "PlayedEvening",
    "PlayerHistory",
    "player_history",
    "player_evening_ids",
    "RankingRow",
    "evening_ranking",
    "evening_rankings",
    "evening_chain",
    "PlayedFigures",
    "tiebreak_values",
    "tiebreak_columns",
    "evening_is_confirmed",
    "evening_has_deals",
    "EveningContents",
    "evening_contents",
    "tables_not_started",
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
    "ProjectorSeating",
    "SeatingTable",
    "projector_seating",
    "Seat",
    "PlayerSeats",
    "player_seats",
    "session_seats",
    "NextSeat",
    "ScorerState",
    "scorer_state",
    "table_signature",
    "next_seats",
    "matchsticks",
    "DealRow",
    "SheetRow",
    "SeatingSheet",
    "seating_sheet",
    "evenings_being_played",
    "evenings_being_played_count",
    "table_for_code",
]
