"""Write operations of Bruus Turnier, one transaction each, cut by feature.

Views call these functions and nothing else to change data. Bad input raises
:class:`~scoring.domain.errors.DomainError` (or a subclass) whose message the view translates;
because each service runs in one transaction, an error saves nothing half.

Every public name is re-exported here, so callers write ``from scoring import services`` and
``services.draw_session(...)``; the code lives in the feature modules:

- :mod:`.players`: the register and the import
- :mod:`.evenings`: evenings, check-in, wishes for the draw, the organiser's controls
- :mod:`.check_in`: many players checked in at once (everyone, as at the last evening), and undone
- :mod:`.draw`: drawing a session, drawing it again
- :mod:`.session_changes`: swapping and replacing players in a drawn session
- :mod:`.deals`: entering and correcting deals
- :mod:`.confirmation`: finishing and confirming a round
- :mod:`.seasons`: seasons and their evenings
- :mod:`.player_merge`: merging two register entries of the same person
- :mod:`.tiebreaks`: the evening's tie-break chain
- :mod:`.clock`: the round clock (lengths, buttons, settling it at zero)
- :mod:`.projector`: what the projector shows
- :mod:`.base`: ``ServiceError`` and small shared helpers
"""

from __future__ import annotations

from scoring.domain.rules import TEAMS, DealResult
from scoring.hall.origin import Origin
from scoring.services.base import ServiceError
from scoring.services.check_in import check_in_everyone, check_in_like_last_evening, undo_check_in
from scoring.services.clock import (
    extend_round_clock,
    pause_round_clock,
    restart_round_clock,
    resume_round_clock,
    set_clock_lengths,
    settle_due_clock,
    settle_round_clock,
    start_break_clock,
    start_round_clock,
    stop_round_clock,
)
from scoring.services.confirmation import (
    confirm_seating,
    enter_and_confirm_seating,
    mark_seating_entered,
    reopen_seating,
)
from scoring.services.deals import ConflictError, enter_deal, record_draw
from scoring.services.draw import (
    SessionStartedError,
    check_next_session_drawable,
    draw_session,
    redraw_session,
)
from scoring.services.evenings import (
    add_partner_exclusion,
    create_evening,
    regenerate_table_link,
    remove_partner_exclusion,
    set_checked_in,
    set_evening_language,
    set_evening_rule_set,
    set_mix_clubs,
    set_ranking_hidden,
    set_round_locked,
    set_session_closed,
    set_stand_in,
)
from scoring.services.housekeeping import delete_evening, rename_evening, set_evening_archived
from scoring.services.player_merge import merge_players
from scoring.services.players import ImportOutcome, add_player, import_players, update_player
from scoring.services.projector import set_projector_mode
from scoring.services.seasons import add_evening_to_season, save_season
from scoring.services.session_changes import SwapOutcome, replace_player, swap_players
from scoring.services.tiebreaks import set_evening_tiebreaks

__all__ = [
    "set_clock_lengths",
    "start_round_clock",
    "start_break_clock",
    "pause_round_clock",
    "resume_round_clock",
    "extend_round_clock",
    "restart_round_clock",
    "stop_round_clock",
    "settle_round_clock",
    "settle_due_clock",
    "DealResult",
    "Origin",
    "ServiceError",
    "mark_seating_entered",
    "reopen_seating",
    "confirm_seating",
    "enter_and_confirm_seating",
    "ConflictError",
    "TEAMS",
    "enter_deal",
    "record_draw",
    "SessionStartedError",
    "check_next_session_drawable",
    "draw_session",
    "redraw_session",
    "create_evening",
    "set_checked_in",
    "check_in_everyone",
    "check_in_like_last_evening",
    "undo_check_in",
    "set_stand_in",
    "set_mix_clubs",
    "add_partner_exclusion",
    "remove_partner_exclusion",
    "regenerate_table_link",
    "set_round_locked",
    "rename_evening",
    "set_evening_archived",
    "delete_evening",
    "set_session_closed",
    "set_ranking_hidden",
    "set_evening_language",
    "set_evening_rule_set",
    "add_player",
    "update_player",
    "ImportOutcome",
    "import_players",
    "SwapOutcome",
    "swap_players",
    "replace_player",
    "save_season",
    "add_evening_to_season",
    "set_evening_tiebreaks",
    "set_projector_mode",
    "merge_players",
]
